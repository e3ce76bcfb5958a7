#pragma once

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/InputSignals.h"
#include "engine/shooting/BoundaryValueProblem.h"

#include <memory>
#include <vector>

namespace sysid::shooting {

// The state equations of a compiled model (with its current parameters) as an OdeSystem;
// model inputs are read from `inputs`, linearly interpolated at t. `inputs` must outlive
// this object and its clones. df/dt = df/dt|_explicit + df/du du/dt.
class ModelOdeSystem : public OdeSystem {
public:
    // Throws std::invalid_argument when the model has inputs and `inputs` does not give one
    // signal per model input.
    explicit ModelOdeSystem(const eval::CompiledModel& model, const integrate::InputSignals* inputs = nullptr);

    std::size_t dimension() const override { return model_.stateCount(); }
    void rhs(double t, const double* x, double* f) override;
    void jacobian(double t, const double* x, double* J, double* dfdt) override;
    void rhsAndStateJacobian(double t, const double* x, double* f, double* J) override;
    std::unique_ptr<OdeSystem> clone() const override;
    std::vector<double> breakpoints(double t0, double t1) const override;  // the input sample times

    const eval::CompiledModel& model() const { return model_; }

private:
    void setPoint(double t, const double* x);

    eval::CompiledModel model_;  // a private copy: compiled evaluators are not thread-safe
    const integrate::InputSignals* inputs_;
    std::vector<double> u_, du_, timeInput_;
    std::vector<std::size_t> hints_;  // per input: the sample segment last read
};

}  // namespace sysid::shooting
