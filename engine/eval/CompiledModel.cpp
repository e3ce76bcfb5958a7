#include "engine/eval/CompiledModel.h"

#include "engine/core/SolverStatistics.h"

#include <algorithm>
#include <stdexcept>

namespace sysid::eval {

CompiledModel::CompiledModel(std::shared_ptr<const CompiledModelSource> source) : source_(std::move(source))
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

const ExpressionList& CompiledModel::compile(Program which, std::size_t index) const
{
    const core::PhaseTimer timer(core::Phase::Compilation);
    auto& slot = programs_[index];
    const auto& s = *source_;
    if ((which == StateHessian || which == MixedHessian) && !s.hasSecondDerivatives)
        throw std::logic_error("the model was compiled without second derivatives");
    const auto bound = boundVariables();
    // The switched form has the same entry patterns (CompiledModelSource::switches).
    const bool switched = index >= ProgramCount;
    const auto& rhs = switched ? s.switches.rhs : s.rhs;
    const auto& jx = switched ? s.switches.rhsStateJacobian : s.rhsStateJacobian;
    const auto& jp = switched ? s.switches.rhsParamJacobian : s.rhsParamJacobian;
    const auto& jtu = switched ? s.switches.rhsTimeInputJacobian : s.rhsTimeInputJacobian;
    const auto& hx = switched ? s.switches.rhsStateHessian : s.rhsStateHessian;
    const auto& hp = switched ? s.switches.rhsMixedHessian : s.rhsMixedHessian;
    auto fused = [&](bool parameters) {
        std::vector<std::string> all = rhs;
        all.insert(all.end(), jx.expressions.begin(), jx.expressions.end());
        if (parameters)
            all.insert(all.end(), jp.expressions.begin(), jp.expressions.end());
        return all;
    };
    switch (which) {
    case Rhs: slot = std::make_unique<ExpressionList>(rhs, bound); break;
    case StateJacobian: slot = std::make_unique<ExpressionList>(jx.expressions, bound); break;
    case ParameterJacobian: slot = std::make_unique<ExpressionList>(jp.expressions, bound); break;
    case TimeInputJacobian: slot = std::make_unique<ExpressionList>(jtu.expressions, bound); break;
    case StateHessian: slot = std::make_unique<ExpressionList>(hx.expressions, bound); break;
    case MixedHessian: slot = std::make_unique<ExpressionList>(hp.expressions, bound); break;
    case RhsWithStateJacobian: slot = std::make_unique<ExpressionList>(fused(false), bound); break;
    case RhsWithJacobians: slot = std::make_unique<ExpressionList>(fused(true), bound); break;
    case Outputs: slot = std::make_unique<ExpressionList>(s.outputs, bound); break;
    case OutputStateJacobian: slot = std::make_unique<ExpressionList>(s.outputStateJacobian.expressions, bound); break;
    case OutputParameterJacobian:
        slot = std::make_unique<ExpressionList>(s.outputParamJacobian.expressions, bound);
        break;
    case Initial: slot = std::make_unique<ExpressionList>(s.initialState, bound); break;
    case InitialJacobian: slot = std::make_unique<ExpressionList>(s.initialStateJacobian.expressions, bound); break;
    case Switching: slot = std::make_unique<ExpressionList>(s.switches.functions.values, bound); break;
    case RhsModeJacobian: slot = std::make_unique<ExpressionList>(s.switches.rhsModeJacobian.expressions, bound); break;
    case EventConditions: {
        std::vector<std::string> conditions;
        for (const auto& e : s.events)
            conditions.push_back(e.condition.values.front());
        slot = std::make_unique<ExpressionList>(conditions, bound);
        break;
    }
    case LieRates: {
        std::vector<std::string> all = s.switches.lie.values;
        all.insert(all.end(), s.switches.lieMode.expressions.begin(), s.switches.lieMode.expressions.end());
        slot = std::make_unique<ExpressionList>(all, bound);
        break;
    }
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

void CompiledModel::holdModes(const double* modes)
{
    std::copy(modes, modes + switchCount(), variables_.end() - static_cast<long>(switchCount()));
    modesHeld_ = switchCount() > 0;  // resets alone leave f as written
}

std::span<const double> CompiledModel::modes() const
{
    return {variables_.data() + variables_.size() - switchCount(), switchCount()};
}

const CompiledModel::GradientProgram& CompiledModel::gradientProgram(std::size_t slot,
                                                                     const FunctionsWithGradients& functions,
                                                                     const SparseExpressions* extra) const
{
    if (gradientPrograms_.size() <= slot)
        gradientPrograms_.resize(slot + 1);
    auto& program = gradientPrograms_[slot];
    if (!program) {
        const core::PhaseTimer timer(core::Phase::Compilation);
        std::vector<std::string> all = functions.values;
        for (const auto* part : {&functions.state, &functions.parameter, &functions.timeInput, extra})
            if (part)
                all.insert(all.end(), part->expressions.begin(), part->expressions.end());
        program = std::make_unique<GradientProgram>();
        program->list = ExpressionList(all, boundVariables());
        program->rows = functions.values.size();
        program->source = &functions;
        program->extra = extra;
        program->scratch.resize(all.size());
    }
    return *program;
}

void CompiledModel::evaluate(const GradientProgram& program, double* values, double* gx, double* gp, double* gtu,
                             double* extra) const
{
    auto& v = program.scratch;
    program.list.evaluate(v.data());
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
    program(Switching).evaluate(g);
}

void CompiledModel::switchingGradients(double* g, double* gx, double* gp, double* gtu) const
{
    evaluate(gradientProgram(0, source_->switches.functions), g, gx, gp, gtu);
}

void CompiledModel::lieDerivatives(double* L, double* Lx, double* Lp, double* Lm) const
{
    evaluate(gradientProgram(1, source_->switches.lie, &source_->switches.lieMode), L, Lx, Lp, nullptr, Lm);
}

void CompiledModel::lieRates(double* L, double* Lm) const
{
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
    program(EventConditions).evaluate(g);
}

void CompiledModel::eventCondition(std::size_t event, double* g, double* gx, double* gp, double* gtu) const
{
    evaluate(gradientProgram(2 + 2 * event, source_->events[event].condition), g, gx, gp, gtu);
}

void CompiledModel::resetValues(std::size_t event, double* h, double* hx, double* hp, double* htu) const
{
    evaluate(gradientProgram(3 + 2 * event, source_->events[event].values), h, hx, hp, htu);
}

void CompiledModel::invariants(double* G, double* Gx, double* Gp, double* Gtu) const
{
    evaluate(gradientProgram(2 + 2 * eventCount(), source_->constraints.invariants), G, Gx, Gp, Gtu);
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
