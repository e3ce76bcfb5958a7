#include "engine/estimate/PriorRows.h"

#include "engine/estimate/Fit.h"
#include "engine/estimate/MethodTraits.h"

#include <cmath>

namespace sysid::estimate {

namespace {

double priorResidual(const Prior& prior, double value)
{
    return (value - prior.mean) / prior.sd;
}

}  // namespace

std::string priorsIgnoredNote(EstimationMethod method)
{
    return "note: priors are used by the " + methodsTaking(MethodInput::Priors, " and ") + " methods only; " +
        methodName(method) + " ignores them";
}

std::vector<std::optional<Prior>> priorsFor(const ParameterLayout& layout, const eval::CompiledModelSource& model,
                                            const FitSettings& settings)
{
    std::vector<std::optional<Prior>> priors(layout.size());
    for (std::size_t u = 0; u < layout.size(); ++u)
        priors[u] = model.parameters.at(layout.unknowns()[u].modelIndex).prior;
    for (const auto& [name, prior] : settings.priors) {
        bool found = false;
        for (std::size_t u = 0; u < layout.size(); ++u)
            if (layout.unknowns()[u].name == name) {
                priors[u] = prior;
                found = true;
            }
        if (!found)
            throw FitError("a prior is given for '" + name + "', which is not an estimated parameter");
    }
    return priors;
}

double priorCost(const std::vector<std::optional<Prior>>& priors, const Eigen::VectorXd& theta)
{
    double sum = 0.0;
    for (std::size_t k = 0; k < priors.size(); ++k)
        if (priors[k]) {
            const double r = priorResidual(*priors[k], theta(static_cast<Eigen::Index>(k)));
            sum += r * r;
        }
    return 0.5 * sum;
}

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
        out.residuals(row) = priorResidual(*priors[k], theta(kk));
        if (out.normalForm) {
            out.normalMatrix(kk, kk) += (1.0 / priors[k]->sd) * (1.0 / priors[k]->sd);
            out.normalGradient(kk) += out.residuals(row) / priors[k]->sd;
        } else {
            out.jacobian(row, kk) = 1.0 / priors[k]->sd;
        }
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
