// TEMPORARY stand-in for shooting::analyseFloquet, which another helper writes in
// engine/shooting/Floquet.cpp. Delete this file when that one is merged.
#include "engine/shooting/PeriodicSolution.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace sysid::shooting {

FloquetAnalysis analyseFloquet(const Eigen::MatrixXd& monodromy, bool autonomous)
{
    FloquetAnalysis result;
    const Eigen::EigenSolver<Eigen::MatrixXd> eigen(monodromy, false);
    for (Eigen::Index i = 0; i < eigen.eigenvalues().size(); ++i)
        result.multipliers.push_back(eigen.eigenvalues()(i));
    std::sort(result.multipliers.begin(), result.multipliers.end(),
              [](auto a, auto b) { return std::abs(a) > std::abs(b); });
    std::size_t trivial = result.multipliers.size();
    if (autonomous && !result.multipliers.empty()) {
        trivial = 0;
        for (std::size_t i = 1; i < result.multipliers.size(); ++i)
            if (std::abs(result.multipliers[i] - 1.0) < std::abs(result.multipliers[trivial] - 1.0))
                trivial = i;
    }
    result.stable = true;
    for (std::size_t i = 0; i < result.multipliers.size(); ++i)
        if (i != trivial && std::abs(result.multipliers[i]) >= 1.0)
            result.stable = false;
    result.verdict = result.stable ? "stable" : "unstable";
    return result;
}

}  // namespace sysid::shooting
