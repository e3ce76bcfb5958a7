#include "engine/estimate/PriorRows.h"

#include <cmath>

namespace sysid::estimate {

std::size_t priorRowCount(const std::vector<std::optional<Prior>>& priors)
{
    std::size_t rows = 0;
    for (const auto& prior : priors)
        rows += prior ? 1 : 0;
    return rows;
}

bool finishWithPriors(const std::vector<std::optional<Prior>>& priors, const Eigen::VectorXd& theta, Eigen::Index row,
                      Linearization& out, std::string& failure)
{
    for (std::size_t k = 0; k < priors.size(); ++k) {
        if (!priors[k])
            continue;
        const auto kk = static_cast<Eigen::Index>(k);
        out.residuals(row) = (theta(kk) - priors[k]->mean) / priors[k]->sd;
        out.jacobian(row, kk) = 1.0 / priors[k]->sd;
        ++row;
    }
    out.merit = 0.5 * out.residuals.squaredNorm();
    if (!std::isfinite(out.merit)) {
        failure = "the cost is not finite";
        return false;
    }
    return true;
}

}  // namespace sysid::estimate
