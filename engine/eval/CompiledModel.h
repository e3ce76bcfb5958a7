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

    // Discontinuities (CompiledModelSource::switches and ::events). Dense arrays are column-major
    // with one row per function; `timeInput` columns are (t, u_1, ...). Null outputs are skipped.
    std::size_t switchCount() const { return source_->switchCount(); }
    std::size_t eventCount() const { return source_->events.size(); }
    // Until releaseModes(), the right-hand side and all its derivatives above are those of the
    // switched form on these modes (one per switch; +-1 on a branch, inside on a sliding surface).
    void holdModes(const double* modes);
    void releaseModes() { modesHeld_ = false; }
    bool modesHeld() const { return modesHeld_; }
    std::span<const double> modes() const;
    // On the held modes: the switching functions g_i and their gradients.
    void switchingFunctions(double* g) const;
    void switchingGradients(double* g, double* gx, double* gp, double* gtu) const;
    // L_i = dg_i/dx f + dg_i/dt (inputs held) and its derivatives (ns x n, ns x np, ns x ns).
    void lieDerivatives(double* L, double* Lx, double* Lp, double* Lm) const;
    // L and dL/dm alone (the sliding modes' solve at every evaluation).
    void lieRates(double* L, double* Lm) const;
    void rhsModeJacobian(double* J) const;  // n x ns
    // Every event's condition function g (one per event), and one event's with its gradient.
    void eventConditions(double* g) const;
    void eventCondition(std::size_t event, double* g, double* gx, double* gp, double* gtu) const;
    // The values a reset assigns (source().events[event].states) and their derivatives.
    void resetValues(std::size_t event, double* h, double* hx, double* hp, double* htu) const;

    // The invariants of a DAE model (source().constraints) and their gradients, dense column-major
    // with one row per invariant; null outputs are skipped.
    std::size_t invariantCount() const { return source_->constraints.invariants.values.size(); }
    void invariants(double* G, double* Gx, double* Gp, double* Gtu) const;

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
        // The switched form only.
        Switching,
        RhsModeJacobian,
        EventConditions,
        LieRates,
        ProgramCount
    };
    // The right-hand side's programs come in two forms: as written and switched (modes held).
    const ExpressionList& program(Program which) const
    {
        const std::size_t index = modesHeld_ && which < Outputs ? ProgramCount + which : which;
        const auto& slot = programs_[index];
        return slot ? *slot : compile(which, index);
    }
    const ExpressionList& compile(Program which, std::size_t index) const;
    std::vector<ExpressionList::Variable> boundVariables() const;
    // Functions with their gradients fused in one program (switching functions, their Lie
    // derivatives, event conditions and reset values), compiled on first use.
    struct GradientProgram {
        ExpressionList list;
        std::size_t rows = 0;
        const FunctionsWithGradients* source = nullptr;
        const SparseExpressions* extra = nullptr;
        mutable std::vector<double> scratch;
    };
    const GradientProgram& gradientProgram(std::size_t slot, const FunctionsWithGradients& source,
                                           const SparseExpressions* extra = nullptr) const;
    void evaluate(const GradientProgram& program, double* values, double* gx, double* gp, double* gtu,
                  double* extra = nullptr) const;
    void scatter(Program which, const SparseExpressions& pattern, std::size_t rows, std::size_t columns,
                 double* dense) const;

    std::shared_ptr<const CompiledModelSource> source_;
    std::vector<double> variables_;  // [t, x, p, u, m], bound by address into every ExpressionList
    bool modesHeld_ = false;
    mutable std::vector<double> scratch_;
    mutable std::array<std::unique_ptr<ExpressionList>, 2 * ProgramCount> programs_;
    // Slot 0: switching functions; 1: Lie derivatives; 2 + 2k: event k's condition; 3 + 2k: its reset;
    // 2 + 2 * events: the invariants.
    mutable std::vector<std::unique_ptr<GradientProgram>> gradientPrograms_;
};

}  // namespace sysid::eval
