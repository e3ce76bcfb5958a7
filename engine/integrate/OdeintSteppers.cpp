#include "engine/integrate/OdeintSteppers.h"

#include "engine/integrate/ControlledStep.h"

#include <boost/numeric/odeint/stepper/controlled_runge_kutta.hpp>
#include <boost/numeric/odeint/stepper/euler.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>

#include <algorithm>
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

// odeint's default_error_checker (the largest |err_i| / (atol + rtol (|x_i| + |h| |dx_i/dt|))),
// taken over the first `counted` components of z only: the states without their sensitivities
// where those stay out of the step-size control (IntegratorSettings::sensitivityErrorControl).
class LeadingErrorChecker {
public:
    using value_type = double;
    using algebra_type = odeint::range_algebra;
    using operations_type = odeint::default_operations;

    LeadingErrorChecker(double absolute, double relative, std::size_t counted) :
        absolute_(absolute), relative_(relative), counted_(counted)
    {
    }
    template <class Time>
    double error(algebra_type&, const State& x, const State& dxdt, State& err, Time dt) const
    {
        using std::abs;
        double largest = 0.0;
        for (std::size_t i = 0; i < counted_; ++i)
            largest = std::max(largest, abs(err[i]) / (absolute_ + relative_ * (1.0 * abs(x[i]) + (1.0 * abs(dt)) * abs(dxdt[i]))));
        return largest;
    }

private:
    double absolute_, relative_;
    std::size_t counted_;
};

// The components of z = [x, S] whose local error the step-size control bounds.
std::size_t controlledComponents(const SensitivitySystem& system, const IntegratorSettings& settings)
{
    return settings.sensitivityErrorControl == SensitivityErrorControl::Exclude ? system.stateCount() : system.size();
}

// dopri5 with odeint's step-size controller and the method's own dense output, stepped the way
// odeint's dense_output_runge_kutta steps it (first-same-as-last derivative carried over), plus
// an end limit it never passes when asked (for intervals that must end exactly on a time).
class Dopri5Stepper final : public Stepper {
public:
    using Base = odeint::runge_kutta_dopri5<State>;
    using Controlled = odeint::controlled_runge_kutta<Base, LeadingErrorChecker>;

    Dopri5Stepper(SensitivitySystem& system, const IntegratorSettings& settings) :
        rhs_{&system, &statistics_.rhsEvaluations},
        controlled_(LeadingErrorChecker(settings.absoluteTolerance, settings.relativeTolerance,
                                        controlledComponents(system, settings)),
                    Controlled::step_adjuster_type(settings.maxStep > 0 ? settings.maxStep : 0.0)),
        size_(system.size())
    {
        for (auto* v : {&x_, &xOld_, &dxdt_, &dxdtOld_})
            v->assign(size_, 0.0);
    }

    bool adaptive() const override { return true; }

    void initialize(const double* z, double t, double h) override
    {
        std::copy(z, z + size_, x_.begin());
        t_ = tOld_ = t;
        dt_ = h;
        derivativeKnown_ = false;
    }

    void step(double limit, bool stopAtLimit) override
    {
        if (!derivativeKnown_) {
            rhs_(x_, dxdt_, t_);
            derivativeKnown_ = true;
        }
        tOld_ = t_;
        takeControlledStep(
            t_, dt_, limit, stopAtLimit, statistics_,
            [this](double& t, double& dt) {
                return controlled_.try_step(rhs_, x_, dxdt_, t, xOld_, dxdtOld_, dt) == odeint::success;
            },
            [this] { return statistics_.rhsEvaluations; },
            [this](double) {
                x_.swap(xOld_);
                dxdt_.swap(dxdtOld_);
            });
    }

    double time() const override { return t_; }
    double previousTime() const override { return tOld_; }
    const double* state() const override { return x_.data(); }
    void interpolate(double t, double* z) override
    {
        sample_.resize(size_);
        controlled_.stepper().calc_state(t, sample_, xOld_, dxdtOld_, tOld_, x_, dxdt_, t_);
        std::copy(sample_.begin(), sample_.end(), z);
    }
    double nextStep() const override { return dt_; }

private:
    CountingRhs rhs_;
    Controlled controlled_;
    std::size_t size_;
    State x_, xOld_, dxdt_, dxdtOld_, sample_;
    double t_ = 0.0, tOld_ = 0.0, dt_ = 0.0;
    bool derivativeKnown_ = false;
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
