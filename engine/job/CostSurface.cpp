#include "engine/job/CostSurface.h"

#include "engine/core/MemoryBudget.h"

#include "engine/core/ThreadPool.h"
#include "engine/data/DataError.h"
#include "engine/data/Text.h"
#include "engine/estimate/Experiment.h"
#include "engine/estimate/Fit.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/estimate/NoiseVariances.h"
#include "engine/estimate/OutputWeights.h"
#include "engine/estimate/ParameterLayout.h"
#include "engine/estimate/PriorRows.h"
#include "engine/eval/CompiledModel.h"
#include "engine/integrate/Simulator.h"
#include "engine/job/ModelText.h"
#include "engine/parallel/DistributedFor.h"
#include "engine/parallel/ExactJson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

namespace sysid::job {

namespace {

constexpr double notEvaluated = std::numeric_limits<double>::quiet_NaN();

std::size_t parameterIndex(const eval::CompiledModelSource& model, const std::string& name, const char* axis)
{
    for (std::size_t i = 0; i < model.parameterNames.size(); ++i)
        if (model.parameterNames[i] == name)
            return i;
    std::string known;
    for (const auto& n : model.parameterNames)
        known += (known.empty() ? "" : ", ") + n;
    throw JobError(JobError::Kind::Settings,
                   std::string("cost surface: the ") + axis + " axis names '" + name +
                       "', which is not a parameter of the model (parameters: " + (known.empty() ? "none" : known) +
                       ")");
}

// Each experiment's parameter values: the held values with its own fixed values applied.
std::vector<std::vector<double>> experimentValues(const eval::CompiledModelSource& model,
                                                  const std::vector<double>& held,
                                                  const std::vector<estimate::Experiment>& experiments)
{
    std::vector<std::vector<double>> values;
    for (const auto& e : experiments) {
        values.push_back(held);
        for (const auto& [name, value] : e.fixedValues)
            values.back()[parameterIndex(model, name, "experiment")] = value;
    }
    return values;
}

// The fit's prior term as a function of the two swept parameters: its priors on its unknowns
// (none unless the method uses them), the unknowns other than x and y at their held values.
struct PriorTerm {
    std::vector<std::optional<estimate::Prior>> priors;
    Eigen::VectorXd theta;
    std::vector<Eigen::Index> xSlots, ySlots;  // unknowns that are the x / y parameter

    double at(double xv, double yv) const
    {
        if (priors.empty())
            return 0.0;
        Eigen::VectorXd point = theta;
        for (Eigen::Index k : xSlots)
            point(k) = xv;
        for (Eigen::Index k : ySlots)
            point(k) = yv;
        return estimate::priorCost(priors, point);
    }
};

PriorTerm priorTerm(const eval::CompiledModelSource& model, const std::vector<double>& held,
                    const std::vector<estimate::Experiment>& experiments, const estimate::FitSettings& settings,
                    std::size_t ix, std::size_t iy)
{
    PriorTerm term;
    if (!estimate::takes(settings.method, estimate::MethodInput::Priors))
        return term;
    std::vector<std::map<std::string, double>> fixedValues;
    for (const auto& e : experiments)
        fixedValues.push_back(e.fixedValues);
    try {
        const estimate::ParameterLayout layout(model, held, fixedValues);
        term.priors = estimate::priorsFor(layout, model, settings);
        term.theta = layout.initial();
        for (std::size_t u = 0; u < layout.size(); ++u) {
            const auto& unknown = layout.unknowns()[u];
            if (unknown.experiment >= 0)
                continue;  // an estimated initial value, not a model parameter
            if (unknown.modelIndex == ix)
                term.xSlots.push_back(static_cast<Eigen::Index>(u));
            if (unknown.modelIndex == iy)
                term.ySlots.push_back(static_cast<Eigen::Index>(u));
        }
    } catch (const std::invalid_argument& e) {
        throw JobError(JobError::Kind::Settings, std::string("cost surface: ") + e.what());
    } catch (const estimate::FitError& e) {
        throw JobError(JobError::Kind::Settings, std::string("cost surface: ") + e.what());
    }
    return term;
}

}  // namespace

double SurfaceAxis::value(std::size_t i) const
{
    if (i + 1 == points)
        return to;  // exactly the end, without rounding
    return from + static_cast<double>(i) * (to - from) / static_cast<double>(points - 1);
}

void SurfaceAxis::validate() const
{
    if (points < 2)
        throw core::SettingError("points", "grid points of " + parameter, std::to_string(points), core::countRule(2));
    if (!std::isfinite(from) || !std::isfinite(to) || !(from < to))
        throw core::SettingError("range", "range of " + parameter,
                                 "from " + data::formatNumber(from, 6) + " to " + data::formatNumber(to, 6),
                                 "finite numbers with from < to");
}

void CostSurface::validate() const
{
    for (const auto& [axis, name] : {std::pair{&x, "x"}, std::pair{&y, "y"}}) {
        try {
            axis->validate();
        } catch (const core::SettingError& e) {
            throw e.within(name, "the " + std::string(name) + " axis ");
        }
    }
    if (const std::string problem = gridProblem(); !problem.empty())
        throw core::SettingError("points", "grid", std::to_string(x.points) + " x " + std::to_string(y.points),
                                 "a grid that fits in memory: " + problem);
    try {
        fit.settings.validate();
    } catch (const core::SettingError& e) {
        throw e.within("fit");
    }
}

std::string CostSurface::gridProblem() const
{
    // The costs of the grid, a row's worth per thread and the axes' values.
    const double points = static_cast<double>(x.points) * static_cast<double>(y.points);
    return core::memoryProblem(points * 8.0 * 2.0,
                               "a cost surface of " + std::to_string(x.points) + " x " + std::to_string(y.points) +
                                   " points");
}

double CostSurfaceResult::minimum() const
{
    double best = notEvaluated;
    for (double c : cost)
        if (std::isfinite(c) && !(c >= best))
            best = c;
    return best;
}

std::vector<PathPoint> iterationPath(const estimate::FitResult& result, const std::string& x, const std::string& y)
{
    auto column = [&](const std::string& name) {
        std::string estimated;
        for (std::size_t k = 0; k < result.parameters.size(); ++k) {
            if (result.parameters[k].name == name)
                return k;
            estimated += (estimated.empty() ? "" : ", ") + result.parameters[k].name;
        }
        throw JobError(JobError::Kind::Settings,
                       "iteration path: the fit did not estimate '" + name +
                           "' (it estimated: " + (estimated.empty() ? "nothing" : estimated) + ")");
    };
    const std::size_t cx = column(x), cy = column(y);
    std::vector<PathPoint> path;
    for (const auto& record : result.history)
        if (cx < record.parameters.size() && cy < record.parameters.size())
            path.push_back({record.iteration, record.parameters[cx], record.parameters[cy], record.cost});
    return path;
}

CostSurfaceResult CostSurface::run(const Progress& progress, std::stop_token stop) const
{
    try {
        validate();
    } catch (const core::SettingError& e) {
        throw JobError(JobError::Kind::Settings, std::string("cost surface: ") + e.what());
    }
    // Every point is a simulation without sensitivities: no second derivatives, whatever the fit's method.
    const auto model = compileModelText(fit.modelText, fit.modelSource, {.secondDerivatives = false},
                                        fit.settings.integrator.modelCode);
    const std::vector<double> held = startingValues(*model, fit.parameterValues);
    const std::size_t ix = parameterIndex(*model, x.parameter, "x");
    const std::size_t iy = parameterIndex(*model, y.parameter, "y");
    if (ix == iy)
        throw JobError(JobError::Kind::Settings,
                       "cost surface: the x and y axes both name " + x.parameter + "; choose two different parameters");
    if (fit.experiments.empty())
        throw JobError(JobError::Kind::Data, "cost surface: no data: give at least one data set");
    const std::vector<estimate::Experiment> experiments = preparedExperiments(fit, *model);
    const auto baseValues = experimentValues(*model, held, experiments);
    std::vector<double> weights;
    // Maximum likelihood: each output's noise variance is estimated at every point, as the fit does.
    const bool likelihood = estimate::traitsOf(fit.settings.method).weighting == estimate::OutputWeighting::Estimated;
    const std::vector<double> floors = estimate::noiseVarianceFloors(experiments, model->outputCount());
    try {
        estimate::FitSettings weighting = fit.settings;
        if (likelihood)
            weighting.outputWeights.clear();
        weights = estimate::outputWeights(*model, experiments, weighting);
    } catch (const std::invalid_argument& e) {
        throw JobError(JobError::Kind::Settings, e.what());
    }
    const PriorTerm prior = priorTerm(*model, held, experiments, fit.settings, ix, iy);
    integrate::IntegratorSettings integrator = fit.settings.integrator;
    integrate::resolveMethod(integrator, *model);

    CostSurfaceResult result;
    result.x = x;
    result.y = y;
    for (std::size_t i = 0; i < x.points; ++i)
        result.xValues.push_back(x.value(i));
    for (std::size_t i = 0; i < y.points; ++i)
        result.yValues.push_back(y.value(i));
    result.cost.assign(x.points * y.points, notEvaluated);

    // 1/2 sum_j w_j sum_s (y_measured - y_model)^2 over the experiments, as OutputErrorProblem forms
    // it (maximum likelihood: -ln L with the variances estimated here), plus the prior rows'
    // 1/2 sum_k ((theta_k - mean_k) / sd_k)^2 when the fit has them.
    auto costAt = [&](eval::CompiledModel& compiled, double xv, double yv, std::stop_token pointStop) -> double {
        double sum = 0.0;
        std::vector<estimate::OutputSquares> squares(likelihood ? weights.size() : 0);
        for (std::size_t e = 0; e < experiments.size(); ++e) {
            const auto& ex = experiments[e];
            std::vector<double> values = baseValues[e];
            values[ix] = xv;
            values[iy] = yv;
            compiled.setParameters(values);
            integrate::SimulationRequest request;
            request.times = ex.times;
            request.inputs = &ex.inputs;
            request.stop = pointStop;
            const integrate::Trajectory tr = integrate::simulate(compiled, request, integrator);
            for (std::size_t j = 0; j < ex.outputMeasured.size(); ++j) {
                if (!ex.outputMeasured[j] || weights[j] == 0)
                    continue;
                const auto jj = static_cast<Eigen::Index>(j);
                const double outputSquares = (ex.measured.col(jj) - tr.outputs.col(jj)).squaredNorm();
                sum += weights[j] * outputSquares;
                if (likelihood) {
                    squares[j].squares += outputSquares;
                    squares[j].samples += ex.times.size();
                }
            }
        }
        if (likelihood)
            return estimate::negativeLogLikelihood(squares, floors) + prior.at(xv, yv);
        return 0.5 * sum + prior.at(xv, yv);
    };

    // One row of the grid, as the text it travels to process 0 in (parallel::distributedFor):
    // {"costs": [...], "failed": points that failed, "failure": the first one's message}.
    const parallel::ProcessGroup& group = processes ? *processes : parallel::singleProcess();
    std::vector<std::unique_ptr<eval::CompiledModel>> compiled(core::ThreadPool::shared().workerCount() + 1);
    const auto computeRow = [&](std::size_t row, std::size_t slot,
                                std::stop_token rowStop) -> std::optional<std::string> {
        if (!compiled[slot])
            compiled[slot] = std::make_unique<eval::CompiledModel>(model);
        std::vector<double> costs(x.points, notEvaluated);
        std::size_t failed = 0;
        std::string failure;
        for (std::size_t col = 0; col < x.points && !rowStop.stop_requested(); ++col) {
            try {
                costs[col] = costAt(*compiled[slot], result.xValues[col], result.yValues[row], rowStop);
            } catch (const integrate::IntegrationError& error) {
                if (rowStop.stop_requested())
                    break;
                ++failed;
                if (failure.empty())
                    failure = x.parameter + " = " + data::formatNumber(result.xValues[col], 6) + ", " + y.parameter +
                        " = " + data::formatNumber(result.yValues[row], 6) + ": " + error.what();
            }
        }
        if (rowStop.stop_requested())
            return std::nullopt;  // a row broken off stays NaN: a partial row would look like a finished one
        return nlohmann::json{{"costs", parallel::exactNumbers(costs)}, {"failed", failed}, {"failure", failure}}
            .dump();
    };
    std::size_t done = 0;
    const auto rows = parallel::distributedFor(
        group, y.points, threads, computeRow,
        [&](const parallel::IndexResult&) {
            done += x.points;
            if (progress)
                progress(done, result.cost.size());
        },
        stop);

    result.ranks = group.size();
    if (!group.isRoot())
        return result;
    result.rowRanks.assign(y.points, -1);
    for (const parallel::IndexResult& r : rows) {
        result.rowRanks[r.index] = r.rank;
        if (r.failed) {  // not an integration failure, which the row records: the row stays empty
            result.failedPoints += x.points;
            if (result.firstFailure.empty())
                result.firstFailure =
                    y.parameter + " = " + data::formatNumber(result.yValues[r.index], 6) + ": " + r.text;
            continue;
        }
        const nlohmann::json row = nlohmann::json::parse(r.text);
        const std::vector<double> costs = parallel::exactNumbers(row.at("costs"));
        std::copy(costs.begin(), costs.end(), result.cost.begin() + static_cast<std::ptrdiff_t>(r.index * x.points));
        result.failedPoints += row.at("failed").get<std::size_t>();
        if (result.firstFailure.empty())
            result.firstFailure = row.at("failure").get<std::string>();
    }
    result.cancelled = rows.size() < y.points;
    return result;
}

}  // namespace sysid::job
