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

}  // namespace sysid::integrate
