#include "engine/integrate/RosenbrockStepper.h"

#include "engine/data/Text.h"
#include "engine/integrate/ControlledStep.h"
#include "engine/integrate/Rosenbrock4AutonomousForm.h"
#include "engine/integrate/Rosenbrock4Controller.h"

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <exception>
#include <utility>
#include <vector>

namespace sysid::integrate {

namespace odeint = boost::numeric::odeint;

namespace {

// The system is integrated in autonomous form, with time as the last state (tau' = 1) and
// dF/dt as the last Jacobian column: odeint's non-autonomous path (dfdt) gave errors far
// above tolerance on forced problems (e.g. y' = -1000(y - cos t) - sin t), the autonomous
// one does not. Steps are driven as odeint's rosenbrock4_dense_output drives them, by odeint's
// controller with the sensitivities optionally out of its norm (Rosenbrock4Controller): with
// `excludeSensitivities` the norm covers x and the time component, which keeps the steps of a
// run without sensitivities whatever the setting.
class Rosenbrock4Stepper final : public Stepper {
public:
    Rosenbrock4Stepper(SensitivitySystem& system, double absoluteTolerance, double relativeTolerance, double maxStep,
                       bool excludeSensitivities) :
        size_(system.size()),
        controller_(absoluteTolerance, relativeTolerance, maxStep > 0 ? maxStep : 0.0,
                    excludeSensitivities ? system.stateCount() : size_ + 1, excludeSensitivities ? 1 : 0),
        form_(system), x_(size_ + 1), xOld_(size_ + 1), sample_(size_ + 1)
    {
    }

    bool adaptive() const override { return true; }

    void initialize(const double* z, double t, double h) override
    {
        std::copy(z, z + size_, x_.begin());
        x_(size_) = t;
        t_ = tOld_ = t;
        dt_ = h;
    }

    void step(double limit, bool stopAtLimit) override
    {
        auto f = [this](const UblasVector& x, UblasVector& dx, double) {
            ++statistics_.rhsEvaluations;
            form_.rhs(x, dx);
        };
        auto jac = [this](const UblasVector& x, UblasMatrix& M, double, UblasVector& dfdt) {
            ++statistics_.jacobianEvaluations;
            ++statistics_.factorizations;  // rosenbrock4 factorises every Jacobian it asks for
            form_.jacobian(x, M, dfdt);
        };
        tOld_ = t_;
        takeControlledStep(
            t_, dt_, limit, stopAtLimit, statistics_,
            [&](double& t, double& dt) {
                try {
                    return controller_.try_step(std::make_pair(f, jac), x_, t, xOld_, dt) == odeint::success;
                } catch (const IntegrationError&) {
                    throw;
                } catch (const std::exception& e) {
                    throw IntegrationError(IntegrationError::Reason::SolverFailure, t_,
                                           "integration failed at t = " + data::formatNumber(t_, 10) + ": " + e.what());
                }
            },
            [this] { return statistics_.jacobianEvaluations; },
            [this](double reached) {
                xOld_(size_) = reached;  // the time component, exactly at a limit
                controller_.stepper().prepare_dense_output();
                std::swap(x_, xOld_);  // x_ is now the new state, xOld_ the previous one
            });
    }

    double time() const override { return t_; }
    double previousTime() const override { return tOld_; }
    const double* state() const override { return &x_.data()[0]; }
    void interpolate(double t, double* z) override
    {
        controller_.stepper().calc_state(t, sample_, xOld_, tOld_, x_, t_);
        std::copy(sample_.begin(), sample_.begin() + static_cast<std::ptrdiff_t>(size_), z);
    }
    double nextStep() const override { return dt_; }

private:
    std::size_t size_;
    Rosenbrock4Controller controller_;
    Rosenbrock4AutonomousForm form_;
    UblasVector x_, xOld_, sample_;
    double t_ = 0.0, tOld_ = 0.0, dt_ = 0.0;
};

}  // namespace

std::unique_ptr<Stepper> makeRosenbrock4Stepper(SensitivitySystem& system, double absoluteTolerance,
                                                double relativeTolerance, double maxStep, bool excludeSensitivities)
{
    return std::make_unique<Rosenbrock4Stepper>(system, absoluteTolerance, relativeTolerance, maxStep,
                                                excludeSensitivities);
}

}  // namespace sysid::integrate
