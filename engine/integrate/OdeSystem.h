#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sysid::integrate {

class Constraints;
class Discontinuities;

// Where the nonzero entries of a Jacobian are, in the order their values are delivered.
struct JacobianPattern {
    std::size_t rows = 0, columns = 0;
    std::vector<std::size_t> row, column;
    std::size_t size() const { return row.size(); }
    static JacobianPattern dense(std::size_t rows, std::size_t columns);  // column-major, every entry
};

// Second derivatives of f for the exact Jacobian of the sensitivity system that a Rosenbrock
// method needs: entry (row i, column j, depth k) holds d2 f_i / (d v_j d w_k), where v_j is the
// state x_j (stateEntries) or the parameter p_j (parameterEntries) and w_k is the state x_k for
// k < n and time for k == n (the total derivative, inputs' slopes included).
struct SecondDerivatives {
    struct Entry {
        std::size_t row, column, depth;
        double value;
    };
    std::vector<Entry> stateEntries, parameterEntries;
};

// A system's forward-sensitivity right-hand side as one function (a model's native code) that
// SensitivitySystem calls directly, without a virtual call per evaluation: f(t, x) and dS as
// OdeSystem::sensitivityRhs forms them, reading the rest of the point (parameters, inputs, modes)
// from `variables`. The system keeps it current (null functions where it has none now).
// Inputs that are lines in t on the segment being integrated (linear or held samples) are written
// into `inputs` (inside `variables`) before each call: inputs[i] = inputValue[i] + inputSlope[i] (t - inputAt).
struct SensitivityKernel {
    using Function = void (*)(double t, const double* x, const double* variables, const double* S,
                              std::size_t columns, const int* columnOfParameter, double* f, double* dS);
    Function withParameters = nullptr, stateOnly = nullptr;
    const double* variables = nullptr;
    std::size_t inputCount = 0;
    double* inputs = nullptr;
    const double* inputValue = nullptr;
    const double* inputSlope = nullptr;
    double inputAt = 0.0;
};

// The system every integrator steps, x' = f(t, x), in the spirit of Boost.Odeint's system concept
// with the derivatives SUNDIALS' linear solvers and sensitivity modules ask of it. The models of
// the model language implement all of it exactly (ModelSystem); a system written by hand (a test, a
// benchmark) implements rhs and jacobian and gets finite-difference defaults for the rest.
// One instance is used by one thread at a time; clone() gives each worker thread its own.
class OdeSystem {
public:
    virtual ~OdeSystem() = default;
    virtual std::size_t dimension() const = 0;
    virtual std::unique_ptr<OdeSystem> clone() const = 0;

    virtual void rhs(double t, const double* x, double* f) = 0;
    // df/dx (column-major n x n) and the total df/dt (may be left zero for an autonomous f).
    virtual void jacobian(double t, const double* x, double* J, double* dfdt) = 0;
    // f and df/dx at one point (the variational equations need no df/dt).
    virtual void rhsAndStateJacobian(double t, const double* x, double* f, double* J);

    // df/dx as nonzero values for the implicit steppers' linear solvers; the default is dense.
    virtual const JacobianPattern& statePattern() const;
    // f with df/dx in statePattern() order and, when `parameterValues` is not null, df/dp in
    // parameterPattern() order.
    virtual void rhsAndJacobianValues(double t, const double* x, double* f, double* stateValues,
                                      double* parameterValues);

    // Parameters p for forward sensitivities dx/dp (none by default).
    virtual std::size_t parameterCount() const { return 0; }
    virtual const JacobianPattern& parameterPattern() const;
    // f, df/dx (column-major) and df/dp (column-major n x parameterCount()).
    virtual void rhsAndJacobians(double t, const double* x, double* f, double* J, double* Jp);
    // The default takes the state entries from forward differences of jacobian() and has no
    // parameter entries (a hand-written system has no parameters).
    virtual void secondDerivatives(double t, const double* x, SecondDerivatives& out);
    // Throws core::InternalError, naming `user`, where secondDerivatives() has nothing to give (a
    // model compiled without them): checked before an integration that will ask for them.
    virtual void requireSecondDerivatives(std::string_view /*user*/) const {}
    // The forward sensitivities' right-hand side in one call where the system forms it directly
    // (a model with native code): f, and dS_c = df/dx S_c for the `columns` columns of S, plus df/dp_l
    // where columnOfParameter[l] = c (when `parameters`). False, writing nothing, where it does not:
    // SensitivitySystem then forms it from rhsAndJacobians.
    virtual bool sensitivityRhs(double /*t*/, const double* /*x*/, const double* /*S*/, std::size_t /*columns*/,
                                const int* /*columnOfParameter*/, bool /*parameters*/, double* /*f*/, double* /*dS*/)
    {
        return false;
    }

    // The kernel of sensitivityRhs, where the system has one (null: always call sensitivityRhs). The
    // address stays valid for the system's lifetime; its contents may change between evaluations.
    virtual const SensitivityKernel* sensitivityKernel() { return nullptr; }

    // False when f depends on neither t nor inputs (the Rosenbrock stages then need no df/dt).
    virtual bool dependsOnTime() const { return true; }
    // Times strictly inside (t0, t1), increasing, where f is only continuous (the samples of an
    // interpolated input): adaptive integrators restart there, so no step straddles one.
    virtual std::vector<double> breakpoints(double /*t0*/, double /*t1*/) const { return {}; }
    // f is continuous in t across every breakpoint (no input held piecewise constant, which jumps
    // there): an integrator may carry f at a segment's end into the next (Stepper::continueAcross).
    virtual bool continuousAtBreakpoints() const { return false; }
    // The integrator works on [start, end] next: a system with inputs holds each to its piece
    // there, also where a step overshoots `end`, so f stays smooth within every step.
    virtual void beginSegment(double /*start*/, double /*end*/) {}
    // No segment is held any more: inputs are read from their interpolants at every t (fixed-step
    // methods, which step across input samples at their own grid).
    virtual void releaseSegment() {}
    // For messages: "x" or the model's name of state i.
    virtual std::string stateName(std::size_t i) const;
    // Switches and resets the integrator locates (null: f is smooth, or its switches are stepped
    // across as written).
    virtual Discontinuities* discontinuities() { return nullptr; }
    // The algebraic variables and invariants of a DAE (null: an ODE).
    virtual Constraints* constraints() { return nullptr; }

private:
    // Built on first use; plain values, so hand-written systems stay copyable for clone().
    mutable JacobianPattern densePattern_, emptyPattern_;
    std::vector<double> scratch_, scratchJ_;
};

}  // namespace sysid::integrate
