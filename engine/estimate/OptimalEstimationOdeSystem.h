#pragma once

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/InputSignals.h"
#include "engine/shooting/BoundaryValueProblem.h"

#include <memory>
#include <vector>

namespace sysid::estimate {

// The compiled Hamiltonian system driven by the measured signals, as the ODE the multiple
// shooting solver integrates; df/dt comes through the slopes of the interpolated signals.
class HamiltonianOdeSystem : public shooting::OdeSystem {
public:
    HamiltonianOdeSystem(std::shared_ptr<const eval::CompiledModelSource> source,
                         std::shared_ptr<const integrate::InputSignals> signals);
    std::size_t dimension() const override;
    void rhs(double t, const double* x, double* f) override;
    void jacobian(double t, const double* x, double* J, double* dfdt) override;
    std::unique_ptr<shooting::OdeSystem> clone() const override;

    // p, xi and eps at (t, x): the outputs of the Hamiltonian model.
    void outputs(double t, const double* x, double* y);

private:
    void setPoint(double t, const double* x);

    std::shared_ptr<const eval::CompiledModelSource> source_;
    eval::CompiledModel model_;
    std::shared_ptr<const integrate::InputSignals> signals_;
    std::vector<double> u_, du_, timeInput_;
};

}  // namespace sysid::estimate
