#pragma once

// Seed 003's (Bordan 1971) example systems as model texts, shared by the suites that check
// them: heat conduction s_t = alpha s_xx in a rod (or slab) with zero sides and s = 1 at t = 0,
// discretised by the method of lines. Starting values are the seed's first starts.

#include <string>
#include <utility>
#include <vector>

namespace sysid::test::seed003 {

using Values = std::vector<std::pair<std::string, double>>;

// Example 1: n = 3 interior nodes, dx = 0.2, alpha per node.
inline const std::string example1 = R"(
field s on x in [0, 0.8] nodes 3
param alpha(x) = 0.2 [0.001, 1]
s_t = alpha(x) * s_xx
s(0, t) = 0 ; s(0.8, t) = 0
s(x, 0) = 1
)";

// Example 3: alpha(x) = x^2 + a x + b.
inline const std::string example3 = R"(
field s on x in [0, 0.8] nodes 3
param a = 0.05
param b = 0.05
s_t = (x^2 + a*x + b) * s_xx
s(0, t) = 0 ; s(0.8, t) = 0
s(x, 0) = 1
)";

// Example 4: n = 5, alpha per node ...
inline const std::string example4PerNode = R"(
field s on x in [0, 1.2] nodes 5
param alpha(x) = 0.1 [0.001, 1]
s_t = alpha(x) * s_xx
s(0, t) = 0 ; s(1.2, t) = 0
s(x, 0) = 1
)";

// ... and alpha(x) = a x + b.
inline const std::string example4Linear = R"(
field s on x in [0, 1.2] nodes 5
param a = 0
param b = 0.1
s_t = (a*x + b) * s_xx
s(0, t) = 0 ; s(1.2, t) = 0
s(x, 0) = 1
)";

// Example 5: the 2-D slab, n = m = 3, s_t = r(x) s_xx + v(y) s_yy.
inline const std::string example5 = R"(
field s on x in [0, 0.8] nodes 3, y in [0, 0.8] nodes 3
param r(x) = 0.2 [0.001, 1]
param v(y) = 0.2 [0.001, 1]
s_t = r(x) * s_xx + v(y) * s_yy
s(0, y, t) = 0 ; s(0.8, y, t) = 0
s(x, 0, t) = 0 ; s(x, 0.8, t) = 0
s(x, y, 0) = 1
)";

// name[1] = values[0], name[2] = values[1], ...: the parameters of a per-node coefficient.
inline Values perNode(const std::string& name, const std::vector<double>& values)
{
    Values v;
    for (std::size_t i = 0; i < values.size(); ++i)
        v.emplace_back(name + "[" + std::to_string(i + 1) + "]", values[i]);
    return v;
}

}  // namespace sysid::test::seed003
