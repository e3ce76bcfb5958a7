#pragma once

#include <ginac/ginac.h>

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace sysid::model {

// Method of lines: a field s(x[, y], t) on a rectangle becomes one state per grid node, its
// spatial derivatives central differences over the neighbouring nodes (seed 003, ch. 2).

// Weights w with f^(derivative)(0) ~ sum_k w[k] f(offsets[k] h) / h^derivative, exact rationals.
std::vector<GiNaC::numeric> finiteDifferenceWeights(int derivative, const std::vector<int>& offsets);

struct FieldAxis {
    std::string variable;
    GiNaC::ex lower, upper;  // exact numbers
    int interiorNodes = 1;  // nodes 1..n; nodes 0 and n+1 lie on the boundary

    GiNaC::ex spacing() const { return (upper - lower) / (interiorNodes + 1); }
    GiNaC::ex coordinate(int node) const { return lower + node * spacing(); }
};

enum class BoundaryKind {
    Dirichlet,  // s = g on the side
    Flux,  // s_x = g (Neumann); Robin when g involves the boundary value s
};

struct FieldBoundary {
    BoundaryKind kind = BoundaryKind::Dirichlet;
    GiNaC::ex value;  // in coordinate placeholders, time and parameters; Flux: also the value placeholder
};

// Symbols standing for "this node" in the resolved equation, conditions and coefficients.
struct FieldPlaceholders {
    GiNaC::symbol value;
    std::vector<GiNaC::symbol> coordinate, first, second;  // one per axis
};

// `param alpha(x)`: one parameter per state node along one axis.
struct NodeCoefficient {
    GiNaC::symbol placeholder;
    std::size_t axis = 0;
    int firstNode = 1;  // node index of values[0]
    std::vector<GiNaC::symbol> values;
};

struct FieldDefinition {
    std::string name;
    std::vector<FieldAxis> axes;
    int order = 2;  // 2 or 4: accuracy of the difference formulas
    std::vector<std::array<FieldBoundary, 2>> boundaries;  // per axis: lower end, upper end
    FieldPlaceholders symbols;
    GiNaC::ex rhs;  // s_t in the placeholders
    GiNaC::ex initial;  // s(x, 0) in the coordinate placeholders
    std::vector<NodeCoefficient> coefficients;
};

struct FieldNode {
    std::vector<int> index;  // grid index per axis
    std::string name;  // s[2] or s[2,3]
    GiNaC::symbol symbol;
    GiNaC::ex rhs;
    GiNaC::ex initial;
};

struct DiscretisedField {
    std::vector<int> firstNode, lastNode;  // state nodes per axis
    std::vector<FieldNode> nodes;  // last axis fastest
};

// The field cannot be discretised as asked (too few nodes for the order, flux sides at order 4).
class FieldDiscretisationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The nodes along an axis that carry states: the interior ones, and the boundary node of a flux side.
std::array<int, 2> stateNodeRange(const FieldAxis& axis, const std::array<FieldBoundary, 2>& sides);

// "s[2]", "s[2,3]"
std::string nodeName(const std::string& field, const std::vector<int>& index);

DiscretisedField discretiseField(const FieldDefinition& field);

// The field at a point of its rectangle: the node value when the point is a node, else the
// (multi)linear interpolation between the surrounding nodes, boundary values included.
GiNaC::ex fieldValueAt(const FieldDefinition& field, const DiscretisedField& grid, const std::vector<GiNaC::ex>& point);

}  // namespace sysid::model
