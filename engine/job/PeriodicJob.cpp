#include "engine/job/PeriodicJob.h"

#include "engine/core/RunSummary.h"
#include "engine/data/Text.h"
#include "engine/eval/CompiledModel.h"
#include "engine/data/DataError.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/integrate/IntersampleChoice.h"
#include "engine/integrate/PeriodicInputRecord.h"
#include "engine/integrate/Simulator.h"
#include "engine/job/ModelText.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>

namespace sysid::job {

namespace {

std::size_t indexOf(const std::vector<std::string>& names, const std::string& name, const char* what)
{
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name)
            return i;
    std::string known;
    for (const auto& n : names)
        known += (known.empty() ? "" : ", ") + n;
    throw JobError(JobError::Kind::Settings,
                   std::string("the model has no ") + what + " '" + name + "' (it has: " + known + ")");
}

shooting::NewtonObserver newtonProgress(ProgressSink& sink)
{
    return [&sink](const shooting::NewtonIteration& it) {
        estimate::IterationRecord record;
        record.iteration = it.iteration;
        record.cost = 0.5 * it.residualNorm * it.residualNorm;
        record.lambda = it.damping;
        sink.iteration(record);
    };
}

std::string describePoint(const std::string& parameter, const shooting::BranchPoint& p)
{
    std::string line = parameter + " = " + data::formatNumber(p.parameter, 8) + "  amplitude " +
        data::formatNumber(p.amplitude, 8) + "  " + (p.stable ? "stable" : "unstable");
    if (p.type != shooting::BranchPointType::Regular)
        line += "  <- " + shooting::describe(p.type);
    return line;
}

// The record's rows within its first `periods` whole periods (all of it when 0); a record shorter
// than that is left whole, and the folding says what it lacks.
data::DataTable firstPeriods(const data::DataTable& record, std::size_t periods, double period)
{
    if (periods == 0 || record.rowCount() == 0 || !(period > 0))
        return record;
    const auto& time = record.time();
    const double end = time.front() + static_cast<double>(periods) * period - 1e-9 * period;
    std::size_t rows = 0;
    while (rows < time.size() && time[rows] < end)
        ++rows;
    data::DataTable cut = record;
    for (auto& column : cut.columns)
        column.resize(std::min(rows, column.size()));
    return cut;
}

PeriodicJob::Result solve(const PeriodicJob& job, ProgressSink& sink, std::stop_token stop)
{
    try {
        job.validate();
    } catch (const core::SettingError& e) {
        throw JobError(JobError::Kind::Settings, e.what());
    }
    // Shooting integrates the variational equations (sensitivities to x0 and the period).
    const auto source = compileModelText(
        job.modelText, job.modelSource,
        {.secondDerivatives = integrate::sensitivitiesNeedSecondDerivatives(job.shooting.integrator)},
        job.shooting.integrator.modelCode);
    if (source->inputCount() > 0 && !job.inputRecord)
        throw JobError(JobError::Kind::Settings,
                       job.modelSource + ": the model has measured input(s) " + source->inputNames.front() +
                           (source->inputCount() > 1 ? ", ..." : "") +
                           ": give their record over one forcing period (or several), or write the forcing in the "
                           "equations (e.g. B*cos(w*t))");
    if (job.inputRecord && source->inputCount() == 0)
        sink.log("note: the model has no inputs; the input record " + job.inputRecord->source + " is not used");
    for (const auto& [input, behaviour] : job.intersample)
        if (std::find(source->inputNames.begin(), source->inputNames.end(), input) == source->inputNames.end())
            throw JobError(JobError::Kind::Settings,
                           "intersample." + input + ": the model has no input '" + input + "'");
    if (source->inputCount() > 0 && job.sweep && job.sweep->frequency)
        throw JobError(JobError::Kind::Settings,
                       "sweep: the forcing period is fixed by the measured input record; a frequency sweep needs the "
                       "forcing written in the equations");
    if (job.solver == discretise::PeriodicSolver::Discretisation) {
        if (const auto refusal = eval::resetRefusal(*source, "time discretisation"); !refusal.empty())
            throw JobError(JobError::Kind::Settings, job.modelSource + ": " + refusal);
        if (const auto refusal = eval::constraintRefusal(*source, "time discretisation"); !refusal.empty())
            throw JobError(JobError::Kind::Settings, job.modelSource + ": " + refusal);
    }
    eval::CompiledModel model(source);
    model.setParameters(startingValues(*source, job.parameterValues));

    shooting::PeriodicSettings settings = job.shooting;
    integrate::resolveMethod(settings.integrator, *source);
    std::size_t sweepParameter = 0;
    if (job.sweep) {
        sweepParameter = indexOf(source->parameterNames, job.sweep->parameter, "parameter");
        std::vector<double> values(model.parameters().begin(), model.parameters().end());
        values[sweepParameter] = job.sweep->from;
        model.setParameters(values);
        if (job.sweep->frequency)
            settings.period = 2.0 * std::numbers::pi / job.sweep->from;
    }

    Eigen::VectorXd x0(static_cast<Eigen::Index>(model.stateCount()));
    model.initialState(x0.data());
    for (const auto& [name, value] : job.guess)
        x0(static_cast<Eigen::Index>(indexOf(source->stateNames, name, "state"))) = value;

    std::optional<integrate::PeriodicInputRecord> inputs;
    if (source->inputCount() > 0) {
        try {
            inputs = integrate::periodicInputsFromTable(
                source->inputNames, firstPeriods(*job.inputRecord, job.inputPeriods, settings.period), settings.period,
                job.inputColumns, integrate::intersampleChoices(source->declaredIntersample, job.intersample));
        } catch (const data::DataError& e) {
            throw JobError(JobError::Kind::Data, e.what());
        }
        settings.inputs = &inputs->inputs;
        std::string behaviours;
        for (std::size_t i = 0; i < inputs->inputs.size(); ++i)
            behaviours += (i ? ", " : "") + source->inputNames[i] + " " +
                std::string(integrate::intersampleTable.name(inputs->inputs.behaviour(i)));
        sink.log("inputs from " + job.inputRecord->source + ": " +
                 (inputs->periodsAveraged > 1 ? std::to_string(inputs->periodsAveraged) + " periods averaged, "
                                              : std::string("one period, ")) +
                 std::to_string(inputs->inputs.signal(0).size() - 1) + " samples per period (" + behaviours +
                 "), extended periodically");
    }

    const double span = settings.period * static_cast<double>(settings.periods);
    const double t0 = settings.startTime;
    std::vector<double> guessTimes{t0};
    Eigen::MatrixXd guessStates = x0.transpose();
    try {
        if (job.settlePeriods > 0) {
            integrate::SimulationRequest settle;
            settle.times = {t0, t0 + span * static_cast<double>(job.settlePeriods)};
            settle.initialState = std::vector<double>(x0.data(), x0.data() + x0.size());
            settle.inputs = settings.inputs;
            settle.stop = stop;
            x0 = integrate::simulate(model, settle, settings.integrator).states.bottomRows(1).transpose();
        }
        if (job.solver == discretise::PeriodicSolver::Discretisation) {
            // The last settled period, sampled at the nodes, is the whole-orbit guess.
            integrate::SimulationRequest orbit;
            orbit.times =
                integrate::uniformGrid(t0, t0 + span, span / static_cast<double>(job.nodes * settings.periods));
            orbit.initialState = std::vector<double>(x0.data(), x0.data() + x0.size());
            orbit.inputs = settings.inputs;
            orbit.stop = stop;
            const auto trajectory = integrate::simulate(model, orbit, settings.integrator);
            guessTimes = trajectory.times;
            guessStates = trajectory.states;
        }
    } catch (const integrate::IntegrationError& e) {
        throw JobError(JobError::Kind::Integration,
                       job.modelSource + ": settling onto the orbit from the starting guess failed: " + e.what());
    }

    PeriodicJob::Result result;
    result.stateNames = source->stateNames;
    result.outputNames = source->outputNames;
    if (job.solver == discretise::PeriodicSolver::Shooting) {
        sink.log("shooting with " + std::to_string(settings.intervals) + " interval(s), period " +
                 data::formatNumber(span, 10));
        result.solution = shooting::findPeriodicSolution(model, x0, settings, newtonProgress(sink), stop);
    } else {
        discretise::DiscretisationSettings d;
        d.period = settings.period;
        d.periods = settings.periods;
        d.nodes = job.nodes;
        d.scheme = job.scheme;
        d.kind = settings.kind;
        d.startTime = t0;
        d.newton = settings.newton;
        d.inputs = settings.inputs;
        sink.log("time discretisation with " + std::to_string(job.nodes * settings.periods) + " nodes");
        result.solution = discretise::findPeriodicSolutionByDiscretisation(model, guessTimes, guessStates, d,
                                                                           newtonProgress(sink), stop);
    }
    const auto& solution = result.solution;
    if (solution.converged() && solution.outputs.rows() > 0)
        sink.trace(0, solution.times, solution.outputs);
    sink.log(solution.converged() ? "periodic solution: " + solution.floquet.verdict
                                  : "no periodic solution: " + solution.newton.termination.message);

    if (job.sweep && solution.converged() && !stop.stop_requested()) {
        shooting::ContinuationSettings c;
        c.parameter = sweepParameter;
        c.start = job.sweep->from;
        c.end = job.sweep->to;
        c.initialStep = job.sweep->step;
        c.maxStep = std::max(job.sweep->step, std::abs(job.sweep->to - job.sweep->from) / 20.0);
        c.maxPoints = job.sweep->maxPoints;
        c.method = job.sweep->method;
        if (!job.sweep->amplitudeState.empty())
            c.amplitudeState = indexOf(source->stateNames, job.sweep->amplitudeState, "state");
        if (job.sweep->frequency)
            c.periodOf = shooting::forcingPeriodOfFrequency();
        c.periodic = settings;
        c.periodic.period = solution.period / static_cast<double>(settings.periods);
        const std::string name = job.sweep->parameter;
        result.branch = shooting::continuePeriodicSolutions(
            model, solution.initialState, c, [&](const shooting::BranchPoint& p) { sink.log(describePoint(name, p)); },
            stop);
        sink.log("continuation: " + core::describe(result.branch->termination));
    }
    return result;
}

}  // namespace

void PeriodicSweep::validate() const
{
    using core::SettingError;
    if (!std::isfinite(from) || !std::isfinite(to) || from == to)
        throw SettingError("range", "continuation range of " + parameter,
                           "from " + data::formatNumber(from, 8) + " to " + data::formatNumber(to, 8),
                           "two different finite numbers");
    if (frequency && !(from > 0 && to > 0))
        throw SettingError("range", "frequency range of " + parameter,
                           "from " + data::formatNumber(from, 8) + " to " + data::formatNumber(to, 8),
                           "frequencies > 0");
    if (!std::isfinite(step) || !(step > 0))
        throw SettingError("step", "continuation step", core::settingText(step), core::kPositive.describe());
    if (maxPoints < 2)
        throw SettingError("max_points", "branch points", std::to_string(maxPoints), core::countRule(2));
}

const core::FieldTable<PeriodicJob>& periodicJobFields()
{
    using S = PeriodicJob;
    using core::countField;
    static const core::FieldTable<S> table = [] {
        core::FieldTable<S> t{
            core::numberField<S>({.key = "period",
                                  .option = "period",
                                  .label = "period",
                                  .help = "forcing period T, or the guess of an autonomous orbit's period",
                                  .defaultText = "none: required unless --sweep with --frequency sets it"},
                                 [](S& s) -> double& { return s.shooting.period; },
                                 {core::NumberRule::Bound::NonNegative,
                                  "a number > 0 (the forcing period, or the first guess of an autonomous orbit's "
                                  "period)"}),
            countField<S>(
                {.key = "periods",
                 .option = "periods",
                 .label = "forcing periods per orbit",
                 .help = "forcing periods per orbit: n for an n*T (subharmonic) solution"},
                [](S& s) -> std::size_t& { return s.shooting.periods; }, 1),
            core::choiceField<S>(
                {.key = "solver", .option = "solver", .label = "solver", .help = "how the orbit is found"},
                [](S& s) -> discretise::PeriodicSolver& { return s.solver; },
                core::choicesOf(discretise::kPeriodicSolvers)),
            countField<S>(
                {.key = "intervals",
                 .option = "shooting-intervals",
                 .label = "shooting intervals",
                 .help = "shooting intervals (1 = single shooting)"},
                [](S& s) -> std::size_t& { return s.shooting.intervals; }, 1),
            countField<S>(
                {.key = "nodes",
                 .option = "nodes",
                 .label = "nodes per period",
                 .help = "time-discretisation nodes per forcing period"},
                [](S& s) -> std::size_t& { return s.nodes; }, 3),
            core::choiceField<S>(
                {.key = "scheme", .option = "scheme", .label = "scheme", .help = "the time discretisation's scheme"},
                [](S& s) -> discretise::PeriodicScheme& { return s.scheme; },
                core::choicesOf(discretise::kPeriodicSchemes)),
            countField<S>(
                {.key = "settle_periods",
                 .option = "settle",
                 .label = "settling periods",
                 .help = "periods simulated from the guess before Newton (0: none)"},
                [](S& s) -> std::size_t& { return s.settlePeriods; }, 0),
            countField<S>(
                {.key = "input_periods",
                 .option = "input-periods",
                 .label = "periods of the input record",
                 .help = "whole periods of the input record used from its start, averaged (0: all it holds; 1: "
                         "the first only)",
                 .defaultText = "0: all"},
                [](S& s) -> std::size_t& { return s.inputPeriods; }, 0),
            countField<S>(
                {.key = "samples",
                 .option = "samples",
                 .label = "orbit samples",
                 .help = "orbit samples over one period (shooting)"},
                [](S& s) -> std::size_t& { return s.shooting.samples; }, 2),
            countField<S>(
                {.key = "max_iterations",
                 .option = "max-iterations",
                 .label = "Newton iterations",
                 .help = "Newton iterations per solve"},
                [](S& s) -> std::size_t& { return s.shooting.newton.maxIterations; }, 1),
            core::numberField<S>(
                {.key = "tolerance",
                 .option = "tolerance",
                 .label = "Newton tolerance",
                 .help = "Newton stops when every residual is below this"},
                [](S& s) -> double& { return s.shooting.newton.residualTolerance; }, core::kPositive),
            core::choiceField<S>(
                {.key = "jacobian_reuse",
                 .option = "jacobian-reuse",
                 .label = "Jacobian re-use of the shooting Newton",
                 .help = "when the shooting Newton re-uses its Jacobian (Vankan 1992, eq. 4.42)"},
                [](S& s) -> shooting::JacobianReuse& { return s.shooting.jacobianReuse; },
                core::choicesOf(shooting::kJacobianReuse)),
            core::choiceMapField<S>(
                {.key = "intersample",
                 .option = "intersample",
                 .label = "intersample behaviour of input",
                 .help = "INPUT=BEHAVIOUR: how a measured input behaves between its samples over the period",
                 .form = "INPUT=BEHAVIOUR",
                 .defaultText = "as the model declares it (input u hold), else linear"},
                [](S& s) -> std::map<std::string, integrate::Intersample>& { return s.intersample; },
                core::choicesOf(integrate::intersampleTable)),
        };
        core::appendNested(
            t, "integrator", [](S& s) -> integrate::IntegratorSettings& { return s.shooting.integrator; },
            integrate::integratorSettingFields());
        return t;
    }();
    return table;
}

void PeriodicJob::validate() const
{
    core::validateFields(periodicJobFields(), *this);
    if (!(sweep && sweep->frequency) && !(shooting.period > 0))
        throw core::SettingError(
            "period", "period", core::settingText(shooting.period),
            "a number > 0 (the forcing period, or the first guess of an autonomous orbit's period)");
    if (sweep) {
        try {
            sweep->validate();
        } catch (const core::SettingError& e) {
            throw e.within("sweep");
        }
    }
}

PeriodicJob::Result PeriodicJob::run(ProgressSink& sink, std::stop_token stop) const
{
    const auto begin = std::chrono::steady_clock::now();
    core::RunStatistics statistics;
    Result result;
    try {
        const core::StatisticsScope scope(&statistics);
        result = solve(*this, sink, stop);
    } catch (const JobError& e) {
        sink.finished(JobStatus::Failed, e.what());
        throw;
    } catch (const std::exception& e) {
        const JobError error(JobError::Kind::Settings, e.what());
        sink.finished(JobStatus::Failed, error.what());
        throw error;
    }
    result.statistics = statistics.snapshot();
    result.statistics.seconds.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    sink.log("termination: " + core::describe(result.solution.newton.termination));
    const std::string newton = core::newtonSummary(result.statistics);
    sink.log("statistics: " + core::integrationSummary(result.statistics) + "; " +
             (newton.empty() ? std::string() : newton + "; ") + core::timeSummary(result.statistics));
    if (stop.stop_requested())
        sink.finished(JobStatus::Cancelled, "cancelled");
    else
        sink.finished(JobStatus::Succeeded,
                      result.solution.converged() ? result.solution.floquet.verdict
                                                  : result.solution.newton.termination.message);
    return result;
}

}  // namespace sysid::job
