#pragma once

// C++17 only: Boost 1.74's uBLAS, which rosenbrock4 needs, does not compile as C++20 (see
// RosenbrockStepper.h).
#include <boost/numeric/odeint/stepper/controlled_step_result.hpp>
#include <boost/numeric/odeint/stepper/rosenbrock4.hpp>
#include <boost/numeric/odeint/util/detail/less_with_sign.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace sysid::integrate {

// The step-size controller of odeint's rosenbrock4_controller (Ahnert & Mulansky, Boost 1.74, after
// Hairer & Wanner 1996, IV.8, with their predictive step of Gustafsson), with one difference: the
// error norm covers chosen components of the state, the first `leading` and the last `trailing`,
// so that the forward sensitivities can be left out of it (CVODES' errconS, Hindmarsh et al. 2005).
// Over all components it takes exactly odeint's steps: the same arithmetic in the same order.
class Rosenbrock4Controller {
public:
    using Stepper = boost::numeric::odeint::rosenbrock4<double>;
    using State = Stepper::state_type;

    // maxStep 0: no limit. leading + trailing >= the state's size: the norm over all components.
    Rosenbrock4Controller(double absoluteTolerance, double relativeTolerance, double maxStep, std::size_t leading,
                          std::size_t trailing) :
        atol_(absoluteTolerance), rtol_(relativeTolerance), maxStep_(maxStep), leading_(leading), trailing_(trailing)
    {
    }

    // Odeint's rms norm of err_i / (atol + rtol max(|xold_i|, |x_i|)) over the controlled components.
    double error(const State& x, const State& xOld, const State& xErr) const
    {
        const std::size_t size = x.size();
        const std::size_t leading = std::min(leading_, size);
        const std::size_t trailingStart = leading + trailing_ >= size ? leading : size - trailing_;
        double err = 0.0;
        for (std::size_t i = 0; i < leading; ++i)
            err += term(x, xOld, xErr, i);
        for (std::size_t i = trailingStart; i < size; ++i)
            err += term(x, xOld, xErr, i);
        return std::sqrt(err / double(leading + (size - trailingStart)));
    }

    // One attempt from (x, t) with step dt, as rosenbrock4_controller::try_step(sys, x, t, xout, dt):
    // on success t and xout advance and dt is the next step; on failure dt is the step to retry with.
    template <class System>
    boost::numeric::odeint::controlled_step_result try_step(System system, const State& x, double& t, State& xOut,
                                                            double& dt)
    {
        namespace detail = boost::numeric::odeint::detail;
        using boost::numeric::odeint::fail;
        using boost::numeric::odeint::success;
        if (maxStep_ != 0.0 && detail::less_with_sign(maxStep_, dt, dt)) {
            dt = maxStep_;
            return fail;
        }
        static const double safe = 0.9, fac1 = 5.0, fac2 = 1.0 / 6.0;
        if (xErr_.size() != x.size())
            xErr_.resize(x.size(), false);
        stepper_.do_step(system, x, t, xOut, dt, xErr_);
        const double err = error(xOut, x, xErr_);
        double fac = std::max(fac2, std::min(fac1, static_cast<double>(std::pow(err, 0.25) / safe)));
        double dtNew = dt / fac;
        if (!(err <= 1.0)) {  // a NaN error fails too
            dt = dtNew;
            lastRejected_ = true;
            return fail;
        }
        if (firstStep_) {
            firstStep_ = false;
        } else {
            double facPred = (dtOld_ / dt) * std::pow(err * err / errOld_, 0.25) / safe;
            facPred = std::max(fac2, std::min(fac1, facPred));
            fac = std::max(fac, facPred);
            dtNew = dt / fac;
        }
        dtOld_ = dt;
        errOld_ = std::max(0.01, err);
        if (lastRejected_)
            dtNew = dt >= 0.0 ? std::min(dtNew, dt) : std::max(dtNew, dt);
        t += dt;
        dt = maxStep_ != 0.0 ? detail::min_abs(maxStep_, dtNew) : dtNew;
        lastRejected_ = false;
        return success;
    }

    Stepper& stepper() { return stepper_; }

private:
    double term(const State& x, const State& xOld, const State& xErr, std::size_t i) const
    {
        const double sk = atol_ + rtol_ * std::max(std::abs(xOld[i]), std::abs(x[i]));
        return xErr[i] * xErr[i] / sk / sk;
    }

    Stepper stepper_;
    State xErr_;
    double atol_, rtol_, maxStep_;
    std::size_t leading_, trailing_;
    bool firstStep_ = true, lastRejected_ = false;
    double errOld_ = 0.0, dtOld_ = 0.0;
};

}  // namespace sysid::integrate
