#pragma once

#include "engine/data/DataTable.h"

#include <vector>

namespace sysid::data {

// A signal's samples with their times.
struct SampledSignal {
    std::vector<double> time;
    std::vector<double> values;
};

// Keeps every factor-th sample (the first, then every factor-th after it) after
// a zero-phase order-8 Butterworth low-pass at 0.8 * (fs/2) / factor against
// aliasing (its ends by odd reflection, FilterEnds::Odd). factor 1 returns the input. Throws std::invalid_argument for
// a factor < 1, time and values of different lengths, time that is not uniform to 1e-9 relative (saying so), or a
// signal too short for the filter.
SampledSignal decimate(const std::vector<double>& time, const std::vector<double>& values, int factor);

// Linear interpolation onto t0, t0 + dt, t0 + 2 dt, ... up to the last time
// (included when it falls on the grid to 1e-9 of dt); t0 = time.front(). Throws
// std::invalid_argument for fewer than 2 samples, lengths that differ, time that
// is not finite and strictly increasing, dt not finite and > 0, or more than
// 1e8 output samples.
SampledSignal resampleUniform(const std::vector<double>& time, const std::vector<double>& values, double dt);

// The rows with t0 <= t <= t1 (all columns). Throws DataError for t0 > t1 or
// non-finite bounds, and when fewer than 2 rows remain (naming the window and
// the data's time range).
DataTable trimWindow(const DataTable& table, double t0, double t1);

}  // namespace sysid::data
