#include "engine/shooting/DampedNewton.h"

#include "engine/core/SolverStatistics.h"

#include <algorithm>
#include <cmath>
#include <exception>
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

// F(x), or nothing when F cannot be evaluated there (the message is kept for the user).
std::optional<Eigen::VectorXd> tryResidual(NewtonSystem& system, const Eigen::VectorXd& x, std::size_t& count,
                                           std::string& failure)
{
    ++count;
    try {
        Eigen::VectorXd f = system.residual(x);
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

}  // namespace

NewtonResult solveDampedNewton(NewtonSystem& system, Eigen::VectorXd x0, const NewtonSettings& settings,
                               const NewtonObserver& observer, std::stop_token stop)
{
    NewtonResult result;
    result.x = std::move(x0);
    std::string failure;
    auto first = tryResidual(system, result.x, result.residualEvaluations, failure);
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
    bool lastStepFull = settings.reuseFactorisation;
    bool handedIn = settings.reuseFactorisation;  // the factorisation is still the one handed in
    for (std::size_t iteration = 1; iteration <= settings.maxIterations; ++iteration) {
        if (stop.stop_requested()) {
            result.termination =
                Termination::cancel("cancelled after " + std::to_string(result.iterations) + " iterations");
            return result;
        }
        const double g0 = 0.5 * result.residual.squaredNorm();

        // Fixed-Jacobian step: only a full step that contracts ||F|| enough is accepted.
        bool reused = false;
        const double contraction = settings.chordContraction > 0.0 ? settings.chordContraction : (handedIn ? 0.1 : 0.0);
        if (contraction > 0.0 && factorised && lastStepFull) {
            const Eigen::VectorXd dx = -solve(system, result.residual);
            const Eigen::VectorXd trial = result.x + dx;
            auto f = dx.allFinite() ? tryResidual(system, trial, result.residualEvaluations, failure) : std::nullopt;
            if (f && f->norm() <= contraction * result.residualNorm) {
                reused = true;
                result.x = trial;
                result.residual = std::move(*f);
            }
        }

        double damping = 1.0;
        Eigen::VectorXd dx;
        if (!reused) {
            try {
                system.linearise(result.x);
            } catch (const std::exception& e) {
                result.termination = Termination::failure(TerminationCriterion::SingularJacobian, e.what());
                return result;
            }
            ++result.jacobianEvaluations;
            factorised = true;
            handedIn = false;
            dx = -solve(system, result.residual);
            if (!dx.allFinite()) {
                result.termination = Termination::failure(TerminationCriterion::SingularJacobian,
                                                          "the Newton step is not finite (singular Jacobian)");
                return result;
            }
            const double slope = -2.0 * g0;  // d/dlambda of 1/2||F||^2 along the Newton direction
            double lambda2 = 0.0, g2 = 0.0;
            bool firstBacktrack = true;
            while (true) {
                const Eigen::VectorXd trial = result.x + damping * dx;
                auto f = tryResidual(system, trial, result.residualEvaluations, failure);
                if (f) {
                    const double g = 0.5 * f->squaredNorm();
                    if (g <= g0 + settings.armijo * damping * slope) {
                        result.x = trial;
                        result.residual = std::move(*f);
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
                    result.termination = Termination::failure(
                        TerminationCriterion::LineSearch,
                        "necessary damping factor is too small (below " + std::to_string(settings.minDamping) +
                            "); try more shooting intervals or a better starting guess" +
                            (f ? std::string() : " (" + failure + ")"));
                    tryResidual(system, result.x, result.residualEvaluations, failure);
                    return result;
                }
            }
        }
        lastStepFull = reused || damping == 1.0;
        result.iterations = iteration;
        result.residualNorm = result.residual.norm();
        if (observer)
            observer(NewtonIteration{iteration, result.residualNorm, damping, reused, &result.x});

        if (maxAbs(result.residual) <= settings.residualTolerance) {
            result.termination =
                Termination::convergence(TerminationCriterion::ResidualTolerance, "residual below tolerance");
            return result;
        }
        if (!reused && damping == 1.0 && maxAbs(dx) <= settings.stepTolerance * (1.0 + maxAbs(result.x))) {
            result.termination =
                Termination::convergence(TerminationCriterion::StepTolerance, "Newton step below tolerance");
            return result;
        }
    }
    result.termination =
        Termination::iterationLimit("no convergence in " + std::to_string(settings.maxIterations) + " iterations");
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
    const Eigen::MatrixXd jacobian = jacobian_(x);
    const core::PhaseTimer timer(core::Phase::LinearAlgebra);
    lu_.compute(jacobian);
    checkRegular(lu_, "Jacobian");
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
