#include "engine/model/ConstraintReduction.h"

#include "engine/model/BuildScope.h"

#include <Eigen/Dense>

#include <cmath>
#include <random>

namespace sysid::model {

namespace {

using GiNaC::ex;

bool holdsAny(const ex& e, const std::vector<GiNaC::symbol>& symbols)
{
    for (const auto& s : symbols)
        if (e.has(s))
            return true;
    return false;
}

// d/dt along the solution of x' = f: Phi_t + Phi_x f.
ex alongSolution(const DaeSystem& system, const ex& e)
{
    ex d = e.diff(system.time);
    for (std::size_t i = 0; i < system.states.size(); ++i)
        if (e.has(system.states[i]))
            d += e.diff(system.states[i]) * system.rhs[i];
    return d.expand();
}

// The rank of dE/dz at a point with every state, algebraic variable, input and time drawn at
// random (the parameters at their values); -1 when the point leaves the real domain.
int genericRank(const DaeSystem& system, const std::vector<ex>& equations, std::mt19937& random)
{
    std::uniform_real_distribution<double> draw(0.3, 1.7);
    GiNaC::exmap point;
    point[system.time] = draw(random);
    for (const auto& s : system.states)
        point[s] = draw(random);
    for (const auto& z : system.algebraic)
        point[z] = draw(random);
    for (const auto& u : system.inputs)
        point[u] = draw(random);
    for (const auto& [p, value] : system.parameters)
        point[p] = value;
    const auto n = static_cast<Eigen::Index>(equations.size());
    const auto m = static_cast<Eigen::Index>(system.algebraic.size());
    Eigen::MatrixXd J(n, m);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < m; ++j) {
            const ex v = equations[static_cast<std::size_t>(i)]
                             .diff(system.algebraic[static_cast<std::size_t>(j)])
                             .subs(point)
                             .evalf();
            if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real())
                return -1;
            J(i, j) = GiNaC::ex_to<GiNaC::numeric>(v).to_double();
            if (!std::isfinite(J(i, j)))
                return -1;
        }
    Eigen::FullPivLU<Eigen::MatrixXd> lu(J);
    lu.setThreshold(1e-10);
    return static_cast<int>(lu.rank());
}

std::string nameList(const std::vector<std::string>& names)
{
    std::string s;
    for (const auto& n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

}  // namespace

int reduceIndex(const DaeSystem& system, std::vector<Constraint>& constraints)
{
    constexpr std::size_t maxDifferentiations = 3;
    int index = constraints.empty() ? 0 : 1;
    for (Constraint& c : constraints) {
        c.hidden.clear();
        ex e = c.expression.expand();
        while (!holdsAny(e, system.algebraic)) {
            for (std::size_t r = 0; r < system.inputs.size(); ++r)
                if (e.has(system.inputs[r]))
                    fail(c.where, "the constraint '" + c.text + "' holds input " + system.inputNames[r] +
                                      " and must be differentiated to find the algebraic variables, but an input's "
                                      "derivatives are not known; write it with t or states only");
            if (!holdsAny(e, system.states) && !e.has(system.time))
                fail(c.where, "the constraint '" + c.text +
                                  "' depends on no state, algebraic variable or time t: it holds by itself or never");
            if (c.hidden.size() == maxDifferentiations)
                fail(c.where, "the constraint '" + c.text + "' brings in no algebraic variable (" +
                                  nameList(system.algebraicNames) +
                                  ") even after three differentiations: nothing enforces it (declare an algebraic "
                                  "variable that acts on it, or write it on Lagrangian coordinates)");
            c.hidden.push_back(e);
            e = alongSolution(system, e);
        }
        c.reduced = e;
        index = std::max(index, static_cast<int>(c.hidden.size()) + 1);
    }
    if (constraints.empty())
        return 0;
    std::vector<ex> equations;
    for (const auto& c : constraints)
        equations.push_back(c.reduced);
    std::mt19937 random(20240611u);
    const int full = static_cast<int>(system.algebraic.size());
    int best = -1;
    for (int attempt = 0; attempt < 6 && best < full; ++attempt)
        best = std::max(best, genericRank(system, equations, random));
    if (best >= 0 && best < full)
        fail(constraints.front().where,
             "the constraints do not determine the algebraic variables " + nameList(system.algebraicNames) +
                 " (the Jacobian of their index-1 equations is singular): a constraint may repeat another, or act "
                 "only on coordinates without mass");
    return index;
}

}  // namespace sysid::model
