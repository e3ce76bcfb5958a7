#include "engine/estimate/MeasuredStates.h"

#include "engine/data/Text.h"
#include "engine/estimate/Fit.h"

#include <cmath>

namespace sysid::estimate {

int coordinateOf(const eval::CompiledModelSource& model, std::size_t state)
{
    const std::string& name = model.stateNames[state];
    if (name.size() < 2 || name.back() != '\'')
        return -1;
    const std::string coordinate = name.substr(0, name.size() - 1);
    for (std::size_t i = 0; i < model.stateCount(); ++i)
        if (model.stateNames[i] == coordinate)
            return static_cast<int>(i);
    return -1;
}

MeasuredStates measuredStates(const eval::CompiledModelSource& model, const Experiment& experiment,
                              const data::Preprocessing::Derivative& differentiation, std::size_t minimumSamples)
{
    const std::string where = "data set '" + experiment.name + "'";
    const std::size_t samples = experiment.times.size();
    if (samples < minimumSamples)
        throw FitError(where + " has " + std::to_string(samples) + " samples; the formula needs at least " +
                       std::to_string(minimumSamples));
    MeasuredStates m;
    m.times = experiment.times;
    m.step = (m.times.back() - m.times.front()) / static_cast<double>(samples - 1);
    for (std::size_t k = 1; k < samples; ++k)
        if (std::abs(m.times[k] - m.times[k - 1] - m.step) > 1e-6 * m.step)
            throw FitError(where + ": the equation-error methods need uniformly sampled data, but the step from t = " +
                           data::formatNumber(m.times[k - 1], 8) + " to " + data::formatNumber(m.times[k], 8) +
                           " differs from the mean step " + data::formatNumber(m.step, 8) +
                           " (resample the data set in the import dialog or with a time window)");

    const std::size_t n = model.stateCount();
    m.values.resize(static_cast<Eigen::Index>(samples), static_cast<Eigen::Index>(n));
    std::vector<bool> known(n, false);
    for (std::size_t j = 0; j < model.outputCount(); ++j) {
        const int state = model.outputState[j];
        if (state < 0 || !experiment.outputMeasured[j] || known[static_cast<std::size_t>(state)])
            continue;
        const auto column = experiment.measured.col(static_cast<Eigen::Index>(j));
        for (std::size_t k = 0; k < samples; ++k)
            if (!std::isfinite(column(static_cast<Eigen::Index>(k))))
                throw FitError(where + ": " + model.outputNames[j] +
                               " is not a finite number at t = " + data::formatNumber(m.times[k], 8));
        m.values.col(state) = column;
        known[static_cast<std::size_t>(state)] = true;
    }
    m.differentiated.assign(n, false);
    // A chain x -> x' -> x'' is filled from its lowest known member upwards.
    for (bool progress = true; progress;) {
        progress = false;
        for (std::size_t i = 0; i < n; ++i) {
            const int coordinate = coordinateOf(model, i);
            if (known[i] || coordinate < 0 || !known[static_cast<std::size_t>(coordinate)])
                continue;
            std::vector<double> values(samples);
            for (std::size_t k = 0; k < samples; ++k)
                values[k] = m.values(static_cast<Eigen::Index>(k), coordinate);
            std::vector<double> derivative;
            try {
                derivative = data::differentiate(m.times, values, differentiation.method, differentiation.window,
                                                 differentiation.polynomialOrder);
            } catch (const std::invalid_argument& e) {
                throw FitError(where + ": differentiating " + model.stateNames[static_cast<std::size_t>(coordinate)] +
                               " for " + model.stateNames[i] + ": " + e.what());
            }
            for (std::size_t k = 0; k < samples; ++k)
                m.values(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(i)) = derivative[k];
            known[i] = true;
            m.differentiated[i] = true;
            progress = true;
        }
    }
    for (std::size_t i = 0; i < n; ++i)
        if (!known[i])
            throw FitError(where + ": the equation-error methods need every state on the data, but state " +
                           model.stateNames[i] +
                           " is neither a measured output nor the velocity of a measured coordinate "
                           "(add `output " +
                           model.stateNames[i] + "` to the model and a column for it)");
    return m;
}

}  // namespace sysid::estimate
