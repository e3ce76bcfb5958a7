#pragma once

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/InputSignals.h"
#include "engine/integrate/OdeSystem.h"

#include <memory>
#include <vector>

namespace sysid::integrate {

// A compiled model (with its current parameters) as an OdeSystem: f, its exact derivatives and
// second derivatives from the model's symbolic ones, the model's parameters as the sensitivity
// parameters, and the model's inputs read from `inputs` (which must outlive this object and its
// clones). It evaluates the caller's `model` (which must outlive it); each clone owns a copy,
// since compiled evaluators are not thread-safe.
class ModelSystem final : public OdeSystem {
public:
    // Throws std::invalid_argument when the model has inputs and `inputs` does not give one signal
    // per model input.
    explicit ModelSystem(eval::CompiledModel& model, const InputSignals* inputs = nullptr);

    std::size_t dimension() const override { return model_->stateCount(); }
    std::unique_ptr<OdeSystem> clone() const override;

    void rhs(double t, const double* x, double* f) override;
    void jacobian(double t, const double* x, double* J, double* dfdt) override;
    void rhsAndStateJacobian(double t, const double* x, double* f, double* J) override;

    const JacobianPattern& statePattern() const override { return statePattern_; }
    void rhsAndJacobianValues(double t, const double* x, double* f, double* stateValues,
                              double* parameterValues) override;

    std::size_t parameterCount() const override { return model_->parameterCount(); }
    const JacobianPattern& parameterPattern() const override { return parameterPattern_; }
    void rhsAndJacobians(double t, const double* x, double* f, double* J, double* Jp) override;
    void secondDerivatives(double t, const double* x, SecondDerivatives& out) override;

    bool dependsOnTime() const override;
    std::vector<double> breakpoints(double t0, double t1) const override;  // the inputs' sample times
    void beginSegment(double start, double end) override;
    void releaseSegment() override;
    std::string stateName(std::size_t i) const override;

    // Sets the model at (t, x, u(t)), e.g. for evaluating its outputs.
    void setPoint(double t, const double* x);
    eval::CompiledModel& model() { return *model_; }
    const eval::CompiledModel& model() const { return *model_; }
    const InputSignals* inputs() const { return inputs_; }

private:
    ModelSystem(std::unique_ptr<eval::CompiledModel> owned, const InputSignals* inputs);
    void inputValues(double t, double* u, double* du);

    std::unique_ptr<eval::CompiledModel> owned_;
    eval::CompiledModel* model_;
    const InputSignals* inputs_;
    JacobianPattern statePattern_, parameterPattern_;
    std::vector<double> u_, du_, timeInput_, parameterScratch_, hessian_, mixed_;
    std::vector<std::size_t> hints_;  // per input: the sample segment last read
    InputPieces held_;  // the inputs' pieces on the current segment, if held
};

}  // namespace sysid::integrate
