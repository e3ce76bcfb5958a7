#include "engine/estimate/UndeterminedDirections.h"

#include <cmath>
#include <cstdio>

namespace sysid::estimate {

std::vector<ParameterCombination> undeterminedCombinations(const Uncertainty& uncertainty,
                                                           const std::vector<ParameterEstimate>& estimates)
{
    std::vector<ParameterCombination> combinations;
    for (const Eigen::VectorXd& direction : uncertainty.undeterminedDirections) {
        Eigen::VectorXd relative = direction;
        for (Eigen::Index i = 0; i < relative.size(); ++i) {
            const double value = estimates.at(static_cast<std::size_t>(i)).value;
            if (value != 0.0 && std::isfinite(value))
                relative(i) *= 1.0 / std::abs(value);
        }
        const Eigen::Index largest = [&] {
            Eigen::Index k = 0;
            relative.cwiseAbs().maxCoeff(&k);
            return k;
        }();
        if (!(std::abs(relative(largest)) > 0))
            continue;
        relative /= relative(largest);  // the largest is +1
        ParameterCombination combination;
        for (Eigen::Index i = 0; i < relative.size(); ++i)
            if (std::abs(relative(i)) >= 1e-6)
                combination.components.emplace_back(estimates[static_cast<std::size_t>(i)].name, relative(i));
        combinations.push_back(std::move(combination));
    }
    return combinations;
}

std::string describe(const ParameterCombination& combination)
{
    const auto& parts = combination.components;
    if (parts.size() == 1)
        return "parameter " + parts.front().first +
            " cannot be determined from these data (changing it does not change the fit); fix it or remove it";
    std::string names, changes;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const bool last = i + 1 == parts.size();
        names += (i == 0 ? "" : last ? " and " : ", ") + parts[i].first;
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%+.3g", parts[i].second);
        changes += (i == 0 ? "" : ", ") + std::string(buffer) + " " + parts[i].first;
    }
    return names + " cannot be determined one by one from these data, only in combination: changing them together by " +
        changes + " (relative changes) leaves the fit unchanged; fix one of them";
}

}  // namespace sysid::estimate
