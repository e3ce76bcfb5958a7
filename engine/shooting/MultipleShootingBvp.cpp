#include "engine/shooting/BoundaryValueProblem.h"

#include "engine/core/SolverStatistics.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/shooting/BandLu.h"
#include "engine/shooting/IntervalIntegrator.h"
#include "engine/shooting/IntervalPool.h"

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace sysid::shooting {

std::vector<double> uniformShootingPoints(double a, double b, std::size_t count)
{
    std::vector<double> points(count);
    for (std::size_t i = 0; i < count; ++i)
        points[i] = count == 1 ? a : a + (b - a) * static_cast<double>(i) / static_cast<double>(count - 1);
    if (count > 1)
        points.back() = b;
    return points;
}

namespace {

using Clock = std::chrono::steady_clock;
using Seconds = std::chrono::duration<double>;

std::string number(double v)
{
    std::ostringstream s;
    s.precision(10);
    s << v;
    return s.str();
}

std::string intervalName(const std::vector<double>& points, std::size_t i)
{
    return "interval " + std::to_string(i + 1) + " [" + number(points[i]) + ", " + number(points[i + 1]) + "]";
}

void checkSize(const Eigen::MatrixXd& value, Eigen::Index rows, Eigen::Index columns, const std::string& what)
{
    if (value.rows() != rows || value.cols() != columns)
        throw std::invalid_argument(what + " has size " + std::to_string(value.rows()) + " x " +
                                    std::to_string(value.cols()) + ", expected " + std::to_string(rows) + " x " +
                                    std::to_string(columns));
}

// F(s_1..s_m) = [g_a(s_1); y_1(t_2) - s_2; ...; y_{m-1}(t_m) - s_m; g_b(s_m)] for separated
// conditions, or [matching conditions; g(s_1, s_m)] for general ones (seed 001, eqs. 3.2-3.6).
class ShootingSystem : public NewtonSystem {
public:
    ShootingSystem(const OdeSystem& system, const BoundaryConditions& conditions, const BvpSettings& settings,
                   std::stop_token stop) :
        conditions_(conditions),
        settings_(settings), points_(settings.shootingPoints), stop_(std::move(stop)), n_(system.dimension()),
        m_(points_.size()), pool_(system, settings.threads, m_ - 1), ends_(m_ - 1), blocks_(m_ - 1)
    {
        if (conditions_.separated) {
            const std::size_t p = conditions_.leftCount;
            band_ = BandLu(n_ * m_, p + n_ - 1, std::max(n_ - p, n_ - 1));
        }
    }

    void setStage(const BvpStage& stage)
    {
        stage_ = &stage;
        jacobianStage_ = stage;
        if (stage.jacobianIntegrator)
            jacobianStage_.integrator = *stage.jacobianIntegrator;
    }

    Eigen::VectorXd residual(const Eigen::VectorXd& x) override
    {
        const auto start = Clock::now();
        pool_.run([&](OdeSystem& system, std::size_t i) {
            ends_[i] = integrateInterval(system, *stage_, points_[i], points_[i + 1], node(x, i), false, stop_,
                                         intervalName(points_, i));
        });
        Eigen::VectorXd F = assembleResidual(x);
        residualTime += Clock::now() - start;
        return F;
    }

    void linearise(const Eigen::VectorXd& x) override
    {
        auto start = Clock::now();
        factorised_ = false;  // the band is overwritten below, also when a step of it fails
        const bool variational = settings_.jacobian == IntervalJacobian::Variational;
        pool_.run([&](OdeSystem& system, std::size_t i) { intervalJacobian(system, x, i, variational); });
        const Eigen::Index n = static_cast<Eigen::Index>(n_);
        if (conditions_.separated) {
            const std::size_t p = conditions_.leftCount;
            band_.setZero();
            const Eigen::MatrixXd Ga = conditions_.leftJacobian(nodeVector(x, 0));
            checkSize(Ga, static_cast<Eigen::Index>(p), n, "the left boundary condition Jacobian");
            const Eigen::MatrixXd Gb = conditions_.rightJacobian(nodeVector(x, m_ - 1));
            checkSize(Gb, static_cast<Eigen::Index>(n_ - p), n, "the right boundary condition Jacobian");
            for (std::size_t r = 0; r < p; ++r)
                for (std::size_t c = 0; c < n_; ++c)
                    band_(r, c) = Ga(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
            for (std::size_t i = 0; i + 1 < m_; ++i) {
                const std::size_t row = p + i * n_;
                for (std::size_t r = 0; r < n_; ++r) {
                    for (std::size_t c = 0; c < n_; ++c)
                        band_(row + r, i * n_ + c) =
                            blocks_[i](static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
                    band_(row + r, (i + 1) * n_ + r) = -1.0;
                }
            }
            const std::size_t row = p + (m_ - 1) * n_;
            for (std::size_t r = 0; r < n_ - p; ++r)
                for (std::size_t c = 0; c < n_; ++c)
                    band_(row + r, (m_ - 1) * n_ + c) = Gb(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
            const auto built = Clock::now();
            jacobianTime += built - start;
            {
                core::PhaseTimer timer(core::Phase::LinearAlgebra);
                band_.factorize();
            }
            factorised_ = true;
            factorTime += Clock::now() - built;
            return;
        }
        Eigen::MatrixXd Ga, Gb;
        conditions_.generalJacobian(nodeVector(x, 0), nodeVector(x, m_ - 1), Ga, Gb);
        checkSize(Ga, n, n, "the boundary condition Jacobian with respect to x(a)");
        checkSize(Gb, n, n, "the boundary condition Jacobian with respect to x(b)");
        std::vector<Eigen::Triplet<double>> entries;
        entries.reserve((m_ - 1) * (n_ * n_ + n_) + 2 * n_ * n_);
        for (std::size_t i = 0; i + 1 < m_; ++i) {
            const auto row = static_cast<int>(i * n_);
            for (std::size_t r = 0; r < n_; ++r) {
                for (std::size_t c = 0; c < n_; ++c)
                    entries.emplace_back(row + static_cast<int>(r), static_cast<int>(i * n_ + c),
                                         blocks_[i](static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)));
                entries.emplace_back(row + static_cast<int>(r), static_cast<int>((i + 1) * n_ + r), -1.0);
            }
        }
        const auto row = static_cast<int>((m_ - 1) * n_);
        for (std::size_t r = 0; r < n_; ++r)
            for (std::size_t c = 0; c < n_; ++c) {
                const auto rr = static_cast<Eigen::Index>(r), cc = static_cast<Eigen::Index>(c);
                entries.emplace_back(row + static_cast<int>(r), static_cast<int>(c), Ga(rr, cc));
                entries.emplace_back(row + static_cast<int>(r), static_cast<int>((m_ - 1) * n_ + c), Gb(rr, cc));
            }
        const auto size = static_cast<Eigen::Index>(n_ * m_);
        Eigen::SparseMatrix<double> A(size, size);
        A.setFromTriplets(entries.begin(), entries.end());
        A.makeCompressed();
        const auto built = Clock::now();
        jacobianTime += built - start;
        {
            core::PhaseTimer timer(core::Phase::LinearAlgebra);
            if (!analysed_) {
                sparse_.analyzePattern(A);
                analysed_ = true;
            }
            sparse_.factorize(A);
        }
        factorTime += Clock::now() - built;
        if (sparse_.info() != Eigen::Success)
            throw std::runtime_error("the shooting matrix is singular: " + sparse_.lastErrorMessage());
        factorised_ = true;
    }

    Eigen::VectorXd solve(const Eigen::VectorXd& rhs) const override
    {
        const auto start = Clock::now();
        Eigen::VectorXd dx = conditions_.separated ? band_.solve(rhs) : Eigen::VectorXd(sparse_.solve(rhs));
        solveTime += Clock::now() - start;
        return dx;
    }

    Seconds residualTime{}, jacobianTime{}, factorTime{};
    mutable Seconds solveTime{};
    // A factorisation from an earlier linearise() is held (possibly of an earlier stage).
    bool factorised() const { return factorised_; }

private:
    const double* node(const Eigen::VectorXd& x, std::size_t i) const { return x.data() + i * n_; }
    Eigen::VectorXd nodeVector(const Eigen::VectorXd& x, std::size_t i) const
    {
        return x.segment(static_cast<Eigen::Index>(i * n_), static_cast<Eigen::Index>(n_));
    }

    Eigen::VectorXd assembleResidual(const Eigen::VectorXd& x)
    {
        const auto n = static_cast<Eigen::Index>(n_);
        Eigen::VectorXd F(n * static_cast<Eigen::Index>(m_));
        Eigen::Index row = 0;
        if (conditions_.separated) {
            const auto p = static_cast<Eigen::Index>(conditions_.leftCount);
            const Eigen::VectorXd ga = conditions_.left(nodeVector(x, 0));
            checkSize(ga, p, 1, "the left boundary condition");
            F.head(p) = ga;
            row = p;
        }
        for (std::size_t i = 0; i + 1 < m_; ++i, row += n)
            for (Eigen::Index k = 0; k < n; ++k)
                F(row + k) = ends_[i][static_cast<std::size_t>(k)] - x(static_cast<Eigen::Index>((i + 1) * n_) + k);
        if (conditions_.separated) {
            const Eigen::VectorXd gb = conditions_.right(nodeVector(x, m_ - 1));
            checkSize(gb, n - static_cast<Eigen::Index>(conditions_.leftCount), 1, "the right boundary condition");
            F.tail(gb.size()) = gb;
        } else {
            const Eigen::VectorXd g = conditions_.general(nodeVector(x, 0), nodeVector(x, m_ - 1));
            checkSize(g, n, 1, "the boundary condition");
            F.tail(n) = g;
        }
        return F;
    }

    // J_i = dy_i(t_{i+1})/ds_i by the variational equations, or by forward differences
    // (seed 001, eq. 3.7) with steps sqrt(eps)·max(1, |s_ik|).
    void intervalJacobian(OdeSystem& system, const Eigen::VectorXd& x, std::size_t i, bool variational)
    {
        const auto n = static_cast<Eigen::Index>(n_);
        const std::string where = intervalName(points_, i);
        if (variational) {
            const auto z =
                integrateInterval(system, jacobianStage_, points_[i], points_[i + 1], node(x, i), true, stop_, where);
            blocks_[i] = Eigen::Map<const Eigen::MatrixXd>(z.data() + n_, n, n);
            return;
        }
        const auto base =
            integrateInterval(system, *stage_, points_[i], points_[i + 1], node(x, i), false, stop_, where);
        blocks_[i].resize(n, n);
        std::vector<double> s(node(x, i), node(x, i) + n_);
        const double root = std::sqrt(std::numeric_limits<double>::epsilon());
        for (std::size_t k = 0; k < n_; ++k) {
            const double original = s[k];
            const double h = root * std::max(1.0, std::abs(original));
            s[k] = original + h;
            const double step = s[k] - original;  // the step actually representable
            const auto shifted =
                integrateInterval(system, *stage_, points_[i], points_[i + 1], s.data(), false, stop_, where);
            s[k] = original;
            for (std::size_t r = 0; r < n_; ++r)
                blocks_[i](static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k)) = (shifted[r] - base[r]) / step;
        }
    }

    const BoundaryConditions& conditions_;
    const BvpSettings& settings_;
    const std::vector<double>& points_;
    std::stop_token stop_;
    std::size_t n_, m_;
    IntervalPool pool_;
    const BvpStage* stage_ = nullptr;
    BvpStage jacobianStage_;
    bool factorised_ = false;
    std::vector<std::vector<double>> ends_;
    std::vector<Eigen::MatrixXd> blocks_;
    BandLu band_;
    Eigen::SparseLU<Eigen::SparseMatrix<double>> sparse_;
    bool analysed_ = false;
};

// Why the problem cannot be set up, or nothing.
std::optional<std::string> checkInput(const OdeSystem& system, const BoundaryConditions& conditions,
                                      const Eigen::MatrixXd& initialNodes, const BvpSettings& settings)
{
    const auto& points = settings.shootingPoints;
    const std::size_t n = system.dimension();
    if (n == 0)
        return "the ODE system has no states";
    if (points.size() < 2)
        return "at least 2 shooting points are needed (got " + std::to_string(points.size()) + ")";
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!std::isfinite(points[i]))
            return "shooting point " + std::to_string(i + 1) + " is not finite";
        if (i > 0 && !(points[i] > points[i - 1]))
            return "shooting points must increase: point " + std::to_string(i + 1) + " (t = " + number(points[i]) +
                ") is not after point " + std::to_string(i) + " (t = " + number(points[i - 1]) + ")";
    }
    if (settings.stages.empty())
        return "no stage (integrator and tolerance) was given";
    for (std::size_t s = 0; s < settings.stages.size(); ++s) {
        const auto& st = settings.stages[s];
        if (!(st.newtonTolerance > 0))
            return "stage " + std::to_string(s + 1) + ": the Newton tolerance must be positive";
        if (integrate::isAdaptive(st.integrator.method) &&
            !(st.integrator.relativeTolerance > 0 || st.integrator.absoluteTolerance > 0))
            return "stage " + std::to_string(s + 1) + ": the integrator tolerances must be positive";
    }
    if (static_cast<std::size_t>(initialNodes.rows()) != points.size() ||
        static_cast<std::size_t>(initialNodes.cols()) != n)
        return "the initial nodes are " + std::to_string(initialNodes.rows()) + " x " +
            std::to_string(initialNodes.cols()) + ", expected " + std::to_string(points.size()) + " x " +
            std::to_string(n) + " (shooting points x states)";
    for (Eigen::Index i = 0; i < initialNodes.rows(); ++i)
        for (Eigen::Index k = 0; k < initialNodes.cols(); ++k)
            if (!std::isfinite(initialNodes(i, k)))
                return "the initial node at shooting point " + std::to_string(i + 1) + ", state " +
                    std::to_string(k + 1) + " is not finite";
    if (conditions.separated) {
        if (conditions.leftCount > n)
            return "the left boundary condition count " + std::to_string(conditions.leftCount) +
                " exceeds the number of states " + std::to_string(n);
        if (!conditions.left || !conditions.right || !conditions.leftJacobian || !conditions.rightJacobian)
            return "separated boundary conditions need left, right, leftJacobian and rightJacobian";
    } else if (!conditions.general || !conditions.generalJacobian) {
        return "general boundary conditions need general and generalJacobian";
    }
    // The condition functions at the starting guess: wrong sizes are input errors, not a
    // singular matrix or a failed evaluation later on.
    try {
        const Eigen::VectorXd xa = initialNodes.row(0).transpose();
        const Eigen::VectorXd xb = initialNodes.row(initialNodes.rows() - 1).transpose();
        const auto cols = static_cast<Eigen::Index>(n);
        if (conditions.separated) {
            const auto p = static_cast<Eigen::Index>(conditions.leftCount);
            checkSize(conditions.left(xa), p, 1, "the left boundary condition");
            checkSize(conditions.leftJacobian(xa), p, cols, "the left boundary condition Jacobian");
            checkSize(conditions.right(xb), cols - p, 1, "the right boundary condition");
            checkSize(conditions.rightJacobian(xb), cols - p, cols, "the right boundary condition Jacobian");
        } else {
            checkSize(conditions.general(xa, xb), cols, 1, "the boundary condition");
            Eigen::MatrixXd ga, gb;
            conditions.generalJacobian(xa, xb, ga, gb);
            checkSize(ga, cols, cols, "the boundary condition Jacobian with respect to x(a)");
            checkSize(gb, cols, cols, "the boundary condition Jacobian with respect to x(b)");
        }
    } catch (const std::exception& e) {
        return std::string("at the starting guess: ") + e.what();
    }
    return std::nullopt;
}

}  // namespace

BvpResult solveBoundaryValueProblem(const OdeSystem& system, const BoundaryConditions& conditions,
                                    const Eigen::MatrixXd& initialNodes, const BvpSettings& settings,
                                    const std::function<void(const BvpIteration&)>& observer, std::stop_token stop)
{
    BvpResult result;
    result.shootingPoints = settings.shootingPoints;
    result.nodes = initialNodes;
    if (auto problem = checkInput(system, conditions, initialNodes, settings)) {
        result.newton.termination = core::Termination::failure(core::TerminationCriterion::InvalidSetting, *problem);
        result.message = *problem;
        return result;
    }
    const std::size_t n = system.dimension();
    const std::size_t m = settings.shootingPoints.size();
    const auto N = static_cast<Eigen::Index>(n * m);

    std::optional<ShootingSystem> shooting;
    try {
        shooting.emplace(system, conditions, settings, stop);
    } catch (const std::exception& e) {
        result.message = std::string("cannot set up the shooting system: ") + e.what();
        result.newton.termination =
            core::Termination::failure(core::TerminationCriterion::EvaluationFailed, result.message);
        return result;
    }
    Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(Eigen::MatrixXd(initialNodes.transpose()).data(), N);
    for (std::size_t s = 0; s < settings.stages.size(); ++s) {
        const BvpStage& stage = settings.stages[s];
        shooting->setStage(stage);
        NewtonSettings newton = settings.newton;
        newton.residualTolerance = stage.newtonTolerance;
        // The previous stage's Jacobian differs from this one's by that stage's integration
        // error only: chord steps with it (seed 001's fixed-Jacobian mode) usually finish a
        // tighter stage without a new, costly Jacobian.
        newton.reuseFactorisation = settings.reuseBetweenStages && s > 0 && shooting->factorised();
        // A Jacobian from the looser integrator is approximate anyway: while it contracts
        // ||F|| well, recomputing it buys nothing.
        if (stage.jacobianIntegrator && newton.chordContraction == 0.0)
            newton.chordContraction = 0.25;
        auto report = [&](const NewtonIteration& it) {
            BvpIteration step;
            step.stage = s;
            step.newton = it;
            step.residualTime = shooting->residualTime;
            step.jacobianTime = shooting->jacobianTime;
            step.factorTime = shooting->factorTime;
            step.solveTime = shooting->solveTime;
            shooting->residualTime = shooting->jacobianTime = shooting->factorTime = shooting->solveTime = Seconds{};
            if (observer)
                observer(step);
        };
        result.newton = solveDampedNewton(*shooting, x, newton, report, stop);
        result.totalIterations += result.newton.iterations;
        if (result.newton.x.size() == N)
            x = result.newton.x;
        if (!result.newton.converged()) {
            if (stop.stop_requested() && !result.newton.termination.cancelled())
                // Stopped inside an evaluation: the Newton core saw a failed residual or Jacobian.
                result.newton.termination = core::Termination::cancel("cancelled during iteration " +
                                                                      std::to_string(result.newton.iterations + 1));
            result.message = "stage " + std::to_string(s + 1) + " of " + std::to_string(settings.stages.size()) + " (" +
                integrate::methodName(stage.integrator.method) + "): " + result.newton.termination.message;
            break;
        }
        result.message = "converged in " + std::to_string(result.totalIterations) + " Newton iterations (" +
            std::to_string(settings.stages.size()) + " stages); " + result.newton.termination.message;
    }
    result.nodes =
        Eigen::Map<const Eigen::MatrixXd>(x.data(), static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(m))
            .transpose();
    return result;
}

Eigen::MatrixXd sampleSolution(const OdeSystem& system, const BvpResult& result, const std::vector<double>& times,
                               const integrate::IntegratorSettings& integrator)
{
    const auto& points = result.shootingPoints;
    const std::size_t n = system.dimension();
    if (points.size() < 2 || static_cast<std::size_t>(result.nodes.rows()) != points.size() ||
        static_cast<std::size_t>(result.nodes.cols()) != n)
        throw std::invalid_argument("sampleSolution: the result has no nodes for this system");
    auto worker = system.clone();
    Eigen::MatrixXd samples(static_cast<Eigen::Index>(times.size()), static_cast<Eigen::Index>(n));
    std::vector<std::size_t> order(times.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&times](std::size_t a, std::size_t b) { return times[a] < times[b]; });

    BvpStage stage;
    stage.integrator = integrator;
    std::size_t interval = std::numeric_limits<std::size_t>::max();
    double t = 0.0;
    std::vector<double> x(n);
    for (std::size_t k : order) {
        const double tk = times[k];
        if (!(tk >= points.front() && tk <= points.back()))
            throw std::invalid_argument("sampleSolution: time " + number(tk) + " lies outside [" +
                                        number(points.front()) + ", " + number(points.back()) + "]");
        std::size_t i = static_cast<std::size_t>(std::upper_bound(points.begin(), points.end(), tk) - points.begin());
        i = std::min(i, points.size() - 1) - 1;  // t_i <= tk < t_{i+1}, or the last interval at b
        if (i != interval) {
            interval = i;
            t = points[i];
            for (std::size_t c = 0; c < n; ++c)
                x[c] = result.nodes(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c));
        }
        if (tk > t) {
            stage.stepsPerInterval = integrator.maxStep > 0
                ? static_cast<std::size_t>(std::ceil((tk - t) / integrator.maxStep * (1 - 1e-12)))
                : 1;
            x = integrateInterval(*worker, stage, t, tk, x.data(), false, {}, intervalName(points, i));
            t = tk;
        }
        for (std::size_t c = 0; c < n; ++c)
            samples(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(c)) = x[c];
    }
    return samples;
}

}  // namespace sysid::shooting
