#pragma once

#include "engine/eval/CompiledModelSource.h"

#include <Eigen/Dense>

#include <map>
#include <string>
#include <vector>

namespace sysid::estimate {

// The unknowns of a fit and how they map onto each experiment's model parameters: free model
// parameters are shared; estimated initial values are one unknown per experiment.
class ParameterLayout {
public:
    struct Unknown {
        std::string name;
        std::size_t modelIndex;
        int experiment;  // -1: shared by all experiments
        double initial, lower, upper;
    };

    // `fixedValues[e]` overrides fixed parameters for experiment e; naming an estimated or
    // unknown parameter there is an std::invalid_argument. `heldInitialValues[e]` (when given)
    // holds estimated initial values of experiment e at a value, so they are no unknowns there (a
    // profile steps one); `startValues[e]` (when given) starts experiment e's estimated initial
    // values from its own values instead of initialValues (a warm start from another fit).
    ParameterLayout(const eval::CompiledModelSource& model, const std::vector<double>& initialValues,
                    const std::vector<std::map<std::string, double>>& fixedValues,
                    const std::vector<std::map<std::string, double>>& heldInitialValues = {},
                    const std::vector<std::map<std::string, double>>& startValues = {});

    const std::vector<Unknown>& unknowns() const { return unknowns_; }
    std::size_t size() const { return unknowns_.size(); }
    Eigen::VectorXd initial() const;
    Eigen::VectorXd lower() const;
    Eigen::VectorXd upper() const;

    // All model parameter values for one experiment at theta.
    std::vector<double> modelValues(const Eigen::VectorXd& theta, std::size_t experiment) const;
    // The unknowns that act on one experiment: their indices into theta and model indices.
    const std::vector<std::size_t>& unknownsOf(std::size_t experiment) const { return unknownsOf_[experiment]; }
    std::vector<std::size_t> modelIndicesOf(std::size_t experiment) const;

private:
    std::vector<std::vector<double>> base_;  // per experiment: all model parameter values
    std::vector<Unknown> unknowns_;
    std::vector<std::vector<std::size_t>> unknownsOf_;
};

}  // namespace sysid::estimate
