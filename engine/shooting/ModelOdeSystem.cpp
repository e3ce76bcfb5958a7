#include "engine/shooting/ModelOdeSystem.h"

#include <stdexcept>
#include <string>

namespace sysid::shooting {

ModelOdeSystem::ModelOdeSystem(const eval::CompiledModel& model, const integrate::InputSignals* inputs)
    : model_(model), inputs_(inputs), u_(model.inputCount(), 0.0), du_(model.inputCount(), 0.0),
      timeInput_(model.stateCount() * (1 + model.inputCount()), 0.0)
{
    const std::size_t have = inputs_ ? inputs_->size() : 0;
    if (have != model_.inputCount())
        throw std::invalid_argument("the model has " + std::to_string(model_.inputCount()) +
                                    " inputs but " + std::to_string(have) + " input signals were given");
}

void ModelOdeSystem::setPoint(double t, const double* x)
{
    if (inputs_ && !u_.empty())
        inputs_->values(t, u_.data());
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

std::unique_ptr<OdeSystem> ModelOdeSystem::clone() const { return std::make_unique<ModelOdeSystem>(model_, inputs_); }

}  // namespace sysid::shooting
