#pragma once

#include "engine/data/DataTable.h"
#include "engine/data/Signal.h"
#include "engine/integrate/Intersample.h"

#include <map>
#include <string>
#include <vector>

namespace sysid::integrate {

// The measured inputs of a model, one signal per model input in the model's order, each read
// between its samples by its intersample behaviour (linear unless given). The only place that
// reads an input: simulation, shooting, the equation-error estimators and optimal estimation all do
// it here. Outside its time range a signal holds its first or last value.
class InputSignals {
public:
    InputSignals() = default;
    // `behaviour`: one per signal, or empty for linear interpolation of all.
    explicit InputSignals(std::vector<data::Signal> perInput, std::vector<Intersample> behaviour = {});

    // One signal per model input from the table's columns: by the input's name unless
    // `mapping` (input -> column) says otherwise; `intersample` (input -> behaviour) defaults to
    // linear. Throws data::DataError naming a missing column.
    static InputSignals fromTable(const std::vector<std::string>& inputNames, const data::DataTable& table,
                                  const std::map<std::string, std::string>& mapping = {},
                                  const std::map<std::string, Intersample>& intersample = {});
    // Signals sampled over one period [t_0, t_0 + period) (each signal's samples lie in it), extended
    // periodically to all t: u(t + period) = u(t). The interpolant joins the last sample to the first
    // one period later; a spline is the periodic cubic spline (C2 across the period's ends). Throws
    // std::invalid_argument when a signal's samples span a period or more, or signals differ in t_0.
    static InputSignals periodic(std::vector<data::Signal> onePeriod, std::vector<Intersample> behaviour,
                                 double period);

    std::size_t size() const { return signals_.size(); }
    const data::Signal& signal(std::size_t i) const { return signals_[i]; }
    Intersample behaviour(std::size_t i) const { return behaviour_[i]; }
    void values(double t, double* u) const;
    // The same values; hints (one per signal, the caller's) speed up reading at advancing t (data::Signal::at).
    void values(double t, double* u, std::size_t* hints) const;
    void slopes(double t, double* du) const;  // du/dt of the interpolant (one-sided at samples)
    void slopes(double t, double* du, std::size_t* hints) const;  // the same; hints as in values()
    // The extension period (0: not periodic; outside its range a signal holds its end values).
    double period() const { return period_; }
    // Where input i is not smooth in (t0, t1): its sample times for hold and linear, the ends of
    // its range for a spline that is not periodic. Appended to `out`, unsorted.
    void kinks(std::size_t i, double t0, double t1, std::vector<double>& out) const;
    // Input i is only piecewise smooth at its samples (hold jumps there, linear kinks there): the
    // integrators restart at them. A spline is twice continuously differentiable.
    bool kinksAtSamples(std::size_t i) const { return behaviour_[i] != Intersample::Spline; }
    // Input i alone: its value (with the caller's hint) and its slope at t.
    double value(std::size_t i, double t, std::size_t& hint) const;
    double slope(std::size_t i, double t) const;
    double slope(std::size_t i, double t, std::size_t& hint) const;
    // The polynomial piece of input i that holds at `inside` (approached from `inside` toward t),
    // continued to t: its value and slope there. What an adaptive step that overshoots a segment
    // end must see for f to stay smooth.
    double pieceValue(std::size_t i, double inside, double t) const;
    double pieceSlope(std::size_t i, double inside, double t) const;

private:
    // t moved by whole periods into [t_0, t_0 + period) (or, `fromLeft`, into (t_0, t_0 + period]).
    double wrapped(double t, bool fromLeft = false) const;
    // Spline input i's cubic on sample interval k at t (or its derivative).
    double cubic(std::size_t i, std::size_t k, double t, bool derivative) const;

    std::vector<data::Signal> signals_;
    std::vector<Intersample> behaviour_;
    std::vector<std::vector<double>> moments_;  // spline inputs: the second derivative at each sample
    double period_ = 0.0;
    double origin_ = 0.0;  // t_0 of a periodic extension
};

// Each input's interpolating piece on one segment between input samples, held also beyond the
// segment's ends: an adaptive step that overshoots a sample then still sees a smooth f, which
// keeps its error estimate honest (Hairer, Norsett & Wanner, Solving ODEs I, sec. II.6). Spline
// inputs are smooth across samples and are read directly.
class InputPieces {
public:
    void hold(const InputSignals& inputs, double start, double end);
    void release() { inputs_ = nullptr; }
    bool held() const { return inputs_ != nullptr; }
    // u(t) and, when du is not null, du/dt, from the held pieces.
    void values(double t, double* u, double* du) const;
    // Whether every held piece is a line, u_i(t) = value()[i] + slope()[i] (t - at()), which is then
    // exactly what values() computes (no spline input).
    bool lines() const;
    const double* value() const { return value_.data(); }
    const double* slope() const { return slope_.data(); }
    double at() const { return at_; }

private:
    const InputSignals* inputs_ = nullptr;
    double at_ = 0.0, start_ = 0.0, end_ = 0.0;
    std::vector<double> value_, slope_;  // each piece's value at at_ and its slope
    // Each input's sample interval of the last segment held: an integration holds them in order,
    // so the next is found in a step or two instead of a binary search over the record.
    std::vector<std::size_t> hints_;
};

}  // namespace sysid::integrate
