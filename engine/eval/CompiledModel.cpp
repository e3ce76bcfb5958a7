#include "engine/eval/CompiledModel.h"

#include "engine/core/SolverStatistics.h"

#include <algorithm>
#include <stdexcept>

namespace sysid::eval {

CompiledModel::CompiledModel(std::shared_ptr<const CompiledModelSource> source) : source_(std::move(source))
{
    const auto& s = *source_;
    variables_.assign(1 + s.stateCount() + s.parameterCount() + s.inputCount(), 0.0);
    std::copy(s.parameterValues.begin(), s.parameterValues.end(),
              variables_.begin() + 1 + static_cast<long>(s.stateCount()));
    std::size_t largest = s.rhs.size() + s.rhsStateJacobian.entries.size() + s.rhsParamJacobian.entries.size();
    for (const auto* p :
         {&s.rhsTimeInputJacobian, &s.outputStateJacobian, &s.outputParamJacobian, &s.initialStateJacobian})
        largest = std::max(largest, p->entries.size());
    scratch_.resize(largest);
}

const ExpressionList& CompiledModel::compile(Program which) const
{
    const core::PhaseTimer timer(core::Phase::Compilation);
    auto& slot = programs_[which];
    const auto& s = *source_;
    if ((which == StateHessian || which == MixedHessian) && !s.hasSecondDerivatives)
        throw std::logic_error("the model was compiled without second derivatives");
    std::vector<ExpressionList::Variable> bound;
    for (std::size_t i = 0; i < variables_.size(); ++i)
        bound.push_back({"v" + std::to_string(i), const_cast<double*>(&variables_[i])});
    auto fused = [&](bool parameters) {
        std::vector<std::string> all = s.rhs;
        all.insert(all.end(), s.rhsStateJacobian.expressions.begin(), s.rhsStateJacobian.expressions.end());
        if (parameters)
            all.insert(all.end(), s.rhsParamJacobian.expressions.begin(), s.rhsParamJacobian.expressions.end());
        return all;
    };
    switch (which) {
    case Rhs: slot = std::make_unique<ExpressionList>(s.rhs, bound); break;
    case StateJacobian: slot = std::make_unique<ExpressionList>(s.rhsStateJacobian.expressions, bound); break;
    case ParameterJacobian: slot = std::make_unique<ExpressionList>(s.rhsParamJacobian.expressions, bound); break;
    case TimeInputJacobian: slot = std::make_unique<ExpressionList>(s.rhsTimeInputJacobian.expressions, bound); break;
    case StateHessian: slot = std::make_unique<ExpressionList>(s.rhsStateHessian.expressions, bound); break;
    case MixedHessian: slot = std::make_unique<ExpressionList>(s.rhsMixedHessian.expressions, bound); break;
    case RhsWithStateJacobian: slot = std::make_unique<ExpressionList>(fused(false), bound); break;
    case RhsWithJacobians: slot = std::make_unique<ExpressionList>(fused(true), bound); break;
    case Outputs: slot = std::make_unique<ExpressionList>(s.outputs, bound); break;
    case OutputStateJacobian: slot = std::make_unique<ExpressionList>(s.outputStateJacobian.expressions, bound); break;
    case OutputParameterJacobian:
        slot = std::make_unique<ExpressionList>(s.outputParamJacobian.expressions, bound);
        break;
    case Initial: slot = std::make_unique<ExpressionList>(s.initialState, bound); break;
    case InitialJacobian: slot = std::make_unique<ExpressionList>(s.initialStateJacobian.expressions, bound); break;
    case ProgramCount: throw std::logic_error("CompiledModel: no such program");
    }
    return *slot;
}

CompiledModel::CompiledModel(const CompiledModel& other) : CompiledModel(other.source_)
{
    setParameters(other.parameters());
}

void CompiledModel::setParameters(std::span<const double> values)
{
    if (values.size() != parameterCount())
        throw std::invalid_argument("expected " + std::to_string(parameterCount()) + " parameter values, got " +
                                    std::to_string(values.size()));
    std::copy(values.begin(), values.end(), variables_.begin() + 1 + static_cast<long>(stateCount()));
}

std::span<const double> CompiledModel::parameters() const
{
    return {variables_.data() + 1 + stateCount(), parameterCount()};
}

void CompiledModel::setPoint(double t, const double* x, const double* u)
{
    variables_[0] = t;
    std::copy(x, x + stateCount(), variables_.begin() + 1);
    if (inputCount() > 0)
        std::copy(u, u + inputCount(), variables_.begin() + 1 + static_cast<long>(stateCount() + parameterCount()));
}

void CompiledModel::scatter(Program which, const SparseExpressions& pattern, std::size_t rows, std::size_t columns,
                            double* dense) const
{
    std::fill(dense, dense + rows * columns, 0.0);
    program(which).evaluate(scratch_.data());
    for (std::size_t k = 0; k < pattern.entries.size(); ++k)
        dense[pattern.entries[k].column * rows + pattern.entries[k].row] = scratch_[k];
}

void CompiledModel::rhs(double* dx) const
{
    program(Rhs).evaluate(dx);
}

void CompiledModel::stateJacobian(double* J) const
{
    scatter(StateJacobian, source_->rhsStateJacobian, stateCount(), stateCount(), J);
}

void CompiledModel::parameterJacobian(double* J) const
{
    scatter(ParameterJacobian, source_->rhsParamJacobian, stateCount(), parameterCount(), J);
}

void CompiledModel::timeInputJacobian(double* J) const
{
    scatter(TimeInputJacobian, source_->rhsTimeInputJacobian, stateCount(), 1 + inputCount(), J);
}

void CompiledModel::rhsAndStateJacobian(double* dx, double* J) const
{
    const std::size_t n = stateCount();
    program(RhsWithStateJacobian).evaluate(scratch_.data());
    std::copy(scratch_.begin(), scratch_.begin() + static_cast<long>(n), dx);
    std::fill(J, J + n * n, 0.0);
    const auto& entries = source_->rhsStateJacobian.entries;
    for (std::size_t k = 0; k < entries.size(); ++k)
        J[entries[k].column * n + entries[k].row] = scratch_[n + k];
}

void CompiledModel::rhsAndJacobians(double* dx, double* Jx, double* Jp) const
{
    const std::size_t n = stateCount(), np = parameterCount();
    program(RhsWithJacobians).evaluate(scratch_.data());
    std::copy(scratch_.begin(), scratch_.begin() + static_cast<long>(n), dx);
    std::fill(Jx, Jx + n * n, 0.0);
    std::fill(Jp, Jp + n * np, 0.0);
    const auto& sx = source_->rhsStateJacobian.entries;
    for (std::size_t k = 0; k < sx.size(); ++k)
        Jx[sx[k].column * n + sx[k].row] = scratch_[n + k];
    const auto& sp = source_->rhsParamJacobian.entries;
    for (std::size_t k = 0; k < sp.size(); ++k)
        Jp[sp[k].column * n + sp[k].row] = scratch_[n + sx.size() + k];
}

void CompiledModel::rhsAndJacobianValues(double* dx, double* jxValues, double* jpValues) const
{
    const std::size_t n = stateCount();
    const std::size_t nx = source_->rhsStateJacobian.entries.size();
    const std::size_t np = source_->rhsParamJacobian.entries.size();
    program(RhsWithJacobians).evaluate(scratch_.data());
    std::copy(scratch_.begin(), scratch_.begin() + static_cast<long>(n), dx);
    std::copy(scratch_.begin() + static_cast<long>(n), scratch_.begin() + static_cast<long>(n + nx), jxValues);
    std::copy(scratch_.begin() + static_cast<long>(n + nx), scratch_.begin() + static_cast<long>(n + nx + np),
              jpValues);
}

void CompiledModel::outputs(double* y) const
{
    program(Outputs).evaluate(y);
}

void CompiledModel::outputStateJacobian(double* J) const
{
    scatter(OutputStateJacobian, source_->outputStateJacobian, outputCount(), stateCount(), J);
}

void CompiledModel::outputParameterJacobian(double* J) const
{
    scatter(OutputParameterJacobian, source_->outputParamJacobian, outputCount(), parameterCount(), J);
}

void CompiledModel::stateHessianValues(double* values) const
{
    program(StateHessian).evaluate(values);
}
void CompiledModel::mixedHessianValues(double* values) const
{
    program(MixedHessian).evaluate(values);
}

void CompiledModel::initialState(double* x0) const
{
    program(Initial).evaluate(x0);
}

void CompiledModel::initialStateJacobian(double* J) const
{
    scatter(InitialJacobian, source_->initialStateJacobian, stateCount(), parameterCount(), J);
}

}  // namespace sysid::eval
