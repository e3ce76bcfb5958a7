#include "engine/shooting/ModelOdeSystem.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sysid::shooting {

ModelOdeSystem::ModelOdeSystem(const eval::CompiledModel& model, const integrate::InputSignals* inputs) :
    model_(model), inputs_(inputs), u_(model.inputCount(), 0.0), du_(model.inputCount(), 0.0),
    timeInput_(model.stateCount() * (1 + model.inputCount()), 0.0), hints_(model.inputCount(), 0)
{
    const std::size_t have = inputs_ ? inputs_->size() : 0;
    if (have != model_.inputCount())
        throw std::invalid_argument("the model has " + std::to_string(model_.inputCount()) + " inputs but " +
                                    std::to_string(have) + " input signals were given");
}

void ModelOdeSystem::setPoint(double t, const double* x)
{
    if (inputs_ && !u_.empty())
        inputs_->values(t, u_.data(), hints_.data());
    model_.setPoint(t, x, u_.data());
}

void ModelOdeSystem::rhs(double t, const double* x, double* f)
{
    setPoint(t, x);
    model_.rhs(f);
}

void ModelOdeSystem::jacobian(double t, const double* x, double* J, double* dfdt)
{
    setPoint(t, x);
    model_.stateJacobian(J);
    model_.timeInputJacobian(timeInput_.data());
    const std::size_t n = model_.stateCount();
    if (inputs_ && !du_.empty())
        inputs_->slopes(t, du_.data());
    for (std::size_t i = 0; i < n; ++i) {
        double d = timeInput_[i];
        for (std::size_t j = 0; j < du_.size(); ++j)
            d += timeInput_[(1 + j) * n + i] * du_[j];
        dfdt[i] = d;
    }
}

// One input interpolation and no df/dt (t, u) evaluation: the variational equations need neither.
void ModelOdeSystem::rhsAndStateJacobian(double t, const double* x, double* f, double* J)
{
    setPoint(t, x);
    model_.rhsAndStateJacobian(f, J);
}

std::vector<double> ModelOdeSystem::breakpoints(double t0, double t1) const
{
    std::vector<double> all;
    if (!inputs_)
        return all;
    // Kinks within rounding of an end or of each other would leave segments of a few ulps.
    const double rounding = 1e-12 * std::max({1.0, std::abs(t0), std::abs(t1)});
    for (std::size_t i = 0; i < inputs_->size(); ++i) {
        const auto& time = inputs_->signal(i).time();
        for (auto it = std::upper_bound(time.begin(), time.end(), t0 + rounding);
             it != time.end() && *it < t1 - rounding; ++it)
            all.push_back(*it);
    }
    std::sort(all.begin(), all.end());
    std::vector<double> kept;
    for (double t : all)
        if (kept.empty() || t - kept.back() > rounding)
            kept.push_back(t);
    return kept;
}

std::unique_ptr<OdeSystem> ModelOdeSystem::clone() const
{
    return std::make_unique<ModelOdeSystem>(model_, inputs_);
}

}  // namespace sysid::shooting
