#include "engine/discretise/DiscretisedOrbitSensitivity.h"

#include "engine/discretise/DiscretisedPeriodicSystem.h"
#include "engine/integrate/Simulator.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sysid::discretise {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

std::vector<MatrixXd> discretisedParameterSensitivity(eval::CompiledModel& model,
                                                      const shooting::PeriodicSolution& solution,
                                                      const std::vector<std::size_t>& parameters,
                                                      const DiscretisationSettings& settings)
{
    if (!solution.converged())
        throw std::runtime_error("parameter sensitivities need a converged discretised orbit");
    if (settings.kind == shooting::PeriodKind::Autonomous)
        throw std::invalid_argument("discretised sensitivities are implemented for forced orbits only");
    const std::size_t M = settings.nodes * settings.periods;
    if (solution.states.rows() != static_cast<Index>(M + 1))
        throw std::invalid_argument("the solution does not have the nodes of these settings");
    for (std::size_t p : parameters)
        if (p >= model.parameterCount())
            throw std::invalid_argument("sensitivity requested for a parameter that does not exist");

    DiscretisedPeriodicSystem system(model, settings.scheme, M, settings.startTime, solution.period, std::nullopt,
                                     settings.inputs);
    const VectorXd X = system.pack(solution.states.topRows(static_cast<Index>(M)), solution.period);
    const auto current = model.parameters();
    const std::vector<double> values(current.begin(), current.end());
    MatrixXd dFdp(X.size(), static_cast<Index>(parameters.size()));
    for (std::size_t c = 0; c < parameters.size(); ++c) {
        const std::size_t p = parameters[c];
        const double h = 1e-6 * std::max(1.0, std::abs(values[p]));
        std::vector<double> shifted = values;
        shifted[p] = values[p] + h;
        model.setParameters(shifted);
        const VectorXd plus = system.residual(X);
        shifted[p] = values[p] - h;
        model.setParameters(shifted);
        const VectorXd minus = system.residual(X);
        dFdp.col(static_cast<Index>(c)) = (plus - minus) / (2 * h);
    }
    model.setParameters(values);
    system.residual(X);
    system.linearise(X);
    std::vector<MatrixXd> nodes(
        M, MatrixXd(static_cast<Index>(model.stateCount()), static_cast<Index>(parameters.size())));
    for (std::size_t c = 0; c < parameters.size(); ++c) {
        // nodeStates() is linear in X for a fixed period (eliminated velocities are differences).
        const MatrixXd dStates = system.nodeStates(-system.solve(dFdp.col(static_cast<Index>(c))));
        for (std::size_t j = 0; j < M; ++j)
            nodes[j].col(static_cast<Index>(c)) = dStates.row(static_cast<Index>(j)).transpose();
    }
    return nodes;
}

DiscretisedSamples sampleDiscretisedOrbit(eval::CompiledModel& model, const shooting::PeriodicSolution& solution,
                                          const std::vector<MatrixXd>& nodeSensitivity,
                                          const std::vector<std::size_t>& parameters, const std::vector<double>& tau,
                                          const integrate::InputSignals* inputs)
{
    const auto M = static_cast<std::size_t>(solution.states.rows() - 1);
    const auto n = static_cast<Index>(model.stateCount());
    const auto ny = static_cast<Index>(model.outputCount());
    const auto np = static_cast<Index>(parameters.size());
    const bool withSensitivity = !nodeSensitivity.empty();
    if (withSensitivity && nodeSensitivity.size() != M)
        throw std::invalid_argument("one sensitivity matrix per node is needed");
    const double t0 = solution.times.front();
    const double h = solution.period / static_cast<double>(M);

    // Slopes f and their parameter derivatives df/dp = J dx/dp + df/dp|x at every node.
    MatrixXd slopes(n, static_cast<Index>(M));
    std::vector<MatrixXd> slopeSensitivity(withSensitivity ? M : 0);
    MatrixXd J(n, n), Fp(n, static_cast<Index>(model.parameterCount()));
    for (std::size_t j = 0; j < M; ++j) {
        const VectorXd x = solution.states.row(static_cast<Index>(j)).transpose();
        integrate::setModelPoint(model, solution.times[j], x.data(), inputs);
        model.rhs(slopes.col(static_cast<Index>(j)).data());
        if (!withSensitivity)
            continue;
        model.stateJacobian(J.data());
        model.parameterJacobian(Fp.data());
        MatrixXd d = J * nodeSensitivity[j];
        for (Index c = 0; c < np; ++c)
            d.col(c) += Fp.col(static_cast<Index>(parameters[static_cast<std::size_t>(c)]));
        slopeSensitivity[j] = std::move(d);
    }

    DiscretisedSamples out;
    out.outputs.resize(static_cast<Index>(tau.size()), ny);
    MatrixXd Gx(ny, n), Gp(ny, static_cast<Index>(model.parameterCount()));
    VectorXd y(ny);
    for (std::size_t s = 0; s < tau.size(); ++s) {
        const double u = std::clamp((tau[s] - t0) / h, 0.0, static_cast<double>(M));
        const std::size_t i = std::min(static_cast<std::size_t>(u), M - 1);
        const std::size_t k = (i + 1) % M;
        const double r = u - static_cast<double>(i);
        // Cubic Hermite basis on [t_i, t_i + h].
        const double h00 = (1 + 2 * r) * (1 - r) * (1 - r), h10 = r * (1 - r) * (1 - r);
        const double h01 = r * r * (3 - 2 * r), h11 = r * r * (r - 1);
        const auto ii = static_cast<Index>(i), kk = static_cast<Index>(k);
        const VectorXd x = h00 * solution.states.row(ii).transpose() + h10 * h * slopes.col(ii) +
            h01 * solution.states.row(kk).transpose() + h11 * h * slopes.col(kk);
        const double t = t0 + u * h;
        integrate::setModelPoint(model, t, x.data(), inputs);
        model.outputs(y.data());
        out.outputs.row(static_cast<Index>(s)) = y.transpose();
        if (!withSensitivity)
            continue;
        const MatrixXd dx = h00 * nodeSensitivity[i] + h10 * h * slopeSensitivity[i] + h01 * nodeSensitivity[k] +
            h11 * h * slopeSensitivity[k];
        model.outputStateJacobian(Gx.data());
        model.outputParameterJacobian(Gp.data());
        MatrixXd dy = Gx * dx;
        for (Index c = 0; c < np; ++c)
            dy.col(c) += Gp.col(static_cast<Index>(parameters[static_cast<std::size_t>(c)]));
        out.outputSensitivity.push_back(std::move(dy));
    }
    return out;
}

}  // namespace sysid::discretise
