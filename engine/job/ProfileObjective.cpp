#include "engine/job/ProfileObjective.h"

#include "engine/estimate/MethodTraits.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sysid::job {

ProfileObjective::ProfileObjective(const PreparedFit& prepared, const estimate::FitResult& optimum) :
    prepared_(prepared)
{
    // Maximum likelihood's cost is -ln L with the noise variances maximised out: 2 cost is the objective.
    if (estimate::traitsOf(prepared.settings().method).weighting == estimate::OutputWeighting::Estimated)
        return;
    // With priors the fit balances w |r|^2 against them, the weights taken as inverse noise variances
    // (Bayes' rule): the posterior is that balance, s^2 = 1.
    for (const auto& prior : prepared.priors())
        if (prior)
            return;
    const double dataSquares = 2 * optimum.cost - priorSquares(unknownsOf(optimum), nullptr);
    const auto m = static_cast<double>(optimum.residualCount);
    const auto p = static_cast<double>(prepared.unknowns().size());
    const double variance = dataSquares / std::max(m - p, 1.0);
    residualVariance_ = std::isfinite(variance) && variance > 0 ? variance : 1.0;
}

std::vector<double> ProfileObjective::unknownsOf(const estimate::FitResult& fit, std::optional<std::size_t> held,
                                                 double value) const
{
    const auto& unknowns = prepared_.unknowns();
    std::vector<double> values(unknowns.size(), std::numeric_limits<double>::quiet_NaN());
    for (const estimate::ParameterEstimate& e : fit.parameters)
        if (const auto u = prepared_.unknownIndex(e.name))
            values[*u] = e.value;
    if (held)
        values.at(*held) = value;
    return values;
}

double ProfileObjective::priorSquares(const std::vector<double>& unknowns, const estimate::FitResult* onlyFitted) const
{
    const auto& priors = prepared_.priors();
    double sum = 0;
    for (std::size_t u = 0; u < priors.size(); ++u) {
        if (!priors[u])
            continue;
        if (onlyFitted &&
            std::none_of(onlyFitted->parameters.begin(), onlyFitted->parameters.end(),
                         [&](const auto& e) { return e.name == prepared_.unknowns()[u].name; }))
            continue;
        const double r = (unknowns[u] - priors[u]->mean) / priors[u]->sd;
        sum += r * r;
    }
    return sum;
}

double ProfileObjective::operator()(const estimate::FitResult& fit, const std::vector<double>& unknowns) const
{
    // The fit's cost is 1/2 (sum w r^2 + its own prior squares), which leave out a held unknown's prior.
    const double dataSquares = 2 * fit.cost - priorSquares(unknowns, &fit);
    return dataSquares / residualVariance_ + priorSquares(unknowns, nullptr);
}

}  // namespace sysid::job
