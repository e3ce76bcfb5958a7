#include "engine/integrate/InputSignals.h"

namespace sysid::integrate {

InputSignals InputSignals::fromTable(const std::vector<std::string>& inputNames, const data::DataTable& table,
                                     const std::map<std::string, std::string>& mapping)
{
    std::vector<data::Signal> perInput;
    for (const auto& name : inputNames) {
        const auto it = mapping.find(name);
        const std::string& column = it == mapping.end() ? name : it->second;
        perInput.emplace_back(table.time(), table.column(column));
    }
    return InputSignals(std::move(perInput));
}

void InputSignals::values(double t, double* u) const
{
    for (std::size_t i = 0; i < signals_.size(); ++i)
        u[i] = signals_[i].at(t);
}

void InputSignals::values(double t, double* u, std::size_t* hints) const
{
    for (std::size_t i = 0; i < signals_.size(); ++i)
        u[i] = signals_[i].at(t, hints[i]);
}

void InputSignals::slopes(double t, double* du) const
{
    for (std::size_t i = 0; i < signals_.size(); ++i)
        du[i] = signals_[i].slope(t);
}

void InputPieces::hold(const InputSignals& inputs, double start, double end)
{
    // The midpoint lies strictly inside the segment, where every interpolant is one linear piece.
    at_ = 0.5 * (start + end);
    value_.resize(inputs.size());
    slope_.resize(inputs.size());
    inputs.values(at_, value_.data());
    inputs.slopes(at_, slope_.data());
    held_ = true;
}

void InputPieces::values(double t, double* u, double* du) const
{
    for (std::size_t i = 0; i < value_.size(); ++i) {
        u[i] = value_[i] + slope_[i] * (t - at_);
        if (du)
            du[i] = slope_[i];
    }
}

}  // namespace sysid::integrate
