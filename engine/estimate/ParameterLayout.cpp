#include "engine/estimate/ParameterLayout.h"

#include <stdexcept>

namespace sysid::estimate {

ParameterLayout::ParameterLayout(const eval::CompiledModelSource& model, const std::vector<double>& initialValues,
                                 const std::vector<std::map<std::string, double>>& fixedValues,
                                 const std::vector<std::map<std::string, double>>& heldInitialValues,
                                 const std::vector<std::map<std::string, double>>& startValues) :
    base_(fixedValues.size(), initialValues),
    unknownsOf_(fixedValues.size())
{
    const std::size_t experimentCount = fixedValues.size();
    if (initialValues.size() != model.parameterCount())
        throw std::invalid_argument("expected a starting value for each of the " +
                                    std::to_string(model.parameterCount()) + " parameters");
    const auto indexOf = [&](const std::string& name) {
        for (std::size_t i = 0; i < model.parameterCount(); ++i)
            if (model.parameterNames[i] == name)
                return i;
        return model.parameterCount();
    };
    const auto valueIn = [](const std::vector<std::map<std::string, double>>& perExperiment, std::size_t e,
                            const std::string& name) -> const double* {
        if (e >= perExperiment.size())
            return nullptr;
        const auto it = perExperiment[e].find(name);
        return it == perExperiment[e].end() ? nullptr : &it->second;
    };
    for (std::size_t e = 0; e < experimentCount; ++e) {
        if (e < heldInitialValues.size())
            for (const auto& [name, value] : heldInitialValues[e]) {
                const std::size_t index = indexOf(name);
                if (index == model.parameterCount() || !model.parameters[index].isInitialValue ||
                    model.parameters[index].fixed)
                    throw std::invalid_argument("experiment " + std::to_string(e + 1) + " holds '" + name +
                                                "', which is not an estimated initial value of the model");
                base_[e][index] = value;
            }
        for (const auto& [name, value] : fixedValues[e]) {
            const std::size_t index = indexOf(name);
            if (index == model.parameterCount())
                throw std::invalid_argument("experiment " + std::to_string(e + 1) + " sets '" + name +
                                            "', which is not a parameter of the model");
            if (!model.parameters[index].fixed)
                throw std::invalid_argument(
                    "experiment " + std::to_string(e + 1) + " sets " + name +
                    ", which is estimated; only fixed parameters can differ between experiments");
            base_[e][index] = value;
        }
    }
    for (std::size_t i = 0; i < model.parameterCount(); ++i) {
        const auto& p = model.parameters[i];
        if (p.fixed || p.isInitialValue)
            continue;
        unknowns_.push_back({p.name, i, -1, initialValues[i], p.lower, p.upper});
    }
    for (std::size_t e = 0; e < experimentCount; ++e)
        for (std::size_t i = 0; i < model.parameterCount(); ++i) {
            const auto& p = model.parameters[i];
            if (!p.isInitialValue || p.fixed || valueIn(heldInitialValues, e, p.name))
                continue;
            const std::string name = experimentCount > 1 && e > 0 ? p.name + "#" + std::to_string(e + 1) : p.name;
            const double* start = valueIn(startValues, e, p.name);
            unknowns_.push_back({name, i, static_cast<int>(e), start ? *start : initialValues[i], p.lower, p.upper});
        }
    for (std::size_t u = 0; u < unknowns_.size(); ++u)
        for (std::size_t e = 0; e < experimentCount; ++e)
            if (unknowns_[u].experiment < 0 || unknowns_[u].experiment == static_cast<int>(e))
                unknownsOf_[e].push_back(u);
}

Eigen::VectorXd ParameterLayout::initial() const
{
    Eigen::VectorXd v(static_cast<Eigen::Index>(unknowns_.size()));
    for (std::size_t u = 0; u < unknowns_.size(); ++u)
        v(static_cast<Eigen::Index>(u)) = unknowns_[u].initial;
    return v;
}

Eigen::VectorXd ParameterLayout::lower() const
{
    Eigen::VectorXd v(static_cast<Eigen::Index>(unknowns_.size()));
    for (std::size_t u = 0; u < unknowns_.size(); ++u)
        v(static_cast<Eigen::Index>(u)) = unknowns_[u].lower;
    return v;
}

Eigen::VectorXd ParameterLayout::upper() const
{
    Eigen::VectorXd v(static_cast<Eigen::Index>(unknowns_.size()));
    for (std::size_t u = 0; u < unknowns_.size(); ++u)
        v(static_cast<Eigen::Index>(u)) = unknowns_[u].upper;
    return v;
}

std::vector<double> ParameterLayout::modelValues(const Eigen::VectorXd& theta, std::size_t experiment) const
{
    std::vector<double> values = base_[experiment];
    for (std::size_t u : unknownsOf_[experiment])
        values[unknowns_[u].modelIndex] = theta(static_cast<Eigen::Index>(u));
    return values;
}

std::vector<std::size_t> ParameterLayout::modelIndicesOf(std::size_t experiment) const
{
    std::vector<std::size_t> indices;
    for (std::size_t u : unknownsOf_[experiment])
        indices.push_back(unknowns_[u].modelIndex);
    return indices;
}

}  // namespace sysid::estimate
