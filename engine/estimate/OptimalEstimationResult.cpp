// The result's own functions, apart from OptimalEstimation.cpp so that code reading and writing
// results (project files) does not link GiNaC.
#include "engine/estimate/OptimalEstimation.h"

namespace sysid::estimate {

std::vector<std::string> OptimalEstimationResult::augmentedStateNames() const
{
    std::vector<std::string> names = stateNames;
    names.insert(names.end(), parameterNames.begin(), parameterNames.end());
    return names;
}

StartTrajectory startTrajectoryFrom(const OptimalEstimationResult& r, const std::string& source)
{
    StartTrajectory start;
    start.source = source;
    start.times = r.times;
    const auto samples = static_cast<Eigen::Index>(r.times.size());
    const auto column = [&](const Eigen::MatrixXd& m, std::size_t c) {
        std::vector<double> values(static_cast<std::size_t>(samples));
        for (Eigen::Index k = 0; k < samples; ++k)
            values[static_cast<std::size_t>(k)] = m(k, static_cast<Eigen::Index>(c));
        return values;
    };
    if (r.states.rows() == samples)
        for (std::size_t i = 0; i < r.stateNames.size() && static_cast<Eigen::Index>(i) < r.states.cols(); ++i)
            start.values[r.stateNames[i]] = column(r.states, i);
    for (std::size_t q = 0; q < r.parameterNames.size(); ++q) {
        if (r.parameterTraces.rows() == samples && static_cast<Eigen::Index>(q) < r.parameterTraces.cols())
            start.values[r.parameterNames[q]] = column(r.parameterTraces, q);
        else if (static_cast<Eigen::Index>(q) < r.parameters.size() && samples > 0)
            start.values[r.parameterNames[q]].assign(static_cast<std::size_t>(samples),
                                                     r.parameters(static_cast<Eigen::Index>(q)));
    }
    const auto names = r.augmentedStateNames();
    if (r.costates.rows() == samples)
        for (std::size_t i = 0; i < names.size() && static_cast<Eigen::Index>(i) < r.costates.cols(); ++i)
            start.values["lambda_" + names[i]] = column(r.costates, i);
    return start;
}

}  // namespace sysid::estimate
