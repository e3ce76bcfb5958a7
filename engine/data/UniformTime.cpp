#include "engine/data/UniformTime.h"

#include "engine/data/Text.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace sysid::data {

double uniformTimeStep(const std::vector<double>& time, std::string_view what)
{
    const std::string prefix(what);
    if (time.size() < 2)
        throw std::invalid_argument(prefix + ": " + std::to_string(time.size()) + " time samples; expected at least 2");
    const double dt = (time.back() - time.front()) / static_cast<double>(time.size() - 1);
    if (!std::isfinite(dt) || !(dt > 0))
        throw std::invalid_argument(prefix + ": time runs from " + formatDouble(time.front()) + " to " +
                                    formatDouble(time.back()) + "; expected finite, increasing time");
    for (std::size_t i = 0; i + 1 < time.size(); ++i) {
        const double h = time[i + 1] - time[i];
        if (!(std::abs(h - dt) <= 1e-9 * dt))
            throw std::invalid_argument(
                prefix + ": time is not uniformly sampled (the interval from t = " + formatDouble(time[i]) + " to " +
                formatDouble(time[i + 1]) + " is " + formatDouble(h) + ", the mean interval " + formatDouble(dt) +
                "); expected equal intervals to 1e-9 relative, resample the data first");
    }
    return dt;
}

}  // namespace sysid::data
