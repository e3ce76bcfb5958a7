#include "engine/data/ZeroPhaseFilter.h"

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>
#include <string>

namespace sysid::data {

namespace {

using State = std::array<double, 2>;
using States = std::vector<State>;

// Steady state of a section in transposed direct form II for a unit input:
// z2 = b2 - a2 G, z1 = b1 - a1 G + z2 with G = H(1) (the same as scipy.signal.lfilter_zi).
State unitStepState(const SecondOrderSection& s, double dcGain)
{
    const double z2 = s.b2 - s.a2 * dcGain;
    const double z1 = s.b1 - s.a1 * dcGain + z2;
    return {z1, z2};
}

double dcGainOf(const SecondOrderSection& s)
{
    return (s.b0 + s.b1 + s.b2) / (1.0 + s.a1 + s.a2);
}

// Steady states of the cascade for a unit input: a section sees the DC gain of those before it.
States cascadeSteadyState(const std::vector<SecondOrderSection>& sections)
{
    States zi;
    double scale = 1;
    for (const auto& s : sections) {
        const double g = dcGainOf(s);
        const State unit = unitStepState(s, g);
        zi.push_back({unit[0] * scale, unit[1] * scale});
        scale *= g;
    }
    return zi;
}

// Runs [first, last) through the cascade in place, section k in transposed direct form II from
// the state z[k] (a reverse iterator runs it backwards in time).
template <class It>
void runCascade(const std::vector<SecondOrderSection>& sections, const States& z, It first, It last)
{
    for (std::size_t k = 0; k < sections.size(); ++k) {
        const auto& s = sections[k];
        double z1 = z[k][0];
        double z2 = z[k][1];
        for (It it = first; it != last; ++it) {
            const double in = *it;
            const double out = s.b0 * in + z1;
            z1 = s.b1 * in - s.a1 * out + z2;
            z2 = s.b2 * in - s.a2 * out;
            *it = out;
        }
    }
}

States scaled(const States& z, double factor)
{
    States out = z;
    for (State& s : out)
        s = {s[0] * factor, s[1] * factor};
    return out;
}

// Largest pole radius of the cascade.
double slowestPoleRadius(const std::vector<SecondOrderSection>& sections)
{
    double r = 0;
    for (const auto& s : sections) {
        // Poles: roots of z^2 + a1 z + a2 (z + a1 for a first-order section).
        const std::complex<double> root = std::sqrt(std::complex<double>(s.a1 * s.a1 - 4.0 * s.a2, 0.0));
        r = std::max({r, std::abs((-s.a1 + root) / 2.0), std::abs((-s.a1 - root) / 2.0)});
    }
    return r;
}

std::vector<double> oddExtended(const std::vector<SecondOrderSection>& sections, const std::vector<double>& signal)
{
    const std::size_t n = signal.size();
    const std::size_t pad = std::min(defaultPadLength(sections), n - 1);
    std::vector<double> x;
    x.reserve(n + 2 * pad);
    const double first = signal.front();
    const double last = signal.back();
    for (std::size_t i = pad; i >= 1; --i)
        x.push_back(2.0 * first - signal[i]);
    x.insert(x.end(), signal.begin(), signal.end());
    for (std::size_t i = 1; i <= pad; ++i)
        x.push_back(2.0 * last - signal[n - 1 - i]);

    const States zi = cascadeSteadyState(sections);
    runCascade(sections, scaled(zi, x.front()), x.begin(), x.end());
    runCascade(sections, scaled(zi, x.back()), x.rbegin(), x.rend());
    return {x.begin() + static_cast<std::ptrdiff_t>(pad), x.begin() + static_cast<std::ptrdiff_t>(pad + n)};
}

// The transients of the forward pass from each unit state at the first of `rows` samples, then
// through the backward pass (from rest): the columns of the output's dependence on s_L.
Eigen::MatrixXd startColumns(const std::vector<SecondOrderSection>& sections, std::size_t rows)
{
    const States rest(sections.size(), State{0.0, 0.0});
    Eigen::MatrixXd columns(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(2 * sections.size()));
    std::vector<double> x(rows);
    for (std::size_t j = 0; j < 2 * sections.size(); ++j) {
        States z = rest;
        z[j / 2][j % 2] = 1.0;
        std::fill(x.begin(), x.end(), 0.0);
        runCascade(sections, z, x.begin(), x.end());
        runCascade(sections, rest, x.rbegin(), x.rend());
        columns.col(static_cast<Eigen::Index>(j)) = Eigen::Map<const Eigen::VectorXd>(x.data(), x.size());
    }
    return columns;
}

// The backward pass's transients from each unit state at the last of `rows` samples: the columns
// of the output's dependence on s_R.
Eigen::MatrixXd endColumns(const std::vector<SecondOrderSection>& sections, std::size_t rows)
{
    const States rest(sections.size(), State{0.0, 0.0});
    Eigen::MatrixXd columns(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(2 * sections.size()));
    std::vector<double> x(rows);
    for (std::size_t j = 0; j < 2 * sections.size(); ++j) {
        States z = rest;
        z[j / 2][j % 2] = 1.0;
        std::fill(x.begin(), x.end(), 0.0);
        runCascade(sections, z, x.rbegin(), x.rend());
        columns.col(static_cast<Eigen::Index>(j)) = Eigen::Map<const Eigen::VectorXd>(x.data(), x.size());
    }
    return columns;
}

// The correction A c with c minimising |A c - r| (columns scaled to unit norm first, so that the
// rank decision does not depend on the states' scale; minimum-norm c where A is rank deficient).
Eigen::VectorXd leastSquaresFit(Eigen::MatrixXd A, const Eigen::VectorXd& r)
{
    for (Eigen::Index j = 0; j < A.cols(); ++j) {
        const double norm = A.col(j).norm();
        if (norm > 0)
            A.col(j) /= norm;
    }
    const Eigen::VectorXd c = A.completeOrthogonalDecomposition().solve(r);
    return A * c;
}

// The ends' states fitted to the signal: the output over the record is affine in the forward
// pass's state at the first sample and the backward pass's at the last (Gustafsson 1996, sec. II;
// the least-squares choice of them against the data is this program's). Starting from the odd
// extension's output (one such pair of states) and fitting the correction keeps what it already
// gets exactly (constants, ramps) exact to rounding. The transients decay within m samples of
// their end, so each end is fitted on its own m rows unless the record is shorter than 2 m.
std::vector<double> leastSquaresEnds(const std::vector<SecondOrderSection>& sections, const std::vector<double>& signal)
{
    const std::size_t n = signal.size();
    std::vector<double> y = oddExtended(sections, signal);

    const std::size_t m = std::min(n, settlingSamples(sections, 1e-16) + 1);
    const auto residual = [&](std::size_t from, std::size_t rows) {
        Eigen::VectorXd r(static_cast<Eigen::Index>(rows));
        for (std::size_t i = 0; i < rows; ++i)
            r(static_cast<Eigen::Index>(i)) = signal[from + i] - y[from + i];
        return r;
    };
    const auto add = [&](std::size_t from, const Eigen::VectorXd& correction) {
        for (Eigen::Index i = 0; i < correction.size(); ++i)
            y[from + static_cast<std::size_t>(i)] += correction(i);
    };
    if (2 * m >= n) {
        const Eigen::MatrixXd start = startColumns(sections, n);
        const Eigen::MatrixXd end = endColumns(sections, n);
        Eigen::MatrixXd A(start.rows(), start.cols() + end.cols());
        A << start, end;
        add(0, leastSquaresFit(A, residual(0, n)));
    } else {
        const Eigen::VectorXd startCorrection = leastSquaresFit(startColumns(sections, m), residual(0, m));
        const Eigen::VectorXd endCorrection = leastSquaresFit(endColumns(sections, m), residual(n - m, m));
        add(0, startCorrection);
        add(n - m, endCorrection);
    }
    return y;
}

}  // namespace

std::size_t defaultPadLength(const std::vector<SecondOrderSection>& sections)
{
    std::size_t taps = 2 * sections.size() + 1;
    std::size_t zeroB2 = 0, zeroA2 = 0;
    for (const auto& s : sections) {
        zeroB2 += s.b2 == 0 ? 1 : 0;
        zeroA2 += s.a2 == 0 ? 1 : 0;
    }
    taps -= std::min(zeroB2, zeroA2);
    return 3 * taps;
}

std::size_t minimumFilterLength(const std::vector<SecondOrderSection>& sections)
{
    return std::max<std::size_t>(2, defaultPadLength(sections) / 3);
}

std::size_t settlingSamples(const std::vector<SecondOrderSection>& sections, double fraction)
{
    if (sections.empty())
        return 0;
    const double r = slowestPoleRadius(sections);
    if (!(r < 1.0))
        return std::numeric_limits<std::size_t>::max();
    if (r == 0.0)
        return 1;
    return static_cast<std::size_t>(std::ceil(std::log(fraction) / std::log(r)));
}

std::vector<double> zeroPhaseGain(const std::vector<SecondOrderSection>& sections,
                                  const std::vector<double>& frequencyHz, double sampleRateHz)
{
    std::vector<double> gain;
    gain.reserve(frequencyHz.size());
    for (const double f : frequencyHz)
        gain.push_back(std::norm(frequencyResponse(sections, f, sampleRateHz)));
    return gain;
}

// Forward-backward (zero-phase) filtering: Gustafsson, "Determining the initial states in forward-backward filtering",
// IEEE Trans. Signal Processing 44(4), 1996, sec. I; the odd padding and its initial states as
// scipy.signal.sosfiltfilt (method "pad").
std::vector<double> filtFilt(const std::vector<SecondOrderSection>& sections, const std::vector<double>& signal,
                             FilterEnds ends)
{
    for (std::size_t i = 0; i < signal.size(); ++i)
        if (!std::isfinite(signal[i]))
            throw std::invalid_argument("zero-phase filter: sample " + std::to_string(i + 1) +
                                        " is not a finite number; expected finite values");
    if (sections.empty())
        return signal;
    const std::size_t n = signal.size();
    const std::size_t needed = minimumFilterLength(sections);
    if (n < needed)
        throw std::invalid_argument("zero-phase filter: the signal has " + std::to_string(n) +
                                    " samples; this filter needs at least " + std::to_string(needed));
    return ends == FilterEnds::Odd ? oddExtended(sections, signal) : leastSquaresEnds(sections, signal);
}

}  // namespace sysid::data
