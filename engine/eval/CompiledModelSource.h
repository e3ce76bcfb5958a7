#pragma once

#include "engine/model/Model.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sysid::eval {

// The nonzero entries of a derivative array, as muParser expressions.
struct SparseExpressions {
    struct Entry {
        std::size_t row, column, depth;  // depth: third index of second derivatives, else 0
    };
    std::vector<Entry> entries;
    std::vector<std::string> expressions;
};

// Everything needed to evaluate a model, derived once from the symbolic Model and held as
// plain strings so it can be shared between threads (GiNaC objects cannot be).
// Variables are named v0.. in the order [t, x(0..n-1), p(0..np-1), u(0..nu-1)].
struct CompiledModelSource {
    std::vector<std::string> stateNames, parameterNames, inputNames, outputNames;
    std::map<std::string, integrate::Intersample> declaredIntersample;  // input u hold (Model::declaredIntersample)
    std::vector<double> parameterValues;
    std::vector<model::Parameter> parameters;  // names, values, bounds, fixed, initial-value flags
    std::vector<std::string> rhs;  // f, n entries
    SparseExpressions rhsStateJacobian;  // df/dx (row i, column j)
    SparseExpressions rhsParamJacobian;  // df/dp
    SparseExpressions rhsTimeInputJacobian;  // df/d(t, u): column 0 is t, column 1+r is input r
    // Second derivatives for the Jacobian of the state+sensitivity system (Rosenbrock):
    // depth k runs over [x(0..n-1), t, u(0..nu-1)].
    SparseExpressions rhsStateHessian;  // d2f_i/dx_j dz_k (row i, column j, depth k)
    SparseExpressions rhsMixedHessian;  // d2f_i/dp_l dz_k (row i, column l, depth k)
    // d2f_i/dp_l dp_m for l <= m (row i, column l, depth m): the equation-error estimators'
    // Newton-Raphson Hessian.
    SparseExpressions rhsParamHessian;
    bool hasSecondDerivatives = true;  // false: the three above are empty (CompileOptions)
    std::vector<std::string> outputs;  // g
    // Per output: the index of the state it is identically equal to, or -1 (a measured state,
    // which the equation-error estimators substitute into the integration formula).
    std::vector<int> outputState;
    SparseExpressions outputStateJacobian;
    SparseExpressions outputParamJacobian;
    std::vector<std::string> initialState;  // x0(p), only parameters may appear
    SparseExpressions initialStateJacobian;  // dx0/dp
    std::vector<model::FieldLayout> fields;  // PDE fields: which states hold which nodes (for messages)

    std::size_t stateCount() const { return stateNames.size(); }
    std::size_t parameterCount() const { return parameterNames.size(); }
    std::size_t inputCount() const { return inputNames.size(); }
    std::size_t outputCount() const { return outputNames.size(); }
};

struct CompileOptions {
    // The second derivatives serve Rosenbrock integration with sensitivities and the
    // equation-error estimators; their differentiation is the costliest part of compiling a
    // large model (optimal estimation's Hamiltonian system), so a user that needs none skips it.
    bool secondDerivatives = true;
};

// Differentiates the model symbolically and prints every expression for muParser.
std::shared_ptr<const CompiledModelSource> compileModel(const model::Model& model, CompileOptions options = {});

}  // namespace sysid::eval
