#pragma once

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/InputSignals.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/integrate/Trajectory.h"

#include <functional>
#include <optional>
#include <stop_token>
#include <vector>

namespace sysid::integrate {

// Receives each sample's outputs and dy/dp (outputs x sensitivity parameters) as they are computed.
using OutputSensitivitySink =
    std::function<void(std::size_t sample, const double* outputs, const Eigen::MatrixXd& outputParameterSensitivity)>;

struct SimulationRequest {
    // Output grid, strictly increasing; the integration starts at times.front(), where the
    // model's initial values (its "x(0)") apply.
    std::vector<double> times;
    std::optional<std::vector<double>> initialState;  // replaces the model's x0(p)
    std::vector<std::size_t> sensitivityParameters;  // model parameter indices for dx/dp
    bool initialStateSensitivity = false;  // also dx/dx0
    const InputSignals* inputs = nullptr;  // required when the model has inputs
    std::stop_token stop;
    // false: record only the outputs' sensitivities (dy/dp, dy/dx0), not the states' (n x K
    // per sample: 320 MB for 200 states, 200 parameters and 1000 samples).
    bool recordStateSensitivity = true;
    // Set: dy/dp goes to this sink sample by sample instead of into the trajectory. A fit that forms its
    // normal equations as the samples come then holds no per-sample matrices (320 MB for 200 outputs,
    // 200 parameters and 1000 samples).
    OutputSensitivitySink outputSensitivitySink;
    // Sensitivities at the last time only (the trajectory's sensitivity lists then hold one
    // entry): shooting needs them at the interval end and the states on a sampling grid.
    bool sensitivityAtEndOnly = false;
    // First step of an adaptive method; 0 = a small default the controller grows from. Shooting
    // passes the step its previous integration of the same interval ended with (Trajectory::lastStep):
    // the default costs several steps of growth per interval.
    double initialStep = 0.0;
};

// Integrates the model with its current parameters. Throws IntegrationError (with the time
// reached) when the integration cannot finish, std::invalid_argument for a bad request.
Trajectory simulate(eval::CompiledModel& model, const SimulationRequest& request, const IntegratorSettings& settings);

// The model at (t, x) with its inputs read from `inputs` at t (null when the model has none): the
// right-hand side outside an integration (shooting's phase condition, time discretisation's nodes).
void setModelPoint(eval::CompiledModel& model, double t, const double* x, const InputSignals* inputs);

// Grid t0, t0 + dt, ..., up to and including tEnd (within rounding).
std::vector<double> uniformGrid(double t0, double tEnd, double dt);

}  // namespace sysid::integrate
