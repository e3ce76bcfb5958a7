#include "engine/model/FieldDiscretisation.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace sysid::model {

using GiNaC::ex;
using GiNaC::numeric;

// B. Fornberg, "Generation of finite difference formulas on arbitrarily spaced grids",
// Math. Comp. 51 (1988) 699-706, the recursion of section 3 with x0 = 0, in exact arithmetic.
std::vector<numeric> finiteDifferenceWeights(int derivative, const std::vector<int>& offsets)
{
    if (offsets.empty() || derivative < 0 || static_cast<int>(offsets.size()) <= derivative)
        throw std::invalid_argument("finiteDifferenceWeights: need more points than the derivative order");
    const int n = static_cast<int>(offsets.size()) - 1;
    const int m = derivative;
    // delta[k][nu]: weight of point nu in the k-th derivative formula over the points used so far
    std::vector<std::vector<numeric>> delta(static_cast<std::size_t>(m + 1), std::vector<numeric>(offsets.size(), 0));
    std::vector<std::vector<numeric>> previous = delta;
    delta[0][0] = 1;
    numeric c1 = 1;
    for (int j = 1; j <= n; ++j) {
        previous = delta;
        numeric c2 = 1;
        const numeric aj = offsets[static_cast<std::size_t>(j)];
        for (int nu = 0; nu < j; ++nu) {
            const numeric c3 = aj - offsets[static_cast<std::size_t>(nu)];
            if (c3.is_zero())
                throw std::invalid_argument("finiteDifferenceWeights: repeated offset");
            c2 *= c3;
            for (int k = 0; k <= std::min(j, m); ++k) {
                const numeric lower =
                    k > 0 ? previous[static_cast<std::size_t>(k - 1)][static_cast<std::size_t>(nu)] : numeric(0);
                delta[static_cast<std::size_t>(k)][static_cast<std::size_t>(nu)] =
                    (aj * previous[static_cast<std::size_t>(k)][static_cast<std::size_t>(nu)] - k * lower) / c3;
            }
        }
        const numeric aPrev = offsets[static_cast<std::size_t>(j - 1)];
        for (int k = 0; k <= std::min(j, m); ++k) {
            const numeric lower =
                k > 0 ? previous[static_cast<std::size_t>(k - 1)][static_cast<std::size_t>(j - 1)] : numeric(0);
            delta[static_cast<std::size_t>(k)][static_cast<std::size_t>(j)] =
                c1 / c2 * (k * lower - aPrev * previous[static_cast<std::size_t>(k)][static_cast<std::size_t>(j - 1)]);
        }
        c1 = c2;
    }
    return delta[static_cast<std::size_t>(m)];
}

std::array<int, 2> stateNodeRange(const FieldAxis& axis, const std::array<FieldBoundary, 2>& sides)
{
    return {sides[0].kind == BoundaryKind::Flux ? 0 : 1,
            sides[1].kind == BoundaryKind::Flux ? axis.interiorNodes + 1 : axis.interiorNodes};
}

std::string nodeName(const std::string& field, const std::vector<int>& index)
{
    std::string s = field + "[";
    for (std::size_t d = 0; d < index.size(); ++d)
        s += (d ? "," : "") + std::to_string(index[d]);
    return s + "]";
}

namespace {

class Grid {
public:
    Grid(const FieldDefinition& field, DiscretisedField& out) : field_(field), out_(out)
    {
        if (!out_.firstNode.empty())
            return;
        for (std::size_t d = 0; d < field.axes.size(); ++d) {
            const auto range = stateNodeRange(field.axes[d], field.boundaries[d]);
            out_.firstNode.push_back(range[0]);
            out_.lastNode.push_back(range[1]);
        }
    }

    void createNodes()
    {
        std::vector<int> index(out_.firstNode);
        const std::size_t dims = index.size();
        while (true) {
            FieldNode node{index, nodeName(field_.name, index), GiNaC::symbol(nodeName(field_.name, index)), 0, 0};
            out_.nodes.push_back(std::move(node));
            std::size_t d = dims;
            while (d > 0) {
                --d;
                if (++index[d] <= out_.lastNode[d])
                    break;
                index[d] = out_.firstNode[d];
                if (d == 0)
                    return;
            }
        }
    }

    // The field at any grid index the formulas reach: a state, a boundary value, or a ghost
    // node beyond a flux side eliminated with the central difference of the flux condition.
    ex valueAt(const std::vector<int>& index) const
    {
        for (std::size_t d = 0; d < index.size(); ++d) {
            const int n = field_.axes[d].interiorNodes;
            const bool below = index[d] < out_.firstNode[d];
            const bool above = index[d] > out_.lastNode[d];
            if (!below && !above)
                continue;
            const FieldBoundary& side = field_.boundaries[d][above ? 1 : 0];
            const int boundaryNode = above ? n + 1 : 0;
            if (side.kind == BoundaryKind::Dirichlet) {
                if (index[d] != boundaryNode)
                    throw FieldDiscretisationError("internal: a difference formula reaches beyond the boundary of " +
                                                   field_.name + " along " + field_.axes[d].variable);
                return side.value.subs(coordinates(index));
            }
            if (index[d] != (above ? n + 2 : -1))
                throw FieldDiscretisationError(
                    "internal: a difference formula reaches two nodes beyond a flux boundary");
            std::vector<int> mirror = index, onBoundary = index;
            mirror[d] = above ? n : 1;
            onBoundary[d] = boundaryNode;
            GiNaC::exmap at = coordinates(onBoundary);
            at[field_.symbols.value] = valueAt(onBoundary);
            const ex flux = side.value.subs(at);
            const ex twoH = 2 * field_.axes[d].spacing();
            return above ? valueAt(mirror) + twoH * flux : valueAt(mirror) - twoH * flux;
        }
        return out_.nodes[position(index)].symbol;
    }

    GiNaC::exmap coordinates(const std::vector<int>& index) const
    {
        GiNaC::exmap m;
        for (std::size_t d = 0; d < index.size(); ++d)
            m[field_.symbols.coordinate[d]] = field_.axes[d].coordinate(index[d]);
        return m;
    }

    ex derivative(const std::vector<int>& index, std::size_t d, int order) const
    {
        const std::vector<int> offsets = stencil(index[d], d, order);
        const std::vector<numeric> w = finiteDifferenceWeights(order, offsets);
        ex sum = 0;
        std::vector<int> at = index;
        for (std::size_t k = 0; k < offsets.size(); ++k) {
            if (w[k].is_zero())
                continue;
            at[d] = index[d] + offsets[k];
            sum += w[k] * valueAt(at);
        }
        return sum / GiNaC::pow(field_.axes[d].spacing(), order);
    }

    // Central formulas where they fit; near a Dirichlet side at order 4, the window of
    // order + derivative points slides inwards, which keeps the order (Fornberg 1988, table 3).
    std::vector<int> stencil(int node, std::size_t d, int derivative) const
    {
        const int n = field_.axes[d].interiorNodes;
        const int lo = field_.boundaries[d][0].kind == BoundaryKind::Flux ? -1 : 0;
        const int hi = field_.boundaries[d][1].kind == BoundaryKind::Flux ? n + 2 : n + 1;
        const int half = field_.order / 2;
        std::vector<int> offsets;
        if (node - half >= lo && node + half <= hi) {
            for (int k = -half; k <= half; ++k)
                offsets.push_back(k);
            return offsets;
        }
        const int size = field_.order + derivative;
        if (hi - lo + 1 < size)
            throw FieldDiscretisationError("order " + std::to_string(field_.order) + " differences of " + field_.name +
                                           " along " + field_.axes[d].variable + " need at least " +
                                           std::to_string(size - 2) + " interior nodes");
        const int start = std::clamp(node - size / 2, lo, hi - size + 1);
        for (int k = 0; k < size; ++k)
            offsets.push_back(start + k - node);
        return offsets;
    }

    std::size_t position(const std::vector<int>& index) const
    {
        std::size_t p = 0;
        for (std::size_t d = 0; d < index.size(); ++d)
            p = p * static_cast<std::size_t>(out_.lastNode[d] - out_.firstNode[d] + 1) +
                static_cast<std::size_t>(index[d] - out_.firstNode[d]);
        return p;
    }

private:
    const FieldDefinition& field_;
    DiscretisedField& out_;
};

}  // namespace

DiscretisedField discretiseField(const FieldDefinition& field)
{
    if (field.axes.empty() || field.boundaries.size() != field.axes.size() ||
        field.symbols.coordinate.size() != field.axes.size() || field.symbols.first.size() != field.axes.size() ||
        field.symbols.second.size() != field.axes.size())
        throw FieldDiscretisationError("internal: field " + field.name + " is incompletely defined");
    if (field.order != 2 && field.order != 4)
        throw FieldDiscretisationError("the order of the differences must be 2 or 4");
    for (std::size_t d = 0; d < field.axes.size(); ++d) {
        if (field.axes[d].interiorNodes < 1)
            throw FieldDiscretisationError("field " + field.name + " needs at least one node along " +
                                           field.axes[d].variable);
        if (field.order == 4 &&
            (field.boundaries[d][0].kind == BoundaryKind::Flux || field.boundaries[d][1].kind == BoundaryKind::Flux))
            throw FieldDiscretisationError("order 4 is available with fixed boundary values (s = ...) only; "
                                           "use order 2 for the flux condition along " +
                                           field.axes[d].variable);
    }
    DiscretisedField out;
    Grid grid(field, out);
    grid.createNodes();
    for (FieldNode& node : out.nodes) {
        GiNaC::exmap at = grid.coordinates(node.index);
        node.initial = field.initial.subs(at);
        at[field.symbols.value] = node.symbol;
        for (std::size_t d = 0; d < field.axes.size(); ++d) {
            if (field.rhs.has(field.symbols.first[d]))
                at[field.symbols.first[d]] = grid.derivative(node.index, d, 1);
            if (field.rhs.has(field.symbols.second[d]))
                at[field.symbols.second[d]] = grid.derivative(node.index, d, 2);
        }
        for (const NodeCoefficient& c : field.coefficients) {
            const int k = node.index[c.axis] - c.firstNode;
            if (k < 0 || k >= static_cast<int>(c.values.size()))
                throw FieldDiscretisationError("internal: no coefficient for node " + node.name);
            at[c.placeholder] = c.values[static_cast<std::size_t>(k)];
        }
        node.rhs = field.rhs.subs(at);
    }
    return out;
}

ex fieldValueAt(const FieldDefinition& field, const DiscretisedField& discretised, const std::vector<ex>& point)
{
    if (point.size() != field.axes.size())
        throw FieldDiscretisationError("field " + field.name + " needs " + std::to_string(field.axes.size()) +
                                       " coordinates");
    DiscretisedField copy = discretised;
    const Grid grid(field, copy);
    // Per axis: the one or two surrounding nodes and their linear weights.
    std::vector<std::vector<std::pair<int, ex>>> factors;
    for (std::size_t d = 0; d < point.size(); ++d) {
        const FieldAxis& axis = field.axes[d];
        const ex u = ((point[d] - axis.lower) / axis.spacing()).normal();
        const ex uf = u.evalf();
        if (!GiNaC::is_a<numeric>(uf) || !GiNaC::ex_to<numeric>(uf).is_real())
            throw FieldDiscretisationError("the point of " + field.name + " must be a real number");
        const double position = GiNaC::ex_to<numeric>(uf).to_double();
        const double last = axis.interiorNodes + 1;
        if (position < -1e-9 || position > last + 1e-9)
            throw FieldDiscretisationError(axis.variable + " lies outside the interval of " + field.name);
        const double nearest = std::round(position);
        if (std::abs(position - nearest) < 1e-9) {
            factors.push_back({{static_cast<int>(nearest), ex(1)}});
        } else {
            const int k = static_cast<int>(std::floor(position));
            factors.push_back({{k, (k + 1) - u}, {k + 1, u - k}});
        }
    }
    ex sum = 0;
    std::vector<int> index(point.size());
    std::function<void(std::size_t, ex)> accumulate = [&](std::size_t d, ex weight) {
        if (d == point.size()) {
            sum += weight * grid.valueAt(index);
            return;
        }
        for (const auto& [node, w] : factors[d]) {
            index[d] = node;
            accumulate(d + 1, weight * w);
        }
    };
    accumulate(0, 1);
    return sum;
}

}  // namespace sysid::model
