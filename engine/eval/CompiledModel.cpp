#include "engine/eval/CompiledModel.h"

#include "engine/core/SolverStatistics.h"

#include <algorithm>
#include <stdexcept>

namespace sysid::eval {

CompiledModel::CompiledModel(std::shared_ptr<const CompiledModelSource> source) :
    source_(std::move(source)), native_(source_->native)
{
    const auto& s = *source_;
    variables_.assign(1 + s.stateCount() + s.parameterCount() + s.inputCount() + s.switchCount(), 0.0);
    std::copy(s.parameterValues.begin(), s.parameterValues.end(),
              variables_.begin() + 1 + static_cast<long>(s.stateCount()));
    std::size_t largest = s.rhs.size() + s.rhsStateJacobian.entries.size() + s.rhsParamJacobian.entries.size();
    for (const auto* p : {&s.rhsTimeInputJacobian, &s.outputStateJacobian, &s.outputParamJacobian,
                          &s.initialStateJacobian, &s.switches.rhsModeJacobian})
        largest = std::max(largest, p->entries.size());
    largest = std::max(largest, s.switchCount() + s.switches.lieMode.entries.size());  // lieRates
    scratch_.resize(largest);
}

std::vector<ExpressionList::Variable> CompiledModel::boundVariables() const
{
    std::vector<ExpressionList::Variable> bound;
    for (std::size_t i = 0; i < variables_.size(); ++i)
        bound.push_back({"v" + std::to_string(i), const_cast<double*>(&variables_[i])});
    return bound;
}

const ExpressionList& CompiledModel::compile(std::size_t index) const
{
    const core::PhaseTimer timer(core::Phase::Compilation);
    programs_[index] = std::make_unique<ExpressionList>(programExpressions(*source_, index), boundVariables());
    return *programs_[index];
}

void CompiledModel::pollNative() const
{
    untilNativePoll_ = kNativePollInterval;
    if (!native_) {
        nativeSettled_ = true;
        return;
    }
    functions_ = native_->functions();
    nativeSettled_ = functions_ || native_->settled();
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

void CompiledModel::scatter(Program which, const SparseExpressions& pattern, std::size_t rows, std::size_t columns,
                            double* dense) const
{
    if (const auto f = nativeDense(which)) {
        f(variables_[0], variables_.data() + 1, variables_.data(), dense, nullptr, nullptr);
        return;
    }
    std::fill(dense, dense + rows * columns, 0.0);
    program(which).evaluate(scratch_.data());
    for (std::size_t k = 0; k < pattern.entries.size(); ++k)
        dense[pattern.entries[k].column * rows + pattern.entries[k].row] = scratch_[k];
}

void CompiledModel::parameterJacobian(double* J) const
{
    scatter(ParameterJacobian, source_->rhsParamJacobian, stateCount(), parameterCount(), J);
}

void CompiledModel::timeInputJacobian(double* J) const
{
    scatter(TimeInputJacobian, source_->rhsTimeInputJacobian, stateCount(), 1 + inputCount(), J);
}

void CompiledModel::interpretRhsAndStateJacobian(double* dx, double* J) const
{
    const std::size_t n = stateCount();
    program(RhsWithStateJacobian).evaluate(scratch_.data());
    copyValues(scratch_.data(), n, dx);
    std::fill(J, J + n * n, 0.0);
    const auto& entries = source_->rhsStateJacobian.entries;
    for (std::size_t k = 0; k < entries.size(); ++k)
        J[entries[k].column * n + entries[k].row] = scratch_[n + k];
}

void CompiledModel::interpretRhsAndJacobians(double* dx, double* Jx, double* Jp) const
{
    const std::size_t n = stateCount(), np = parameterCount();
    program(RhsWithJacobians).evaluate(scratch_.data());
    copyValues(scratch_.data(), n, dx);
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
    evaluateProgram(RhsWithJacobians, scratch_.data());
    std::copy(scratch_.begin(), scratch_.begin() + static_cast<long>(n), dx);
    std::copy(scratch_.begin() + static_cast<long>(n), scratch_.begin() + static_cast<long>(n + nx), jxValues);
    std::copy(scratch_.begin() + static_cast<long>(n + nx), scratch_.begin() + static_cast<long>(n + nx + np),
              jpValues);
}

void CompiledModel::outputs(double* y) const
{
    evaluateProgram(Outputs, y);
}

void CompiledModel::outputStateJacobian(double* J) const
{
    scatter(OutputStateJacobian, source_->outputStateJacobian, outputCount(), stateCount(), J);
}

void CompiledModel::outputParameterJacobian(double* J) const
{
    scatter(OutputParameterJacobian, source_->outputParamJacobian, outputCount(), parameterCount(), J);
}

void CompiledModel::outputStateJacobianValues(double* values) const
{
    if (!source_->outputStateJacobian.entries.empty())
        evaluateProgram(OutputStateJacobian, values);
}

void CompiledModel::outputParameterJacobianValues(double* values) const
{
    if (!source_->outputParamJacobian.entries.empty())
        evaluateProgram(OutputParameterJacobian, values);
}

void CompiledModel::holdModes(const double* modes)
{
    std::copy(modes, modes + switchCount(), variables_.end() - static_cast<long>(switchCount()));
    modesHeld_ = switchCount() > 0;  // resets alone leave f as written
}

std::span<const double> CompiledModel::modes() const
{
    return {variables_.data() + variables_.size() - switchCount(), switchCount()};
}

const CompiledModel::GradientProgram& CompiledModel::gradientProgram(std::size_t slot) const
{
    const std::size_t index = slot - kFirstGradientSlot;
    if (gradientPrograms_.size() <= index)
        gradientPrograms_.resize(index + 1);
    auto& program = gradientPrograms_[index];
    if (!program) {
        const auto& functions = gradientFunctions(*source_, slot);
        program = std::make_unique<GradientProgram>();
        program->slot = slot;
        program->rows = functions.values.size();
        program->source = &functions;
        program->extra = gradientExtra(*source_, slot);
        std::size_t size = functions.values.size();
        for (const auto* part : {&functions.state, &functions.parameter, &functions.timeInput, program->extra})
            if (part)
                size += part->expressions.size();
        program->scratch.resize(size);
    }
    return *program;
}

void CompiledModel::evaluate(const GradientProgram& program, double* values, double* gx, double* gp, double* gtu,
                             double* extra) const
{
    auto& v = program.scratch;
    const auto* native = nativeFunctions();
    if (native && native->values[program.slot]) {
        native->values[program.slot](variables_[0], variables_.data() + 1, variables_.data(), v.data());
    } else {
        if (!program.list) {
            const core::PhaseTimer timer(core::Phase::Compilation);
            program.list = std::make_unique<ExpressionList>(programExpressions(*source_, program.slot), boundVariables());
        }
        program.list->evaluate(v.data());
    }
    const std::size_t rows = program.rows;
    if (values)
        std::copy(v.begin(), v.begin() + static_cast<long>(rows), values);
    std::size_t offset = rows;
    auto scatterPart = [&](const SparseExpressions* part, std::size_t columns, double* dense) {
        if (!part)
            return;
        if (dense) {
            std::fill(dense, dense + rows * columns, 0.0);
            for (std::size_t k = 0; k < part->entries.size(); ++k)
                dense[part->entries[k].column * rows + part->entries[k].row] = v[offset + k];
        }
        offset += part->entries.size();
    };
    scatterPart(&program.source->state, stateCount(), gx);
    scatterPart(&program.source->parameter, parameterCount(), gp);
    scatterPart(&program.source->timeInput, 1 + inputCount(), gtu);
    scatterPart(program.extra, switchCount(), extra);
}

void CompiledModel::switchingFunctions(double* g) const
{
    evaluateProgram(Switching, g);
}

void CompiledModel::switchingGradients(double* g, double* gx, double* gp, double* gtu) const
{
    evaluate(gradientProgram(kSwitchingGradientSlot), g, gx, gp, gtu);
}

void CompiledModel::lieDerivatives(double* L, double* Lx, double* Lp, double* Lm) const
{
    evaluate(gradientProgram(kLieGradientSlot), L, Lx, Lp, nullptr, Lm);
}

void CompiledModel::lieRates(double* L, double* Lm) const
{
    if (const auto f = nativeDense(LieRates)) {
        f(variables_[0], variables_.data() + 1, variables_.data(), L, Lm, nullptr);
        return;
    }
    const std::size_t ns = switchCount();
    const auto& entries = source_->switches.lieMode.entries;
    program(LieRates).evaluate(scratch_.data());
    std::copy(scratch_.begin(), scratch_.begin() + static_cast<long>(ns), L);
    std::fill(Lm, Lm + ns * ns, 0.0);
    for (std::size_t k = 0; k < entries.size(); ++k)
        Lm[entries[k].column * ns + entries[k].row] = scratch_[ns + k];
}

void CompiledModel::rhsModeJacobian(double* J) const
{
    scatter(RhsModeJacobian, source_->switches.rhsModeJacobian, stateCount(), switchCount(), J);
}

void CompiledModel::eventConditions(double* g) const
{
    evaluateProgram(EventConditions, g);
}

void CompiledModel::eventCondition(std::size_t event, double* g, double* gx, double* gp, double* gtu) const
{
    evaluate(gradientProgram(eventConditionSlot(event)), g, gx, gp, gtu);
}

void CompiledModel::resetValues(std::size_t event, double* h, double* hx, double* hp, double* htu) const
{
    evaluate(gradientProgram(eventResetSlot(event)), h, hx, hp, htu);
}

void CompiledModel::invariants(double* G, double* Gx, double* Gp, double* Gtu) const
{
    evaluate(gradientProgram(invariantSlot(*source_)), G, Gx, Gp, Gtu);
}

void CompiledModel::stateHessianValues(double* values) const
{
    evaluateProgram(StateHessian, values);
}
void CompiledModel::mixedHessianValues(double* values) const
{
    evaluateProgram(MixedHessian, values);
}

void CompiledModel::initialState(double* x0) const
{
    evaluateProgram(Initial, x0);
}

void CompiledModel::initialStateJacobian(double* J) const
{
    scatter(InitialJacobian, source_->initialStateJacobian, stateCount(), parameterCount(), J);
}

}  // namespace sysid::eval
