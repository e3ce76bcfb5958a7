#pragma once

#include "engine/discretise/PeriodicDiscretisation.h"
#include "engine/discretise/SecondOrderPairs.h"

#include <Eigen/Sparse>
#include <Eigen/SparseLU>

#include <optional>
#include <utility>
#include <vector>

namespace sysid::discretise {

// The periodic orbit on M equidistant nodes t_j = t0 + j·h, h = P/M, node M wrapping to node 0,
// as one algebraic system F(X) = 0 with a sparse Jacobian (block band plus the wrap corners).
// Unknowns per node: every state except the velocities of second-order pairs under the
// central-difference scheme (those follow from the positions); the period P is one more unknown
// for an autonomous orbit, fixed by a Poincaré anchor at node 0. Every equation is scaled to
// state units (multiplied by h or h^2) so the Newton tolerances mean the same for any M.
class DiscretisedPeriodicSystem : public shooting::NewtonSystem {
public:
    struct Anchor {
        Eigen::VectorXd point;  // guess state at node 0
        Eigen::VectorXd direction;  // unit flow direction there
    };

    // `anchor` given: autonomous, P is unknown; otherwise P = `period`.
    DiscretisedPeriodicSystem(eval::CompiledModel& model, PeriodicScheme scheme, std::size_t nodes, double startTime,
                              double period, std::optional<Anchor> anchor,
                              const integrate::InputSignals* inputs = nullptr);

    std::size_t unknownCount() const;
    Eigen::VectorXd pack(const Eigen::MatrixXd& nodeStates, double period) const;  // M x n -> X
    Eigen::MatrixXd nodeStates(const Eigen::VectorXd& X) const;  // X -> M x n
    double period(const Eigen::VectorXd& X) const;

    Eigen::VectorXd residual(const Eigen::VectorXd& X) override;
    void linearise(const Eigen::VectorXd& X) override;
    Eigen::VectorXd solve(const Eigen::VectorXd& rhs) const override;
    const Eigen::SparseMatrix<double>* jacobianMatrix() override { return jacobianFormed_ ? &jacobian_ : nullptr; }

private:
    // How a full state at node j depends on X: a free unknown, or a central difference of a position.
    struct StateRole {
        bool eliminated = false;
        std::size_t column = 0;  // free: its column within a node; eliminated: the position's column
    };
    using Entries = std::vector<std::pair<Eigen::Index, double>>;  // (column of X, d/dX)

    struct NodeValues {
        double t = 0.0;
        Eigen::VectorXd x, f, ft;  // state, rhs, df/dt
        Eigen::MatrixXd J;  // df/dx
    };

    std::size_t wrap(std::size_t j, int offset) const;
    Eigen::Index col(std::size_t node, std::size_t column) const;
    double stepOf(const Eigen::VectorXd& X) const;
    Eigen::VectorXd fullState(const Eigen::VectorXd& X, std::size_t j, double h) const;
    Entries stateEntries(std::size_t j, std::size_t state, double h) const;  // d x_j[state] / dX
    double stateStepDerivative(const NodeValues& node, std::size_t state, double h) const;  // d x_j[state] / dh
    void evaluate(const Eigen::VectorXd& X, bool withJacobian);
    NodeValues evaluateAt(double t, const Eigen::VectorXd& x, bool withJacobian);
    Eigen::VectorXd assembleResidual(const Eigen::VectorXd& X) const;
    void assembleJacobian(const Eigen::VectorXd& X, std::vector<Eigen::Triplet<double>>& triplets) const;

    eval::CompiledModel& model_;
    const integrate::InputSignals* inputs_;
    PeriodicScheme scheme_;
    std::size_t M_;
    double t0_;
    double fixedPeriod_;
    std::optional<Anchor> anchor_;
    std::size_t n_ = 0;
    std::vector<StateRole> roles_;
    std::vector<std::size_t> freeStates_;  // state index of each column
    std::vector<std::optional<std::size_t>> velocityOf_;  // per column: the paired velocity state
    std::vector<NodeValues> nodes_, midpoints_;
    std::vector<Eigen::Triplet<double>> triplets_;
    Eigen::SparseMatrix<double> jacobian_;
    Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::NaturalOrdering<int>> lu_;
    bool analysed_ = false;
    bool jacobianFormed_ = false;  // jacobian_ is the finite J of the last linearise()
};

}  // namespace sysid::discretise
