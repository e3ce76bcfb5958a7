#include "engine/shooting/PeriodicSolution.h"

#include "engine/data/Text.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sysid::shooting {

namespace {

bool isReal(std::complex<double> mu)
{
    return std::abs(mu.imag()) <= 1e-9 * std::max(1.0, std::abs(mu));
}

}  // namespace

FloquetAnalysis analyseFloquet(const Eigen::MatrixXd& monodromy, bool autonomous)
{
    FloquetAnalysis analysis;
    if (monodromy.size() == 0 || !monodromy.allFinite()) {
        analysis.verdict = "unknown (no finite monodromy matrix)";
        return analysis;
    }
    Eigen::EigenSolver<Eigen::MatrixXd> solver(monodromy, false);
    if (solver.info() != Eigen::Success) {
        analysis.verdict = "unknown (eigenvalues did not converge)";
        return analysis;
    }
    const auto& values = solver.eigenvalues();
    for (Eigen::Index i = 0; i < values.size(); ++i)
        analysis.multipliers.push_back(values(i));
    std::stable_sort(analysis.multipliers.begin(), analysis.multipliers.end(),
                     [](std::complex<double> a, std::complex<double> b) { return std::abs(a) > std::abs(b); });

    // The trivial multiplier of an autonomous orbit (the flow direction) is the one closest to 1.
    std::size_t trivial = analysis.multipliers.size();
    if (autonomous) {
        double best = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < analysis.multipliers.size(); ++i) {
            const double d = std::abs(analysis.multipliers[i] - 1.0);
            if (d < best) {
                best = d;
                trivial = i;
            }
        }
    }
    // The dominant relevant multiplier decides the verdict.
    std::size_t dominant = analysis.multipliers.size();
    for (std::size_t i = 0; i < analysis.multipliers.size(); ++i)
        if (i != trivial) {
            dominant = i;
            break;
        }
    if (dominant == analysis.multipliers.size()) {
        analysis.stable = false;
        analysis.verdict = "neutral (only the trivial multiplier 1 of the flow direction)";
        return analysis;
    }
    const auto mu = analysis.multipliers[dominant];
    const double modulus = std::abs(mu);
    analysis.stable = modulus < 1.0;
    if (analysis.stable) {
        analysis.verdict = "stable (max |mu| = " + data::formatNumber(modulus) + ")";
    } else if (isReal(mu) && mu.real() < 0) {
        analysis.verdict = "unstable (period doubling, mu = " + data::formatNumber(mu.real()) + ")";
    } else if (isReal(mu)) {
        analysis.verdict = "unstable (fold/saddle, mu = " + data::formatNumber(mu.real()) + ")";
    } else {
        analysis.verdict = "unstable (Neimark-Sacker/torus, |mu| = " + data::formatNumber(modulus) + ")";
    }
    return analysis;
}

}  // namespace sysid::shooting
