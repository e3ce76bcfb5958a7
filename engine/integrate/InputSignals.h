#pragma once

#include "engine/data/DataTable.h"
#include "engine/data/Signal.h"

#include <map>

#include <string>
#include <vector>

namespace sysid::integrate {

// The measured inputs of a model, one signal per model input in the model's order,
// linearly interpolated in time.
class InputSignals {
public:
    InputSignals() = default;
    explicit InputSignals(std::vector<data::Signal> perInput) : signals_(std::move(perInput)) {}

    // One signal per model input from the table's columns: by the input's name unless
    // `mapping` (input -> column) says otherwise. Throws data::DataError naming a missing column.
    static InputSignals fromTable(const std::vector<std::string>& inputNames, const data::DataTable& table,
                                  const std::map<std::string, std::string>& mapping = {});

    std::size_t size() const { return signals_.size(); }
    const data::Signal& signal(std::size_t i) const { return signals_[i]; }
    void values(double t, double* u) const;
    // The same values; hints (one per signal, the caller's) speed up reading at advancing t (data::Signal::at).
    void values(double t, double* u, std::size_t* hints) const;
    void slopes(double t, double* du) const;  // du/dt of the interpolant (one-sided at samples)

private:
    std::vector<data::Signal> signals_;
};

// Each input's interpolating piece on one segment between input samples, held also beyond the
// segment's ends: an adaptive step that overshoots a sample then still sees a smooth f, which
// keeps its error estimate honest (Hairer, Norsett & Wanner, Solving ODEs I, sec. II.6).
class InputPieces {
public:
    void hold(const InputSignals& inputs, double start, double end);
    void release() { held_ = false; }
    bool held() const { return held_; }
    // u(t) and, when du is not null, du/dt, from the held pieces.
    void values(double t, double* u, double* du) const;

private:
    bool held_ = false;
    double at_ = 0.0;
    std::vector<double> value_, slope_;  // each piece's value at at_ and its slope
};

}  // namespace sysid::integrate
