#include "engine/estimate/MultipleShootingProblem.h"

#include "engine/integrate/Simulator.h"

#include <algorithm>
#include <cmath>

namespace sysid::estimate {

namespace {

std::vector<double> slice(const std::vector<double>& times, std::size_t first, std::size_t last)
{
    return std::vector<double>(times.begin() + static_cast<long>(first), times.begin() + static_cast<long>(last) + 1);
}

}  // namespace

MultipleShootingProblem::MultipleShootingProblem(std::shared_ptr<const eval::CompiledModelSource> model,
                                                 const ParameterLayout& layout,
                                                 const std::vector<Experiment>& experiments,
                                                 const std::vector<double>& weights,
                                                 const integrate::IntegratorSettings& integrator, std::size_t intervals,
                                                 std::stop_token stop) :
    model_(model),
    layout_(layout), experiments_(experiments), integrator_(integrator), theta_(layout.initial())
{
    for (double w : weights)
        sqrtWeights_.push_back(std::sqrt(w));
    const auto& source = model_.source();
    for (std::size_t j = 0; j < source.outputCount(); ++j) {
        int state = -1;
        for (std::size_t i = 0; i < source.stateCount(); ++i)
            if (source.outputs[j] == "v" + std::to_string(1 + i))
                state = static_cast<int>(i);
        stateOfOutput_.push_back(state);
    }
    for (const auto& e : experiments_) {
        const std::size_t samples = e.times.size();
        if (samples < 2)
            throw std::invalid_argument("experiment " + e.name + " has fewer than two samples");
        const std::size_t n = std::clamp<std::size_t>(intervals, 1, samples - 1);
        Shooting s;
        for (std::size_t j = 0; j <= n; ++j) {
            const std::size_t b = static_cast<std::size_t>(
                std::llround(static_cast<double>(j) * static_cast<double>(samples - 1) / static_cast<double>(n)));
            if (s.boundaries.empty() || b > s.boundaries.back())
                s.boundaries.push_back(b);
        }
        const std::size_t count = s.boundaries.size() - 1;
        s.nodes.assign(count, Eigen::VectorXd::Zero(static_cast<Eigen::Index>(source.stateCount())));
        s.offset.assign(count, Eigen::VectorXd::Zero(static_cast<Eigen::Index>(source.stateCount())));
        s.gain.assign(count,
                      Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(source.stateCount()),
                                            static_cast<Eigen::Index>(layout.size())));
        shooting_.push_back(std::move(s));
        rowOffset_.emplace_back(e.outputMeasured.size(), 0);
        for (std::size_t j = 0; j < e.outputMeasured.size(); ++j) {
            rowOffset_.back()[j] = dataRows_;
            if (e.outputMeasured[j] && sqrtWeights_[j] > 0)
                dataRows_ += samples;
        }
    }
    outputs_.resize(experiments_.size());
    initializeNodes(stop);
}

void MultipleShootingProblem::initializeNodes(std::stop_token stop)
{
    const std::size_t n = model_.stateCount();
    for (std::size_t e = 0; e < experiments_.size(); ++e) {
        const Experiment& ex = experiments_[e];
        Shooting& s = shooting_[e];
        model_.setParameters(layout_.modelValues(theta_, e));
        Eigen::VectorXd start(static_cast<Eigen::Index>(n));
        model_.initialState(start.data());
        // Node j+1 from simulating interval j (the last interval ends at no node).
        for (std::size_t j = 0; j + 1 < s.nodes.size(); ++j) {
            if (j > 0)
                start = s.nodes[j];
            Eigen::VectorXd next = start;
            integrate::SimulationRequest request;
            request.times = slice(ex.times, s.boundaries[j], s.boundaries[j + 1]);
            request.initialState = std::vector<double>(start.data(), start.data() + start.size());
            request.inputs = &ex.inputs;
            request.stop = stop;
            try {
                const auto tr = integrate::simulate(model_, request, integrator_);
                next = tr.states.row(tr.states.rows() - 1).transpose();
            } catch (const integrate::IntegrationError&) {
                // Unmeasured states keep the previous node's value; measured ones come from the data below.
            }
            const auto node = static_cast<Eigen::Index>(s.boundaries[j + 1]);
            for (std::size_t o = 0; o < stateOfOutput_.size(); ++o)
                if (stateOfOutput_[o] >= 0 && ex.outputMeasured[o])
                    next(stateOfOutput_[o]) = ex.measured(node, static_cast<Eigen::Index>(o));
            s.nodes[j + 1] = next;
        }
    }
}

bool MultipleShootingProblem::evaluate(const Eigen::VectorXd& step, Linearization& out, std::string& failure,
                                       std::stop_token stop)
{
    pendingTheta_ = theta_ + step;
    pending_ = shooting_;
    const std::size_t n = model_.stateCount();
    const auto nn = static_cast<Eigen::Index>(n);
    const auto p = static_cast<Eigen::Index>(layout_.size());
    out.residuals.resize(static_cast<Eigen::Index>(dataRows_));
    out.jacobian = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(dataRows_), p);
    pendingOutputs_.assign(experiments_.size(), Eigen::MatrixXd());
    double penaltyTerm = 0.0, dataSquares = 0.0;
    pendingDefect_ = 0.0;
    for (std::size_t e = 0; e < experiments_.size(); ++e) {
        const Experiment& ex = experiments_[e];
        Shooting& s = pending_[e];
        const Shooting& current = shooting_[e];
        // Nodes moved by the linearized continuity of the current point (Bock's node update).
        for (std::size_t j = 1; j < s.nodes.size(); ++j)
            s.nodes[j] = current.nodes[j] + stepLength_ * current.offset[j] + current.gain[j] * step;
        model_.setParameters(layout_.modelValues(pendingTheta_, e));
        const auto& columns = layout_.unknownsOf(e);
        const std::vector<std::size_t> modelIndices = layout_.modelIndicesOf(e);
        pendingOutputs_[e] = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(ex.times.size()),
                                                   static_cast<Eigen::Index>(model_.outputCount()));
        Eigen::VectorXd a = Eigen::VectorXd::Zero(nn);
        Eigen::MatrixXd C = Eigen::MatrixXd::Zero(nn, p);
        for (std::size_t j = 0; j < s.nodes.size(); ++j) {
            integrate::SimulationRequest request;
            request.times = slice(ex.times, s.boundaries[j], s.boundaries[j + 1]);
            request.inputs = &ex.inputs;
            request.sensitivityParameters = modelIndices;
            request.stop = stop;
            if (j > 0) {
                request.initialState = std::vector<double>(s.nodes[j].data(), s.nodes[j].data() + n);
                request.initialStateSensitivity = true;
            }
            integrate::Trajectory tr;
            try {
                tr = integrate::simulate(model_, request, integrator_);
            } catch (const integrate::IntegrationError& error) {
                failure = "interval " + std::to_string(j + 1) +
                    (experiments_.size() > 1 ? " of experiment " + ex.name : "") + ": " + error.what();
                return false;
            }
            const bool last = j + 1 == s.nodes.size();
            const std::size_t dataSamples = request.times.size() - (last ? 0 : 1);
            for (std::size_t k = 0; k < dataSamples; ++k)
                pendingOutputs_[e].row(static_cast<Eigen::Index>(s.boundaries[j] + k)) =
                    tr.outputs.row(static_cast<Eigen::Index>(k));
            // dr/dtheta = -w (dy/ds C_j + dy/dtheta); the condensed residual adds -w dy/ds a_j.
            for (std::size_t o = 0; o < ex.outputMeasured.size(); ++o) {
                if (!ex.outputMeasured[o] || sqrtWeights_[o] == 0)
                    continue;
                const auto oo = static_cast<Eigen::Index>(o);
                const double w = sqrtWeights_[o];
                for (std::size_t k = 0; k < dataSamples; ++k) {
                    const auto kk = static_cast<Eigen::Index>(k);
                    const auto sample = static_cast<Eigen::Index>(s.boundaries[j] + k);
                    double residual = w * (ex.measured(sample, oo) - tr.outputs(kk, oo));
                    Eigen::RowVectorXd derivative = Eigen::RowVectorXd::Zero(p);
                    for (std::size_t c = 0; c < columns.size(); ++c)
                        derivative(static_cast<Eigen::Index>(columns[c])) =
                            tr.outputParameterSensitivity[k](oo, static_cast<Eigen::Index>(c));
                    if (j > 0) {
                        const Eigen::RowVectorXd dyds = tr.outputInitialSensitivity[k].row(oo);
                        derivative += dyds * C;
                        residual -= w * dyds.dot(a);
                    }
                    dataSquares += std::pow(w * (ex.measured(sample, oo) - tr.outputs(kk, oo)), 2);
                    const auto row = static_cast<Eigen::Index>(rowOffset_[e][o]) + sample;
                    out.residuals(row) = residual;
                    out.jacobian.row(row) = -w * derivative;
                }
            }
            if (last)
                break;
            // Continuity at the end of interval j and the condensing recursion for node j+1.
            const auto end = static_cast<Eigen::Index>(request.times.size() - 1);
            const Eigen::VectorXd endState = tr.states.row(end).transpose();
            const Eigen::VectorXd defect = endState - s.nodes[j + 1];
            penaltyTerm += 0.5 * defect.squaredNorm();
            pendingDefect_ = std::max(pendingDefect_, defect.cwiseAbs().maxCoeff());
            Eigen::MatrixXd P = Eigen::MatrixXd::Zero(nn, p);
            for (std::size_t c = 0; c < columns.size(); ++c)
                P.col(static_cast<Eigen::Index>(columns[c])) =
                    tr.stateParameterSensitivity[static_cast<std::size_t>(end)].col(static_cast<Eigen::Index>(c));
            if (j == 0) {
                a = defect;
                C = P;
            } else {
                const Eigen::MatrixXd& G = tr.stateInitialSensitivity[static_cast<std::size_t>(end)];
                a = defect + G * a;
                C = G * C + P;
            }
            s.offset[j + 1] = a;
            s.gain[j + 1] = C;
        }
    }
    out.merit = 0.5 * dataSquares;
    out.gap = out.merit - 0.5 * out.residuals.squaredNorm();
    out.violation = penaltyTerm;
    if (!std::isfinite(out.merit) || !std::isfinite(out.violation)) {
        failure = "the cost is not finite";
        return false;
    }
    return true;
}

void MultipleShootingProblem::accept()
{
    theta_ = pendingTheta_;
    shooting_ = pending_;
    outputs_ = pendingOutputs_;
    defect_ = pendingDefect_;
}

}  // namespace sysid::estimate
