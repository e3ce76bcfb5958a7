#include "engine/integrate/OdeSystem.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sysid::integrate {

JacobianPattern JacobianPattern::dense(std::size_t rows, std::size_t columns)
{
    JacobianPattern p;
    p.rows = rows;
    p.columns = columns;
    p.row.reserve(rows * columns);
    p.column.reserve(rows * columns);
    for (std::size_t c = 0; c < columns; ++c)
        for (std::size_t r = 0; r < rows; ++r) {
            p.row.push_back(r);
            p.column.push_back(c);
        }
    return p;
}

void OdeSystem::rhsAndStateJacobian(double t, const double* x, double* f, double* J)
{
    rhs(t, x, f);
    scratch_.resize(dimension());
    jacobian(t, x, J, scratch_.data());
}

const JacobianPattern& OdeSystem::statePattern() const
{
    if (densePattern_.rows != dimension())
        densePattern_ = JacobianPattern::dense(dimension(), dimension());
    return densePattern_;
}

const JacobianPattern& OdeSystem::parameterPattern() const
{
    emptyPattern_.rows = dimension();
    return emptyPattern_;
}

void OdeSystem::rhsAndJacobianValues(double t, const double* x, double* f, double* stateValues, double* parameterValues)
{
    // The dense default: statePattern() is column-major dense, so the values are J itself.
    const std::size_t n = dimension();
    if (statePattern().size() == n * n) {
        rhsAndStateJacobian(t, x, f, stateValues);
    } else {
        scratchJ_.resize(n * n);
        rhsAndStateJacobian(t, x, f, scratchJ_.data());
        const auto& p = statePattern();
        for (std::size_t k = 0; k < p.size(); ++k)
            stateValues[k] = scratchJ_[p.column[k] * n + p.row[k]];
    }
    (void)parameterValues;  // no parameters by default
}

void OdeSystem::rhsAndJacobians(double t, const double* x, double* f, double* J, double* /*Jp*/)
{
    rhsAndStateJacobian(t, x, f, J);
}

void OdeSystem::secondDerivatives(double t, const double* x, SecondDerivatives& out)
{
    // Forward differences of df/dx in each state and in t, with the usual sqrt(eps) step.
    const std::size_t n = dimension();
    out.stateEntries.clear();
    out.parameterEntries.clear();
    std::vector<double> J(n * n), Jq(n * n), dfdt(n), shifted(x, x + n);
    jacobian(t, x, J.data(), dfdt.data());
    const double root = std::sqrt(std::numeric_limits<double>::epsilon());
    auto differences = [&](std::size_t depth, double h) {
        for (std::size_t k = 0; k < n * n; ++k) {
            const double value = (Jq[k] - J[k]) / h;
            if (value != 0.0)
                out.stateEntries.push_back({k % n, k / n, depth, value});
        }
    };
    for (std::size_t q = 0; q < n; ++q) {
        const double h = root * std::max(1.0, std::abs(x[q]));
        shifted[q] = x[q] + h;
        jacobian(t, shifted.data(), Jq.data(), dfdt.data());
        shifted[q] = x[q];
        differences(q, h);
    }
    const double ht = root * std::max(1.0, std::abs(t));
    jacobian(t + ht, x, Jq.data(), dfdt.data());
    differences(n, ht);
}

std::string OdeSystem::stateName(std::size_t i) const
{
    return "x" + std::to_string(i + 1);
}

}  // namespace sysid::integrate
