#include "engine/shooting/ShootingEquations.h"

#include "engine/core/SolverStatistics.h"
#include "engine/core/ThreadPool.h"
#include "engine/integrate/Simulator.h"
#include "engine/shooting/DampedNewton.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <string>

namespace sysid::shooting::detail {

ShootingEquations::ShootingEquations(eval::CompiledModel& model, std::size_t intervals, bool autonomous,
                                     double startTime, const integrate::IntegratorSettings& integrator,
                                     bool finiteDifferences) :
    model_(model),
    n_(model.stateCount()), N_(intervals), autonomous_(autonomous), t0_(startTime),
    finiteDifferences_(finiteDifferences), integrator_(integrator), ends_(intervals), blocks_(intervals),
    stepHints_(intervals, 0.0)
{
    if (N_ == 0)
        throw std::invalid_argument("at least one shooting interval is needed");
}

void ShootingEquations::useStepHints(bool on)
{
    useStepHints_ = on;
    std::fill(stepHints_.begin(), stepHints_.end(), 0.0);
}

double ShootingEquations::period(const Eigen::VectorXd& z) const
{
    return autonomous_ ? z(static_cast<Eigen::Index>(N_ * n_)) : period_;
}

void ShootingEquations::setPhaseReference(const Eigen::VectorXd& xstar)
{
    xstar_ = xstar;
    fstar_ = rhs(t0_, xstar);
    if (!(fstar_.norm() > 0))
        throw std::runtime_error("the vector field vanishes at the start point (an equilibrium), so it defines no "
                                 "phase condition; start away from the equilibrium");
}

double ShootingEquations::shootingTime(std::size_t i, double period) const
{
    if (i == N_)
        return t0_ + period;
    return t0_ + static_cast<double>(i) * period / static_cast<double>(N_);
}

Eigen::VectorXd ShootingEquations::rhs(double t, const Eigen::VectorXd& x) const
{
    return rhsOf(model_, t, x);
}

Eigen::VectorXd ShootingEquations::rhsOf(eval::CompiledModel& model, double t, const Eigen::VectorXd& x) const
{
    Eigen::VectorXd f(x.size());
    integrate::setModelPoint(model, t, x.data(), inputs_);
    model.rhs(f.data());
    return f;
}

void ShootingEquations::setThreads(std::size_t threads)
{
    threads_ = threads;  // 0: every core (core::ThreadPool::participantsFor)
}

void ShootingEquations::forIntervals(const std::function<void(std::size_t, eval::CompiledModel&)>& fn)
{
    const std::size_t T = core::ThreadPool::participantsFor(threads_, N_);
    if (T <= 1) {
        for (std::size_t i = 0; i < N_; ++i)
            fn(i, model_);
        return;
    }
    // Slot 0 is the calling thread, which evaluates the equations' own model.
    while (workers_.size() + 1 < T)
        workers_.push_back(std::make_unique<eval::CompiledModel>(model_));
    for (std::size_t w = 0; w + 1 < T; ++w)
        workers_[w]->setParameters(model_.parameters());
    core::ThreadPool::shared().parallelFor(
        N_, T, [&](std::size_t i, std::size_t slot) { fn(i, slot == 0 ? model_ : *workers_[slot - 1]); });
}

Eigen::VectorXd ShootingEquations::initialUnknowns(const Eigen::VectorXd& x0, double period)
{
    const auto n = static_cast<Eigen::Index>(n_);
    Eigen::VectorXd z(static_cast<Eigen::Index>(unknowns()));
    z.head(n) = x0;
    if (N_ > 1) {
        integrate::SimulationRequest request;
        for (std::size_t i = 0; i < N_; ++i)
            request.times.push_back(shootingTime(i, period));
        request.initialState = std::vector<double>(x0.data(), x0.data() + n);
        request.stop = stop_;
        request.inputs = inputs_;
        const auto trajectory = integrate::simulate(model_, request, integrator_);
        for (std::size_t i = 1; i < N_; ++i)
            z.segment(static_cast<Eigen::Index>(i) * n, n) =
                trajectory.states.row(static_cast<Eigen::Index>(i)).transpose();
    }
    if (autonomous_)
        z(z.size() - 1) = period;
    return z;
}

Eigen::VectorXd ShootingEquations::residual(const Eigen::VectorXd& z)
{
    return evaluate(z, true);
}

Eigen::VectorXd ShootingEquations::flowResidual(const Eigen::VectorXd& z)
{
    return evaluate(z, finiteDifferences_);
}

Eigen::VectorXd ShootingEquations::evaluate(const Eigen::VectorXd& z, bool cache)
{
    const auto n = static_cast<Eigen::Index>(n_);
    const double P = period(z);
    if (!(P > 0) || !std::isfinite(P))
        throw std::runtime_error("the period became " + std::to_string(P) + " (it must stay positive)");
    Eigen::VectorXd F(static_cast<Eigen::Index>(unknowns()));
    cachedZ_.resize(0);
    blocksValid_ = false;
    samplesValid_ = false;
    const bool variational = cache && !finiteDifferences_;
    // Recording a sample by dense output in each variational integration costs about what four steps
    // of an integration of the states cost; measured on the Duffing orbit of the CVODES comparison
    // (docs/DECISIONS.md, "The orbit's samples").
    const bool recording = recordSamples_ > 0 && variational &&
        (!recordWhenCheaper_ || lastSteps_ == 0 || 4 * recordSamples_ <= lastSteps_);
    intervalSteps_.assign(N_, 0);
    std::vector<std::size_t> first;
    if (recording) {
        sampleGrid(P, recordSamples_, sampleTimes_, first);
        sampleStates_.resize(static_cast<Eigen::Index>(recordSamples_), n);
        sampleOutputs_.resize(static_cast<Eigen::Index>(recordSamples_),
                              static_cast<Eigen::Index>(model_.outputCount()));
    }
    forIntervals([&](std::size_t i, eval::CompiledModel& model) {
        const auto row = static_cast<Eigen::Index>(i) * n;
        if (!variational) {
            ends_[i] = flowEnd(model, i, P, z.segment(row, n), useStepHints_ ? &stepHints_[i] : nullptr,
                               &intervalSteps_[i]);
        } else {
            integrate::SimulationRequest request;
            const double start = shootingTime(i, P), end = shootingTime(i + 1, P);
            request.times = {start};
            std::size_t from = 0, to = 0;  // the samples of this interval: request rows 1 ..
            if (recording) {
                from = first[i];
                to = first[i + 1];
                for (std::size_t k = from; k < to; ++k)
                    if (sampleTimes_[k] > start && sampleTimes_[k] < end)
                        request.times.push_back(sampleTimes_[k]);
            }
            request.times.push_back(end);
            request.initialState = std::vector<double>(z.data() + row, z.data() + row + n);
            request.initialStateSensitivity = true;
            request.sensitivityAtEndOnly = true;
            request.stop = stop_;
            request.inputs = inputs_;
            if (useStepHints_)
                request.initialStep = stepHints_[i];
            const auto trajectory = integrate::simulate(model, request, integrator_);
            if (useStepHints_)
                stepHints_[i] = trajectory.lastStep;
            intervalSteps_[i] = trajectory.statistics.steps;
            const auto last = static_cast<Eigen::Index>(request.times.size() - 1);
            ends_[i] = trajectory.states.row(last).transpose();
            blocks_[i] = trajectory.stateInitialSensitivity.back();
            if (recording) {
                if (i == 0) {
                    sampleStates_.row(0) = trajectory.states.row(0);
                    sampleOutputs_.row(0) = trajectory.outputs.row(0);
                }
                Eigen::Index r = 1;
                for (std::size_t k = from; k < to; ++k) {
                    const bool inside = sampleTimes_[k] > start && sampleTimes_[k] < end;
                    const Eigen::Index source = inside ? r++ : (sampleTimes_[k] <= start ? 0 : last);
                    sampleStates_.row(static_cast<Eigen::Index>(k)) = trajectory.states.row(source);
                    sampleOutputs_.row(static_cast<Eigen::Index>(k)) = trajectory.outputs.row(source);
                }
            }
        }
    });
    lastSteps_ = 0;
    for (std::size_t i = 0; i < N_; ++i) {
        const auto row = static_cast<Eigen::Index>(i) * n;
        const auto next = static_cast<Eigen::Index>((i + 1) % N_) * n;
        F.segment(row, n) = ends_[i] - z.segment(next, n);
        lastSteps_ += intervalSteps_[i];
    }
    if (autonomous_) {
        if (fstar_.size() != n)
            setPhaseReference(z.head(n));
        F(F.size() - 1) = fstar_.dot(z.head(n) - xstar_);
    }
    if (cache) {
        cachedZ_ = z;
        blocksValid_ = variational;
        samplesValid_ = recording;
    }
    return F;
}

Eigen::VectorXd ShootingEquations::flowEnd(eval::CompiledModel& model, std::size_t i, double P,
                                           const Eigen::VectorXd& start, double* stepHint, std::size_t* steps)
{
    integrate::SimulationRequest request;
    request.times = {shootingTime(i, P), shootingTime(i + 1, P)};
    request.initialState = std::vector<double>(start.data(), start.data() + start.size());
    request.stop = stop_;
    request.inputs = inputs_;
    if (stepHint)
        request.initialStep = *stepHint;
    const auto trajectory = integrate::simulate(model, request, integrator_);
    if (stepHint)
        *stepHint = trajectory.lastStep;
    if (steps)
        *steps = trajectory.statistics.steps;
    return trajectory.states.row(1).transpose();
}

// Central differences of the flow; the step balances truncation against the integration
// error (about the relative tolerance): h ~ tol^(1/3) (Dennis and Schnabel, §5.6).
void ShootingEquations::ensureBlocks()
{
    if (blocksValid_)
        return;
    if (cachedZ_.size() != static_cast<Eigen::Index>(unknowns()))
        throw std::logic_error("ShootingEquations: Jacobian before a successful residual()");
    const auto n = static_cast<Eigen::Index>(n_);
    const double P = period(cachedZ_);
    const double relative = std::cbrt(std::max(integrator_.relativeTolerance, 1e-15));
    forIntervals([&](std::size_t i, eval::CompiledModel& model) {
        const Eigen::VectorXd s = cachedZ_.segment(static_cast<Eigen::Index>(i) * n, n);
        Eigen::MatrixXd block(n, n);
        for (Eigen::Index j = 0; j < n; ++j) {
            const double h = relative * std::max(1.0, std::abs(s(j)));
            Eigen::VectorXd plus = s, minus = s;
            plus(j) += h;
            minus(j) -= h;
            block.col(j) = (flowEnd(model, i, P, plus) - flowEnd(model, i, P, minus)) / (2 * h);
        }
        blocks_[i] = std::move(block);
    });
    blocksValid_ = true;
}

void ShootingEquations::jacobian(std::vector<Eigen::Triplet<double>>& triplets)
{
    ensureBlocks();
    const auto n = static_cast<Eigen::Index>(n_);
    const double P = period(cachedZ_);
    triplets.reserve(triplets.size() + N_ * static_cast<std::size_t>(n * n + n) + 2 * n_ + 2);
    for (std::size_t i = 0; i < N_; ++i) {
        const auto row = static_cast<Eigen::Index>(i) * n;
        const auto next = static_cast<Eigen::Index>((i + 1) % N_) * n;
        for (Eigen::Index c = 0; c < n; ++c)
            for (Eigen::Index r = 0; r < n; ++r)
                if (blocks_[i](r, c) != 0.0)
                    triplets.emplace_back(static_cast<int>(row + r), static_cast<int>(row + c), blocks_[i](r, c));
        for (Eigen::Index k = 0; k < n; ++k)
            triplets.emplace_back(static_cast<int>(row + k), static_cast<int>(next + k), -1.0);
    }
    if (autonomous_) {
        // dy_i(t_{i+1})/dP with t_i = t0 + i·P/N: f at the end times (i+1)/N minus the flow of
        // f at the start times i/N.
        const auto col = static_cast<int>(N_ * n_);
        for (std::size_t i = 0; i < N_; ++i) {
            const auto row = static_cast<Eigen::Index>(i) * n;
            const double N = static_cast<double>(N_);
            Eigen::VectorXd d = rhs(shootingTime(i + 1, P), ends_[i]) * (static_cast<double>(i + 1) / N);
            if (i > 0)
                d -= blocks_[i] * rhs(shootingTime(i, P), cachedZ_.segment(row, n)) * (static_cast<double>(i) / N);
            for (Eigen::Index k = 0; k < n; ++k)
                triplets.emplace_back(static_cast<int>(row + k), col, d(k));
        }
        for (Eigen::Index k = 0; k < n; ++k)
            triplets.emplace_back(col, static_cast<int>(k), fstar_(k));
    }
}

Eigen::MatrixXd ShootingEquations::parameterDerivative(const Eigen::VectorXd& z,
                                                       const std::vector<std::size_t>& parameters,
                                                       const std::vector<double>& periodDerivative)
{
    const auto n = static_cast<Eigen::Index>(n_);
    const auto m = static_cast<Eigen::Index>(parameters.size());
    const double P = period(z);
    Eigen::MatrixXd D = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(unknowns()), m);
    if (finiteDifferences_) {
        const std::vector<double> base(model_.parameters().begin(), model_.parameters().end());
        const double relative = std::cbrt(std::max(integrator_.relativeTolerance, 1e-15));
        for (Eigen::Index j = 0; j < m; ++j) {
            const std::size_t p = parameters[static_cast<std::size_t>(j)];
            const double dP = !autonomous_ && static_cast<std::size_t>(j) < periodDerivative.size()
                ? periodDerivative[static_cast<std::size_t>(j)]
                : 0.0;
            const double h = relative * std::max(1.0, std::abs(base[p]));
            std::vector<Eigen::VectorXd> ends[2] = {std::vector<Eigen::VectorXd>(N_), std::vector<Eigen::VectorXd>(N_)};
            for (int side = 0; side < 2; ++side) {
                const double sign = side == 0 ? 1.0 : -1.0;
                auto values = base;
                values[p] += sign * h;
                model_.setParameters(values);
                try {
                    forIntervals([&](std::size_t i, eval::CompiledModel& model) {
                        ends[side][i] =
                            flowEnd(model, i, P + sign * h * dP, z.segment(static_cast<Eigen::Index>(i) * n, n));
                    });
                } catch (...) {
                    model_.setParameters(base);
                    throw;
                }
            }
            model_.setParameters(base);
            for (std::size_t i = 0; i < N_; ++i)
                D.block(static_cast<Eigen::Index>(i) * n, j, n, 1) = (ends[0][i] - ends[1][i]) / (2 * h);
        }
        return D;
    }
    forIntervals([&](std::size_t i, eval::CompiledModel& model) {
        const auto row = static_cast<Eigen::Index>(i) * n;
        integrate::SimulationRequest request;
        request.times = {shootingTime(i, P), shootingTime(i + 1, P)};
        request.initialState = std::vector<double>(z.data() + row, z.data() + row + n);
        request.sensitivityParameters = parameters;
        request.initialStateSensitivity = true;
        request.stop = stop_;
        request.inputs = inputs_;
        const auto trajectory = integrate::simulate(model, request, integrator_);
        D.block(row, 0, n, m) = trajectory.stateParameterSensitivity.back();
        if (!autonomous_) {
            const Eigen::VectorXd end = trajectory.states.row(1).transpose();
            const double N = static_cast<double>(N_);
            Eigen::VectorXd dP = rhsOf(model, request.times[1], end) * (static_cast<double>(i + 1) / N);
            if (i > 0)
                dP -= trajectory.stateInitialSensitivity.back() * rhsOf(model, request.times[0], z.segment(row, n)) *
                    (static_cast<double>(i) / N);
            for (Eigen::Index j = 0; j < m; ++j)
                if (static_cast<std::size_t>(j) < periodDerivative.size() &&
                    periodDerivative[static_cast<std::size_t>(j)] != 0.0)
                    D.block(row, j, n, 1) += periodDerivative[static_cast<std::size_t>(j)] * dP;
        }
    });
    return D;
}

void ShootingEquations::sampleGrid(double P, std::size_t samples, std::vector<double>& times,
                                   std::vector<std::size_t>& first) const
{
    std::vector<double> nodes(N_ + 1);
    for (std::size_t i = 0; i <= N_; ++i)
        nodes[i] = shootingTime(i, P);
    times.resize(samples);
    for (std::size_t k = 0; k < samples; ++k) {
        double t =
            k + 1 == samples ? nodes[N_] : nodes[0] + static_cast<double>(k) * P / static_cast<double>(samples - 1);
        for (double node : nodes)
            if (std::abs(t - node) <= 1e-12 * (1.0 + std::abs(node)))
                t = node;
        times[k] = t;
    }
    first.assign(N_ + 1, samples);
    std::size_t k = 1;
    for (std::size_t i = 0; i < N_; ++i) {
        first[i] = k;
        while (k < samples && (times[k] <= nodes[i + 1] || i + 1 == N_))
            ++k;
    }
    first[N_] = samples;
}

// The orbit sampled on a uniform grid over one period, each sample integrated from the node of
// its own shooting interval (so an unstable orbit is not followed over the whole period).
void ShootingEquations::sample(const Eigen::VectorXd& z, std::size_t samples, std::vector<double>& times,
                               Eigen::MatrixXd& states, Eigen::MatrixXd& outputs)
{
    if (samplesValid_ && samples == recordSamples_ && cachedZ_.size() == z.size() && cachedZ_ == z) {
        times = sampleTimes_;
        states = sampleStates_;
        outputs = sampleOutputs_;
        return;
    }
    const auto n = static_cast<Eigen::Index>(n_);
    const double P = period(z);
    std::vector<std::size_t> first;
    sampleGrid(P, samples, times, first);
    states.resize(static_cast<Eigen::Index>(samples), n);
    outputs.resize(static_cast<Eigen::Index>(samples), static_cast<Eigen::Index>(model_.outputCount()));
    for (std::size_t i = 0; i < N_; ++i) {
        const double start = shootingTime(i, P);
        integrate::SimulationRequest request;
        request.times = {start};
        std::vector<std::size_t> rows;
        if (i == 0)
            rows.push_back(0);  // the first sample is the node itself
        for (std::size_t k = first[i]; k < first[i + 1]; ++k)
            if (times[k] > request.times.back()) {
                request.times.push_back(times[k]);
                rows.push_back(k);
            }
        if (rows.empty())
            continue;
        request.initialState = std::vector<double>(z.data() + static_cast<Eigen::Index>(i) * n,
                                                   z.data() + static_cast<Eigen::Index>(i + 1) * n);
        request.stop = stop_;
        request.inputs = inputs_;
        const auto trajectory = integrate::simulate(model_, request, integrator_);
        // rows[j] is request row j when the node is a sample (i == 0), else j + 1.
        const Eigen::Index offset = i == 0 ? 0 : 1;
        for (std::size_t j = 0; j < rows.size(); ++j) {
            const auto r = static_cast<Eigen::Index>(rows[j]);
            states.row(r) = trajectory.states.row(static_cast<Eigen::Index>(j) + offset);
            outputs.row(r) = trajectory.outputs.row(static_cast<Eigen::Index>(j) + offset);
        }
    }
}

Eigen::MatrixXd ShootingEquations::monodromy()
{
    ensureBlocks();
    Eigen::MatrixXd M = blocks_.front();
    for (std::size_t i = 1; i < N_; ++i)
        M = blocks_[i] * M;
    return M;
}

void ShootingFactorisation::factorise(Eigen::Index size, const std::vector<Eigen::Triplet<double>>& triplets)
{
    core::PhaseTimer timer(core::Phase::LinearAlgebra);
    formed_ = factorised_ = false;
    sparseViewValid_ = false;
    size_ = size;
    dense_ = size <= 48;
    if (dense_) {
        denseMatrix_.setZero(size, size);
        for (const auto& t : triplets)
            denseMatrix_(t.row(), t.col()) += t.value();
        if (!denseMatrix_.allFinite())
            throw std::runtime_error("the shooting Jacobian is not finite");
        formed_ = true;
        lu_.compute(denseMatrix_);
        checkRegular(lu_, "shooting Jacobian");
        factorised_ = true;
        return;
    }
    matrix_.resize(size, size);
    matrix_.setFromTriplets(triplets.begin(), triplets.end());
    matrix_.makeCompressed();
    if (!Eigen::Map<const Eigen::VectorXd>(matrix_.valuePtr(), matrix_.nonZeros()).allFinite())
        throw std::runtime_error("the shooting Jacobian is not finite");
    formed_ = true;
    sparse_.analyzePattern(matrix_);
    sparse_.factorize(matrix_);
    if (sparse_.info() != Eigen::Success)
        throw std::runtime_error("the shooting Jacobian is singular (sparse LU: " + sparse_.lastErrorMessage() + ")");
    factorised_ = true;
}

const Eigen::SparseMatrix<double>* ShootingFactorisation::matrix()
{
    if (!formed_)
        return nullptr;
    if (dense_ && !sparseViewValid_) {
        matrix_ = denseMatrix_.sparseView(0.0, 0.0);
        sparseViewValid_ = true;
    }
    return &matrix_;
}

Eigen::VectorXd ShootingFactorisation::solve(const Eigen::VectorXd& rhs) const
{
    if (dense_)
        return lu_.solve(rhs);
    return const_cast<Eigen::SparseLU<Eigen::SparseMatrix<double>>&>(sparse_).solve(rhs);
}

Eigen::MatrixXd ShootingFactorisation::solve(const Eigen::MatrixXd& rhs) const
{
    if (dense_)
        return lu_.solve(rhs);
    return const_cast<Eigen::SparseLU<Eigen::SparseMatrix<double>>&>(sparse_).solve(rhs);
}

}  // namespace sysid::shooting::detail
