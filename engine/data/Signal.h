#pragma once

#include <cstddef>
#include <vector>

namespace sysid::data {

// A sampled signal u(t), read by linear interpolation (model inputs).
class Signal {
public:
    // Throws std::invalid_argument unless time and values have the same length,
    // at least one sample, strictly increasing time and only finite numbers.
    Signal(std::vector<double> time, std::vector<double> values);

    // Linear interpolation between samples; exact at the samples; holds the
    // first / last value outside the time range. O(log n), no allocation,
    // safe to call from several threads. NaN for NaN t.
    double at(double t) const;
    // The same value; `hint` (the caller's, so calls stay thread-safe) remembers the segment
    // last used, so reading at slowly advancing t skips the binary search. Any start value works.
    double at(double t, std::size_t& hint) const;
    // Slope of the interpolant at t (of the segment that starts at t at a sample; 0 outside the range).
    double slope(double t) const;
    // The same slope; `hint` as in at().
    double slope(double t, std::size_t& hint) const;

    const std::vector<double>& time() const { return time_; }
    const std::vector<double>& values() const { return values_; }
    std::size_t size() const { return time_.size(); }
    // i with time()[i] <= t < time()[i + 1], for time().front() <= t < time().back(); `hint` as in at().
    std::size_t segment(double t, std::size_t& hint) const;

private:
    double interpolate(double t, std::size_t i) const;

    std::vector<double> time_;
    std::vector<double> values_;
};

}  // namespace sysid::data
