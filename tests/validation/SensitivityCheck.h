#pragma once
// The integrator's forward sensitivities (dx/dp, dx/dx0) against central differences of the
// simulation itself, for models whose switches and resets the integrator locates: the event-located
// flow is piecewise smooth in p, so its difference quotients converge to the exact derivative that
// the saltation-corrected sensitivities claim to be (Leine and Nijmeijer 2004, §3.4; Hiskens and
// Pai 2000 for resets).

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/Simulator.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace sysid::validation {

// Adaptive methods at tolerances far below the difference quotient's step, fixed-step ones with a
// small step: the comparison is with differences of the same discrete simulation.
inline integrate::IntegratorSettings sensitivitySettings(integrate::IntegrationMethod method)
{
    integrate::IntegratorSettings s;
    s.method = method;
    s.methodChosen = true;
    s.relativeTolerance = 1e-12;
    s.absoluteTolerance = 1e-14;
    if (!integrate::isAdaptive(method))
        s.maxStep = 1e-4;
    return s;
}

// How close the sensitivities come to the differences. A method of order >= 2 at these steps: 1e-6.
// Euler and implicit Euler locate an event on their one-step interpolant but apply the saltation
// rule with the flow's rate at the event, which differs from the step's slope by O(h), and the
// steps after an event are re-spaced by its time: they match the differences of their own
// simulation only to O(h) (1e-4 ... 2e-2 at h = 1e-4). That still tells a saltation applied from
// one that is missing, whose error is of the order of the sensitivity itself.
inline double sensitivityTolerance(integrate::IntegrationMethod method)
{
    using integrate::IntegrationMethod;
    return method == IntegrationMethod::Euler || method == IntegrationMethod::ImplicitEuler ? 5e-2 : 1e-6;
}

// How far the sensitivity of one direction is from central differences: per state, the largest
// |S - FD| over the samples divided by the largest |FD| over the samples (so a sensitivity that
// passes through zero between samples is not judged pointwise); `worst` is the largest over states.
struct SensitivityMismatch {
    double worst = 0.0;
    std::size_t state = 0;  // the state where it is worst
    std::size_t sample = 0;  // the sample where it is worst
    double scale = 0.0;  // that state's largest |FD|
};

// The states over `times` (rows: samples) of `model` with parameters `p` from `x0` (none: the model's own).
inline Eigen::MatrixXd statesAt(eval::CompiledModel& model, const std::vector<double>& p,
                                const std::vector<double>& times, const integrate::IntegratorSettings& settings,
                                const std::vector<double>* x0 = nullptr)
{
    model.setParameters(p);
    integrate::SimulationRequest r;
    r.times = times;
    if (x0)
        r.initialState = *x0;
    return integrate::simulate(model, r, settings).states;
}

inline SensitivityMismatch mismatch(const std::vector<Eigen::VectorXd>& sensitivity, const Eigen::MatrixXd& differences)
{
    SensitivityMismatch m;
    for (Eigen::Index i = 0; i < differences.cols(); ++i) {
        const double scale = std::max(differences.col(i).cwiseAbs().maxCoeff(), 1e-12);
        for (Eigen::Index k = 0; k < differences.rows(); ++k) {
            const double e = std::abs(sensitivity[static_cast<std::size_t>(k)](i) - differences(k, i)) / scale;
            if (e > m.worst)
                m = {e, static_cast<std::size_t>(i), static_cast<std::size_t>(k), scale};
        }
    }
    return m;
}

// dx/dp for model parameter `parameter` at the model's current parameters, against central
// differences with the step `relativeStep` * |p|.
inline SensitivityMismatch parameterSensitivityMismatch(eval::CompiledModel& model, std::size_t parameter,
                                                        const std::vector<double>& times,
                                                        const integrate::IntegratorSettings& settings,
                                                        double relativeStep)
{
    const std::vector<double> p(model.parameters().begin(), model.parameters().end());
    integrate::SimulationRequest r;
    r.times = times;
    r.sensitivityParameters = {parameter};
    const auto tr = integrate::simulate(model, r, settings);
    std::vector<Eigen::VectorXd> s;
    for (const auto& S : tr.stateParameterSensitivity)
        s.push_back(S.col(0));

    const double h = relativeStep * std::max(std::abs(p[parameter]), 1e-3);
    auto up = p, down = p;
    up[parameter] += h;
    down[parameter] -= h;
    const Eigen::MatrixXd fd =
        (statesAt(model, up, times, settings) - statesAt(model, down, times, settings)) / (2 * h);
    model.setParameters(p);
    return mismatch(s, fd);
}

// dx/dx0 for initial state `state` (from the model's own initial state), against central
// differences with the step `relativeStep` * max(|x0|, 1).
inline SensitivityMismatch initialSensitivityMismatch(eval::CompiledModel& model, std::size_t state,
                                                      const std::vector<double>& times,
                                                      const integrate::IntegratorSettings& settings,
                                                      double relativeStep)
{
    const std::vector<double> p(model.parameters().begin(), model.parameters().end());
    std::vector<double> x0(model.stateCount());
    model.initialState(x0.data());
    integrate::SimulationRequest r;
    r.times = times;
    r.initialStateSensitivity = true;
    const auto tr = integrate::simulate(model, r, settings);
    std::vector<Eigen::VectorXd> s;
    for (const auto& S : tr.stateInitialSensitivity)
        s.push_back(S.col(static_cast<Eigen::Index>(state)));

    const double h = relativeStep * std::max(std::abs(x0[state]), 1.0);
    auto up = x0, down = x0;
    up[state] += h;
    down[state] -= h;
    const Eigen::MatrixXd fd =
        (statesAt(model, p, times, settings, &up) - statesAt(model, p, times, settings, &down)) / (2 * h);
    return mismatch(s, fd);
}

}  // namespace sysid::validation
