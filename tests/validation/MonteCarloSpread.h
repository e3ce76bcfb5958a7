#pragma once

// The spread of estimates over Monte Carlo realisations against the sd each fit reported: a
// reported sd is honest when the sample sd over the mean reported sd (ratio) is near 1.

#include <cmath>
#include <vector>

namespace sysid::test {

struct Spread {
    double mean = 0, sampleSd = 0, meanReportedSd = 0;
    double ratio() const { return sampleSd / meanReportedSd; }
};

inline Spread spreadOf(const std::vector<double>& values, const std::vector<double>& reportedSd)
{
    Spread s;
    const double n = static_cast<double>(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        s.mean += values[i] / n;
        s.meanReportedSd += reportedSd[i] / n;
    }
    for (double v : values)
        s.sampleSd += (v - s.mean) * (v - s.mean) / (n - 1);
    s.sampleSd = std::sqrt(s.sampleSd);
    return s;
}

}  // namespace sysid::test
