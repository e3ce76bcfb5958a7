#include "engine/shooting/Continuation.h"

#include "engine/data/Text.h"
#include "engine/shooting/ConstrainedMonodromy.h"
#include "engine/shooting/ShootingEquations.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <numbers>
#include <optional>
#include <stdexcept>

namespace sysid::shooting {

std::string describe(BranchPointType type)
{
    switch (type) {
    case BranchPointType::Regular: return "regular";
    case BranchPointType::Fold: return "fold";
    case BranchPointType::PeriodDoubling: return "period doubling";
    }
    return "unknown";
}

std::function<double(double)> forcingPeriodOfFrequency()
{
    return [](double w) { return 2 * std::numbers::pi / w; };
}

namespace {

// (max - min)/2 of samples over one period (first and last sample coincide), each extreme
// refined by the parabola through it and its two neighbours.
double amplitudeOf(const Eigen::VectorXd& v)
{
    const Eigen::Index count = v.size() - 1;  // distinct samples on the closed orbit
    if (count < 3)
        return 0.5 * (v.maxCoeff() - v.minCoeff());
    auto refined = [&](Eigen::Index k) {
        const double y0 = v((k + count - 1) % count), y1 = v(k), y2 = v((k + 1) % count);
        const double curvature = y0 - 2 * y1 + y2;
        if (curvature == 0.0)
            return y1;
        const double offset = 0.5 * (y0 - y2) / curvature;
        return y1 - 0.25 * (y0 - y2) * offset;
    };
    Eigen::Index kmax = 0, kmin = 0;
    v.head(count).maxCoeff(&kmax);
    v.head(count).minCoeff(&kmin);
    return 0.5 * (refined(kmax) - refined(kmin));
}

// Index of the trivial multiplier of an autonomous orbit (closest to 1), or size().
std::size_t trivialIndex(const std::vector<std::complex<double>>& mu, bool autonomous)
{
    std::size_t trivial = mu.size();
    if (!autonomous)
        return trivial;
    double best = 1e300;
    for (std::size_t i = 0; i < mu.size(); ++i)
        if (std::abs(mu[i] - 1.0) < best) {
            best = std::abs(mu[i] - 1.0);
            trivial = i;
        }
    return trivial;
}

// prod(mu_i - shift) over the non-trivial multipliers; real up to rounding (conjugate pairs).
double testFunction(const std::vector<std::complex<double>>& mu, bool autonomous, double shift)
{
    const std::size_t trivial = trivialIndex(mu, autonomous);
    std::complex<double> product = 1.0;
    for (std::size_t i = 0; i < mu.size(); ++i)
        if (i != trivial)
            product *= mu[i] - shift;
    return product.real();
}

// Lagrange interpolation of the points (their last entry is the parameter) evaluated at
// parameter p: the predictor of natural continuation.
Eigen::VectorXd extrapolated(const std::vector<Eigen::VectorXd>& points, double p)
{
    const Eigen::Index last = points.back().size() - 1;
    Eigen::VectorXd y = Eigen::VectorXd::Zero(points.back().size());
    for (std::size_t j = 0; j < points.size(); ++j) {
        double weight = 1.0;
        for (std::size_t k = 0; k < points.size(); ++k)
            if (k != j)
                weight *= (p - points[k](last)) / (points[j](last) - points[k](last));
        y += weight * points[j];
    }
    y(last) = p;
    return y;
}

class Branch {
public:
    Branch(eval::CompiledModel& model, const ContinuationSettings& settings, bool autonomous) :
        model_(model), settings_(settings), autonomous_(autonomous),
        base_(model.parameters().begin(), model.parameters().end()),
        equations(model, settings.periodic.intervals, autonomous, settings.periodic.startTime,
                  settings.periodic.integrator,
                  usesFiniteDifferenceJacobian(model, settings.periodic.jacobian, settings.periodic.integrator))
    {
        equations.recordSamples(samples());
    }

    std::size_t samples() const { return std::max<std::size_t>(settings_.periodic.samples, 4); }
    ~Branch() { model_.setParameters(base_); }

    bool autonomous() const { return autonomous_; }
    std::size_t unknowns() const { return equations.unknowns(); }
    std::size_t states() const { return equations.states(); }

    void setParameter(double p)
    {
        if (p == current_)
            return;
        auto values = base_;
        values[settings_.parameter] = p;
        model_.setParameters(values);
        current_ = p;
        if (!autonomous_)
            equations.setPeriod(forcedPeriod(p));
    }

    double forcedPeriod(double p) const
    {
        const double T = settings_.periodOf ? settings_.periodOf(p) : settings_.periodic.period;
        return T * static_cast<double>(settings_.periodic.periods);
    }

    double periodDerivative(double p) const
    {
        if (autonomous_ || !settings_.periodOf)
            return 0.0;
        const double n = static_cast<double>(settings_.periodic.periods);
        if (settings_.periodDerivative)
            return settings_.periodDerivative(p) * n;
        const double h = 1e-6 * std::max(1.0, std::abs(p));
        return (settings_.periodOf(p + h) - settings_.periodOf(p - h)) / (2 * h) * n;
    }

    // The branch point at y = [z; p] (the equations must hold there).
    BranchPoint evaluate(const Eigen::VectorXd& y, std::size_t iterations)
    {
        const auto m = static_cast<Eigen::Index>(unknowns());
        const Eigen::VectorXd z = y.head(m);
        setParameter(y(m));
        if (equations.cachedPoint().size() != z.size() || equations.cachedPoint() != z || lastParameter_ != y(m))
            equations.residual(z);
        lastParameter_ = y(m);
        BranchPoint point;
        point.parameter = y(m);
        point.period = equations.period(z);
        point.initialState = z.head(static_cast<Eigen::Index>(states()));
        point.iterations = iterations;
        const auto floquet = analyseFloquet(
            onConstraints(model_, settings_.periodic.startTime, point.initialState, equations.monodromy()), autonomous_);
        point.multipliers = floquet.multipliers;
        point.stable = floquet.stable;
        std::vector<double> times;
        Eigen::MatrixXd samples, outputs;
        equations.sample(z, this->samples(), times, samples, outputs);
        point.amplitude = amplitudeOf(samples.col(static_cast<Eigen::Index>(settings_.amplitudeState)));
        return point;
    }

    void noteResidualAt(double p) { lastParameter_ = p; }

    eval::CompiledModel& model_;
    const ContinuationSettings& settings_;
    bool autonomous_;
    std::vector<double> base_;
    double current_ = std::numeric_limits<double>::quiet_NaN();
    double lastParameter_ = std::numeric_limits<double>::quiet_NaN();
    detail::ShootingEquations equations;
};

// F(z) = 0 at a fixed parameter.
class FixedParameterSystem : public detail::ShootingNewtonBase {
public:
    FixedParameterSystem(Branch& branch, double p) : ShootingNewtonBase(factorisation_), branch_(branch), p_(p) {}
    Eigen::VectorXd residual(const Eigen::VectorXd& z) override { return evaluate(z, true); }
    Eigen::VectorXd trialResidual(const Eigen::VectorXd& z) override { return evaluate(z, false); }
    void linearise(const Eigen::VectorXd& z) override
    {
        factorisation_.clear();  // J is formed anew below (or not at all, when that fails)
        if (branch_.equations.cachedPoint().size() != z.size() || branch_.equations.cachedPoint() != z ||
            branch_.lastParameter_ != p_)
            residual(z);
        std::vector<Eigen::Triplet<double>> triplets;
        branch_.equations.jacobian(triplets);
        factorisation_.factorise(z.size(), triplets);
    }

private:
    // With the variational equations (`full`, for a Jacobian at z) or from the flow alone.
    Eigen::VectorXd evaluate(const Eigen::VectorXd& z, bool full)
    {
        branch_.setParameter(p_);
        branch_.noteResidualAt(std::numeric_limits<double>::quiet_NaN());
        auto F = full ? branch_.equations.residual(z) : branch_.equations.flowResidual(z);
        branch_.noteResidualAt(p_);
        return F;
    }

    Branch& branch_;
    double p_;
    detail::ShootingFactorisation factorisation_;
};

// [F(z, p); tau·(y - yk) - ds] = 0 for y = [z; p] (Keller's pseudo-arclength system).
class ArclengthSystem : public detail::ShootingNewtonBase {
public:
    ArclengthSystem(Branch& branch, Eigen::VectorXd yk, Eigen::VectorXd tau, double ds) :
        ShootingNewtonBase(factorisation_), branch_(branch), yk_(std::move(yk)), tau_(std::move(tau)), ds_(ds)
    {
    }
    Eigen::VectorXd residual(const Eigen::VectorXd& y) override { return evaluate(y, true); }
    Eigen::VectorXd trialResidual(const Eigen::VectorXd& y) override { return evaluate(y, false); }
    void linearise(const Eigen::VectorXd& y) override
    {
        factorisation_.clear();  // J is formed anew below (or not at all, when that fails)
        const auto m = y.size() - 1;
        if (branch_.equations.cachedPoint().size() != m || branch_.equations.cachedPoint() != y.head(m) ||
            branch_.lastParameter_ != y(m))
            residual(y);
        std::vector<Eigen::Triplet<double>> triplets;
        branch_.equations.jacobian(triplets);
        const Eigen::MatrixXd Fp = branch_.equations.parameterDerivative(y.head(m), {branch_.settings_.parameter},
                                                                         {branch_.periodDerivative(y(m))});
        for (Eigen::Index i = 0; i < m; ++i)
            triplets.emplace_back(static_cast<int>(i), static_cast<int>(m), Fp(i, 0));
        for (Eigen::Index j = 0; j <= m; ++j)
            triplets.emplace_back(static_cast<int>(m), static_cast<int>(j), tau_(j));
        factorisation_.factorise(y.size(), triplets);
    }

    // The new unit tangent at y (after linearise(y)): [F_z F_p; tau_k^T] t = e_last.
    Eigen::VectorXd tangent() const
    {
        Eigen::VectorXd e = Eigen::VectorXd::Zero(yk_.size());
        e(e.size() - 1) = 1.0;
        Eigen::VectorXd t = factorisation_.solve(e);
        return t / t.norm();
    }

private:
    Eigen::VectorXd evaluate(const Eigen::VectorXd& y, bool full)
    {
        const auto m = y.size() - 1;
        branch_.setParameter(y(m));
        branch_.noteResidualAt(std::numeric_limits<double>::quiet_NaN());
        Eigen::VectorXd G(y.size());
        G.head(m) = full ? branch_.equations.residual(y.head(m)) : branch_.equations.flowResidual(y.head(m));
        branch_.noteResidualAt(y(m));
        G(m) = tau_.dot(y - yk_) - ds_;
        return G;
    }

    Branch& branch_;
    Eigen::VectorXd yk_, tau_;
    double ds_;
    detail::ShootingFactorisation factorisation_;
};

struct Corrected {
    Eigen::VectorXd y;
    NewtonResult newton;
};

}  // namespace

ContinuationResult continuePeriodicSolutions(eval::CompiledModel& model, const Eigen::VectorXd& guess,
                                             const ContinuationSettings& settings,
                                             const std::function<void(const BranchPoint&)>& progress,
                                             std::stop_token stop)
{
    ContinuationResult result;
    const auto& ps = settings.periodic;
    using core::Termination;
    using core::TerminationCriterion;
    auto stopWith = [&](Termination termination) {
        result.termination = std::move(termination);
        return result;
    };
    auto refuse = [&](const std::string& message) {
        return stopWith(Termination::failure(TerminationCriterion::InvalidSetting, message));
    };
    if (settings.parameter >= model.parameterCount())
        return refuse("the continued parameter does not exist");
    if (settings.amplitudeState >= model.stateCount())
        return refuse("the amplitude state does not exist");
    if (static_cast<std::size_t>(guess.size()) != model.stateCount())
        return refuse("the start guess has " + std::to_string(guess.size()) + " values; the model has " +
                      std::to_string(model.stateCount()) + " states");
    if (!(settings.initialStep > 0) || !(settings.minStep > 0) || !(settings.maxStep >= settings.minStep))
        return refuse("the steps must satisfy 0 < minStep <= maxStep and initialStep > 0");
    if (auto problem = periodicInputProblem(model, ps.inputs, ps.period); !problem.empty())
        return refuse(problem);
    if (ps.inputs && settings.periodOf)
        return refuse("the forcing period is fixed by the measured input record; it cannot follow the continued "
                      "parameter");
    if (ps.intervals == 0 || ps.periods == 0)
        return refuse("intervals and periods must be at least 1");
    const bool autonomous = resolvedKind(model, ps.kind) == PeriodKind::Autonomous;
    const double direction = settings.end >= settings.start ? 1.0 : -1.0;
    const double lo = std::min(settings.start, settings.end), hi = std::max(settings.start, settings.end);

    Branch branch(model, settings, autonomous);
    branch.equations.setStop(stop);
    branch.equations.setThreads(ps.threads);
    branch.equations.setInputs(ps.inputs);
    const auto m = static_cast<Eigen::Index>(branch.unknowns());
    const auto n = static_cast<Eigen::Index>(branch.states());
    NewtonSettings newton = ps.newton;
    newton.reuseJacobian = reusesJacobian(model, ps);
    NewtonSettings corrector = newton;
    corrector.maxIterations = settings.correctorIterations;
    // A corrector that needs heavy damping is better replaced by a shorter step.
    corrector.minDamping = std::max(corrector.minDamping, 0.05);

    // First point: a periodic solution at the start parameter.
    Eigen::VectorXd y(m + 1);
    BranchPoint current;
    try {
        branch.setParameter(settings.start);
        const double P0 =
            autonomous ? ps.period * static_cast<double>(ps.periods) : branch.forcedPeriod(settings.start);
        if (!(P0 > 0) || !std::isfinite(P0))
            return refuse("the period at the start parameter must be positive (got " + data::formatNumber(P0) + ")");
        if (autonomous)
            branch.equations.setPhaseReference(guess);
        FixedParameterSystem first(branch, settings.start);
        const auto r = solveDampedNewton(first, branch.equations.initialUnknowns(guess, P0), newton, {}, stop);
        if (!r.converged()) {
            Termination why = r.termination;
            why.message = "no periodic solution at the start parameter " + data::formatNumber(settings.start) + ": " +
                why.message;
            return stopWith(why);
        }
        y.head(m) = r.x;
        y(m) = settings.start;
        current = branch.evaluate(y, r.iterations);
    } catch (const std::exception& e) {
        return stopWith(Termination::failure(TerminationCriterion::EvaluationFailed,
                                             std::string("no periodic solution at the start parameter: ") + e.what()));
    }
    result.points.push_back(current);
    if (progress)
        progress(current);

    const bool arclength = settings.method == ContinuationMethod::PseudoArclength;
    double ds = std::clamp(settings.initialStep, settings.minStep, settings.maxStep);

    // The tangent at the first point: [F_z F_p; e_p^T] t = e_last, oriented towards `end`.
    Eigen::VectorXd tau = Eigen::VectorXd::Zero(m + 1);
    tau(m) = 1.0;
    if (arclength) {
        try {
            ArclengthSystem system(branch, y, tau, 0.0);
            system.linearise(y);
            tau = system.tangent();
            if (tau(m) * direction < 0)
                tau = -tau;
        } catch (const std::exception& e) {
            return stopWith(Termination::failure(TerminationCriterion::SingularJacobian,
                                                 std::string("no branch tangent at the start point: ") + e.what()));
        }
    }

    // Natural continuation's first corrector step reuses the Jacobian of the last point yk
    // (still cached by the shooting equations) with a residual from the flow alone: a chord
    // step (Deuflhard, Newton Methods for Nonlinear Problems, sec. 2.1.4) that saves one
    // integration of the variational equations per point. Returns the stepped point, or
    // nothing when the cache does not hold yk or the step cannot be taken.
    auto chordStep = [&](const Eigen::VectorXd& yk, double p,
                         const Eigen::VectorXd& start) -> std::optional<Eigen::VectorXd> {
        if (autonomous || branch.equations.cachedPoint().size() != m || branch.equations.cachedPoint() != yk.head(m) ||
            branch.lastParameter_ != yk(m))
            return std::nullopt;
        try {
            std::vector<Eigen::Triplet<double>> triplets;
            branch.equations.jacobian(triplets);
            detail::ShootingFactorisation previous;
            previous.factorise(m, triplets);
            branch.setParameter(p);
            branch.noteResidualAt(std::numeric_limits<double>::quiet_NaN());
            const Eigen::VectorXd F = branch.equations.flowResidual(start);
            if (!F.allFinite())
                return std::nullopt;
            Eigen::VectorXd next = start - previous.solve(F);
            if (!next.allFinite())
                return std::nullopt;
            return next;
        } catch (const std::exception&) {
            return std::nullopt;
        }
    };

    // One corrector solve: along the arclength from (yk, tau) by sigma, or at the fixed
    // parameter yk(m) + sigma from the predictor `start`.
    auto correct = [&](const Eigen::VectorXd& yk, const Eigen::VectorXd& tk, double sigma,
                       const Eigen::VectorXd& predictor) -> std::optional<Corrected> {
        try {
            if (autonomous) {
                branch.setParameter(yk(m));
                branch.equations.setPhaseReference(yk.head(n));
            }
            Corrected c;
            if (arclength) {
                ArclengthSystem system(branch, yk, tk, sigma);
                c.newton = solveDampedNewton(system, predictor, corrector, {}, stop);
                c.y = c.newton.x;
            } else {
                const double p = yk(m) + sigma;
                Eigen::VectorXd start = predictor.head(m);
                const auto chord = chordStep(yk, p, start);
                FixedParameterSystem system(branch, p);
                c.newton = solveDampedNewton(system, chord ? *chord : start, corrector, {}, stop);
                if (chord && !c.newton.converged() && !stop.stop_requested()) {
                    // The chord step led nowhere: a plain Newton solve from the predictor.
                    c.newton = solveDampedNewton(system, start, corrector, {}, stop);
                } else if (chord) {
                    ++c.newton.iterations;
                }
                c.y.resize(m + 1);
                c.y.head(m) = c.newton.x;
                c.y(m) = p;
            }
            if (!c.newton.converged())
                return std::nullopt;
            return c;
        } catch (const std::exception&) {
            return std::nullopt;
        }
    };
    auto predict = [&](const Eigen::VectorXd& yk, const Eigen::VectorXd& tk, double sigma) -> Eigen::VectorXd {
        return yk + sigma * tk;
    };

    // Locates a sign change of a test function between the last point (sigma = 0) and the new
    // one (sigma = sigmaB) by the Illinois variant of regula falsi.
    auto locate = [&](const Eigen::VectorXd& yk, const Eigen::VectorXd& tk, double sigmaB, double fa, double fb,
                      double shift, BranchPointType type) -> std::optional<BranchPoint> {
        double a = 0.0, b = sigmaB;
        std::optional<BranchPoint> best;
        int side = 0;
        for (int iteration = 0; iteration < 12; ++iteration) {
            const double sigma = (a * fb - b * fa) / (fb - fa);
            const auto c = correct(yk, tk, sigma, predict(yk, tk, sigma));
            if (!c)
                break;
            BranchPoint point = branch.evaluate(c->y, c->newton.iterations);
            const double f = testFunction(point.multipliers, autonomous, shift);
            point.type = type;
            best = point;
            if (std::abs(f) < 1e-9 || std::abs(b - a) < 1e-10 * std::max(1.0, std::abs(sigmaB)))
                break;
            if ((f > 0) == (fb > 0)) {
                b = sigma;
                fb = f;
                if (side == -1)
                    fa /= 2;
                side = -1;
            } else {
                a = sigma;
                fa = f;
                if (side == 1)
                    fb /= 2;
                side = 1;
            }
        }
        return best;
    };

    // Natural continuation predicts by polynomial extrapolation through the last converged
    // points (the newest last); with four points the predictor error is O(h^4), so on a smooth
    // branch the corrector often has nothing left to do.
    std::vector<Eigen::VectorXd> history{y};
    while (result.points.size() < settings.maxPoints) {
        if (stop.stop_requested())
            return stopWith(Termination::cancel());
        double sigma = arclength ? ds : direction * ds;
        if (!arclength && (y(m) + sigma - settings.end) * direction > 0)
            sigma = settings.end - y(m);  // natural: land on the end exactly
        Eigen::VectorXd predictor = predict(y, tau, sigma);
        if (!arclength)
            predictor = extrapolated(history, y(m) + sigma);
        const auto c = correct(y, tau, sigma, predictor);
        if (!c) {
            if (stop.stop_requested())
                return stopWith(Termination::cancel());
            ds /= 2;
            if (ds < settings.minStep)
                return stopWith(Termination::failure(
                    TerminationCriterion::StepTooSmall,
                    std::string("the step fell below the minimum at parameter ") + data::formatNumber(y(m)) +
                        (arclength ? "" : " (natural continuation cannot pass a fold; use pseudo-arclength)")));
            continue;
        }
        BranchPoint next;
        Eigen::VectorXd nextTau = tau;
        try {
            next = branch.evaluate(c->y, c->newton.iterations);
            if (arclength) {
                ArclengthSystem system(branch, y, tau, sigma);
                system.linearise(c->y);
                nextTau = system.tangent();
            }
        } catch (const std::exception& e) {
            return stopWith(Termination::failure(TerminationCriterion::EvaluationFailed,
                                                 std::string("the branch point at parameter ") +
                                                     data::formatNumber(c->y(m)) +
                                                     " could not be analysed: " + e.what()));
        }

        // Folds (a real multiplier through +1) and period doublings (through -1).
        for (const auto& [shift, type] :
             {std::pair{1.0, BranchPointType::Fold}, std::pair{-1.0, BranchPointType::PeriodDoubling}}) {
            const double fa = testFunction(current.multipliers, autonomous, shift);
            const double fb = testFunction(next.multipliers, autonomous, shift);
            if (fa == 0.0 || (fa > 0) == (fb > 0))
                continue;
            auto special = locate(y, tau, sigma, fa, fb, shift, type);
            if (!special) {  // fall back to linear interpolation of the two points
                const double s = fa / (fa - fb);
                BranchPoint p = current;
                p.parameter = current.parameter + s * (next.parameter - current.parameter);
                p.amplitude = current.amplitude + s * (next.amplitude - current.amplitude);
                p.period = current.period + s * (next.period - current.period);
                p.type = type;
                special = p;
            }
            result.points.push_back(*special);
            if (progress)
                progress(*special);
        }

        y = c->y;
        history.push_back(y);
        if (history.size() > 4)
            history.erase(history.begin());
        tau = nextTau;
        current = next;
        result.points.push_back(current);
        if (progress)
            progress(current);
        if (y(m) < lo - 1e-12 * std::max(1.0, std::abs(lo)) || y(m) > hi + 1e-12 * std::max(1.0, std::abs(hi)) ||
            (!arclength && std::abs(y(m) - settings.end) <= 1e-12 * std::max(1.0, std::abs(settings.end)))) {
            return stopWith(
                Termination::convergence(TerminationCriterion::ParameterRange,
                                         "the branch left the parameter range at " + data::formatNumber(y(m))));
        }
        // Step control: grow after an easy corrector, shrink after a hard one.
        if (c->newton.iterations <= 2)
            ds = std::min(ds * 1.5, settings.maxStep);
        else if (c->newton.iterations >= 5)
            ds = std::max(ds * 0.6, settings.minStep);
    }
    return stopWith(Termination::iterationLimit("the maximum number of points (" + std::to_string(settings.maxPoints) +
                                                ") was reached"));
}

}  // namespace sysid::shooting
