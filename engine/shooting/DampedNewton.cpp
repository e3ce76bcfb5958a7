#include "engine/shooting/DampedNewton.h"

#include "engine/core/SolverStatistics.h"
#include "engine/data/Text.h"

#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <optional>
#include <stdexcept>

namespace sysid::shooting {

namespace {

using core::Termination;
using core::TerminationCriterion;

// J dx = rhs with the system's factorisation, timed as linear algebra.
Eigen::VectorXd solve(const NewtonSystem& system, const Eigen::VectorXd& rhs)
{
    const core::PhaseTimer timer(core::Phase::LinearAlgebra);
    return system.solve(rhs);
}

double maxAbs(const Eigen::VectorXd& v)
{
    return v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff();
}

// F(x) by `evaluate` (residual, or trialResidual where a re-used Jacobian is expected), or nothing
// when F cannot be evaluated there (the message is kept for the user).
std::optional<Eigen::VectorXd> tryResidual(
    NewtonSystem& system, const Eigen::VectorXd& x, std::size_t& count, std::string& failure,
    Eigen::VectorXd (NewtonSystem::*evaluate)(const Eigen::VectorXd&) = &NewtonSystem::residual)
{
    ++count;
    try {
        Eigen::VectorXd f = (system.*evaluate)(x);
        if (!f.allFinite()) {
            failure = "the residual is not finite";
            return std::nullopt;
        }
        return f;
    } catch (const std::exception& e) {
        failure = e.what();
        return std::nullopt;
    }
}

// Next damping factor from the quadratic (first backtrack) or cubic model of
// g(lambda) = 1/2||F(x + lambda dx)||^2 (Numerical Recipes 3rd ed., §9.7.1).
double backtrack(double lambda, double g, double lambda2, double g2, double g0, double slope, bool first)
{
    double next;
    if (first) {
        next = -slope / (2.0 * (g - g0 - slope));
    } else {
        const double r1 = g - g0 - lambda * slope;
        const double r2 = g2 - g0 - lambda2 * slope;
        const double a = (r1 / (lambda * lambda) - r2 / (lambda2 * lambda2)) / (lambda - lambda2);
        const double b = (-lambda2 * r1 / (lambda * lambda) + lambda * r2 / (lambda2 * lambda2)) / (lambda - lambda2);
        if (a == 0.0) {
            next = -slope / (2.0 * b);
        } else {
            const double disc = b * b - 3.0 * a * slope;
            if (disc < 0.0)
                next = 0.5 * lambda;
            else if (b <= 0.0)
                next = (-b + std::sqrt(disc)) / (3.0 * a);
            else
                next = -slope / (b + std::sqrt(disc));
        }
        next = std::min(next, 0.5 * lambda);
    }
    if (!std::isfinite(next))
        next = 0.5 * lambda;
    return std::max(next, 0.1 * lambda);
}

// The modified step d = -(J^T J + mu I)^-1 J^T F of NewtonSettings::modifiedSteps, with
// mu = scale * sqrt(m eps) ||J^T J||_1 (Dennis and Schnabel 1983, Alg. A6.5.1); nothing when the
// normal matrix cannot be factorised (J = 0).
std::optional<Eigen::VectorXd> modifiedStep(const Eigen::SparseMatrix<double>& J, const Eigen::VectorXd& F,
                                            double scale)
{
    const core::PhaseTimer timer(core::Phase::LinearAlgebra);
    Eigen::SparseMatrix<double> H = Eigen::SparseMatrix<double>(J.transpose()) * J;
    double norm1 = 0.0;
    for (Eigen::Index c = 0; c < H.outerSize(); ++c) {
        double column = 0.0;
        for (Eigen::SparseMatrix<double>::InnerIterator it(H, c); it; ++it)
            column += std::abs(it.value());
        norm1 = std::max(norm1, column);
    }
    if (!(norm1 > 0.0) || !std::isfinite(norm1))
        return std::nullopt;
    const double m = static_cast<double>(J.cols());
    const double mu = scale * std::sqrt(m * std::numeric_limits<double>::epsilon()) * norm1;
    Eigen::SparseMatrix<double> I(H.rows(), H.cols());
    I.setIdentity();
    H += mu * I;
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(H);
    if (ldlt.info() != Eigen::Success)
        return std::nullopt;
    Eigen::VectorXd d = -ldlt.solve(J.transpose() * F);
    if (ldlt.info() != Eigen::Success || !d.allFinite())
        return std::nullopt;
    return d;
}

// The ratio of eq. 4.42 (Vankan 1992): a re-used Jacobian's correction must shrink at least this much.
double reuseRatio(Eigen::Index unknowns)
{
    return 0.0625 * (1.0 - 1.0 / (static_cast<double>(unknowns) + 1.0));
}

void addToRun(const NewtonResult& r)
{
    if (auto* statistics = core::currentStatistics())
        statistics->add(core::NewtonStatistics{.iterations = r.iterations,
                                               .jacobianBuilds = r.jacobianEvaluations,
                                               .jacobianReuses = r.jacobianReuses,
                                               .modifiedSteps = r.modifiedSteps});
}

NewtonResult iterate(NewtonSystem& system, Eigen::VectorXd x0, const NewtonSettings& settings,
                     const NewtonObserver& observer, std::stop_token stop)
{
    NewtonResult result;
    result.x = std::move(x0);
    std::string failure;
    // A solve that re-uses Jacobians evaluates a point whose Jacobian will probably not be needed
    // (the last correction shrank as the re-use rule asks, so the next step will likely be taken on
    // the old factorisation) by the trial residual; elsewhere by the full one, which prepares the
    // Jacobian the next step builds.
    bool expectReuse = settings.reuseJacobian && settings.reuseFactorisation;  // try a handed-in one first
    auto trial = [&](const Eigen::VectorXd& x) {
        return tryResidual(system, x, result.residualEvaluations, failure,
                           settings.reuseJacobian && expectReuse ? &NewtonSystem::trialResidual
                                                                 : &NewtonSystem::residual);
    };
    auto first = trial(result.x);
    if (!first) {
        result.termination = Termination::failure(TerminationCriterion::EvaluationFailed,
                                                  "the residual cannot be evaluated at the starting point: " + failure);
        return result;
    }
    result.residual = std::move(*first);
    result.residualNorm = result.residual.norm();
    if (maxAbs(result.residual) <= settings.residualTolerance) {
        result.termination = Termination::convergence(TerminationCriterion::ResidualTolerance,
                                                      "the starting point already satisfies the equations");
        return result;
    }
    bool factorised = settings.reuseFactorisation;
    // ||J^-1 F|| of the last step's correction (eq. 4.42); infinite for a handed-in factorisation,
    // whose first step is tried unconditionally, NaN when no factorisation may be re-used.
    double lastCorrection = settings.reuseFactorisation ? std::numeric_limits<double>::infinity()
                                                        : std::numeric_limits<double>::quiet_NaN();
    bool lastStepFull = settings.reuseFactorisation;
    bool handedIn = settings.reuseFactorisation;  // the factorisation is still the one handed in
    std::size_t slowModifiedSteps = 0;
    for (std::size_t iteration = 1; iteration <= settings.maxIterations; ++iteration) {
        if (stop.stop_requested()) {
            result.termination =
                Termination::cancel("cancelled after " + std::to_string(result.iterations) + " iterations");
            return result;
        }
        const double g0 = 0.5 * result.residual.squaredNorm();

        // Fixed-Jacobian step: only a full step that contracts ||F|| enough is accepted.
        bool reused = false;
        const double contraction = settings.chordContraction > 0.0 ? settings.chordContraction
                                                                   : (handedIn && !settings.reuseJacobian ? 0.1 : 0.0);
        if (contraction > 0.0 && factorised && lastStepFull) {
            const Eigen::VectorXd dx = -solve(system, result.residual);
            const Eigen::VectorXd point = result.x + dx;
            auto f = dx.allFinite() ? trial(point) : std::nullopt;
            if (f && f->norm() <= contraction * result.residualNorm) {
                reused = true;
                result.x = point;
                result.residual = std::move(*f);
            }
        }
        // The re-use rule (Vankan 1992, eq. 4.42): the simplified correction on the old factorisation
        // is the step while it shrinks enough, and while the step decreases ||F||.
        Eigen::VectorXd dx;
        if (!reused && settings.reuseJacobian && factorised && !std::isnan(lastCorrection)) {
            dx = -solve(system, result.residual);
            const double correction = dx.norm();
            if (dx.allFinite() && correction <= reuseRatio(dx.size()) * lastCorrection) {
                auto f = trial(result.x + dx);
                if (f && 0.5 * f->squaredNorm() <= (1.0 - 2.0 * settings.armijo) * g0) {
                    reused = true;
                    result.x += dx;
                    result.residual = std::move(*f);
                    lastCorrection = correction;
                }
            }
        }

        double damping = 1.0;
        bool modified = false;
        if (reused) {
            ++result.jacobianReuses;
            expectReuse = true;
        } else {
            bool singular = false;
            std::string singularWhy;
            try {
                system.linearise(result.x);
            } catch (const std::exception& e) {
                singular = true;
                singularWhy = e.what();
            }
            ++result.jacobianEvaluations;
            handedIn = false;
            factorised = !singular;
            const Eigen::SparseMatrix<double>* J = settings.modifiedSteps ? system.jacobianMatrix() : nullptr;
            if (singular && !J) {
                result.termination = Termination::failure(TerminationCriterion::SingularJacobian, singularWhy);
                return result;
            }
            if (!singular) {
                dx = -solve(system, result.residual);
                if (!dx.allFinite()) {
                    if (!J) {
                        result.termination = Termination::failure(TerminationCriterion::SingularJacobian,
                                                                  "the Newton step is not finite (singular Jacobian)");
                        return result;
                    }
                    singular = true;
                }
            }
            // Newton's step first (unless J is singular), then modified steps with a growing mu.
            const double scales[] = {0.0, 1.0, 1e4};
            bool accepted = false;
            std::string lineSearchFailure;
            for (double scale : scales) {
                if (scale == 0.0 && singular)
                    continue;
                if (scale > 0.0) {
                    if (!J)
                        break;
                    // A point where J^T F vanishes while F does not is a minimum of ||F|| that no
                    // step can leave (Dennis and Schnabel 1983, §7.2).
                    const Eigen::VectorXd gradient = J->transpose() * result.residual;
                    if (maxAbs(gradient) * std::max(1.0, maxAbs(result.x)) <=
                        std::cbrt(std::numeric_limits<double>::epsilon()) * g0) {
                        result.termination = Termination::failure(
                            TerminationCriterion::SingularJacobian,
                            "the Jacobian is singular where ||F|| = " + data::formatNumber(result.residualNorm, 6) +
                                " has a local minimum that is not a solution; try another starting guess");
                        tryResidual(system, result.x, result.residualEvaluations, failure);
                        return result;
                    }
                    auto step = modifiedStep(*J, result.residual, scale);
                    if (!step)
                        break;
                    dx = std::move(*step);
                    modified = true;
                }
                // d/dlambda of 1/2||F||^2 along dx: -2 g0 for Newton's direction, J^T F . dx else.
                const double slope = modified ? (J->transpose() * result.residual).dot(dx) : -2.0 * g0;
                damping = 1.0;
                double lambda2 = 0.0, g2 = 0.0;
                bool firstBacktrack = true;
                while (true) {
                    const Eigen::VectorXd point = result.x + damping * dx;
                    auto f = trial(point);
                    if (f) {
                        const double g = 0.5 * f->squaredNorm();
                        if (g <= g0 + settings.armijo * damping * slope) {
                            result.x = point;
                            result.residual = std::move(*f);
                            accepted = true;
                            break;
                        }
                        const double next = backtrack(damping, g, lambda2, g2, g0, slope, firstBacktrack);
                        firstBacktrack = false;
                        lambda2 = damping;
                        g2 = g;
                        damping = next;
                    } else {
                        damping *= 0.25;  // F undefined there (integration blew up): no model to fit
                    }
                    if (damping < settings.minDamping) {
                        lineSearchFailure = f ? std::string() : " (" + failure + ")";
                        break;
                    }
                }
                if (accepted)
                    break;
            }
            if (!accepted) {
                result.termination = Termination::failure(
                    TerminationCriterion::LineSearch,
                    "necessary damping factor is too small (below " + std::to_string(settings.minDamping) + ")" +
                        (modified ? " also for modified steps" : "") +
                        "; try more shooting intervals or a better starting guess" + lineSearchFailure);
                tryResidual(system, result.x, result.residualEvaluations, failure);
                return result;
            }
            if (modified) {
                ++result.modifiedSteps;
                factorised = false;  // a singular or failed factorisation is not re-used
                // Vankan's (1992) monotonicity factor 0.9 (eq. 4.41): modified steps that keep
                // shrinking ||F|| by less crawl along a minimum of ||F|| that is no root (past a fold).
                slowModifiedSteps = result.residual.norm() > 0.9 * result.residualNorm ? slowModifiedSteps + 1 : 0;
                if (slowModifiedSteps >= 3) {
                    result.iterations = iteration;
                    result.termination = Termination::failure(
                        TerminationCriterion::SingularJacobian,
                        "Newton's steps fail and modified steps no longer decrease ||F|| (now " +
                            data::formatNumber(result.residual.norm(), 6) +
                            "): there may be no solution near here (past a fold?); try another starting guess or "
                            "parameter");
                    tryResidual(system, result.x, result.residualEvaluations, failure);
                    return result;
                }
            } else {
                slowModifiedSteps = 0;
            }
            // Re-use at the next point is likely when this correction shrank as the rule asks
            // (quadratic convergence shrinks the next one more).
            const double correction = dx.norm();
            expectReuse = factorised && damping == 1.0 && std::isfinite(lastCorrection) &&
                correction <= reuseRatio(dx.size()) * lastCorrection;
            lastCorrection = factorised ? correction : std::numeric_limits<double>::quiet_NaN();
        }
        lastStepFull = reused || damping == 1.0;
        result.iterations = iteration;
        result.residualNorm = result.residual.norm();
        if (observer)
            observer(NewtonIteration{iteration, result.residualNorm, damping, reused, modified, &result.x});

        if (maxAbs(result.residual) <= settings.residualTolerance) {
            result.termination =
                Termination::convergence(TerminationCriterion::ResidualTolerance, "residual below tolerance");
            return result;
        }
        if (!reused && !modified && damping == 1.0 && maxAbs(dx) <= settings.stepTolerance * (1.0 + maxAbs(result.x))) {
            result.termination =
                Termination::convergence(TerminationCriterion::StepTolerance, "Newton step below tolerance");
            return result;
        }
    }
    result.termination =
        Termination::iterationLimit("no convergence in " + std::to_string(settings.maxIterations) + " iterations");
    return result;
}

}  // namespace

NewtonResult solveDampedNewton(NewtonSystem& system, Eigen::VectorXd x0, const NewtonSettings& settings,
                               const NewtonObserver& observer, std::stop_token stop)
{
    NewtonResult result = iterate(system, std::move(x0), settings, observer, stop);
    addToRun(result);
    return result;
}

DenseNewtonSystem::DenseNewtonSystem(Residual residual, Jacobian jacobian) :
    residual_(std::move(residual)), jacobian_(std::move(jacobian))
{
}

Eigen::VectorXd DenseNewtonSystem::residual(const Eigen::VectorXd& x)
{
    return residual_(x);
}

void DenseNewtonSystem::linearise(const Eigen::VectorXd& x)
{
    matrix_.resize(0, 0);
    sparse_.resize(0, 0);
    Eigen::MatrixXd jacobian = jacobian_(x);
    if (!jacobian.allFinite())
        throw std::runtime_error("the Jacobian is not finite");
    matrix_ = std::move(jacobian);
    const core::PhaseTimer timer(core::Phase::LinearAlgebra);
    lu_.compute(matrix_);
    checkRegular(lu_, "Jacobian");
}

const Eigen::SparseMatrix<double>* DenseNewtonSystem::jacobianMatrix()
{
    if (matrix_.size() == 0)
        return nullptr;
    if (sparse_.rows() != matrix_.rows())
        sparse_ = matrix_.sparseView(0.0, 0.0);
    return &sparse_;
}

Eigen::VectorXd DenseNewtonSystem::solve(const Eigen::VectorXd& rhs) const
{
    return lu_.solve(rhs);
}

void checkRegular(const Eigen::PartialPivLU<Eigen::MatrixXd>& lu, const std::string& what)
{
    const Eigen::VectorXd diagonal = lu.matrixLU().diagonal().cwiseAbs();
    if (diagonal.size() == 0)
        return;
    if (!diagonal.allFinite() || diagonal.minCoeff() <= 1e-14 * diagonal.maxCoeff())
        throw std::runtime_error("the " + what + " is singular to working precision");
}

}  // namespace sysid::shooting
