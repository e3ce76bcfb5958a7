#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sysid::job {

// A reproducible stream of random numbers identified by (seed, stream): the same pair gives the
// same numbers on any machine and in any order of use, so work split over threads or processes
// draws exactly what one thread would. SplitMix64 (Steele, Lea & Flood 2014).
class RandomStream {
public:
    RandomStream(std::uint64_t seed, std::uint64_t stream);
    std::uint64_t next();
    double uniform();  // in [0, 1), 53 random bits
    std::size_t below(std::size_t n);  // in [0, n), unbiased

private:
    std::uint64_t state_;
};

// One coordinate of the box a design fills.
struct SampleRange {
    double lower = 0, upper = 1;
    // Uniform in log(value) instead of value: for bounds both positive spanning more than a decade.
    bool logarithmic = false;

    // The range of a parameter with these (finite) bounds, logarithmic where they call for it.
    static SampleRange forBounds(double lower, double upper);
    double fromUnit(double u) const;  // [0, 1] -> the range
    double toUnit(double value) const;  // the range -> [0, 1]
};

// A Latin hypercube design of `count` points in a box (McKay, Beckman & Conover 1979): each
// coordinate's range is cut into `count` strata of equal width (in log space for a logarithmic
// range) and every stratum of every coordinate holds exactly one point, at a uniformly random
// place within it. The stratum permutation of coordinate d is drawn from the stream (seed, d); the
// place within the strata of point i from its own stream (seed, i): point i is computed on its own.
class LatinHypercube {
public:
    LatinHypercube(std::vector<SampleRange> ranges, std::size_t count, std::uint64_t seed);

    std::size_t count() const { return count_; }
    const std::vector<SampleRange>& ranges() const { return ranges_; }
    // Point `index` (< count) in the unit cube and in the box.
    std::vector<double> unitPoint(std::size_t index) const;
    std::vector<double> point(std::size_t index) const;

private:
    std::vector<SampleRange> ranges_;
    std::size_t count_;
    std::uint64_t seed_;
    std::vector<std::vector<std::size_t>> strata_;  // per coordinate: the stratum of each point
};

}  // namespace sysid::job
