// Issue 7: seed 003's example 4 steepest descent (Bordan 1971, eqs. 4.17-4.22) written out again
// without the engine, as a second, independent implementation of what
// tests/validation/test_seed003_steepest_descent checks: fixed-step RK4 for the system, the model
// and Meissinger's sensitivity equations (4.20), the trapezoid rule for the integrals of (4.22).
// It prints the eigenvalues of int U'U dt at the truth and, over a grid of record lengths T and
// gain factors (K_effective = factor * 0.02), the iterations until every alpha is within 5 % / 1 %.
//   bench_seed003_gradient [--linear]        (--linear: alpha = a x + b instead of per node)
#include <Eigen/Dense>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr int nodes = 5;
constexpr double dx = 0.2;
constexpr double step = 0.004;  // RK4 step; halving it changes no count below

struct Problem {
    bool linear = false;
    double record = 3.0;

    // d alpha / d theta: identity per node, (x_i, 1) for a x + b.
    MatrixXd dAlpha() const
    {
        if (!linear)
            return MatrixXd::Identity(nodes, nodes);
        MatrixXd d(nodes, 2);
        for (int i = 0; i < nodes; ++i)
            d.row(i) << (i + 1) * dx, 1.0;
        return d;
    }
    VectorXd alpha(const VectorXd& theta) const { return linear ? VectorXd(dAlpha() * theta) : theta; }
};

// Second difference with the rod's ends held at 0, divided by dx^2 (eq. 4.17).
VectorXd secondDifference(const VectorXd& q)
{
    VectorXd r(q.size());
    for (Eigen::Index i = 0; i < q.size(); ++i)
        r[i] = ((i > 0 ? q[i - 1] : 0.0) - 2.0 * q[i] + (i + 1 < q.size() ? q[i + 1] : 0.0)) / (dx * dx);
    return r;
}

struct Sweep {
    double cost = 0.0;  // J = int sum (q - S)^2 dt
    VectorXd gradient;  // int sum (q - S) U dt, the bracket of eq. (4.22)
    MatrixXd hessian;  // int U'U dt
};

// One compute-mode sweep: system S at `truth`, model q and its sensitivities U at theta.
Sweep sweep(const Problem& p, const VectorXd& theta, const VectorXd& truth)
{
    const MatrixXd d = p.dAlpha();
    const VectorXd a = p.alpha(theta), aTrue = p.alpha(truth);
    const Eigen::Index np = d.cols();
    // z = [S, q, U(:, 0), ..., U(:, np-1)]; U_j' = alpha .* D2 U_j + D2 q .* d(:, j) (eq. 4.20).
    auto rhs = [&](const VectorXd& z) {
        VectorXd dz(z.size());
        const VectorXd q = z.segment(nodes, nodes), lq = secondDifference(q);
        dz.head(nodes) = aTrue.cwiseProduct(secondDifference(z.head(nodes)));
        dz.segment(nodes, nodes) = a.cwiseProduct(lq);
        for (Eigen::Index j = 0; j < np; ++j)
            dz.segment(2 * nodes + j * nodes, nodes) =
                a.cwiseProduct(secondDifference(z.segment(2 * nodes + j * nodes, nodes))) + lq.cwiseProduct(d.col(j));
        return dz;
    };
    VectorXd z = VectorXd::Zero(2 * nodes + np * nodes);
    z.head(2 * nodes).setOnes();
    Sweep s{0.0, VectorXd::Zero(np), MatrixXd::Zero(np, np)};
    const int steps = static_cast<int>(std::lround(p.record / step));
    for (int k = 0; k <= steps; ++k) {
        const double w = (k == 0 || k == steps) ? step / 2 : step;
        const VectorXd e = z.segment(nodes, nodes) - z.head(nodes);
        const MatrixXd u = Eigen::Map<const MatrixXd>(z.data() + 2 * nodes, nodes, np);
        s.cost += w * e.squaredNorm();
        s.gradient += w * u.transpose() * e;
        s.hessian += w * u.transpose() * u;
        if (k == steps)
            break;
        // Classical fourth-order Runge-Kutta (Hairer, Norsett, Wanner, Solving ODEs I, sec. II.1).
        const VectorXd k1 = rhs(z), k2 = rhs(z + step / 2 * k1), k3 = rhs(z + step / 2 * k2), k4 = rhs(z + step * k3);
        z += step / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    return s;
}

// Iterations of eq. (4.22) with gain K until every parameter is within 5 % (first) and 1 % (second)
// of the truth; -1: not within `limit`; both -2: J rose (gain too large).
std::pair<int, int> descend(const Problem& p, VectorXd theta, const VectorXd& truth, double gain, int limit)
{
    int within5 = -1;
    double cost = INFINITY;
    for (int it = 0; it <= limit; ++it) {
        const double error = (theta - truth).cwiseQuotient(truth).cwiseAbs().maxCoeff();
        if (within5 < 0 && error <= 0.05)
            within5 = it;
        if (error <= 0.01)
            return {within5, it};
        const Sweep s = sweep(p, theta, truth);
        if (s.cost > cost)
            return {-2, -2};
        cost = s.cost;
        theta -= gain * s.gradient;
    }
    return {within5, -1};
}

}  // namespace

int main(int argc, char** argv)
{
    Problem p;
    p.linear = argc > 1 && std::strcmp(argv[1], "--linear") == 0;
    VectorXd truth(p.linear ? 2 : nodes), start(truth.size());
    if (p.linear) {
        truth << -0.1, 0.22;
        start << 0.0, 0.1;
    } else {
        truth << 0.2, 0.18, 0.16, 0.14, 0.12;
        start.setConstant(0.1);
    }
    const Eigen::SelfAdjointEigenSolver<MatrixXd> eig(sweep(p, truth, truth).hessian);
    std::printf("eigenvalues of int U'U dt at the truth, record 0..%g:", p.record);
    for (const double l : eig.eigenvalues())
        std::printf(" %.4g", l);
    std::printf("  (condition %.4g)\n", eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff());
    const double factors[] = {0.2, 0.4, 1, 2, 3, 4, 5, 6, 8};
    std::printf("iterations to 5 %% / 1 %% (-1: not in 300, -2: J rose), K = factor * 0.02\nT \\ factor");
    for (const double f : factors)
        std::printf(" %9g", f);
    std::printf("\n");
    for (const double record : {0.6, 0.8, 1.0, 1.5, 2.0, 3.0, 5.0}) {
        p.record = record;
        std::printf("%-10g", record);
        for (const double f : factors) {
            const auto [five, one] = descend(p, start, truth, 0.02 * f, 300);
            std::printf(" %4d/%-4d", five, one);
        }
        std::printf("\n");
        std::fflush(stdout);
    }
}
