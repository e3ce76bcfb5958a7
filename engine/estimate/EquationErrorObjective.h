#pragma once

#include "engine/estimate/EquationErrorFormula.h"
#include "engine/estimate/MeasuredStates.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/integrate/InputSignals.h"

#include <Eigen/Dense>
#include <memory>
#include <stop_token>
#include <vector>

namespace sysid::estimate {

// The objective of the equation-error estimators and its exact derivatives (seed note 004,
// eq. 3.6-3.8 and 4.6): L = 1/2 sum over residual samples k and states i of
// c_k w_i E_ik^2, with E the mismatch of one step of the formula on the measured states and
// c_k the weights of Simpson's rule over the residual samples (the seed's integral over the
// record). Writing r = sqrt(c w) E, gradient = J'r and Hessian = J'J + sum r d2r/dtheta2.
struct EquationErrorTerms {
    double cost = 0.0;
    Eigen::VectorXd gradient;
    Eigen::MatrixXd gaussNewton;  // J'J
    Eigen::MatrixXd secondOrder;  // sum r d2r/dtheta2 (zero when not requested)
    std::size_t rows = 0;  // residual components
    bool cancelled = false;  // a stop request ended the evaluation early; the terms are incomplete
};

// How much of the objective to compute: the cost alone (line searches), with J'r and J'J, or
// also with the second-order term.
enum class EquationErrorOrder { CostOnly, First, Second };

// One experiment's data as the objective reads it.
struct EquationErrorRecord {
    std::string name;  // for messages
    MeasuredStates states;
    const integrate::InputSignals* inputs = nullptr;  // needed when the model has inputs
    std::vector<double> parameterValues;  // all model parameters (fixed ones for this record)
    std::vector<double> stateWeights;  // w_i
};

// Simpson's rule weights for m equally spaced values with spacing h (composite Simpson; an
// even count ends with one trapezoid; one value gets h).
std::vector<double> simpsonWeights(std::size_t m, double h);

class EquationErrorObjective {
public:
    // `unknowns`: the model parameter index of each estimated parameter.
    EquationErrorObjective(std::shared_ptr<const eval::CompiledModelSource> model, EquationErrorFormula formula,
                           std::vector<std::size_t> unknowns);

    ~EquationErrorObjective();
    EquationErrorObjective(const EquationErrorObjective&) = delete;
    EquationErrorObjective& operator=(const EquationErrorObjective&) = delete;

    // The objective at theta over all records, to the order asked for (the second-order term
    // is zero for a residual linear in the unknowns). Throws std::runtime_error when the model
    // evaluates to a non-finite value (naming the record and time).
    EquationErrorTerms evaluate(const Eigen::VectorXd& theta, const std::vector<EquationErrorRecord>& records,
                                EquationErrorOrder order, std::stop_token stop = {});

    // Samples a record must have for one residual.
    std::size_t minimumSamples() const;
    // Whether the residual is linear in the unknowns (then Newton converges in one step and the
    // second-order term vanishes).
    bool linearInUnknowns() const { return linear_; }

private:
    struct Point {  // F and its first derivatives at one (t, x, u)
        Eigen::VectorXd f;
        Eigen::MatrixXd fx;  // n x n
        Eigen::MatrixXd fp;  // n x unknowns
    };
    struct Programs;
    // F at (t, x, u) into point; its derivatives unless the order is CostOnly (fx only with
    // stateDerivatives); the second derivatives are left in the programs' buffers.
    void evaluateAt(double t, const double* x, const std::vector<double>& u, Point& point, EquationErrorOrder order,
                    bool stateDerivatives);
    void addResidual(const double* residual, const double* weights, double c, const Eigen::MatrixXd& dE,
                     const std::vector<Eigen::MatrixXd>* d2E, EquationErrorTerms& terms) const;

    std::shared_ptr<const eval::CompiledModelSource> source_;
    std::unique_ptr<Programs> programs_;
    EquationErrorFormula formula_;
    std::vector<std::size_t> unknowns_;
    std::vector<int> column_;  // model parameter -> unknown index or -1
    bool linear_ = true;
};

}  // namespace sysid::estimate
