#include "engine/integrate/Simulator.h"

#include "engine/data/Text.h"
#include "engine/integrate/ExplicitEulerStability.h"
#include "engine/integrate/Integrator.h"
#include "engine/integrate/ModelSystem.h"
#include "engine/integrate/SensitivitySystem.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace sysid::integrate {

namespace {

class Recorder {
public:
    Recorder(ModelSystem& modelSystem, SensitivitySystem& system, const SimulationRequest& request) :
        model_(modelSystem.model()), modelSystem_(modelSystem), system_(system), request_(request)
    {
        const auto n = static_cast<Eigen::Index>(model_.stateCount());
        const auto samples = static_cast<Eigen::Index>(request.times.size());
        trajectory_.times = request.times;
        trajectory_.states.resize(samples, n);
        trajectory_.outputs.resize(samples, static_cast<Eigen::Index>(model_.outputCount()));
        trajectory_.sensitivityParameters = request.sensitivityParameters;
        y_.resize(model_.outputCount());
        if (modelSystem.constraints() && model_.invariantCount() > 0) {
            trajectory_.invariants.resize(samples, static_cast<Eigen::Index>(model_.invariantCount()));
            invariants_.resize(model_.invariantCount());
            for (const auto& info : model_.source().constraints.invariantInfo) {
                trajectory_.invariantConstraints.push_back(info.text);
                trajectory_.invariantLevels.push_back(info.level);
            }
        }
        // Every sample's matrices, reserved: a growing vector of 10^5 matrices moves them all again and again.
        if (system.columnCount() > 0) {
            const std::size_t kept = request.sensitivityAtEndOnly ? 1 : request.times.size();
            if (system.initialStateColumns()) {
                trajectory_.outputInitialSensitivity.reserve(kept);
                if (request.recordStateSensitivity)
                    trajectory_.stateInitialSensitivity.reserve(kept);
            }
            if (!request.sensitivityParameters.empty()) {
                trajectory_.outputParameterSensitivity.reserve(kept);
                if (request.recordStateSensitivity)
                    trajectory_.stateParameterSensitivity.reserve(kept);
            }
        }
        if (n < kSparseStates) {
            gx_.resize(static_cast<Eigen::Index>(model_.outputCount()), n);
            gp_.resize(static_cast<Eigen::Index>(model_.outputCount()),
                       static_cast<Eigen::Index>(model_.parameterCount()));
            constantJacobians_ = constantEntries(model_.source().outputStateJacobian) &&
                constantEntries(model_.source().outputParamJacobian);
        } else {
            indexOutputJacobians();
        }
    }

    void record(std::size_t k, const double* z)
    {
        const std::size_t n = model_.stateCount();
        const auto row = static_cast<Eigen::Index>(k);
        for (std::size_t i = 0; i < n; ++i)
            trajectory_.states(row, static_cast<Eigen::Index>(i)) = z[i];
        modelSystem_.setPoint(request_.times[k], z);
        model_.outputs(y_.data());
        for (std::size_t i = 0; i < y_.size(); ++i)
            trajectory_.outputs(row, static_cast<Eigen::Index>(i)) = y_[i];
        if (!invariants_.empty()) {
            model_.invariants(invariants_.data(), nullptr, nullptr, nullptr);
            for (std::size_t i = 0; i < invariants_.size(); ++i)
                trajectory_.invariants(row, static_cast<Eigen::Index>(i)) = invariants_[i];
        }
        if (system_.columnCount() == 0 || (request_.sensitivityAtEndOnly && k + 1 < request_.times.size()))
            return;
        const auto nn = static_cast<Eigen::Index>(n);
        Eigen::Map<const Eigen::MatrixXd> S(z + n, nn, static_cast<Eigen::Index>(system_.columnCount()));
        const bool sparse = nn >= kSparseStates;
        if (sparse) {
            model_.outputStateJacobianValues(gxValues_.data());
        } else if (!constantJacobians_) {
            model_.outputStateJacobian(gx_.data());
        } else if (!constantsEvaluated_) {  // both, once
            model_.outputStateJacobian(gx_.data());
            model_.outputParameterJacobian(gp_.data());
            constantsEvaluated_ = true;
        }
        Eigen::Index c = 0;
        if (system_.initialStateColumns()) {
            if (request_.recordStateSensitivity)
                trajectory_.stateInitialSensitivity.push_back(S.leftCols(nn));
            Eigen::MatrixXd dy0;
            if (sparse)
                sparseOutputProduct(z + n, nn, dy0);
            else
                dy0 = gx_ * S.leftCols(nn);
            trajectory_.outputInitialSensitivity.push_back(std::move(dy0));
            c = nn;
        }
        const auto m = static_cast<Eigen::Index>(request_.sensitivityParameters.size());
        if (m == 0)
            return;
        if (request_.recordStateSensitivity)
            trajectory_.stateParameterSensitivity.push_back(S.middleCols(c, m));
        // A sink takes the sample's matrix as it comes: one buffer for all samples.
        Eigen::MatrixXd kept;
        Eigen::MatrixXd& dy = request_.outputSensitivitySink ? dy_ : kept;
        if (sparse) {
            model_.outputParameterJacobianValues(gpValues_.data());
            sparseOutputProduct(z + n + static_cast<std::size_t>(c) * n, m, dy);
            // dy/dp after dy/dx S, as the dense form adds it (its zeros change no sum).
            for (const auto& e : parameterEntries_)
                dy(e.row, e.column) += gpValues_[e.value];
        } else {
            if (!constantJacobians_)
                model_.outputParameterJacobian(gp_.data());
            const Eigen::Index ny = gx_.rows();
            dy.resize(ny, m);
            // Small: one allocation per sample (the result), no temporaries from Eigen's product; raw
            // column-major pointers, so that no store to dy makes the loop reload a matrix's size.
            const double* columns = z + n + static_cast<std::size_t>(c) * n;
            const double* gx = gx_.data();
            double* out = dy.data();
            for (Eigen::Index l = 0; l < m; ++l) {
                const double* s = columns + static_cast<std::size_t>(l) * n;
                const double* gp = gp_.data() +
                    request_.sensitivityParameters[static_cast<std::size_t>(l)] * static_cast<std::size_t>(ny);
                // dy/dx S first, then dy/dp: the order of Eigen's product and sum below.
                if (ny == 1) {  // one output: no loop over rows for the compiler to vectorise
                    double sum = 0.0;
                    for (Eigen::Index i = 0; i < nn; ++i)
                        sum += gx[i] * s[i];
                    out[l] = sum + gp[0];
                    continue;
                }
                for (Eigen::Index r = 0; r < ny; ++r) {
                    double sum = 0.0;
                    for (Eigen::Index i = 0; i < nn; ++i)
                        sum += gx[r + i * ny] * s[i];
                    out[r + l * ny] = sum + gp[r];
                }
            }
        }
        if (request_.outputSensitivitySink)
            request_.outputSensitivitySink(k, y_.data(), dy);
        else
            trajectory_.outputParameterSensitivity.push_back(std::move(dy));
    }

    Trajectory take() { return std::move(trajectory_); }

    Trajectory& trajectory() { return trajectory_; }

private:
    // Whether every entry is a number, as in an output that is a state (y = x: dy/dx = 1, dy/dp = 0):
    // then the output Jacobians are evaluated at the first sample only. On a 65 000-sample fit they
    // were 180 of the recorder's 1 070 instructions per sample.
    static bool constantEntries(const eval::SparseExpressions& jacobian)
    {
        for (const std::string& text : jacobian.expressions) {
            double value = 0.0;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (error != std::errc() || end != text.data() + text.size())
                return false;
        }
        return true;
    }

    // Outputs of a large model (a field sampled at its nodes) touch few states each: dy/dx S is
    // summed over the entries of dy/dx alone. A dense product would cost outputs x states x columns
    // per sample, and even a dense dy/dx zeroed and scanned per sample cost a tenth of a 200-node fit.
    static constexpr Eigen::Index kSparseStates = 64;

    struct ParameterEntry {
        Eigen::Index row, column;  // in dy: the output, the sensitivity column
        std::size_t value;  // in gpValues_
    };

    // Row r of dy/dx as entries rowStart_[r] .. rowStart_[r + 1] of (stateOf_, valueOf_), by state
    // (the source has one entry per nonzero derivative).
    void indexOutputJacobians()
    {
        const auto& source = model_.source();
        const std::size_t ny = model_.outputCount();
        const auto& gx = source.outputStateJacobian.entries;
        gxValues_.resize(gx.size());
        valueOf_.resize(gx.size());
        for (std::size_t k = 0; k < gx.size(); ++k)
            valueOf_[k] = k;
        std::stable_sort(valueOf_.begin(), valueOf_.end(), [&](std::size_t a, std::size_t b) {
            return gx[a].row != gx[b].row ? gx[a].row < gx[b].row : gx[a].column < gx[b].column;
        });
        rowStart_.assign(ny + 1, 0);
        for (const std::size_t k : valueOf_) {
            stateOf_.push_back(gx[k].column);
            ++rowStart_[gx[k].row + 1];
        }
        for (std::size_t r = 0; r < ny; ++r)
            rowStart_[r + 1] += rowStart_[r];
        rowValues_.resize(valueOf_.size());
        oneEntryPerRow_ = valueOf_.size() == ny;
        for (std::size_t r = 0; r < ny && oneEntryPerRow_; ++r)
            oneEntryPerRow_ = rowStart_[r + 1] - rowStart_[r] == 1;
        const auto& gp = source.outputParamJacobian.entries;
        gpValues_.resize(gp.size());
        for (std::size_t l = 0; l < request_.sensitivityParameters.size(); ++l)
            for (std::size_t k = 0; k < gp.size(); ++k)
                if (gp[k].column == request_.sensitivityParameters[l])
                    parameterEntries_.push_back(
                        {static_cast<Eigen::Index>(gp[k].row), static_cast<Eigen::Index>(l), k});
    }

    // out (outputs x count) = dy/dx times the count columns of S at `columns` (n each), each entry
    // summed from zero over its row's states in increasing order: the order, and so the bits, of
    // Eigen's product of the column-major sparse dy/dx with S that this replaces.
    void sparseOutputProduct(const double* columns, Eigen::Index count, Eigen::MatrixXd& out)
    {
        const auto ny = static_cast<Eigen::Index>(model_.outputCount());
        const std::size_t n = model_.stateCount();
        out.resize(ny, count);
        for (std::size_t k = 0; k < valueOf_.size(); ++k)
            rowValues_[k] = gxValues_[valueOf_[k]];
        for (Eigen::Index l = 0; l < count; ++l) {
            const double* s = columns + static_cast<std::size_t>(l) * n;
            double* to = out.col(l).data();
            // Outputs that are states, or scaled ones (a field at its nodes): one term each, added to
            // zero all the same (0 + -0 is +0, as in the sum).
            if (oneEntryPerRow_) {
                for (Eigen::Index r = 0; r < ny; ++r)
                    to[r] = 0.0 + rowValues_[static_cast<std::size_t>(r)] * s[stateOf_[static_cast<std::size_t>(r)]];
                continue;
            }
            for (Eigen::Index r = 0; r < ny; ++r) {
                double sum = 0.0;
                for (std::size_t k = rowStart_[static_cast<std::size_t>(r)]; k < rowStart_[static_cast<std::size_t>(r) + 1];
                     ++k)
                    sum += rowValues_[k] * s[stateOf_[k]];
                to[r] = sum;
            }
        }
    }

private:
    eval::CompiledModel& model_;
    ModelSystem& modelSystem_;
    SensitivitySystem& system_;
    const SimulationRequest& request_;
    Trajectory trajectory_;
    std::vector<double> y_, invariants_;
    Eigen::MatrixXd dy_;
    Eigen::MatrixXd gx_, gp_;  // dense, below kSparseStates
    bool constantJacobians_ = false, constantsEvaluated_ = false;
    std::vector<double> gxValues_, gpValues_;  // entries, from kSparseStates on
    std::vector<double> rowValues_;  // gxValues_ in the order of stateOf_
    bool oneEntryPerRow_ = false;
    std::vector<std::size_t> rowStart_, stateOf_, valueOf_;
    std::vector<ParameterEntry> parameterEntries_;
};

// Explicit Euler on a PDE model (method of lines) beyond its stability limit only amplifies the
// fastest spatial modes until the solution is noise or overflows: refused before integrating,
// with the limit in the user's terms. df/dx is taken at the start state.
void checkExplicitEulerStability(eval::CompiledModel& model, ModelSystem& system, const std::vector<double>& x0,
                                 const std::vector<double>& times, const IntegratorSettings& settings)
{
    if (model.source().fields.empty())
        return;
    double step = 0.0;
    for (std::size_t k = 1; k < times.size(); ++k)
        step = std::max(step, fixedSteps(times[k] - times[k - 1], settings.maxStep).size);
    system.setPoint(times.front(), x0.data());
    const ExplicitEulerLimit limit = explicitEulerLimit(model);
    // The relative slack lets a step typed from the message's rounded limit pass.
    if (step > limit.largestStep * (1 + 1e-6))
        throw IntegrationError(IntegrationError::Reason::UnstableStep, times.front(),
                               explicitEulerLimitMessage(model.source(), limit, step));
}

}  // namespace

void setModelPoint(eval::CompiledModel& model, double t, const double* x, const InputSignals* inputs)
{
    if (!inputs || inputs->size() == 0) {
        model.setPoint(t, x, nullptr);
        return;
    }
    // Few inputs: a stack buffer keeps this allocation-free on the common path.
    constexpr std::size_t kStack = 8;
    double stack[kStack];
    std::vector<double> heap;
    double* u = stack;
    if (inputs->size() > kStack) {
        heap.resize(inputs->size());
        u = heap.data();
    }
    inputs->values(t, u);
    model.setPoint(t, x, u);
}

std::vector<double> uniformGrid(double t0, double tEnd, double dt)
{
    if (!(dt > 0) || !(tEnd > t0) || !std::isfinite(t0) || !std::isfinite(tEnd))
        throw std::invalid_argument("the time grid needs dt > 0 and t_end > t_start");
    // Counted in floating point first: a cast of a count beyond size_t (t_end 1e300, dt 1) is
    // undefined and once gave a grid of one sample.
    const double samples = std::floor((tEnd - t0) / dt * (1 + 1e-12)) + 1;
    if (!(samples <= 1e8))
        throw std::invalid_argument("the time grid would have " + data::formatNumber(samples, 3) +
                                    " samples, more than 1e8; choose a larger dt or a shorter time span");
    const auto count = static_cast<std::size_t>(samples);
    std::vector<double> grid(count);
    for (std::size_t i = 0; i < count; ++i)
        grid[i] = t0 + static_cast<double>(i) * dt;
    return grid;
}

Trajectory simulate(eval::CompiledModel& model, const SimulationRequest& request, const IntegratorSettings& settings)
{
    const auto& times = request.times;
    if (times.empty())
        throw std::invalid_argument("no output times requested");
    for (std::size_t i = 1; i < times.size(); ++i)
        if (!(times[i] > times[i - 1]))
            throw std::invalid_argument("output times must be strictly increasing (sample " + std::to_string(i + 1) +
                                        ")");
    if (!(settings.relativeTolerance > 0) || !(settings.absoluteTolerance > 0))
        throw std::invalid_argument("tolerances must be positive");

    ModelSystem modelSystem(model, request.inputs);
    SensitivitySystem system(modelSystem, request.sensitivityParameters, request.initialStateSensitivity);
    std::vector<double> x0(model.stateCount());
    std::vector<double> dx0dp;
    if (request.initialState) {
        if (request.initialState->size() != model.stateCount())
            throw std::invalid_argument("the initial state needs " + std::to_string(model.stateCount()) + " values");
        x0 = *request.initialState;
    } else {
        model.initialState(x0.data());
        if (!request.sensitivityParameters.empty()) {
            dx0dp.resize(model.stateCount() * model.parameterCount());
            model.initialStateJacobian(dx0dp.data());
        }
    }
    std::vector<double> z(system.size());
    system.initialState(x0.data(), dx0dp.empty() ? nullptr : dx0dp.data(), z.data());
    for (std::size_t i = 0; i < model.stateCount(); ++i)
        if (!std::isfinite(x0[i]))
            throw IntegrationError(IntegrationError::Reason::NonFiniteState, times.front(),
                                   "the initial value of state " + model.source().stateNames[i] + " is not finite");
    if (settings.method == IntegrationMethod::Euler)
        checkExplicitEulerStability(model, modelSystem, x0, times, settings);

    Recorder recorder(modelSystem, system, request);
    IntegrationTask task;
    task.times = times;
    task.initialStep = request.initialStep;
    task.stop = request.stop;
    task.modelInitialState = !request.initialState;
    const IntegrationOutcome outcome = runIntegration(
        system, z, task, settings, [&recorder](std::size_t k, const double* x) { recorder.record(k, x); });
    Trajectory result = recorder.take();
    result.statistics = outcome.statistics;
    result.lastStep = outcome.lastStep;
    return result;
}

}  // namespace sysid::integrate
