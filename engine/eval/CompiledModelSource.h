#pragma once

#include "engine/integrate/Intersample.h"
#include "engine/model/ModelParameter.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sysid::model {
struct Model;
}

namespace sysid::eval {

class NativeCode;

// The nonzero entries of a derivative array, as muParser expressions.
struct SparseExpressions {
    struct Entry {
        std::size_t row, column, depth;  // depth: third index of second derivatives, else 0
    };
    std::vector<Entry> entries;
    std::vector<std::string> expressions;
};

// Functions of [t, x, p, u, m] with their first derivatives (row: function; column: the state x_j,
// the parameter p_l, or (t, u_r) with column 0 for t and 1 + r for input r).
struct FunctionsWithGradients {
    std::vector<std::string> values;
    SparseExpressions state, parameter, timeInput;
};

// The switches of the right-hand side (SwitchedForm): the switching functions g_i and f held on
// modes m_i (variables after the inputs), with the derivatives integration needs. The Jacobians
// have the entry patterns of the model's own (rhsStateJacobian ...), so a solver's sparsity holds
// on either form. Empty when f has no switch.
struct SwitchSource {
    std::vector<std::string> written;  // "sign(q')" as in the model, for messages
    FunctionsWithGradients functions;  // g_i
    std::vector<std::string> rhs;  // f on the modes
    SparseExpressions rhsStateJacobian, rhsParamJacobian, rhsTimeInputJacobian, rhsStateHessian, rhsMixedHessian;
    SparseExpressions rhsModeJacobian;  // df_i/dm_j
    // L_i = dg_i/dx f + dg_i/dt on the modes: the rate of g_i along the flow, inputs held (their
    // slopes enter through functions.timeInput); with dL/dm the sliding modes (Filippov).
    FunctionsWithGradients lie;
    SparseExpressions lieMode;
    std::size_t size() const { return functions.values.size(); }
};

// A compiled `when` reset (model::Event), in the variables of the switched form.
struct EventSource {
    std::string text;  // "when x < 0", for messages
    int line = 0;
    int direction = -1;  // -1: fires when the condition function falls through zero, +1 when it rises
    FunctionsWithGradients condition;  // one function: g = lhs - rhs
    std::vector<std::size_t> states;  // the states assigned
    FunctionsWithGradients values;  // their new values (row k: states[k])
};

// The constraints of a DAE model (model::Model::constraints). Its algebraic variables are the last
// `algebraic` states, and their rhs entries are the residuals of the index-1 equations (0 = rhs).
// The invariants are the hidden constraints the solution keeps: the constraints and their time
// derivatives below the index-1 level, functions of [t, x, p, u] without algebraic variables.
struct ConstraintSource {
    std::size_t algebraic = 0;
    int index = 0;  // the differentiation index of the model
    FunctionsWithGradients invariants;
    struct Invariant {
        std::string text;  // the constraint as written
        std::string place;  // "line 7", "line 8 of bar.model"
        std::size_t level = 0;  // 0: the constraint itself, k: its k-th time derivative
    };
    std::vector<Invariant> invariantInfo;
    // Baumgarte (1972): the index-1 equation of algebraic row `row` (a state index) stabilised as
    // G^(k) + 2 alpha G^(k-1) + beta^2 G^(k-2); first and second index the invariants (-1: none).
    struct Stabilised {
        std::size_t row = 0;
        int first = -1, second = -1;
    };
    std::vector<Stabilised> stabilised;
    std::vector<char> heldInitial;  // per state: the user's initial value, kept by consistent initialisation
    bool empty() const { return algebraic == 0; }
};

// Everything needed to evaluate a model, derived once from the symbolic Model and held as
// plain strings so it can be shared between threads (GiNaC objects cannot be).
// Variables are named v0.. in the order [t, x(0..n-1), p(0..np-1), u(0..nu-1), m(0..ns-1)]; the
// modes m of the switches appear only in `switches` and `events`.
struct CompiledModelSource {
    std::vector<std::string> stateNames, parameterNames, inputNames, outputNames;
    std::vector<std::string> outputUnits;  // the model's `unit` of each output (model::Output::unit); empty: none
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
    SwitchSource switches;
    std::vector<EventSource> events;
    ConstraintSource constraints;
    // The model as machine code, once built (requestNativeCode); shared by every evaluator.
    std::shared_ptr<NativeCode> native;
    // The model's name in the cache of compiled models (CompiledModelCache::name) when it came
    // through that cache, else empty: the native code is then found without writing the model as C.
    std::string cacheName;

    std::size_t stateCount() const { return stateNames.size(); }
    std::size_t parameterCount() const { return parameterNames.size(); }
    std::size_t inputCount() const { return inputNames.size(); }
    std::size_t outputCount() const { return outputNames.size(); }
    std::size_t switchCount() const { return switches.size(); }
    // Switches or resets: the integrator locates their events.
    bool hasDiscontinuities() const { return switchCount() > 0 || !events.empty(); }
    // Algebraic variables (constraints): a DAE, which only the implicit integrators take.
    bool isDae() const { return !constraints.empty(); }
};

// Empty, or why `method` cannot run this model: it evaluates f without integrating it, and the
// model's algebraic variables (constraints) need the integrator's consistent values.
std::string constraintRefusal(const CompiledModelSource& model, const std::string& method);

// Empty, or why `method` cannot run this model: it evaluates f without integrating it, so it
// cannot apply the state resets of `when` ("multistep equation error cannot apply the reset of
// 'when x < 0' (line 4): ...").
std::string resetRefusal(const CompiledModelSource& model, const std::string& method);

struct CompileOptions {
    // The second derivatives (rhsStateHessian, rhsMixedHessian, rhsParamHessian) serve only
    // rosenbrock4 with sensitivities (integrate::sensitivitiesNeedSecondDerivatives) and the
    // equation-error estimators (estimate::needsSecondDerivatives). Their differentiation and
    // code are a third of compiling a small model and the costliest part of a large one, so the
    // jobs ask for them only when their run evaluates them; the default keeps them for callers
    // that do not say.
    bool secondDerivatives = true;
};

// Throws core::InternalError, naming `user` (what evaluates them), when `model` was compiled without
// its second derivatives: never a silently empty Hessian.
void requireSecondDerivatives(const CompiledModelSource& model, std::string_view user);

// Differentiates the model symbolically and prints every expression for muParser.
std::shared_ptr<const CompiledModelSource> compileModel(const model::Model& model, CompileOptions options = {});

}  // namespace sysid::eval
