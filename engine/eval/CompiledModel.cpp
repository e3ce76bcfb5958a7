#include "engine/eval/CompiledModel.h"

#include <algorithm>
#include <stdexcept>

namespace sysid::eval {

CompiledModel::CompiledModel(std::shared_ptr<const CompiledModelSource> source) : source_(std::move(source))
{
    const auto& s = *source_;
    variables_.assign(1 + s.stateCount() + s.parameterCount() + s.inputCount(), 0.0);
    std::copy(s.parameterValues.begin(), s.parameterValues.end(), variables_.begin() + 1 + static_cast<long>(s.stateCount()));
    std::vector<ExpressionList::Variable> bound;
    for (std::size_t i = 0; i < variables_.size(); ++i)
        bound.push_back({"v" + std::to_string(i), &variables_[i]});
    rhs_ = ExpressionList(s.rhs, bound);
    stateJacobian_ = ExpressionList(s.rhsStateJacobian.expressions, bound);
    parameterJacobian_ = ExpressionList(s.rhsParamJacobian.expressions, bound);
    timeInputJacobian_ = ExpressionList(s.rhsTimeInputJacobian.expressions, bound);
    stateHessian_ = ExpressionList(s.rhsStateHessian.expressions, bound);
    mixedHessian_ = ExpressionList(s.rhsMixedHessian.expressions, bound);
    std::vector<std::string> fused = s.rhs;
    fused.insert(fused.end(), s.rhsStateJacobian.expressions.begin(), s.rhsStateJacobian.expressions.end());
    rhsWithStateJacobian_ = ExpressionList(fused, bound);
    fused.insert(fused.end(), s.rhsParamJacobian.expressions.begin(), s.rhsParamJacobian.expressions.end());
    rhsWithJacobians_ = ExpressionList(fused, bound);
    outputs_ = ExpressionList(s.outputs, bound);
    outputStateJacobian_ = ExpressionList(s.outputStateJacobian.expressions, bound);
    outputParameterJacobian_ = ExpressionList(s.outputParamJacobian.expressions, bound);
    initial_ = ExpressionList(s.initialState, bound);
    initialJacobian_ = ExpressionList(s.initialStateJacobian.expressions, bound);
    std::size_t largest = 0;
    for (const auto* p : {&s.rhsStateJacobian, &s.rhsParamJacobian, &s.rhsTimeInputJacobian, &s.outputStateJacobian,
                          &s.outputParamJacobian, &s.initialStateJacobian})
        largest = std::max(largest, p->entries.size());
    scratch_.resize(std::max(largest, fused.size()));
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

void CompiledModel::scatter(const ExpressionList& list, const SparseExpressions& pattern, std::size_t rows,
                            std::size_t columns, double* dense) const
{
    std::fill(dense, dense + rows * columns, 0.0);
    list.evaluate(scratch_.data());
    for (std::size_t k = 0; k < pattern.entries.size(); ++k)
        dense[pattern.entries[k].column * rows + pattern.entries[k].row] = scratch_[k];
}

void CompiledModel::rhs(double* dx) const { rhs_.evaluate(dx); }

void CompiledModel::stateJacobian(double* J) const
{
    scatter(stateJacobian_, source_->rhsStateJacobian, stateCount(), stateCount(), J);
}

void CompiledModel::parameterJacobian(double* J) const
{
    scatter(parameterJacobian_, source_->rhsParamJacobian, stateCount(), parameterCount(), J);
}

void CompiledModel::timeInputJacobian(double* J) const
{
    scatter(timeInputJacobian_, source_->rhsTimeInputJacobian, stateCount(), 1 + inputCount(), J);
}

void CompiledModel::rhsAndStateJacobian(double* dx, double* J) const
{
    const std::size_t n = stateCount();
    rhsWithStateJacobian_.evaluate(scratch_.data());
    std::copy(scratch_.begin(), scratch_.begin() + static_cast<long>(n), dx);
    std::fill(J, J + n * n, 0.0);
    const auto& entries = source_->rhsStateJacobian.entries;
    for (std::size_t k = 0; k < entries.size(); ++k)
        J[entries[k].column * n + entries[k].row] = scratch_[n + k];
}

void CompiledModel::rhsAndJacobians(double* dx, double* Jx, double* Jp) const
{
    const std::size_t n = stateCount(), np = parameterCount();
    rhsWithJacobians_.evaluate(scratch_.data());
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
    rhsWithJacobians_.evaluate(scratch_.data());
    std::copy(scratch_.begin(), scratch_.begin() + static_cast<long>(n), dx);
    std::copy(scratch_.begin() + static_cast<long>(n), scratch_.begin() + static_cast<long>(n + nx), jxValues);
    std::copy(scratch_.begin() + static_cast<long>(n + nx), scratch_.begin() + static_cast<long>(n + nx + np), jpValues);
}

void CompiledModel::outputs(double* y) const { outputs_.evaluate(y); }

void CompiledModel::outputStateJacobian(double* J) const
{
    scatter(outputStateJacobian_, source_->outputStateJacobian, outputCount(), stateCount(), J);
}

void CompiledModel::outputParameterJacobian(double* J) const
{
    scatter(outputParameterJacobian_, source_->outputParamJacobian, outputCount(), parameterCount(), J);
}

void CompiledModel::stateHessianValues(double* values) const { stateHessian_.evaluate(values); }
void CompiledModel::mixedHessianValues(double* values) const { mixedHessian_.evaluate(values); }

void CompiledModel::initialState(double* x0) const { initial_.evaluate(x0); }

void CompiledModel::initialStateJacobian(double* J) const
{
    scatter(initialJacobian_, source_->initialStateJacobian, stateCount(), parameterCount(), J);
}

}  // namespace sysid::eval
