#include "engine/integrate/InputSignals.h"

#include <Eigen/Sparse>
#include <Eigen/SparseLU>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sysid::integrate {

namespace {

// The second derivatives M_k of the not-a-knot cubic spline through (t_k, y_k): the continuity of
// the first derivative at the interior samples, and of the third derivative at the second and the
// second-last (de Boor, A Practical Guide to Splines, 1978, ch. IV). Fewer than four samples have
// no not-a-knot spline: two give the line (M = 0), three the parabola through them.
std::vector<double> splineMoments(const std::vector<double>& t, const std::vector<double>& y)
{
    const std::size_t n = t.size();
    std::vector<double> moments(n, 0.0);
    if (n < 3)
        return moments;
    if (n == 3) {
        const double d0 = (y[1] - y[0]) / (t[1] - t[0]), d1 = (y[2] - y[1]) / (t[2] - t[1]);
        moments.assign(3, 2.0 * (d1 - d0) / (t[2] - t[0]));
        return moments;
    }
    using Triplet = Eigen::Triplet<double>;
    std::vector<Triplet> entries;
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n));
    auto h = [&t](std::size_t k) { return t[k + 1] - t[k]; };
    auto row = [](std::size_t k) { return static_cast<int>(k); };
    entries.emplace_back(0, 0, h(1));
    entries.emplace_back(0, 1, -(h(0) + h(1)));
    entries.emplace_back(0, 2, h(0));
    for (std::size_t k = 1; k + 1 < n; ++k) {
        entries.emplace_back(row(k), row(k - 1), h(k - 1));
        entries.emplace_back(row(k), row(k), 2.0 * (h(k - 1) + h(k)));
        entries.emplace_back(row(k), row(k + 1), h(k));
        rhs(static_cast<Eigen::Index>(k)) = 6.0 * ((y[k + 1] - y[k]) / h(k) - (y[k] - y[k - 1]) / h(k - 1));
    }
    entries.emplace_back(row(n - 1), row(n - 3), h(n - 2));
    entries.emplace_back(row(n - 1), row(n - 2), -(h(n - 3) + h(n - 2)));
    entries.emplace_back(row(n - 1), row(n - 1), h(n - 3));
    Eigen::SparseMatrix<double> A(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
    A.setFromTriplets(entries.begin(), entries.end());
    Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(A);
    if (lu.info() != Eigen::Success)
        throw std::invalid_argument("the cubic spline through the input samples cannot be formed");
    const Eigen::VectorXd m = lu.solve(rhs);
    for (std::size_t k = 0; k < n; ++k)
        moments[k] = m(static_cast<Eigen::Index>(k));
    return moments;
}

// The second derivatives of the periodic cubic spline through (t_k, y_k), k = 0..M, with y_M = y_0
// one period after t_0: continuity of the first derivative at every sample, the ends joined as one
// (de Boor 1978, ch. IV, periodic end conditions). The cyclic system has M unknowns; M_M = M_0.
std::vector<double> periodicSplineMoments(const std::vector<double>& t, const std::vector<double>& y)
{
    const std::size_t m = t.size() - 1;  // distinct samples
    using Triplet = Eigen::Triplet<double>;
    std::vector<Triplet> entries;
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(m));
    auto h = [&t](std::size_t k) { return t[k + 1] - t[k]; };
    auto row = [](std::size_t k) { return static_cast<int>(k); };
    for (std::size_t k = 0; k < m; ++k) {
        const std::size_t before = (k + m - 1) % m;
        const std::size_t after = (k + 1) % m;
        entries.emplace_back(row(k), row(before), h(before));
        entries.emplace_back(row(k), row(k), 2.0 * (h(before) + h(k)));
        entries.emplace_back(row(k), row(after), h(k));
        rhs(static_cast<Eigen::Index>(k)) = 6.0 * ((y[k + 1] - y[k]) / h(k) - (y[before + 1] - y[before]) / h(before));
    }
    Eigen::SparseMatrix<double> A(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(m));
    A.setFromTriplets(entries.begin(), entries.end());
    Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(A);
    if (lu.info() != Eigen::Success)
        throw std::invalid_argument("the periodic cubic spline through the input samples cannot be formed");
    const Eigen::VectorXd solved = lu.solve(rhs);
    std::vector<double> moments(m + 1);
    for (std::size_t k = 0; k < m; ++k)
        moments[k] = solved(static_cast<Eigen::Index>(k));
    moments[m] = moments[0];
    return moments;
}

}  // namespace

InputSignals::InputSignals(std::vector<data::Signal> perInput, std::vector<Intersample> behaviour) :
    signals_(std::move(perInput)), behaviour_(std::move(behaviour))
{
    if (behaviour_.empty())
        behaviour_.assign(signals_.size(), Intersample::Linear);
    if (behaviour_.size() != signals_.size())
        throw std::invalid_argument("an intersample behaviour is needed for each input signal");
    moments_.resize(signals_.size());
    for (std::size_t i = 0; i < signals_.size(); ++i)
        if (behaviour_[i] == Intersample::Spline)
            moments_[i] = splineMoments(signals_[i].time(), signals_[i].values());
}

InputSignals InputSignals::fromTable(const std::vector<std::string>& inputNames, const data::DataTable& table,
                                     const std::map<std::string, std::string>& mapping,
                                     const std::map<std::string, Intersample>& intersample)
{
    std::vector<data::Signal> perInput;
    std::vector<Intersample> behaviour;
    for (const auto& name : inputNames) {
        const auto it = mapping.find(name);
        const std::string& column = it == mapping.end() ? name : it->second;
        perInput.emplace_back(table.time(), table.column(column));
        const auto b = intersample.find(name);
        behaviour.push_back(b == intersample.end() ? Intersample::Linear : b->second);
    }
    return InputSignals(std::move(perInput), std::move(behaviour));
}

InputSignals InputSignals::periodic(std::vector<data::Signal> onePeriod, std::vector<Intersample> behaviour,
                                    double period)
{
    if (!(period > 0) || !std::isfinite(period))
        throw std::invalid_argument("the period of the input must be positive and finite");
    if (behaviour.empty())
        behaviour.assign(onePeriod.size(), Intersample::Linear);
    InputSignals periodic;
    periodic.period_ = period;
    periodic.origin_ = onePeriod.empty() ? 0.0 : onePeriod.front().time().front();
    for (const auto& signal : onePeriod) {
        if (signal.time().front() != periodic.origin_)
            throw std::invalid_argument("the periodic input signals do not start at the same time");
        if (!(signal.time().back() < periodic.origin_ + period))
            throw std::invalid_argument("the samples of a periodic input must lie within one period");
        // The period's closing sample: the first one again, one period later.
        auto time = signal.time();
        auto values = signal.values();
        time.push_back(periodic.origin_ + period);
        values.push_back(values.front());
        periodic.signals_.emplace_back(std::move(time), std::move(values));
    }
    periodic.behaviour_ = std::move(behaviour);
    if (periodic.behaviour_.size() != periodic.signals_.size())
        throw std::invalid_argument("an intersample behaviour is needed for each input signal");
    periodic.moments_.resize(periodic.signals_.size());
    for (std::size_t i = 0; i < periodic.signals_.size(); ++i)
        if (periodic.behaviour_[i] == Intersample::Spline)
            periodic.moments_[i] = periodicSplineMoments(periodic.signals_[i].time(), periodic.signals_[i].values());
    return periodic;
}

double InputSignals::wrapped(double t, bool fromLeft) const
{
    if (period_ <= 0 || !std::isfinite(t))
        return t;
    const double phase = (t - origin_) / period_;
    const double whole = fromLeft ? std::ceil(phase) - 1.0 : std::floor(phase);
    const double w = t - whole * period_;
    // Rounding can leave w a few ulps outside the period.
    return std::clamp(w, origin_, origin_ + period_);
}

void InputSignals::kinks(std::size_t i, double t0, double t1, std::vector<double>& out) const
{
    const auto& time = signals_[i].time();
    if (!kinksAtSamples(i)) {
        // A spline is smooth inside its range; it kinks where it turns constant at the ends.
        if (period_ > 0)
            return;
        for (double end : {time.front(), time.back()})
            if (end > t0 && end < t1)
                out.push_back(end);
        return;
    }
    if (period_ <= 0) {
        for (auto it = std::upper_bound(time.begin(), time.end(), t0); it != time.end() && *it < t1; ++it)
            out.push_back(*it);
        return;
    }
    // Every sample of every period the interval touches; the closing sample is the next period's first.
    for (double start = origin_ + std::floor((t0 - origin_) / period_) * period_; start < t1; start += period_)
        for (std::size_t k = 0; k + 1 < time.size(); ++k) {
            const double at = start + (time[k] - origin_);
            if (at > t0 && at < t1)
                out.push_back(at);
        }
}

double InputSignals::value(std::size_t i, double t, std::size_t& hint) const
{
    t = wrapped(t);
    const data::Signal& s = signals_[i];
    switch (behaviour_[i]) {
    case Intersample::Linear: return s.at(t, hint);
    case Intersample::Hold:
        if (!(t > s.time().front()) || t >= s.time().back())
            return s.at(t);  // NaN, or the first or last value
        return s.values()[s.segment(t, hint)];
    case Intersample::Spline:
        if (!(t > s.time().front()) || t >= s.time().back())
            return s.at(t);
        return cubic(i, s.segment(t, hint), t, false);
    }
    return s.at(t, hint);
}

double InputSignals::slope(std::size_t i, double t) const
{
    std::size_t hint = 0;
    return slope(i, t, hint);
}

double InputSignals::slope(std::size_t i, double t, std::size_t& hint) const
{
    t = wrapped(t);
    const data::Signal& s = signals_[i];
    switch (behaviour_[i]) {
    case Intersample::Linear: return s.slope(t, hint);
    case Intersample::Hold: return 0.0;
    case Intersample::Spline:
        if (!(t >= s.time().front()) || !(t < s.time().back()))
            return 0.0;
        return cubic(i, s.segment(t, hint), t, true);
    }
    return s.slope(t, hint);
}

double InputSignals::cubic(std::size_t i, std::size_t k, double t, bool derivative) const
{
    const auto& T = signals_[i].time();
    const auto& y = signals_[i].values();
    const auto& M = moments_[i];
    const double h = T[k + 1] - T[k], a = t - T[k], b = T[k + 1] - t;
    if (derivative)
        return (M[k + 1] * a * a - M[k] * b * b) / (2 * h) + (y[k + 1] - y[k]) / h - (M[k + 1] - M[k]) * h / 6;
    return (M[k] * b * b * b + M[k + 1] * a * a * a) / (6 * h) + (y[k] / h - M[k] * h / 6) * b +
        (y[k + 1] / h - M[k + 1] * h / 6) * a;
}

double InputSignals::pieceValue(std::size_t i, double inside, double t) const
{
    if (period_ > 0) {
        const double shift = inside - wrapped(inside, true);
        inside -= shift;
        t -= shift;
    }
    const auto& T = signals_[i].time();
    if (behaviour_[i] != Intersample::Spline || T.size() < 2 || !(inside > T.front()) || inside > T.back()) {
        std::size_t hint = 0;
        return value(i, t, hint);
    }
    // The interval (T[k], T[k + 1]] that holds `inside`, approached from the left.
    const std::size_t k = static_cast<std::size_t>(std::lower_bound(T.begin(), T.end(), inside) - T.begin()) - 1;
    return cubic(i, k, t, false);
}

double InputSignals::pieceSlope(std::size_t i, double inside, double t) const
{
    if (period_ > 0) {
        const double shift = inside - wrapped(inside, true);
        inside -= shift;
        t -= shift;
    }
    const auto& T = signals_[i].time();
    if (behaviour_[i] != Intersample::Spline || T.size() < 2 || !(inside > T.front()) || inside > T.back())
        return slope(i, t);
    const std::size_t k = static_cast<std::size_t>(std::lower_bound(T.begin(), T.end(), inside) - T.begin()) - 1;
    return cubic(i, k, t, true);
}

void InputSignals::values(double t, double* u) const
{
    for (std::size_t i = 0; i < signals_.size(); ++i) {
        std::size_t hint = 0;
        u[i] = value(i, t, hint);
    }
}

void InputSignals::values(double t, double* u, std::size_t* hints) const
{
    for (std::size_t i = 0; i < signals_.size(); ++i)
        u[i] = value(i, t, hints[i]);
}

void InputSignals::slopes(double t, double* du) const
{
    for (std::size_t i = 0; i < signals_.size(); ++i)
        du[i] = slope(i, t);
}

void InputSignals::slopes(double t, double* du, std::size_t* hints) const
{
    for (std::size_t i = 0; i < signals_.size(); ++i)
        du[i] = slope(i, t, hints[i]);
}

void InputPieces::hold(const InputSignals& inputs, double start, double end)
{
    // The midpoint lies strictly inside the segment, where every interpolant that kinks at its
    // samples is one polynomial piece: a constant (hold) or a line (linear).
    at_ = 0.5 * (start + end);
    start_ = start;
    end_ = end;
    value_.resize(inputs.size());
    slope_.resize(inputs.size());
    if (inputs_ != &inputs || hints_.size() != inputs.size())
        hints_.assign(inputs.size(), 0);
    inputs.values(at_, value_.data(), hints_.data());
    inputs.slopes(at_, slope_.data(), hints_.data());
    inputs_ = &inputs;
}

bool InputPieces::lines() const
{
    if (!inputs_)
        return false;
    for (std::size_t i = 0; i < value_.size(); ++i)
        if (!inputs_->kinksAtSamples(i))
            return false;
    return true;
}

void InputPieces::values(double t, double* u, double* du) const
{
    for (std::size_t i = 0; i < value_.size(); ++i) {
        if (inputs_->kinksAtSamples(i)) {
            u[i] = value_[i] + slope_[i] * (t - at_);
            if (du)
                du[i] = slope_[i];
        } else if (t > end_) {
            // A spline is smooth inside the segment; beyond it, its last piece goes on.
            u[i] = inputs_->pieceValue(i, end_, t);
            if (du)
                du[i] = inputs_->pieceSlope(i, end_, t);
        } else {
            std::size_t hint = 0;
            u[i] = inputs_->value(i, std::max(t, start_), hint);
            if (t < start_)
                u[i] += inputs_->slope(i, start_) * (t - start_);
            if (du)
                du[i] = inputs_->slope(i, std::max(t, start_));
        }
    }
}

}  // namespace sysid::integrate
