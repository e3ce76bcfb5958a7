#include "engine/discretise/PeriodicDiscretisation.h"

#include "engine/discretise/DiscretisedPeriodicSystem.h"
#include "engine/integrate/Simulator.h"
#include "engine/shooting/PeriodicShooting.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sysid::discretise {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

// A problem in the request, reported before any iteration.
struct BadRequest : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

bool dependsOnTime(const eval::CompiledModelSource& source)
{
    for (const auto& e : source.rhsTimeInputJacobian.entries)
        if (e.column == 0)
            return true;
    return false;
}

void checkRequest(const eval::CompiledModel& model, const std::vector<double>& times, const MatrixXd& states,
                  const DiscretisationSettings& s)
{
    if (model.stateCount() == 0)
        throw BadRequest("the model has no states");
    if (auto problem = shooting::periodicInputProblem(model, s.inputs, s.period); !problem.empty())
        throw BadRequest(problem);
    if (s.nodes < 3)
        throw BadRequest("nodes must be at least 3 (got " + std::to_string(s.nodes) + ")");
    if (s.periods < 1)
        throw BadRequest("periods must be at least 1");
    if (!(s.period > 0.0) || !std::isfinite(s.period))
        throw BadRequest("the period must be positive (got " + std::to_string(s.period) + ")");
    if (!std::isfinite(s.startTime))
        throw BadRequest("the start time is not finite");
    if (states.cols() != static_cast<Index>(model.stateCount()))
        throw BadRequest("the guess has " + std::to_string(states.cols()) + " columns, the model " +
                         std::to_string(model.stateCount()) + " states");
    if (states.rows() == 0)
        throw BadRequest("the guess has no samples");
    if (!states.allFinite())
        throw BadRequest("the guess contains values that are not finite");
    if (states.rows() == 1)
        return;
    if (times.size() != static_cast<std::size_t>(states.rows()))
        throw BadRequest("the guess has " + std::to_string(times.size()) + " times for " +
                         std::to_string(states.rows()) + " samples");
    for (std::size_t k = 0; k < times.size(); ++k)
        if (!std::isfinite(times[k]) || (k > 0 && !(times[k] > times[k - 1])))
            throw BadRequest("the guess times must be finite and strictly increasing (at sample " + std::to_string(k) +
                             ", t = " + std::to_string(times[k]) + ")");
}

// The guess at the node times, each mapped into the guess's first period [t_0, t_0 + P); past its
// last sample the guess is closed periodically towards its first sample at t_0 + P.
MatrixXd guessAtNodes(const std::vector<double>& times, const MatrixXd& states, const std::vector<double>& nodeTimes,
                      double period)
{
    MatrixXd out(static_cast<Index>(nodeTimes.size()), states.cols());
    for (std::size_t j = 0; j < nodeTimes.size(); ++j) {
        const auto row = static_cast<Index>(j);
        if (states.rows() == 1) {
            out.row(row) = states.row(0);
            continue;
        }
        double t = std::fmod(nodeTimes[j] - times.front(), period);
        if (t < 0.0)
            t += period;
        t += times.front();
        const auto last = states.rows() - 1;
        if (t >= times.back()) {
            const double span = times.front() + period - times.back();
            const double w = span > 0.0 ? std::clamp((t - times.back()) / span, 0.0, 1.0) : 0.0;
            out.row(row) = (1.0 - w) * states.row(last) + w * states.row(0);
            continue;
        }
        const auto k = static_cast<Index>(std::upper_bound(times.begin(), times.end(), t) - times.begin()) - 1;
        const double w = (t - times[static_cast<std::size_t>(k)]) /
            (times[static_cast<std::size_t>(k + 1)] - times[static_cast<std::size_t>(k)]);
        out.row(row) = (1.0 - w) * states.row(k) + w * states.row(k + 1);
    }
    return out;
}

// Floquet multipliers from the variational equations integrated once over the converged orbit.
void addMonodromy(eval::CompiledModel& model, shooting::PeriodicSolution& solution, bool autonomous,
                  const integrate::InputSignals* inputs, std::stop_token stop)
{
    integrate::SimulationRequest request;
    request.times = {solution.times.front(), solution.times.back()};
    request.initialState =
        std::vector<double>(solution.initialState.data(), solution.initialState.data() + solution.initialState.size());
    request.initialStateSensitivity = true;
    request.inputs = inputs;
    request.stop = stop;
    integrate::IntegratorSettings settings;
    settings.relativeTolerance = 1e-10;
    settings.absoluteTolerance = 1e-12;
    try {
        const auto trajectory = integrate::simulate(model, request, settings);
        solution.monodromy = trajectory.stateInitialSensitivity.back();
        solution.floquet = shooting::analyseFloquet(solution.monodromy, autonomous);
    } catch (const std::exception& e) {
        solution.floquet.verdict = std::string("not computed: ") + e.what();
    }
}

}  // namespace

shooting::PeriodicSolution findPeriodicSolutionByDiscretisation(
    eval::CompiledModel& model, const std::vector<double>& guessTimes, const MatrixXd& guessStates,
    const DiscretisationSettings& settings, const shooting::NewtonObserver& observer, std::stop_token stop)
{
    shooting::PeriodicSolution solution;
    try {
        checkRequest(model, guessTimes, guessStates, settings);
    } catch (const BadRequest& e) {
        solution.newton.termination = core::Termination::failure(core::TerminationCriterion::InvalidSetting,
                                                                 std::string("time discretisation: ") + e.what());
        return solution;
    }

    const bool autonomous = settings.kind == shooting::PeriodKind::Autonomous ||
        (settings.kind == shooting::PeriodKind::Automatic && !dependsOnTime(model.source()) && !settings.inputs);
    const std::size_t M = settings.nodes * settings.periods;
    const double guessPeriod = settings.period * static_cast<double>(settings.periods);
    std::vector<double> nodeTimes(M);
    for (std::size_t j = 0; j < M; ++j)
        nodeTimes[j] = settings.startTime + guessPeriod * static_cast<double>(j) / static_cast<double>(M);
    const MatrixXd guess = guessAtNodes(guessTimes, guessStates, nodeTimes, guessPeriod);

    std::optional<DiscretisedPeriodicSystem::Anchor> anchor;
    if (autonomous) {
        // Poincaré anchor: node 0 stays on the hyperplane through the guess's node 0 normal to the
        // flow there (Cvitanović et al., ChaosBook, ch. "Fixed points, and how to get them": Newton on
        // (x, T) with a Poincaré-section constraint). Chosen over AUTO's integral phase condition
        // because it is one sparse row instead of a dense one.
        DiscretisedPeriodicSystem::Anchor a;
        a.point = guess.row(0).transpose();
        a.direction.resize(a.point.size());
        integrate::setModelPoint(model, settings.startTime, a.point.data(), settings.inputs);
        model.rhs(a.direction.data());
        const double norm = a.direction.norm();
        if (!(norm > 0.0) || !std::isfinite(norm)) {
            solution.newton.termination =
                core::Termination::failure(core::TerminationCriterion::InvalidSetting,
                                           "time discretisation: the guess starts at an equilibrium (f = 0 at t = " +
                                               std::to_string(settings.startTime) + "), which fixes no phase");
            return solution;
        }
        a.direction /= norm;
        anchor = std::move(a);
    }

    DiscretisedPeriodicSystem system(model, settings.scheme, M, settings.startTime, guessPeriod, anchor,
                                     settings.inputs);
    solution.newton =
        shooting::solveDampedNewton(system, system.pack(guess, guessPeriod), settings.newton, observer, stop);
    std::string& message = solution.newton.termination.message;
    if (!message.empty() && message.rfind("time discretisation", 0) != 0)
        message = "time discretisation (" + std::to_string(M) + " nodes): " + message;
    if (solution.newton.termination.criterion == core::TerminationCriterion::LineSearch)
        message += "; a right-hand side that jumps with the state (sign, max, min, abs in a "
                   "force) can leave the discrete equations without a root: other nodes, a "
                   "smoother model or shooting may help";

    const VectorXd& X = solution.newton.x;
    try {
        solution.period = system.period(X);
        const MatrixXd states = system.nodeStates(X);
        solution.initialState = states.row(0).transpose();
        solution.times.resize(M + 1);
        solution.states.resize(static_cast<Index>(M + 1), states.cols());
        solution.outputs.resize(static_cast<Index>(M + 1), static_cast<Index>(model.outputCount()));
        for (std::size_t j = 0; j <= M; ++j) {
            const auto row = static_cast<Index>(j);
            solution.times[j] = settings.startTime + solution.period * static_cast<double>(j) / static_cast<double>(M);
            solution.states.row(row) = states.row(j == M ? 0 : row);
            const VectorXd x = solution.states.row(row).transpose();
            VectorXd y(static_cast<Index>(model.outputCount()));
            integrate::setModelPoint(model, solution.times[j], x.data(), settings.inputs);
            model.outputs(y.data());
            solution.outputs.row(row) = y.transpose();
        }
    } catch (const std::exception& e) {
        // Only a non-converged iterate can have a non-positive period.
        solution.newton.termination.message += std::string("; no orbit to report: ") + e.what();
        return solution;
    }
    if (solution.converged())
        addMonodromy(model, solution, autonomous, settings.inputs, stop);
    return solution;
}

}  // namespace sysid::discretise
