#include "engine/integrate/ExplicitEulerStability.h"

#include "engine/data/Text.h"

#include <cmath>
#include <limits>
#include <vector>

namespace sysid::integrate {

// Gershgorin's circle theorem (Golub & Van Loan, Matrix Computations, 4th ed., Theorem 7.2.1):
// every eigenvalue lies in a disc centred at a_ii with radius sum_{j != i} |a_ij|.
ExplicitEulerLimit explicitEulerLimit(eval::CompiledModel& model)
{
    const auto& source = model.source();
    std::vector<double> f(model.stateCount()), jx(source.rhsStateJacobian.entries.size()),
        jp(source.rhsParamJacobian.entries.size());
    model.rhsAndJacobianValues(f.data(), jx.data(), jp.data());
    std::vector<double> rowSum(model.stateCount(), 0.0);
    for (std::size_t k = 0; k < jx.size(); ++k)
        rowSum[source.rhsStateJacobian.entries[k].row] += std::abs(jx[k]);
    ExplicitEulerLimit limit;
    for (std::size_t i = 0; i < rowSum.size(); ++i)
        if (rowSum[i] > limit.spectralBound) {
            limit.spectralBound = rowSum[i];
            limit.criticalState = i;
        }
    limit.largestStep = limit.spectralBound > 0 ? 2.0 / limit.spectralBound : std::numeric_limits<double>::infinity();
    return limit;
}

namespace {

struct FieldPlace {
    const model::FieldLayout* field = nullptr;
    std::vector<double> coordinates;  // of the node, per axis
};

FieldPlace locate(const eval::CompiledModelSource& source, std::size_t state)
{
    for (const auto& field : source.fields)
        for (std::size_t p = 0; p < field.states.size(); ++p) {
            if (field.states[p] != state)
                continue;
            FieldPlace place{&field, std::vector<double>(field.coordinates.size())};
            // Nodes run with the last axis fastest.
            std::size_t rest = p;
            for (std::size_t d = field.coordinates.size(); d-- > 0;) {
                const std::size_t count = field.coordinates[d].size();
                place.coordinates[d] = field.coordinates[d][rest % count];
                rest /= count;
            }
            return place;
        }
    return {};
}

}  // namespace

std::string explicitEulerLimitMessage(const eval::CompiledModelSource& source, const ExplicitEulerLimit& limit,
                                      double step)
{
    const std::string limitText = data::formatNumber(limit.largestStep);
    const std::string bound = data::formatNumber(limit.spectralBound);
    const std::string ways = "; use a step <= " + limitText +
        " (--max-step), or implicit-euler / crank-nicolson / sparse-implicit, which have no such limit";
    const std::string head = "the explicit Euler step " + data::formatNumber(step) + " exceeds its stability limit ";
    const FieldPlace place = locate(source, limit.criticalState);
    if (place.field && place.field->coordinates.size() == 1 && place.field->coordinates[0].size() >= 2) {
        const auto& nodes = place.field->coordinates[0];
        const double dx = nodes[1] - nodes[0];
        const double alpha = limit.spectralBound * dx * dx / 4.0;
        return head + "dx^2/(2 max alpha) = " + limitText + " for field " + place.field->name +
            " (dx = " + data::formatNumber(dx) + ", max alpha = " + data::formatNumber(alpha) + " at " +
            place.field->variables[0] + " = " + data::formatNumber(place.coordinates[0]) +
            ", read from df/dx at the start: its eigenvalues satisfy |lambda| <= " + bound +
            " = 4 alpha/dx^2 (Gershgorin) and explicit Euler needs h |lambda| <= 2)" + ways;
    }
    std::string where = "state " + source.stateNames[limit.criticalState];
    if (place.field) {
        where += " of field " + place.field->name + " (";
        for (std::size_t d = 0; d < place.coordinates.size(); ++d)
            where += (d ? ", " : "") + place.field->variables[d] + " = " + data::formatNumber(place.coordinates[d]);
        where += ")";
    }
    return head + "2/|lambda|max = " + limitText + ": df/dx at the start has eigenvalues |lambda| <= " + bound +
        " (a Gershgorin bound, largest at " + where + ") and explicit Euler needs h |lambda| <= 2" + ways;
}

}  // namespace sysid::integrate
