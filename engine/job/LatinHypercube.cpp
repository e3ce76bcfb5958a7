#include "engine/job/LatinHypercube.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace sysid::job {

namespace {

// Separate families of streams, so that the permutation of coordinate d and the point d never share one.
constexpr std::uint64_t kPermutationFamily = 0x5045524d55544154ULL;
constexpr std::uint64_t kPointFamily = 0x504f494e54535452ULL;

std::uint64_t mix(std::uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

RandomStream::RandomStream(std::uint64_t seed, std::uint64_t stream) :
    state_(mix(mix(seed) ^ (stream + 0x9e3779b97f4a7c15ULL)))
{
}

std::uint64_t RandomStream::next()
{
    state_ += 0x9e3779b97f4a7c15ULL;
    return mix(state_);
}

double RandomStream::uniform()
{
    return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

std::size_t RandomStream::below(std::size_t n)
{
    // Rejection of the top partial block keeps every value equally likely (Lemire 2019 without the multiply).
    const std::uint64_t range = static_cast<std::uint64_t>(n);
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % range;
    std::uint64_t x = next();
    while (x >= limit)
        x = next();
    return static_cast<std::size_t>(x % range);
}

SampleRange SampleRange::forBounds(double lower, double upper)
{
    return {lower, upper, lower > 0 && upper > 10 * lower};
}

double SampleRange::fromUnit(double u) const
{
    const double value =
        logarithmic ? std::exp(std::log(lower) + u * (std::log(upper) - std::log(lower))) : lower + u * (upper - lower);
    return std::clamp(value, lower, upper);  // rounding must not leave the box
}

double SampleRange::toUnit(double value) const
{
    if (logarithmic)
        return (std::log(value) - std::log(lower)) / (std::log(upper) - std::log(lower));
    return (value - lower) / (upper - lower);
}

LatinHypercube::LatinHypercube(std::vector<SampleRange> ranges, std::size_t count, std::uint64_t seed) :
    ranges_(std::move(ranges)), count_(count), seed_(seed)
{
    if (count_ == 0)
        throw std::invalid_argument("LatinHypercube: at least one point");
    strata_.resize(ranges_.size());
    for (std::size_t d = 0; d < ranges_.size(); ++d) {
        std::vector<std::size_t>& strata = strata_[d];
        strata.resize(count_);
        std::iota(strata.begin(), strata.end(), std::size_t{0});
        // Fisher-Yates shuffle (Durstenfeld 1964), our own so that every platform draws the same.
        RandomStream random(seed_ ^ kPermutationFamily, d);
        for (std::size_t k = count_ - 1; k > 0; --k)
            std::swap(strata[k], strata[random.below(k + 1)]);
    }
}

std::vector<double> LatinHypercube::unitPoint(std::size_t index) const
{
    if (index >= count_)
        throw std::out_of_range("LatinHypercube: point index out of range");
    RandomStream random(seed_ ^ kPointFamily, index);
    std::vector<double> u(ranges_.size());
    for (std::size_t d = 0; d < ranges_.size(); ++d)
        u[d] = (static_cast<double>(strata_[d][index]) + random.uniform()) / static_cast<double>(count_);
    return u;
}

std::vector<double> LatinHypercube::point(std::size_t index) const
{
    std::vector<double> x = unitPoint(index);
    for (std::size_t d = 0; d < x.size(); ++d)
        x[d] = ranges_[d].fromUnit(x[d]);
    return x;
}

}  // namespace sysid::job
