#pragma once

#include "engine/eval/CompiledModelSource.h"
#include "engine/eval/ExpressionList.h"

#include <array>
#include <memory>
#include <span>
#include <vector>

namespace sysid::eval {

// Fast numeric evaluation of a model and its derivatives at one point (t, x, u) with the
// current parameters. Dense outputs are column-major. One instance per thread; copying
// recompiles from the shared source.
class CompiledModel {
public:
    explicit CompiledModel(std::shared_ptr<const CompiledModelSource> source);
    CompiledModel(const CompiledModel& other);
    CompiledModel& operator=(const CompiledModel&) = delete;

    const CompiledModelSource& source() const { return *source_; }
    std::size_t stateCount() const { return source_->stateCount(); }
    std::size_t parameterCount() const { return source_->parameterCount(); }
    std::size_t inputCount() const { return source_->inputCount(); }
    std::size_t outputCount() const { return source_->outputCount(); }

    void setParameters(std::span<const double> values);
    std::span<const double> parameters() const;

    // Sets t, x and u for the evaluations below.
    void setPoint(double t, const double* x, const double* u);

    void rhs(double* dx) const;  // n
    void stateJacobian(double* J) const;  // n x n
    void parameterJacobian(double* J) const;  // n x np
    void timeInputJacobian(double* J) const;  // n x (1 + nu)
    // The same values from one fused program (one muParser call instead of two or three): the
    // integrators with variational or sensitivity equations need them together at every step.
    void rhsAndStateJacobian(double* dx, double* J) const;  // n, n x n
    void rhsAndJacobians(double* dx, double* Jx, double* Jp) const;  // n, n x n, n x np
    // The same fused call with the Jacobians as nonzero values (source() entry order): large
    // sparse models (method of lines) cannot afford the dense n x n and n x np forms.
    void rhsAndJacobianValues(double* dx, double* jxValues, double* jpValues) const;
    void outputs(double* y) const;  // ny
    void outputStateJacobian(double* J) const;  // ny x n
    void outputParameterJacobian(double* J) const;  // ny x np

    // Nonzero second derivatives, values in the order of source().rhsStateHessian.entries.
    void stateHessianValues(double* values) const;
    void mixedHessianValues(double* values) const;

    void initialState(double* x0) const;  // depends on parameters only
    void initialStateJacobian(double* J) const;  // n x np

private:
    // The programs, each compiled on its first use: a run needs a few of them, and model copies
    // (one per worker thread) are then cheap.
    enum Program : std::size_t {
        Rhs,
        StateJacobian,
        ParameterJacobian,
        TimeInputJacobian,
        StateHessian,
        MixedHessian,
        RhsWithStateJacobian,
        RhsWithJacobians,
        Outputs,
        OutputStateJacobian,
        OutputParameterJacobian,
        Initial,
        InitialJacobian,
        ProgramCount
    };
    const ExpressionList& program(Program which) const
    {
        const auto& slot = programs_[which];
        return slot ? *slot : compile(which);
    }
    const ExpressionList& compile(Program which) const;
    void scatter(Program which, const SparseExpressions& pattern, std::size_t rows, std::size_t columns,
                 double* dense) const;

    std::shared_ptr<const CompiledModelSource> source_;
    std::vector<double> variables_;  // [t, x, p, u], bound by address into every ExpressionList
    mutable std::vector<double> scratch_;
    mutable std::array<std::unique_ptr<ExpressionList>, ProgramCount> programs_;
};

}  // namespace sysid::eval
