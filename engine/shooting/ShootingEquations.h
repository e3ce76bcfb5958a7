#pragma once

// The shooting equations of a periodic orbit, shared by findPeriodicSolution and the
// continuation (internal to engine/shooting).

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/InputSignals.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/shooting/DampedNewton.h"

#include <Eigen/Dense>
#include <Eigen/Sparse>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <vector>

namespace sysid::shooting::detail {

// F(z) for z = [s_1; ...; s_N; (P)] (see PeriodicShooting.h). The orbit period P is a
// member for forced orbits and the last unknown for autonomous ones. Every residual()
// caches the interval ends and their Jacobians, so the Jacobian needs no new integration.
class ShootingEquations {
public:
    // finiteDifferences: interval Jacobians (and parameter derivatives) by central differences of
    // the integrated flow instead of the variational equations (for right-hand sides with jumps).
    ShootingEquations(eval::CompiledModel& model, std::size_t intervals, bool autonomous, double startTime,
                      const integrate::IntegratorSettings& integrator, bool finiteDifferences = false);

    std::size_t states() const { return n_; }
    std::size_t intervals() const { return N_; }
    bool autonomous() const { return autonomous_; }
    std::size_t unknowns() const { return N_ * n_ + (autonomous_ ? 1 : 0); }

    void setPeriod(double period) { period_ = period; }  // forced orbits
    // The model's inputs, extended periodically (InputSignals::periodic); null for a model without.
    // Not owned: it must outlive every later call.
    void setInputs(const integrate::InputSignals* inputs) { inputs_ = inputs; }
    double period(const Eigen::VectorXd& z) const;
    // The Poincaré section of an autonomous orbit: f(x*)·(s_1 - x*) = 0.
    void setPhaseReference(const Eigen::VectorXd& xstar);
    void setStop(std::stop_token stop) { stop_ = stop; }
    // The integrator of every later integration (a tolerance schedule changes it between stages).
    void setIntegrator(const integrate::IntegratorSettings& integrator) { integrator_ = integrator; }
    // On: each residual integration of an interval starts with the step the previous one of that
    // interval ended with, instead of growing it from a small default (which cost 8 short
    // intervals half their steps at 1e-4). F then depends on the evaluation history at the level
    // of the integration error, which only a loose stage can afford: at the final tolerance the
    // line search read that noise as curvature and stalled (impacting cart, kc = 1). Off by
    // default; every call clears the hints.
    void useStepHints(bool on);
    // Intervals integrated in parallel by this many threads (0 = hardware concurrency, 1 =
    // serial). Each extra thread has its own CompiledModel copy (a copy recompiles, so the
    // copies are made once and kept; their parameters follow the model's before every use).
    void setThreads(std::size_t threads);

    // z from x(t0) by integrating one orbit period through the shooting points.
    Eigen::VectorXd initialUnknowns(const Eigen::VectorXd& x0, double period);

    Eigen::VectorXd residual(const Eigen::VectorXd& z);
    // F(z) from the flow alone, without the variational equations (about a third of the work
    // of residual()): for a trial point, or a chord step with a Jacobian already factorised. Clears
    // the cache, except with differenced interval Jacobians, where F costs the same either way and
    // this is residual().
    Eigen::VectorXd flowResidual(const Eigen::VectorXd& z);
    // dF/dz at the last residual() point, as triplets (row, column, value).
    void jacobian(std::vector<Eigen::Triplet<double>>& triplets);
    // dF/dp (unknowns x parameters) at z for model parameters, where the orbit period of a
    // forced orbit depends on each parameter with derivative periodDerivative[j] (0 = fixed).
    Eigen::MatrixXd parameterDerivative(const Eigen::VectorXd& z, const std::vector<std::size_t>& parameters,
                                        const std::vector<double>& periodDerivative);
    // The orbit at z on a uniform grid of `samples` times over one period (first at t0, last
    // at t0 + P), each sample integrated from the node of its own shooting interval (so an
    // unstable orbit is not followed over the whole period).
    void sample(const Eigen::VectorXd& z, std::size_t samples, std::vector<double>& times, Eigen::MatrixXd& states,
                Eigen::MatrixXd& outputs);
    // Every residual() integrated with the variational equations also samples its orbit on
    // sample()'s grid (dense output of the same integration, so the steps are unchanged); a
    // sample() at that point then needs no integration of its own. 0 turns it off.
    void recordSamples(std::size_t samples) { recordSamples_ = samples < 2 ? 0 : samples; }
    // The same where it costs less than one integration of the states at the end (a Newton solve
    // keeps only its last integration's samples): in the first residual() (a warm start often ends
    // there), then only while the samples are at most a quarter of the steps the last one took.
    void recordSamplesWhenCheaper(std::size_t samples)
    {
        recordSamples(samples);
        recordWhenCheaper_ = true;
    }
    // Product of the interval Jacobians at the last residual() point.
    Eigen::MatrixXd monodromy();
    // f(t, x) of the model.
    Eigen::VectorXd rhs(double t, const Eigen::VectorXd& x) const;
    double shootingTime(std::size_t i, double period) const;

    const Eigen::VectorXd& cachedPoint() const { return cachedZ_; }

private:
    // F(z); cache: also the interval Jacobians (variational equations unless finite
    // differences), the orbit samples and the point, for jacobian(), monodromy() and sample().
    Eigen::VectorXd evaluate(const Eigen::VectorXd& z, bool cache);
    // With `stepHint`, the integration starts with that step (0 = the default) and leaves its last one there.
    Eigen::VectorXd flowEnd(eval::CompiledModel& model, std::size_t i, double P, const Eigen::VectorXd& start,
                            double* stepHint = nullptr, std::size_t* steps = nullptr);
    Eigen::VectorXd rhsOf(eval::CompiledModel& model, double t, const Eigen::VectorXd& x) const;
    // fn(i, model) for every interval i, spread over the worker threads; rethrows the first
    // exception of an interval after all threads finished.
    void forIntervals(const std::function<void(std::size_t, eval::CompiledModel&)>& fn);
    void ensureBlocks();
    // sample()'s grid of `samples` times over one period P, and for each interval i the first
    // sample after its start node: samples first[i] .. first[i + 1] - 1 lie in (t_i, t_{i+1}]
    // (sample 0, the start node itself, belongs to interval 0).
    void sampleGrid(double P, std::size_t samples, std::vector<double>& times, std::vector<std::size_t>& first) const;

    eval::CompiledModel& model_;
    std::size_t n_, N_;
    bool autonomous_;
    double t0_;
    bool finiteDifferences_;
    bool blocksValid_ = false;
    integrate::IntegratorSettings integrator_;
    double period_ = 0.0;
    const integrate::InputSignals* inputs_ = nullptr;
    Eigen::VectorXd xstar_, fstar_;
    std::stop_token stop_;
    std::size_t threads_ = 1;
    std::vector<std::unique_ptr<eval::CompiledModel>> workers_;
    Eigen::VectorXd cachedZ_;
    std::vector<Eigen::VectorXd> ends_;
    std::vector<Eigen::MatrixXd> blocks_;
    // Per interval, the step its last residual integration ended with (useStepHints).
    std::vector<double> stepHints_;
    bool useStepHints_ = false;
    std::size_t recordSamples_ = 0;
    bool recordWhenCheaper_ = false;
    std::vector<std::size_t> intervalSteps_;  // per interval, the steps of its last integration in evaluate()
    std::size_t lastSteps_ = 0;  // their sum: the last evaluate()'s steps over the period
    bool samplesValid_ = false;  // the recorded samples belong to cachedZ_
    std::vector<double> sampleTimes_;
    Eigen::MatrixXd sampleStates_, sampleOutputs_;
};

// Factorisation of a square matrix given by triplets: dense LU for small ones, SparseLU else.
class ShootingFactorisation {
public:
    // Throws std::runtime_error when the matrix is singular.
    void factorise(Eigen::Index size, const std::vector<Eigen::Triplet<double>>& triplets);
    Eigen::VectorXd solve(const Eigen::VectorXd& rhs) const;
    Eigen::MatrixXd solve(const Eigen::MatrixXd& rhs) const;
    // The matrix of the last factorise(), also when it was singular (nullptr when it was not finite).
    const Eigen::SparseMatrix<double>* matrix();
    // The last factorise() succeeded: solve() may be used (for a matrix of this size).
    bool holds(Eigen::Index size) const { return factorised_ && size_ == size; }
    void clear() { factorised_ = formed_ = false; }

private:
    bool dense_ = true;
    bool formed_ = false, factorised_ = false;
    Eigen::Index size_ = 0;
    Eigen::MatrixXd denseMatrix_;
    Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
    Eigen::SparseMatrix<double> matrix_;
    bool sparseViewValid_ = false;  // dense: matrix_ holds denseMatrix_'s entries
    Eigen::SparseLU<Eigen::SparseMatrix<double>> sparse_;
};

// The Newton view of a ShootingFactorisation's owner: linearise() is the caller's, the rest is
// shared by the periodic solvers.
class ShootingNewtonBase : public NewtonSystem {
public:
    explicit ShootingNewtonBase(ShootingFactorisation& factorisation) : factorisation_(factorisation) {}
    Eigen::VectorXd solve(const Eigen::VectorXd& rhs) const override { return factorisation_.solve(rhs); }
    const Eigen::SparseMatrix<double>* jacobianMatrix() override { return factorisation_.matrix(); }

protected:
    ShootingFactorisation& factorisation_;
};

}  // namespace sysid::shooting::detail
