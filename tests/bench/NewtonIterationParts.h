#pragma once
// The time of one Newton iteration of a multiple-shooting boundary value problem, by part
// (residual, Jacobian, factorisation, solve): the benchmarks of the BVP solver and of optimal
// estimation print it against the number of shooting points, which it should grow linearly in.

#include "engine/shooting/BoundaryValueProblem.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>

namespace sysid::bench {

// Seconds per part, summed over the iterations of one solve that built a Jacobian.
struct NewtonIterationSums {
    double residual = 0, jacobian = 0, factor = 0, solve = 0;
    std::size_t counted = 0;

    void add(const shooting::BvpIteration& it)
    {
        if (it.newton.jacobianReused)
            return;
        ++counted;
        residual += it.residualTime.count();
        jacobian += it.jacobianTime.count();
        factor += it.factorTime.count();
        solve += it.solveTime.count();
    }
};

// The mean seconds per iteration of each part, the least over repeated solves (the machine is shared).
struct NewtonIterationParts {
    double residual = 1e300, jacobian = 1e300, factor = 1e300, solve = 1e300;

    void keepBest(const NewtonIterationSums& sums)
    {
        const double c = static_cast<double>(std::max<std::size_t>(sums.counted, 1));
        residual = std::min(residual, sums.residual / c);
        jacobian = std::min(jacobian, sums.jacobian / c);
        factor = std::min(factor, sums.factor / c);
        solve = std::min(solve, sums.solve / c);
    }

    // One row under the header "m iter residual jacobian factor solve total/(m-1) LAST" (milliseconds).
    void printRow(std::size_t points, std::size_t iterations, double last) const
    {
        const double k = 1e3;
        std::printf("%6zu %5zu %10.3f %10.3f %10.3f %10.3f %12.4f %9.1e\n", points, iterations, residual * k,
                    jacobian * k, factor * k, solve * k,
                    (residual + jacobian + factor + solve) * k / static_cast<double>(points - 1), last);
    }
};

}  // namespace sysid::bench
