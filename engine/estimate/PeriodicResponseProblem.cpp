#include "engine/estimate/PeriodicResponseProblem.h"

#include "engine/data/Text.h"
#include "engine/discretise/DiscretisedOrbitSensitivity.h"
#include "engine/discretise/PeriodicDiscretisation.h"
#include "engine/estimate/Fit.h"
#include "engine/integrate/PeriodicInputRecord.h"
#include "engine/integrate/Simulator.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <numbers>
#include <utility>

namespace sysid::estimate {

namespace {

std::string prefixFor(const std::vector<Experiment>& experiments, std::size_t e)
{
    return experiments.size() > 1 || !experiments[e].name.empty() ? "experiment " + experiments[e].name + ": "
                                                                  : std::string();
}

std::vector<double> forcingPeriodsFor(const eval::CompiledModelSource& model, const ParameterLayout& layout,
                                      const std::vector<Experiment>& experiments, const PeriodicResponseSettings& s)
{
    std::vector<double> periods;
    if (s.frequencyParameter.empty()) {
        if (!(s.period > 0) || !std::isfinite(s.period))
            throw FitError("periodic-response needs the forcing period: give a period > 0 or a frequency parameter "
                           "(period = 2*pi / its value)");
        periods.assign(experiments.size(), s.period);
        return periods;
    }
    const auto& names = model.parameterNames;
    const auto it = std::find(names.begin(), names.end(), s.frequencyParameter);
    if (it == names.end())
        throw FitError("the frequency parameter '" + s.frequencyParameter + "' is not a parameter of the model");
    const auto index = static_cast<std::size_t>(it - names.begin());
    for (const auto& u : layout.unknowns())
        if (u.modelIndex == index)
            throw FitError("the frequency parameter '" + s.frequencyParameter +
                           "' is estimated; periodic-response needs it fixed (in the model or per experiment)");
    const Eigen::VectorXd theta = layout.initial();
    for (std::size_t e = 0; e < experiments.size(); ++e) {
        const double w = layout.modelValues(theta, e)[index];
        if (!std::isfinite(w) || w == 0.0)
            throw FitError(prefixFor(experiments, e) + "the frequency parameter " + s.frequencyParameter + " is " +
                           data::formatNumber(w, 6) + "; the forcing period 2*pi/" + s.frequencyParameter +
                           " needs a finite value other than 0");
        periods.push_back(2.0 * std::numbers::pi / std::abs(w));
    }
    return periods;
}

}  // namespace

PeriodicResponseProblem::PeriodicResponseProblem(std::shared_ptr<const eval::CompiledModelSource> model,
                                                 const ParameterLayout& layout,
                                                 const std::vector<Experiment>& experiments,
                                                 std::vector<double> weights, std::vector<std::optional<Prior>> priors,
                                                 const integrate::IntegratorSettings& integrator,
                                                 const PeriodicResponseSettings& settings) :
    ResponseFitProblem(model, layout, experiments, weights, std::move(priors), integrator),
    settings_(settings)
{
    try {
        settings_.validate();
    } catch (const core::SettingError& e) {
        throw FitError("periodic-response: " + std::string(e.what()));
    }
    forcingPeriods_ = forcingPeriodsFor(*model, layout, experiments, settings_);
    if (model->inputCount() > 0)
        for (std::size_t e = 0; e < experiments_.size(); ++e) {
            try {
                periodicInputs_.push_back(
                    integrate::periodicInputsFrom(experiments_[e].inputs, forcingPeriods_[e], experiments_[e].name)
                        .inputs);
            } catch (const std::exception& error) {
                throw FitError(prefixFor(experiments_, e) +
                               "the measured inputs over one forcing period: " + error.what());
            }
        }
    for (std::size_t e = 0; e < experiments_.size(); ++e)
        for (double t : experiments_[e].times)
            if (!std::isfinite(t))
                throw FitError(prefixFor(experiments_, e) + "a sample time is not finite");
    orbits_.resize(experiments_.size());
    pendingOrbits_.resize(experiments_.size());
    warmTimes_.resize(experiments_.size());
    warmStates_.resize(experiments_.size());
    jacobianStores_.resize(experiments_.size());
}

shooting::PeriodicSettings PeriodicResponseProblem::shootingSettings(std::size_t e)
{
    shooting::PeriodicSettings s;
    s.period = forcingPeriods_[e];
    s.periods = settings_.periods;
    s.intervals = settings_.intervals;
    s.kind = shooting::PeriodKind::Forced;
    s.samples = 2;  // the response is sampled at the measured times instead
    s.integrator = integrator_;
    // Tight enough that the IFT sensitivities and the response agree to the integrator's accuracy.
    s.newton.residualTolerance = 1e-11;
    s.jacobianReuse = settings_.jacobianReuse;
    s.inputs = periodicInputs_.empty() ? nullptr : &periodicInputs_[e];
    s.jacobianStore = &jacobianStores_[e];
    return s;
}

bool PeriodicResponseProblem::solveOrbit(std::size_t e, shooting::PeriodicSolution& solution, std::string& failure,
                                         std::stop_token stop)
{
    const auto settings = shootingSettings(e);
    const double P = settings.period * static_cast<double>(settings.periods);
    const std::string prefix = prefixFor(experiments_, e);
    const bool discretised = settings_.solver == discretise::PeriodicSolver::Discretisation;
    Eigen::VectorXd guess = pendingOrbits_[e].size() > 0 ? pendingOrbits_[e] : orbits_[e];
    std::vector<double> guessTimes;
    Eigen::MatrixXd guessStates;
    try {
        if (guess.size() == 0) {
            integrate::SimulationRequest settle;
            settle.times = {0.0, P * static_cast<double>(std::max<std::size_t>(settings_.settlePeriods, 1))};
            settle.stop = stop;
            settle.inputs = settings.inputs;
            const auto tr = integrate::simulate(model_, settle, integrator_);
            guess = tr.states.row(tr.states.rows() - 1).transpose();
        }
        if (discretised && warmStates_[e].rows() > 0) {
            guessTimes = warmTimes_[e];
            guessStates = warmStates_[e];
        } else if (discretised) {
            // The orbit over one period from the guess is the discretisation's first orbit.
            integrate::SimulationRequest sweep;
            sweep.times = integrate::uniformGrid(0.0, P, P / static_cast<double>(settings_.nodes * settings_.periods));
            sweep.initialState = std::vector<double>(guess.data(), guess.data() + guess.size());
            sweep.stop = stop;
            sweep.inputs = settings.inputs;
            const auto tr = integrate::simulate(model_, sweep, integrator_);
            guessTimes = tr.times;
            guessStates = tr.states;
        }
    } catch (const std::exception& error) {
        failure = prefix + "the first guess of the periodic solution cannot be computed: " + error.what();
        return false;
    }
    if (discretised) {
        solution = discretise::findPeriodicSolutionByDiscretisation(model_, guessTimes, guessStates,
                                                                    discretisationSettings(e), {}, stop);
        if (!solution.converged()) {
            failure = prefix + "no periodic solution: " + solution.newton.termination.message;
            return false;
        }
        warmTimes_[e] = solution.times;
        warmStates_[e] = solution.states;
    } else {
        solution = shooting::findPeriodicSolution(model_, guess, settings, {}, stop);
        if (!solution.converged()) {
            failure = prefix + "no periodic solution: " + solution.newton.termination.message;
            return false;
        }
    }
    pendingOrbits_[e] = solution.initialState;
    return true;
}

discretise::DiscretisationSettings PeriodicResponseProblem::discretisationSettings(std::size_t e) const
{
    discretise::DiscretisationSettings d;
    d.period = forcingPeriods_[e];
    d.periods = settings_.periods;
    d.nodes = settings_.nodes;
    d.scheme = settings_.scheme;
    d.kind = shooting::PeriodKind::Forced;
    d.newton.residualTolerance = 1e-14;  // in h- or h^2-scaled units; the step test ends Newton at rounding level
    d.inputs = periodicInputs_.empty() ? nullptr : &periodicInputs_[e];
    return d;
}

bool PeriodicResponseProblem::shootingResponse(std::size_t e, const shooting::PeriodicSolution& solution,
                                               std::vector<std::pair<double, std::size_t>> folded,
                                               Eigen::MatrixXd& response, std::vector<Eigen::MatrixXd>& sensitivity,
                                               std::string& failure, std::stop_token stop)
{
    const double P = solution.period;
    const auto modelIndices = layout_.modelIndicesOf(e);
    std::sort(folded.begin(), folded.end());
    std::vector<double> grid{0.0};
    std::vector<std::size_t> gridIndex(folded.size());
    for (const auto& [tau, s] : folded) {
        if (tau - grid.back() > 1e-12 * P)
            grid.push_back(tau);
        gridIndex[s] = grid.size() - 1;
    }
    if (grid.size() == 1)
        grid.push_back(P);

    integrate::Trajectory tr;
    shooting::PeriodicSensitivity orbit;
    try {
        orbit = shooting::periodicParameterSensitivity(model_, solution, modelIndices, shootingSettings(e));
        integrate::SimulationRequest request;
        request.times = grid;
        request.initialState = std::vector<double>(solution.initialState.data(),
                                                   solution.initialState.data() + solution.initialState.size());
        request.initialStateSensitivity = true;
        request.sensitivityParameters = modelIndices;
        request.inputs = periodicInputs_.empty() ? nullptr : &periodicInputs_[e];
        request.stop = stop;
        tr = integrate::simulate(model_, request, integrator_);
    } catch (const std::exception& error) {
        failure = prefixFor(experiments_, e) + "the periodic response cannot be integrated: " + error.what();
        return false;
    }
    response.resize(static_cast<Eigen::Index>(folded.size()), tr.outputs.cols());
    sensitivity.resize(folded.size());
    for (std::size_t s = 0; s < folded.size(); ++s) {
        const std::size_t k = gridIndex[s];
        response.row(static_cast<Eigen::Index>(s)) = tr.outputs.row(static_cast<Eigen::Index>(k));
        // dy/dtheta = dg/dx (dx/dx0 dx0*/dtheta + dx/dtheta|x0) + dg/dtheta; the last two terms are in
        // outputParameterSensitivity.
        sensitivity[s] = tr.outputInitialSensitivity[k] * orbit.initialState + tr.outputParameterSensitivity[k];
    }
    return true;
}

bool PeriodicResponseProblem::discretisedResponse(std::size_t e, const shooting::PeriodicSolution& solution,
                                                  const std::vector<std::pair<double, std::size_t>>& folded,
                                                  Eigen::MatrixXd& response, std::vector<Eigen::MatrixXd>& sensitivity,
                                                  std::string& failure)
{
    const auto modelIndices = layout_.modelIndicesOf(e);
    std::vector<double> tau(folded.size());
    for (const auto& [t, s] : folded)
        tau[s] = t;
    try {
        const auto nodes =
            discretise::discretisedParameterSensitivity(model_, solution, modelIndices, discretisationSettings(e));
        auto samples = discretise::sampleDiscretisedOrbit(model_, solution, nodes, modelIndices, tau,
                                                          periodicInputs_.empty() ? nullptr : &periodicInputs_[e]);
        response = std::move(samples.outputs);
        sensitivity = std::move(samples.outputSensitivity);
    } catch (const std::exception& error) {
        failure =
            prefixFor(experiments_, e) + "the discretised periodic response has no sensitivities: " + error.what();
        return false;
    }
    return true;
}

bool PeriodicResponseProblem::respond(std::size_t e, Response& response, const integrate::OutputSensitivitySink*,
                                      std::string& failure, std::stop_token stop)
{
    shooting::PeriodicSolution solution;
    if (!solveOrbit(e, solution, failure, stop))
        return false;
    const double P = solution.period;
    const auto& times = experiments_[e].times;
    // The measured times folded into [0, P): one integration over a period serves every sample.
    std::vector<std::pair<double, std::size_t>> folded;
    for (std::size_t s = 0; s < times.size(); ++s) {
        double tau = std::fmod(times[s], P);
        if (tau < 0)
            tau += P;
        if (P - tau < 1e-12 * P)
            tau = 0.0;
        folded.emplace_back(tau, s);
    }
    if (settings_.solver == discretise::PeriodicSolver::Discretisation)
        return discretisedResponse(e, solution, folded, response.outputs, response.sensitivity, failure);
    return shootingResponse(e, solution, folded, response.outputs, response.sensitivity, failure, stop);
}

void PeriodicResponseProblem::accept()
{
    ResponseFitProblem::accept();
    orbits_ = pendingOrbits_;
}

}  // namespace sysid::estimate
