#include "engine/integrate/ConstraintDrift.h"

#include "engine/data/Text.h"

#include <cmath>

namespace sysid::integrate {

std::vector<ConstraintDrift> constraintDrift(const Trajectory& trajectory)
{
    std::vector<ConstraintDrift> drift;
    const std::size_t count = trajectory.invariantConstraints.size();
    if (trajectory.invariants.cols() != static_cast<Eigen::Index>(count))
        return drift;
    for (std::size_t i = 0; i < count; ++i) {
        ConstraintDrift d{trajectory.invariantConstraints[i], trajectory.invariantLevels[i], 0.0,
                          trajectory.times.empty() ? 0.0 : trajectory.times.front()};
        for (Eigen::Index k = 0; k < trajectory.invariants.rows(); ++k) {
            const double r = std::abs(trajectory.invariants(k, static_cast<Eigen::Index>(i)));
            if (!(r <= d.largest)) {
                d.largest = r;
                d.time = trajectory.times[static_cast<std::size_t>(k)];
            }
        }
        drift.push_back(d);
    }
    return drift;
}

std::string describeDrift(const std::vector<ConstraintDrift>& drift)
{
    if (drift.empty())
        return {};
    static const char* orders[] = {"", "first", "second", "third"};
    std::string text = "constraint drift (largest |residual| over the samples):";
    for (std::size_t i = 0; i < drift.size(); ++i) {
        const auto& d = drift[i];
        text += i == 0 ? " " : ", ";
        if (d.level == 0)
            text += d.constraint;
        else
            text += std::string("its ") + (d.level < 4 ? orders[d.level] : "higher") + " time derivative";
        text += " " + data::formatNumber(d.largest, 2) + " (t = " + data::formatNumber(d.time, 6) + ")";
    }
    return text;
}

}  // namespace sysid::integrate
