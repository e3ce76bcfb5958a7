#include "engine/integrate/OdeintSteppers.h"

#include "engine/integrate/ControlledStep.h"

#include <boost/numeric/odeint/stepper/euler.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace sysid::integrate {

namespace odeint = boost::numeric::odeint;

namespace {

using State = std::vector<double>;

// The system as odeint calls it, counting right-hand-side evaluations.
struct CountingRhs {
    SensitivitySystem* system;
    std::size_t* count;
    void operator()(const State& z, State& dz, double t) const
    {
        ++*count;
        system->rhs(t, z.data(), dz.data());
    }
};

// The components of z = [x, S] whose local error the step-size control bounds: the states
// without their sensitivities where those stay out of it (IntegratorSettings::sensitivityErrorControl).
std::size_t controlledComponents(const SensitivitySystem& system, const IntegratorSettings& settings)
{
    return settings.sensitivityErrorControl == SensitivityErrorControl::Exclude ? system.stateCount() : system.size();
}

// dopri5 as odeint's controlled runge_kutta_dopri5 steps it (its error checker and step adjuster,
// first-same-as-last derivative carried over), plus an end limit it never passes when asked (for
// intervals that must end exactly on a time). Written out rather than called: on a long record
// every sample is a step of a small augmented state, where odeint's generic algebra (a pass over
// the state per stage term, size checks per call) cost as much as the model. The operations and
// their order are odeint's (boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp,
// controlled_runge_kutta.hpp), so the numbers are the same to the last bit.
class Dopri5Stepper final : public Stepper {
public:
    Dopri5Stepper(SensitivitySystem& system, const IntegratorSettings& settings) :
        system_(system), absolute_(settings.absoluteTolerance), relative_(settings.relativeTolerance),
        maxStep_(settings.maxStep > 0 ? settings.maxStep : 0.0), size_(system.size()),
        controlled_(controlledComponents(system, settings))
    {
        for (auto* v : {&x_, &xOld_, &dxdt_, &dxdtOld_, &tmp_, &k2_, &k3_, &k4_, &k5_, &k6_})
            v->assign(size_, 0.0);
    }

    bool adaptive() const override { return true; }

    void initialize(const double* z, double t, double h) override
    {
        std::copy(z, z + size_, x_.begin());
        t_ = tOld_ = t;
        dt_ = h;
        pending_ = false;
        derivativeKnown_ = false;
    }

    bool continueAcross(double h) override
    {
        tOld_ = t_;
        dt_ = h;
        pending_ = false;
        return true;
    }

    void step(double limit, bool stopAtLimit) override
    {
        dt_ = nextStep();
        pending_ = false;
        if (!derivativeKnown_) {
            evaluate(t_, x_.data(), dxdt_.data());
            derivativeKnown_ = true;
        }
        tOld_ = t_;
        takeControlledStep(
            t_, dt_, limit, stopAtLimit, statistics_, [this](double& t, double& dt) { return tryStep(t, dt); },
            [this] { return statistics_.rhsEvaluations; },
            [this](double) {
                x_.swap(xOld_);
                dxdt_.swap(dxdtOld_);
            },
            [this](double& dt, double proposed) {
                if (pending_)
                    pendingFloor_ = proposed;
                else
                    KeepLongerProposal{}(dt, proposed);
            });
    }

    double time() const override { return t_; }
    double previousTime() const override { return tOld_; }
    const double* state() const override { return x_.data(); }

    // odeint's calc_state: the dense output of Hairer, Norsett & Wanner, Solving ODEs I, p. 191-192.
    void interpolate(double t, double* z) override
    {
        // A sample on the step's end (every sample of a record whose input kinks at each sample).
        if (t == t_) {
            std::copy(x_.begin(), x_.end(), z);
            return;
        }
        constexpr double b1 = 35.0 / 384.0, b3 = 500.0 / 1113.0, b4 = 125.0 / 192.0, b5 = -2187.0 / 6784.0,
                         b6 = 11.0 / 84.0;
        const double dt = t_ - tOld_;
        const double theta = (t - tOld_) / dt;
        const double X1 = 5.0 * (2558722523.0 - 31403016.0 * theta) / 11282082432.0;
        const double X3 = 100.0 * (882725551.0 - 15701508.0 * theta) / 32700410799.0;
        const double X4 = 25.0 * (443332067.0 - 31403016.0 * theta) / 1880347072.0;
        const double X5 = 32805.0 * (23143187.0 - 3489224.0 * theta) / 199316789632.0;
        const double X6 = 55.0 * (29972135.0 - 7076736.0 * theta) / 822651844.0;
        const double X7 = 10.0 * (7414447.0 - 829305.0 * theta) / 29380423.0;
        const double thetaM1 = theta - 1.0;
        const double thetaSq = theta * theta;
        const double A = thetaSq * (3.0 - 2.0 * theta);
        const double B = thetaSq * thetaM1;
        const double C = thetaSq * thetaM1 * thetaM1;
        const double D = theta * thetaM1 * thetaM1;
        const double a1 = dt * (A * b1 - C * X1 + D), a3 = dt * (A * b3 + C * X3), a4 = dt * (A * b4 - C * X4),
                     a5 = dt * (A * b5 + C * X5), a6 = dt * (A * b6 - C * X6), a7 = dt * (B + C * X7);
        // Stages k3..k6 are those of the last step tried, which is the step accepted last: the driver
        // interpolates only after an accepted step.
        for (std::size_t i = 0; i < size_; ++i)
            z[i] = 1.0 * xOld_[i] + a1 * dxdtOld_[i] + a3 * k3_[i] + a4 * k4_[i] + a5 * k5_[i] + a6 * k6_[i] +
                a7 * dxdt_[i];
    }
    // odeint's step adjuster on a step that grows (tryStep), then the limit's rule (takeControlledStep).
    double nextStep() const override
    {
        if (!pending_)
            return dt_;
        double dt = dt_;
        dt *= 9.0 / 10.0 * std::pow(pendingGrowthError(), -1.0 / 5);
        if (maxStep_ != 0.0)
            dt = std::min(dt, maxStep_);
        return std::max(dt, pendingFloor_);
    }
    // Where the next segment (an input sample's interval) is shorter than the grown step, as it is at
    // nearly every sample of a long record, the step is the segment and pow need not be computed:
    // 0.9 error^(-1/5) dt >= cap exactly when error (cap / (0.9 dt))^5 <= 1, decided here only with
    // a margin far above the rounding of either side.
    double nextStepWithin(double cap) const override
    {
        if (pending_ && cap > 0.0 && dt_ > 0.0 && (maxStep_ == 0.0 || maxStep_ >= cap)) {
            if (pendingFloor_ >= cap)
                return cap;
            const double r = cap / (9.0 / 10.0 * dt_) * (1.0 + 1e-9);
            if (pendingGrowthError() * (r * r * r * r * r) <= 1.0 - 1e-9)
                return cap;
        }
        return std::min(nextStep(), cap);
    }

private:
    // The pending step's error as its growth factor takes it: at least 5^-5, so the step grows at most 5x.
    double pendingGrowthError() const { return std::max(std::pow(5.0, -5.0), pendingError_); }
    void evaluate(double t, const double* z, double* dz)
    {
        ++statistics_.rhsEvaluations;
        system_.rhs(t, z, dz);
    }

    // odeint's controlled try_step from (x_, dxdt_) into (xOld_, dxdtOld_): true with t advanced when the
    // error test passes; dt is the next step to try either way.
    bool tryStep(double& t, double& dt)
    {
        // odeint's check_step_size_limit: a step above the largest allowed is refused unevaluated.
        if (maxStep_ != 0.0 && !(dt - maxStep_ <= std::numeric_limits<double>::epsilon())) {
            dt = maxStep_;
            return false;
        }
        constexpr double a2 = 1.0 / 5.0, a3 = 3.0 / 10.0, a4 = 4.0 / 5.0, a5 = 8.0 / 9.0;
        constexpr double b21 = 1.0 / 5.0;
        constexpr double b31 = 3.0 / 40.0, b32 = 9.0 / 40.0;
        constexpr double b41 = 44.0 / 45.0, b42 = -56.0 / 15.0, b43 = 32.0 / 9.0;
        constexpr double b51 = 19372.0 / 6561.0, b52 = -25360.0 / 2187.0, b53 = 64448.0 / 6561.0,
                         b54 = -212.0 / 729.0;
        constexpr double b61 = 9017.0 / 3168.0, b62 = -355.0 / 33.0, b63 = 46732.0 / 5247.0, b64 = 49.0 / 176.0,
                         b65 = -5103.0 / 18656.0;
        constexpr double c1 = 35.0 / 384.0, c3 = 500.0 / 1113.0, c4 = 125.0 / 192.0, c5 = -2187.0 / 6784.0,
                         c6 = 11.0 / 84.0;
        constexpr double dc1 = c1 - 5179.0 / 57600.0, dc3 = c3 - 7571.0 / 16695.0, dc4 = c4 - 393.0 / 640.0,
                         dc5 = c5 - -92097.0 / 339200.0, dc6 = c6 - 187.0 / 2100.0, dc7 = -1.0 / 40.0;
        const std::size_t n = size_;
        const double* x = x_.data();
        const double* k1 = dxdt_.data();
        double* y = tmp_.data();
        double *k2 = k2_.data(), *k3 = k3_.data(), *k4 = k4_.data(), *k5 = k5_.data(), *k6 = k6_.data();
        double* out = xOld_.data();
        double* k7 = dxdtOld_.data();
        {
            const double h1 = dt * b21;
            for (std::size_t i = 0; i < n; ++i)
                y[i] = 1.0 * x[i] + h1 * k1[i];
        }
        evaluate(t + dt * a2, y, k2);
        {
            const double h1 = dt * b31, h2 = dt * b32;
            for (std::size_t i = 0; i < n; ++i)
                y[i] = 1.0 * x[i] + h1 * k1[i] + h2 * k2[i];
        }
        evaluate(t + dt * a3, y, k3);
        {
            const double h1 = dt * b41, h2 = dt * b42, h3 = dt * b43;
            for (std::size_t i = 0; i < n; ++i)
                y[i] = 1.0 * x[i] + h1 * k1[i] + h2 * k2[i] + h3 * k3[i];
        }
        evaluate(t + dt * a4, y, k4);
        {
            const double h1 = dt * b51, h2 = dt * b52, h3 = dt * b53, h4 = dt * b54;
            for (std::size_t i = 0; i < n; ++i)
                y[i] = 1.0 * x[i] + h1 * k1[i] + h2 * k2[i] + h3 * k3[i] + h4 * k4[i];
        }
        evaluate(t + dt * a5, y, k5);
        {
            const double h1 = dt * b61, h2 = dt * b62, h3 = dt * b63, h4 = dt * b64, h5 = dt * b65;
            for (std::size_t i = 0; i < n; ++i)
                y[i] = 1.0 * x[i] + h1 * k1[i] + h2 * k2[i] + h3 * k3[i] + h4 * k4[i] + h5 * k5[i];
        }
        evaluate(t + dt, y, k6);
        {
            const double h1 = dt * c1, h3 = dt * c3, h4 = dt * c4, h5 = dt * c5, h6 = dt * c6;
            for (std::size_t i = 0; i < n; ++i)
                out[i] = 1.0 * x[i] + h1 * k1[i] + h3 * k3[i] + h4 * k4[i] + h5 * k5[i] + h6 * k6[i];
        }
        evaluate(t + dt, out, k7);
        // The error estimate relative to atol + rtol (|x| + |dt| |dx/dt|), in the max norm over the
        // controlled components (a NaN term is passed over, as odeint's norm does).
        double error = 0.0;
        {
            const double e1 = dt * dc1, e3 = dt * dc3, e4 = dt * dc4, e5 = dt * dc5, e6 = dt * dc6, e7 = dt * dc7;
            const double scaleDxdt = 1.0 * std::abs(dt);
            for (std::size_t i = 0; i < controlled_; ++i) {
                const double estimate = e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] + e7 * k7[i];
                const double e =
                    std::abs(estimate) / (absolute_ + relative_ * (1.0 * std::abs(x[i]) + scaleDxdt * std::abs(k1[i])));
                error = std::max(error, e);
            }
        }
        // odeint's default_step_adjuster: error order 4, stepper order 5.
        if (error > 1.0) {
            dt *= std::max(9.0 / 10.0 * std::pow(error, -1.0 / (4 - 1)), 1.0 / 5.0);
            if (maxStep_ != 0.0)
                dt = std::min(dt, maxStep_);
            return false;
        }
        t += dt;
        // The step grows by 0.9 error^(-1/5) (at most 5x): computed when it is asked for
        // (nextStep), since pow was 8 % of a long record's fit where the next sample limits the step anyway.
        if (error < 0.5) {
            pending_ = true;
            pendingError_ = error;
            pendingFloor_ = -std::numeric_limits<double>::infinity();
        }
        return true;
    }

    SensitivitySystem& system_;
    double absolute_, relative_, maxStep_;
    std::size_t size_, controlled_;
    std::vector<double> x_, xOld_, dxdt_, dxdtOld_, tmp_, k2_, k3_, k4_, k5_, k6_;
    double t_ = 0.0, tOld_ = 0.0, dt_ = 0.0;
    bool derivativeKnown_ = false;
    // The last step's growth, not yet applied to dt_ (nextStep): its error and, where the step was cut
    // short by the limit, the longer step proposed before (-infinity otherwise).
    bool pending_ = false;
    double pendingError_ = 0.0, pendingFloor_ = 0.0;
};

// A fixed-step odeint stepper: each step() takes the step given to initialize(); the driver
// divides every output interval into equal steps, so samples fall on step ends.
template <class Method>
class FixedStepper final : public Stepper {
public:
    explicit FixedStepper(SensitivitySystem& system) :
        rhs_{&system, &statistics_.rhsEvaluations}, size_(system.size()), x_(size_)
    {
    }

    bool adaptive() const override { return false; }
    void initialize(const double* z, double t, double h) override
    {
        std::copy(z, z + size_, x_.begin());
        t_ = tOld_ = t;
        h_ = h;
    }
    void step(double, bool) override
    {
        tOld_ = t_;
        method_.do_step(rhs_, x_, t_, h_);
        t_ += h_;
        ++statistics_.steps;
    }
    double time() const override { return t_; }
    double previousTime() const override { return tOld_; }
    const double* state() const override { return x_.data(); }
    void interpolate(double, double* z) override { std::copy(x_.begin(), x_.end(), z); }
    double nextStep() const override { return h_; }

private:
    CountingRhs rhs_;
    std::size_t size_;
    Method method_;
    State x_;
    double t_ = 0.0, tOld_ = 0.0, h_ = 0.0;
};

}  // namespace

std::unique_ptr<Stepper> makeDopri5Stepper(SensitivitySystem& system, const IntegratorSettings& settings)
{
    return std::make_unique<Dopri5Stepper>(system, settings);
}

std::unique_ptr<Stepper> makeRungeKutta4Stepper(SensitivitySystem& system)
{
    return std::make_unique<FixedStepper<odeint::runge_kutta4<State>>>(system);
}

std::unique_ptr<Stepper> makeEulerStepper(SensitivitySystem& system)
{
    return std::make_unique<FixedStepper<odeint::euler<State>>>(system);
}

}  // namespace sysid::integrate
