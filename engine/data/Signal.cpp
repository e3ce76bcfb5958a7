#include "engine/data/Signal.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace sysid::data {

Signal::Signal(std::vector<double> time, std::vector<double> values) :
    time_(std::move(time)), values_(std::move(values))
{
    if (time_.size() != values_.size())
        throw std::invalid_argument("Signal: " + std::to_string(time_.size()) + " time values but " +
                                    std::to_string(values_.size()) + " signal values; expected equal lengths");
    if (time_.empty())
        throw std::invalid_argument("Signal: no samples; expected at least one");
    for (std::size_t i = 0; i < time_.size(); ++i) {
        if (!std::isfinite(time_[i]) || !std::isfinite(values_[i]))
            throw std::invalid_argument("Signal: sample " + std::to_string(i) +
                                        " is not finite; expected finite time and values");
        if (i > 0 && !(time_[i] > time_[i - 1]))
            throw std::invalid_argument("Signal: time at sample " + std::to_string(i) +
                                        " does not increase; expected strictly increasing time");
    }
}

double Signal::at(double t) const
{
    std::size_t hint = 0;
    return at(t, hint);
}

double Signal::at(double t, std::size_t& hint) const
{
    if (std::isnan(t))
        return t;
    if (t <= time_.front())
        return values_.front();
    if (t >= time_.back())
        return values_.back();
    return interpolate(t, segment(t, hint));
}

std::size_t Signal::segment(double t, std::size_t& hint) const
{
    // Precondition time_.front() <= t < time_.back(), so the segment is in 0 .. n-2.
    const std::size_t last = time_.size() - 2;
    if (hint <= last && time_[hint] <= t) {
        if (t < time_[hint + 1])
            return hint;
        if (hint + 1 <= last && t < time_[hint + 2])
            return ++hint;
    }
    const auto it = std::upper_bound(time_.begin(), time_.end(), t);
    hint = static_cast<std::size_t>(it - time_.begin()) - 1;
    return hint;
}

double Signal::interpolate(double t, std::size_t i) const
{
    const double t0 = time_[i], t1 = time_[i + 1];
    const double v0 = values_[i], v1 = values_[i + 1];
    if (t == t0)
        return v0;
    const double s = (t - t0) / (t1 - t0);
    const double dv = v1 - v0;
    if (std::isfinite(dv))
        return v0 + dv * s;
    return v0 * (1 - s) + v1 * s;  // values near the largest double
}

double Signal::slope(double t) const
{
    std::size_t hint = 0;
    return slope(t, hint);
}

double Signal::slope(double t, std::size_t& hint) const
{
    if (!(t >= time_.front()) || !(t < time_.back()))
        return 0.0;
    const std::size_t i = segment(t, hint);
    return (values_[i + 1] - values_[i]) / (time_[i + 1] - time_[i]);
}

}  // namespace sysid::data
