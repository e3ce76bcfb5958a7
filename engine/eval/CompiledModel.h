#pragma once

#include "engine/eval/CompiledModelSource.h"
#include "engine/eval/ExpressionList.h"
#include "engine/eval/ModelPrograms.h"
#include "engine/eval/NativeCode.h"

#include <algorithm>
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
    void setPoint(double t, const double* x, const double* u)
    {
        interpretAt(t, x);
        setInputs(u);  // reads nothing of u (null) in a model without inputs
    }

    // The calls an integrator makes at every stage go straight to native code when it is loaded.
    void rhs(double* dx) const  // n
    {
        if (const auto f = nativeValues(Rhs))
            f(variables_[0], variables_.data() + 1, variables_.data(), dx);
        else
            program(Rhs).evaluate(dx);
    }
    void stateJacobian(double* J) const  // n x n
    {
        if (const auto f = nativeDense(StateJacobian))
            f(variables_[0], variables_.data() + 1, variables_.data(), J, nullptr, nullptr);
        else
            scatter(StateJacobian, source_->rhsStateJacobian, stateCount(), stateCount(), J);
    }
    void parameterJacobian(double* J) const;  // n x np
    void timeInputJacobian(double* J) const;  // n x (1 + nu)
    // The same values from one fused program (one muParser call instead of two or three): the
    // integrators with variational or sensitivity equations need them together at every step.
    void rhsAndStateJacobian(double* dx, double* J) const  // n, n x n
    {
        if (const auto f = nativeDense(RhsWithStateJacobian))
            f(variables_[0], variables_.data() + 1, variables_.data(), dx, J, nullptr);
        else
            interpretRhsAndStateJacobian(dx, J);
    }
    void rhsAndJacobians(double* dx, double* Jx, double* Jp) const  // n, n x n, n x np
    {
        if (const auto f = nativeDense(RhsWithJacobians))
            f(variables_[0], variables_.data() + 1, variables_.data(), dx, Jx, Jp);
        else
            interpretRhsAndJacobians(dx, Jx, Jp);
    }
    // The same fused call with the Jacobians as nonzero values (source() entry order): large
    // sparse models (method of lines) cannot afford the dense n x n and n x np forms.
    void rhsAndJacobianValues(double* dx, double* jxValues, double* jpValues) const;
    void outputs(double* y) const;  // ny
    void outputStateJacobian(double* J) const;  // ny x n
    void outputParameterJacobian(double* J) const;  // ny x np
    // The same as nonzero values (source() entry order): a field output at every node of a large
    // model would otherwise cost a dense ny x n matrix per sample.
    void outputStateJacobianValues(double* values) const;
    void outputParameterJacobianValues(double* values) const;

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

    // The sensitivity equations' right-hand side in one call, from native code: f, and for the
    // `columns` columns of S (n each) dS_c = df/dx S_c, plus df/dp_l where columnOfParameter[l] = c
    // (when `parameters`; columnOfParameter has one entry per model parameter, -1 for none).
    // False, with nothing written, while the model has no native code: the caller then forms it
    // from rhsAndJacobians.
    bool sensitivityRhs(const double* S, std::size_t columns, const int* columnOfParameter, bool parameters,
                        double* dx, double* dS) const
    {
        return sensitivityRhs(variables_[0], variables_.data() + 1, S, columns, columnOfParameter, parameters, dx, dS);
    }
    // The calls above at the point (t, x) given directly, with the inputs (setInputs or setPoint),
    // parameters and modes last set: native code reads t and x where they are, so an integrator's
    // call copies nothing into the evaluator. Afterwards the evaluator's own t and x are unspecified
    // (the interpreter sets them, native code does not): evaluations without a point need setPoint.
    void setInputs(const double* u) { copyValues(u, inputCount(), inputVariables()); }
    void rhs(double t, const double* x, double* dx)
    {
        if (const auto f = nativeValues(Rhs))
            f(t, x, variables_.data(), dx);
        else
            interpretAt(t, x).rhs(dx);
    }
    void stateJacobian(double t, const double* x, double* J)
    {
        if (const auto f = nativeDense(StateJacobian))
            f(t, x, variables_.data(), J, nullptr, nullptr);
        else
            interpretAt(t, x).stateJacobian(J);
    }
    void rhsAndStateJacobian(double t, const double* x, double* dx, double* J)
    {
        if (const auto f = nativeDense(RhsWithStateJacobian))
            f(t, x, variables_.data(), dx, J, nullptr);
        else
            interpretAt(t, x).interpretRhsAndStateJacobian(dx, J);
    }
    void rhsAndJacobians(double t, const double* x, double* dx, double* Jx, double* Jp)
    {
        if (const auto f = nativeDense(RhsWithJacobians))
            f(t, x, variables_.data(), dx, Jx, Jp);
        else
            interpretAt(t, x).interpretRhsAndJacobians(dx, Jx, Jp);
    }
    bool sensitivityRhs(double t, const double* x, const double* S, std::size_t columns, const int* columnOfParameter,
                        bool parameters, double* dx, double* dS) const
    {
        const auto f = sensitivityFunction(parameters);
        if (!f)
            return false;
        f(t, x, variables_.data(), S, columns, columnOfParameter, dx, dS);
        return true;
    }
    // The native sensitivity function sensitivityRhs calls, on the modes held now (null while the
    // model has no native code), and the variables it reads: an integrator may call it directly
    // as long as the parameters, inputs and modes stay as they are.
    NativeSensitivity sensitivityFunction(bool parameters) const
    {
        const auto* native = nativeFunctions();
        return native ? native->sensitivity[programSlot(parameters ? RhsWithJacobians : RhsWithStateJacobian, modesHeld_)]
                      : nullptr;
    }
    const double* variables() const { return variables_.data(); }
    // The inputs' place among the variables (setInputs writes there), for a caller that writes them itself.
    double* inputVariables() { return variables_.data() + 1 + stateCount() + parameterCount(); }
    // Whether the evaluations run native code now (NativeCode), not the interpreter.
    bool native() const
    {
        if (!nativeSettled_)
            pollNative();
        return functions_ != nullptr;
    }

private:
    // The interpreter's programs (ModelPrograms.h), each compiled on its first use: a run needs a
    // few of them, and model copies (one per worker thread) are then cheap. Not compiled at all
    // where native code serves the program.
    const ExpressionList& program(Program which) const
    {
        const std::size_t index = programSlot(which, modesHeld_);
        const auto& slot = programs_[index];
        return slot ? *slot : compile(index);
    }
    // The few values of a small model copied by a loop: std::copy becomes a call of memmove, whose
    // set-up costs more than the copy (3 % of interpreted shooting, bench_periodic).
    static void copyValues(const double* from, std::size_t n, double* to)
    {
        for (std::size_t i = 0; i < n; ++i)
            to[i] = from[i];
    }
    // The interpreter's path of the calls at a point (and setPoint's): t and x copied into the variables.
    CompiledModel& interpretAt(double t, const double* x)
    {
        variables_[0] = t;
        copyValues(x, stateCount(), variables_.data() + 1);
        return *this;
    }
    // Until the native code has settled (built, failed, or never requested), it is looked for once
    // every kNativePollInterval evaluations, not at every one: the look is an out-of-line call
    // that cost the interpreter 10-13 % on small models (bench_periodic, differenced shooting),
    // and the switch to native code then comes at most that many evaluations later.
    const NativeFunctions* nativeFunctions() const
    {
        if (!nativeSettled_ && --untilNativePoll_ == 0)
            pollNative();
        return functions_;
    }
    void pollNative() const;
    NativeValues nativeValues(Program which) const
    {
        const auto* f = nativeFunctions();
        return f ? f->values[programSlot(which, modesHeld_)] : nullptr;
    }
    NativeDense nativeDense(Program which) const
    {
        const auto* f = nativeFunctions();
        return f ? f->dense[programSlot(which, modesHeld_)] : nullptr;
    }
    // The values of a program, from native code or the interpreter.
    void evaluateProgram(Program which, double* out) const
    {
        if (const auto f = nativeValues(which))
            f(variables_[0], variables_.data() + 1, variables_.data(), out);
        else
            program(which).evaluate(out);
    }
    const ExpressionList& compile(std::size_t index) const;
    void interpretRhsAndStateJacobian(double* dx, double* J) const;
    void interpretRhsAndJacobians(double* dx, double* Jx, double* Jp) const;
    std::vector<ExpressionList::Variable> boundVariables() const;
    // Functions with their gradients fused in one program (switching functions, their Lie
    // derivatives, event conditions and reset values), compiled on first use.
    struct GradientProgram {
        mutable std::unique_ptr<ExpressionList> list;  // the interpreter's, built when native code has none
        std::size_t slot = 0;  // ModelPrograms' slot
        std::size_t rows = 0;
        const FunctionsWithGradients* source = nullptr;
        const SparseExpressions* extra = nullptr;
        mutable std::vector<double> scratch;
    };
    const GradientProgram& gradientProgram(std::size_t slot) const;
    void evaluate(const GradientProgram& program, double* values, double* gx, double* gp, double* gtu,
                  double* extra = nullptr) const;
    void scatter(Program which, const SparseExpressions& pattern, std::size_t rows, std::size_t columns,
                 double* dense) const;

    std::shared_ptr<const CompiledModelSource> source_;
    std::vector<double> variables_;  // [t, x, p, u, m], bound by address into every ExpressionList
    bool modesHeld_ = false;
    mutable std::vector<double> scratch_;
    mutable std::array<std::unique_ptr<ExpressionList>, 2 * ProgramCount> programs_;
    // By slot - kFirstGradientSlot.
    mutable std::vector<std::unique_ptr<GradientProgram>> gradientPrograms_;
    std::shared_ptr<const NativeCode> native_;
    mutable const NativeFunctions* functions_ = nullptr;
    mutable bool nativeSettled_ = false;  // functions_ is final
    static constexpr unsigned kNativePollInterval = 64;
    mutable unsigned untilNativePoll_ = 1;  // the first evaluation looks
};

}  // namespace sysid::eval
