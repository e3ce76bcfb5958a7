#pragma once

#include "engine/discretise/PeriodicDiscretisation.h"
#include "engine/estimate/ResponseFitProblem.h"
#include "engine/shooting/PeriodicShooting.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace sysid::estimate {

// Estimation from measured steady-state periodic responses (seed 000, ch. 5-6): the model
// response of an experiment is the periodic solution x*(t) at the current parameters, sampled at
// the measured times modulo the orbit's period P = periods * T. Residuals as in output error,
// sqrt(w_j) (y_measured - y_model), plus the prior rows (theta_k - mean_k) / sd_k.
//
// Jacobian: dy/dtheta = dg/dx (dx(t)/dx0 dx0*/dtheta + dx(t)/dtheta|x0) + dg/dtheta, with
// dx0*/dtheta from shooting::periodicParameterSensitivity (implicit-function theorem on the
// shooting equations). With the time-discretisation solver the response is the discretised
// orbit between its nodes (cubic Hermite interpolation, the Hermite-Simpson collocation
// polynomial) and the IFT runs on the discretised equations
// (discretise::discretisedParameterSensitivity); its estimates differ from shooting's by the
// discretisation error.
//
// Measured inputs (Vankan 1992's shock absorber, driven by a measured force): each experiment's
// input record is folded onto its forcing period (integrate::periodicInputsFrom: one period, or
// whole periods averaged) and extended periodically.
//
// Warm start: an evaluation starts Newton from the orbit of the last evaluation that converged,
// and with the factorised shooting Jacobian of the last orbit solved;
// the very first guess is the model simulated from its own initial state over `settlePeriods`
// periods (not from the data: outputs need not be states). A periodic solve
// that does not converge makes evaluate() fail (Levenberg-Marquardt then shortens the step).
class PeriodicResponseProblem : public ResponseFitProblem {
public:
    // Throws FitError for unusable settings: no period, an unknown, estimated, zero or
    // non-finite frequency parameter, measured inputs that cannot be folded onto the period.
    PeriodicResponseProblem(std::shared_ptr<const eval::CompiledModelSource> model, const ParameterLayout& layout,
                            const std::vector<Experiment>& experiments, std::vector<double> weights,
                            std::vector<std::optional<Prior>> priors, const integrate::IntegratorSettings& integrator,
                            const PeriodicResponseSettings& settings);

    void accept() override;

    // The forcing period T of each experiment (before multiplying by `periods`).
    const std::vector<double>& forcingPeriods() const { return forcingPeriods_; }
    // x(t0 = 0) of each experiment's orbit at the current point (empty before the first evaluation).
    const std::vector<Eigen::VectorXd>& orbitStarts() const { return orbits_; }

private:
    bool respond(std::size_t e, Response& response, const integrate::OutputSensitivitySink* sink, std::string& failure,
                 std::stop_token stop) override;
    // The periodic solution for experiment e at the model's current parameters; false with a reason.
    bool solveOrbit(std::size_t e, shooting::PeriodicSolution& solution, std::string& failure, std::stop_token stop);
    // Shooting settings of experiment e (with its Jacobian store, so not const).
    shooting::PeriodicSettings shootingSettings(std::size_t e);
    discretise::DiscretisationSettings discretisationSettings(std::size_t e) const;
    // The model response and its sensitivities (per sample: outputs x unknowns of experiment e) at
    // the folded times (tau, sample index); false with a reason.
    bool shootingResponse(std::size_t e, const shooting::PeriodicSolution& solution,
                          std::vector<std::pair<double, std::size_t>> folded, Eigen::MatrixXd& response,
                          std::vector<Eigen::MatrixXd>& sensitivity, std::string& failure, std::stop_token stop);
    bool discretisedResponse(std::size_t e, const shooting::PeriodicSolution& solution,
                             const std::vector<std::pair<double, std::size_t>>& folded, Eigen::MatrixXd& response,
                             std::vector<Eigen::MatrixXd>& sensitivity, std::string& failure);

    PeriodicResponseSettings settings_;
    std::vector<double> forcingPeriods_;
    std::vector<integrate::InputSignals> periodicInputs_;  // per experiment; empty for a model without inputs
    std::vector<Eigen::VectorXd> orbits_, pendingOrbits_;
    // Discretisation: the last converged orbit (node times and states), the next solve's guess.
    std::vector<std::vector<double>> warmTimes_;
    std::vector<Eigen::MatrixXd> warmStates_;
    // Shooting: per experiment, the factorised Jacobian of its last orbit (the orbit sensitivities'),
    // with which the next solve starts (the re-use rule of Vankan 1992, eq. 4.42).
    std::vector<shooting::ShootingJacobianStore> jacobianStores_;
};

}  // namespace sysid::estimate
