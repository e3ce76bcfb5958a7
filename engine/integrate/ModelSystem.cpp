#include "engine/integrate/ModelSystem.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sysid::integrate {

namespace {

JacobianPattern patternOf(const eval::SparseExpressions& expressions, std::size_t rows, std::size_t columns)
{
    JacobianPattern p;
    p.rows = rows;
    p.columns = columns;
    for (const auto& e : expressions.entries) {
        p.row.push_back(e.row);
        p.column.push_back(e.column);
    }
    return p;
}

}  // namespace

ModelSystem::ModelSystem(eval::CompiledModel& model, const InputSignals* inputs) : model_(&model), inputs_(inputs)
{
    if (model_->inputCount() > 0 && (!inputs_ || inputs_->size() != model_->inputCount()))
        throw std::invalid_argument("the model has " + std::to_string(model_->inputCount()) +
                                    " input(s); give a signal for each");
    const std::size_t n = model_->stateCount();
    statePattern_ = patternOf(model_->source().rhsStateJacobian, n, n);
    parameterPattern_ = patternOf(model_->source().rhsParamJacobian, n, model_->parameterCount());
    u_.assign(model_->inputCount(), 0.0);
    du_.assign(model_->inputCount(), 0.0);
    hints_.assign(model_->inputCount(), 0);
    timeInput_.assign(n * (1 + model_->inputCount()), 0.0);
}

ModelSystem::ModelSystem(std::unique_ptr<eval::CompiledModel> owned, const InputSignals* inputs) :
    ModelSystem(*owned, inputs)
{
    owned_ = std::move(owned);
}

std::unique_ptr<OdeSystem> ModelSystem::clone() const
{
    return std::unique_ptr<OdeSystem>(new ModelSystem(std::make_unique<eval::CompiledModel>(*model_), inputs_));
}

void ModelSystem::inputValues(double t, double* u, double* du)
{
    if (u_.empty())
        return;
    if (held_.held()) {
        held_.values(t, u, du);
        return;
    }
    inputs_->values(t, u, hints_.data());
    if (du)
        inputs_->slopes(t, du);
}

void ModelSystem::setPoint(double t, const double* x)
{
    inputValues(t, u_.data(), nullptr);
    model_->setPoint(t, x, u_.data());
}

void ModelSystem::rhs(double t, const double* x, double* f)
{
    setPoint(t, x);
    model_->rhs(f);
}

void ModelSystem::jacobian(double t, const double* x, double* J, double* dfdt)
{
    inputValues(t, u_.data(), du_.data());
    model_->setPoint(t, x, u_.data());
    model_->stateJacobian(J);
    model_->timeInputJacobian(timeInput_.data());
    const std::size_t n = model_->stateCount();
    for (std::size_t i = 0; i < n; ++i) {
        double d = timeInput_[i];
        for (std::size_t r = 0; r < du_.size(); ++r)
            d += timeInput_[(1 + r) * n + i] * du_[r];
        dfdt[i] = d;
    }
}

void ModelSystem::rhsAndStateJacobian(double t, const double* x, double* f, double* J)
{
    setPoint(t, x);
    model_->rhsAndStateJacobian(f, J);
}

void ModelSystem::rhsAndJacobianValues(double t, const double* x, double* f, double* stateValues,
                                       double* parameterValues)
{
    setPoint(t, x);
    if (!parameterValues) {
        parameterScratch_.resize(parameterPattern_.size());
        parameterValues = parameterScratch_.data();
    }
    model_->rhsAndJacobianValues(f, stateValues, parameterValues);
}

void ModelSystem::rhsAndJacobians(double t, const double* x, double* f, double* J, double* Jp)
{
    setPoint(t, x);
    if (Jp)
        model_->rhsAndJacobians(f, J, Jp);
    else
        model_->rhsAndStateJacobian(f, J);
}

void ModelSystem::secondDerivatives(double t, const double* x, SecondDerivatives& out)
{
    inputValues(t, u_.data(), du_.data());
    model_->setPoint(t, x, u_.data());
    const std::size_t n = model_->stateCount();
    // The model's depth runs over [x, t, u]; an input's depth enters the total d/dt through du/dt.
    auto convert = [&](const eval::SparseExpressions& expressions, std::vector<double>& values,
                       std::vector<SecondDerivatives::Entry>& entries) {
        entries.clear();
        const auto& e = expressions.entries;
        for (std::size_t k = 0; k < e.size(); ++k) {
            if (e[k].depth < n)
                entries.push_back({e[k].row, e[k].column, e[k].depth, values[k]});
            else if (e[k].depth == n)
                entries.push_back({e[k].row, e[k].column, n, values[k]});
            else
                entries.push_back({e[k].row, e[k].column, n, values[k] * du_[e[k].depth - n - 1]});
        }
    };
    hessian_.resize(model_->source().rhsStateHessian.entries.size());
    model_->stateHessianValues(hessian_.data());
    convert(model_->source().rhsStateHessian, hessian_, out.stateEntries);
    mixed_.resize(model_->source().rhsMixedHessian.entries.size());
    model_->mixedHessianValues(mixed_.data());
    convert(model_->source().rhsMixedHessian, mixed_, out.parameterEntries);
}

bool ModelSystem::dependsOnTime() const
{
    return !model_->source().rhsTimeInputJacobian.entries.empty();
}

std::vector<double> ModelSystem::breakpoints(double t0, double t1) const
{
    std::vector<double> kept;
    if (!inputs_)
        return kept;
    // Kinks within rounding of an end or of each other would leave segments of a few ulps,
    // shorter than any step an integrator can take: they are merged away.
    const double rounding = 1e-12 * std::max({1.0, std::abs(t0), std::abs(t1)});
    std::vector<double> all;
    for (std::size_t i = 0; i < inputs_->size(); ++i) {
        const auto& time = inputs_->signal(i).time();
        if (!inputs_->kinksAtSamples(i)) {
            // A spline is smooth inside its range; it kinks where it turns constant at the ends.
            for (double end : {time.front(), time.back()})
                if (end > t0 + rounding && end < t1 - rounding)
                    all.push_back(end);
            continue;
        }
        for (auto it = std::upper_bound(time.begin(), time.end(), t0 + rounding);
             it != time.end() && *it < t1 - rounding; ++it)
            all.push_back(*it);
    }
    std::sort(all.begin(), all.end());
    for (double t : all)
        if (kept.empty() || t - kept.back() > rounding)
            kept.push_back(t);
    return kept;
}

void ModelSystem::beginSegment(double start, double end)
{
    if (inputs_ && inputs_->size() > 0)
        held_.hold(*inputs_, start, end);
}

void ModelSystem::releaseSegment()
{
    held_.release();
}

std::string ModelSystem::stateName(std::size_t i) const
{
    return model_->source().stateNames[i];
}

}  // namespace sysid::integrate
