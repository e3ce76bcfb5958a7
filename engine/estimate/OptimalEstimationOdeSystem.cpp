#include "engine/estimate/OptimalEstimationOdeSystem.h"

namespace sysid::estimate {

HamiltonianOdeSystem::HamiltonianOdeSystem(std::shared_ptr<const eval::CompiledModelSource> source,
                                           std::shared_ptr<const integrate::InputSignals> signals)
    : source_(std::move(source)), model_(source_), signals_(std::move(signals)), u_(model_.inputCount()), du_(model_.inputCount()),
      timeInput_(model_.stateCount() * (1 + model_.inputCount()))
{
}

std::size_t HamiltonianOdeSystem::dimension() const { return model_.stateCount(); }

void HamiltonianOdeSystem::setPoint(double t, const double* x)
{
    if (!u_.empty())
        signals_->values(t, u_.data());
    model_.setPoint(t, x, u_.data());
}

void HamiltonianOdeSystem::rhs(double t, const double* x, double* f)
{
    setPoint(t, x);
    model_.rhs(f);
}

void HamiltonianOdeSystem::jacobian(double t, const double* x, double* J, double* dfdt)
{
    setPoint(t, x);
    model_.stateJacobian(J);
    model_.timeInputJacobian(timeInput_.data());
    const std::size_t n = model_.stateCount();
    if (!du_.empty())
        signals_->slopes(t, du_.data());
    for (std::size_t i = 0; i < n; ++i) {
        double d = timeInput_[i];
        for (std::size_t r = 0; r < du_.size(); ++r)
            d += timeInput_[(1 + r) * n + i] * du_[r];
        dfdt[i] = d;
    }
}

std::unique_ptr<shooting::OdeSystem> HamiltonianOdeSystem::clone() const
{
    return std::make_unique<HamiltonianOdeSystem>(source_, signals_);
}

void HamiltonianOdeSystem::outputs(double t, const double* x, double* y)
{
    setPoint(t, x);
    model_.outputs(y);
}

}  // namespace sysid::estimate
