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

// dopri5 with odeint's step-size controller and the method's own dense output, stepped the way
// odeint's dense_output_runge_kutta steps it (first-same-as-last derivative carried over), plus
// an end limit it never passes when asked (for intervals that must end exactly on a time).
class Dopri5Stepper final : public Stepper {
public:
    using Base = odeint::runge_kutta_dopri5<State>;
    using Controlled = odeint::controlled_runge_kutta<Base>;

    Dopri5Stepper(SensitivitySystem& system, const IntegratorSettings& settings) :
        rhs_{&system, &statistics_.rhsEvaluations},
        controlled_(Controlled::error_checker_type(settings.absoluteTolerance, settings.relativeTolerance),
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

    bool continueAcross(double h) override
    {
        tOld_ = t_;
        dt_ = h;
        return true;
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
        // A sample on the step's end (every sample of a record whose input kinks at each sample).
        if (t == t_) {
            std::copy(x_.begin(), x_.end(), z);
            return;
        }
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
