#include "engine/integrate/ModelSystem.h"

#include "engine/data/Text.h"
#include "engine/integrate/IntegrationError.h"

#include <algorithm>
#include <cmath>
#include <map>
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
    for (const auto& e : model_->source().switches.functions.timeInput.entries)
        if (e.column > 0)
            switchesOnInputs_ = true;
    ownStateEntries_ = statePattern_.size();
    ownParameterEntries_ = parameterPattern_.size();
    const auto& constraints = model_->source().constraints;
    if (constraints.empty()) {
        updateKernel();
        return;
    }
    // Baumgarte's terms add the invariants' gradients to the stabilised rows: their entries join the
    // patterns once, so that the sparse solvers' analysis holds whatever alpha and beta are.
    auto extend = [](JacobianPattern& pattern, const eval::SparseExpressions& gradient,
                     const std::vector<eval::ConstraintSource::Stabilised>& rows, std::vector<BaumgarteEntry>& out) {
        std::map<std::pair<std::size_t, std::size_t>, std::size_t> position;
        for (std::size_t k = 0; k < pattern.size(); ++k)
            position[{pattern.row[k], pattern.column[k]}] = k;
        for (const auto& r : rows)
            for (const int invariant : {r.first, r.second}) {
                if (invariant < 0)
                    continue;
                for (const auto& e : gradient.entries) {
                    if (e.row != static_cast<std::size_t>(invariant))
                        continue;
                    auto [it, added] = position.try_emplace({r.row, e.column}, pattern.size());
                    if (added) {
                        pattern.row.push_back(r.row);
                        pattern.column.push_back(e.column);
                    }
                    out.push_back({it->second, e.row, e.column, invariant == r.first});
                }
            }
    };
    extend(statePattern_, constraints.invariants.state, constraints.stabilised, baumgarteState_);
    extend(parameterPattern_, constraints.invariants.parameter, constraints.stabilised, baumgarteParameter_);
    const std::size_t m = model_->invariantCount();
    G_.resize(m);
    Gx_.resize(m * n);
    Gp_.resize(m * model_->parameterCount());
    Gtu_.resize(m * (1 + model_->inputCount()));
}

ModelSystem::ModelSystem(std::unique_ptr<eval::CompiledModel> owned, const InputSignals* inputs) :
    ModelSystem(*owned, inputs)
{
    owned_ = std::move(owned);
}

std::unique_ptr<OdeSystem> ModelSystem::clone() const
{
    auto copy = std::unique_ptr<ModelSystem>(new ModelSystem(std::make_unique<eval::CompiledModel>(*model_), inputs_));
    copy->stabilise(alpha_, beta_);
    return copy;
}

Constraints* ModelSystem::constraints()
{
    return model_->source().isDae() ? this : nullptr;
}

void ModelSystem::invariants(double t, const double* x, double* G, double* Gx, double* Gp)
{
    setPoint(t, x);
    model_->invariants(G, Gx, Gp, nullptr);
}

std::string ModelSystem::invariantName(std::size_t i) const
{
    const auto& info = model_->source().constraints.invariantInfo[i];
    const std::string constraint = "the constraint '" + info.text + "' (" + info.place + ")";
    if (info.level == 0)
        return constraint;
    return (info.level == 1 ? std::string("the time derivative of ") : "the time derivative of order " +
                                     std::to_string(info.level) + " of ") +
        constraint;
}

void ModelSystem::stabilise(double alpha, double beta)
{
    alpha_ = alpha;
    beta_ = beta;
}

// f_row += 2 alpha G^(k-1) + beta^2 G^(k-2) on each stabilised row, and its derivatives; the point
// is set (prepare) before.
void ModelSystem::addBaumgarte(double* f, double* J, double* Jp, double* dfdt, double* stateValues,
                               double* parameterValues)
{
    const std::size_t n = model_->stateCount();
    if (stateValues)
        std::fill(stateValues + ownStateEntries_, stateValues + statePattern_.size(), 0.0);
    if (parameterValues)
        std::fill(parameterValues + ownParameterEntries_, parameterValues + parameterPattern_.size(), 0.0);
    if (alpha_ == 0.0 && beta_ == 0.0)
        return;
    const std::size_t m = G_.size();
    const bool gradients = J || stateValues;
    const bool parameters = (Jp || parameterValues) && !Gp_.empty();
    model_->invariants(G_.data(), gradients ? Gx_.data() : nullptr, parameters ? Gp_.data() : nullptr,
                       dfdt ? Gtu_.data() : nullptr);
    const double first = 2.0 * alpha_, second = beta_ * beta_;
    for (const auto& r : model_->source().constraints.stabilised) {
        for (const int invariant : {r.first, r.second}) {
            if (invariant < 0)
                continue;
            const double c = invariant == r.first ? first : second;
            const auto i = static_cast<std::size_t>(invariant);
            if (f)
                f[r.row] += c * G_[i];
            if (J)
                for (std::size_t j = 0; j < n; ++j)
                    J[j * n + r.row] += c * Gx_[j * m + i];
            if (Jp && parameters)
                for (std::size_t l = 0; l < model_->parameterCount(); ++l)
                    Jp[l * n + r.row] += c * Gp_[l * m + i];
            if (dfdt) {
                double rate = Gtu_[i];
                for (std::size_t u = 0; u < du_.size(); ++u)
                    rate += Gtu_[(1 + u) * m + i] * du_[u];
                dfdt[r.row] += c * rate;
            }
        }
    }
    if (stateValues)
        for (const auto& e : baumgarteState_)
            stateValues[e.position] += (e.first ? first : second) * Gx_[e.column * m + e.invariant];
    if (parameterValues && parameters)
        for (const auto& e : baumgarteParameter_)
            parameterValues[e.position] += (e.first ? first : second) * Gp_[e.column * m + e.invariant];
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
    time_ = t;
    inputValues(t, u_.data(), nullptr);
    model_->setPoint(t, x, u_.data());
}

void ModelSystem::updateKernel()
{
    kernel_ = {};
    if (!direct() || (!u_.empty() && !held_.lines()))
        return;
    kernel_.withParameters = model_->sensitivityFunction(true);
    kernel_.stateOnly = model_->sensitivityFunction(false);
    kernel_.variables = model_->variables();
    if (u_.empty())
        return;
    kernel_.inputCount = u_.size();
    kernel_.inputs = model_->inputVariables();
    kernel_.inputValue = held_.value();
    kernel_.inputSlope = held_.slope();
    kernel_.inputAt = held_.at();
}

void ModelSystem::rhs(double t, const double* x, double* f)
{
    if (direct()) {
        time_ = t;
        setInputsAt(t);
        model_->rhs(t, x, f);
        return;
    }
    prepare(t, x, false);
    model_->rhs(f);
    if (!G_.empty())
        addBaumgarte(f, nullptr, nullptr, nullptr, nullptr, nullptr);
}

void ModelSystem::jacobian(double t, const double* x, double* J, double* dfdt)
{
    prepare(t, x, true);
    inputValues(t, u_.data(), du_.data());
    model_->stateJacobian(J);
    addSlidingTerms(J, nullptr);
    model_->timeInputJacobian(timeInput_.data());
    const std::size_t n = model_->stateCount();
    for (std::size_t i = 0; i < n; ++i) {
        double d = timeInput_[i];
        for (std::size_t r = 0; r < du_.size(); ++r)
            d += timeInput_[(1 + r) * n + i] * du_[r];
        dfdt[i] = d;
    }
    if (!G_.empty())
        addBaumgarte(nullptr, J, nullptr, dfdt, nullptr, nullptr);
}

void ModelSystem::rhsAndStateJacobian(double t, const double* x, double* f, double* J)
{
    if (direct()) {
        time_ = t;
        setInputsAt(t);
        model_->rhsAndStateJacobian(t, x, f, J);
        return;
    }
    prepare(t, x, true);
    model_->rhsAndStateJacobian(f, J);
    addSlidingTerms(J, nullptr);
    if (!G_.empty())
        addBaumgarte(f, J, nullptr, nullptr, nullptr, nullptr);
}

void ModelSystem::rhsAndJacobianValues(double t, const double* x, double* f, double* stateValues,
                                       double* parameterValues)
{
    prepare(t, x, true);
    if (!parameterValues) {
        parameterScratch_.resize(parameterPattern_.size());
        parameterValues = parameterScratch_.data();
    }
    model_->rhsAndJacobianValues(f, stateValues, parameterValues);
    addSlidingTermsToValues(stateValues, parameterValues);
    if (!G_.empty())
        addBaumgarte(f, nullptr, nullptr, nullptr, stateValues, parameterValues);
}

void ModelSystem::rhsAndJacobians(double t, const double* x, double* f, double* J, double* Jp)
{
    if (direct()) {
        time_ = t;
        setInputsAt(t);
        if (Jp)
            model_->rhsAndJacobians(t, x, f, J, Jp);
        else
            model_->rhsAndStateJacobian(t, x, f, J);
        return;
    }
    prepare(t, x, true);
    if (Jp)
        model_->rhsAndJacobians(f, J, Jp);
    else
        model_->rhsAndStateJacobian(f, J);
    addSlidingTerms(J, Jp);
    if (!G_.empty())
        addBaumgarte(f, J, Jp, nullptr, nullptr, nullptr);
}

bool ModelSystem::sensitivityRhs(double t, const double* x, const double* S, std::size_t columns,
                                 const int* columnOfParameter, bool parameters, double* f, double* dS)
{
    // Sliding modes and Baumgarte's terms add to the Jacobians after the model's own.
    if (!direct() || !model_->native())
        return false;
    if (!kernel_.stateOnly)
        updateKernel();  // the native code came while this system was in use
    time_ = t;
    setInputsAt(t);
    return model_->sensitivityRhs(t, x, S, columns, columnOfParameter, parameters, f, dS);
}

void ModelSystem::requireSecondDerivatives(std::string_view user) const
{
    eval::requireSecondDerivatives(model_->source(), user);
}

// On a sliding surface the exact Jacobian would also need the second derivatives of the solved
// modes; without them a Rosenbrock step there is of lower order, which its error control sees.
void ModelSystem::secondDerivatives(double t, const double* x, SecondDerivatives& out)
{
    requireSecondDerivatives("the Jacobian of the sensitivity equations");
    prepare(t, x, false);
    inputValues(t, u_.data(), du_.data());
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
    for (std::size_t i = 0; i < inputs_->size(); ++i)
        inputs_->kinks(i, t0 + rounding, t1 - rounding, all);
    // One input's samples come sorted: a long record's 10^5 need no sort.
    if (!std::is_sorted(all.begin(), all.end()))
        std::sort(all.begin(), all.end());
    for (double t : all)
        if (kept.empty() || t - kept.back() > rounding)
            kept.push_back(t);
    return kept;
}

bool ModelSystem::continuousAtBreakpoints() const
{
    if (!inputs_)
        return true;
    for (std::size_t i = 0; i < inputs_->size(); ++i)
        if (inputs_->behaviour(i) == Intersample::Hold)
            return false;
    return true;
}

void ModelSystem::beginSegment(double start, double end)
{
    if (inputs_ && inputs_->size() > 0) {
        held_.hold(*inputs_, start, end);
        // The held lines' values may have moved (InputPieces resizes them on the first segment).
        if (kernel_.inputCount > 0 && kernel_.inputValue == held_.value() && kernel_.inputSlope == held_.slope())
            kernel_.inputAt = held_.at();
        else
            updateKernel();
    }
}

void ModelSystem::releaseSegment()
{
    held_.release();
    if (!u_.empty())
        updateKernel();
}

std::string ModelSystem::stateName(std::size_t i) const
{
    return model_->source().stateNames[i];
}

Discontinuities* ModelSystem::discontinuities()
{
    return model_->source().hasDiscontinuities() ? this : nullptr;
}

void ModelSystem::prepare(double t, const double* x, bool derivatives)
{
    setPoint(t, x);
    if (!slidingList_.empty())
        solveSliding(t, derivatives);
}

void ModelSystem::slidingRates(bool derivatives)
{
    const std::size_t ns = model_->switchCount(), n = model_->stateCount(), np = model_->parameterCount();
    lie_.resize(static_cast<Eigen::Index>(ns));
    lieM_.resize(static_cast<Eigen::Index>(ns), static_cast<Eigen::Index>(ns));
    if (derivatives) {
        lieX_.resize(static_cast<Eigen::Index>(ns), static_cast<Eigen::Index>(n));
        lieP_.resize(static_cast<Eigen::Index>(ns), static_cast<Eigen::Index>(np));
        model_->lieDerivatives(lie_.data(), lieX_.data(), lieP_.data(), lieM_.data());
    } else {
        model_->lieRates(lie_.data(), lieM_.data());
    }
    rate_ = lie_;
    if (switchesOnInputs_) {
        gradTU_.resize(static_cast<Eigen::Index>(ns), static_cast<Eigen::Index>(1 + du_.size()));
        model_->switchingGradients(nullptr, nullptr, nullptr, gradTU_.data());
        for (std::size_t r = 0; r < du_.size(); ++r)
            rate_ += gradTU_.col(static_cast<Eigen::Index>(1 + r)) * du_[r];
    }
}

// Utkin's equivalent control, which for a right-hand side affine in the mode is Filippov's convex
// combination (Filippov 1988, sec. 2.4): the sliding modes make the surfaces' rates zero. One
// Newton step from the last modes is exact for an affine dependence (sign, abs, min, max written
// once in f); the derivatives of the solved modes follow by the implicit function theorem.
void ModelSystem::solveSliding(double t, bool derivatives)
{
    inputValues(t, u_.data(), du_.data());
    const auto k = static_cast<Eigen::Index>(slidingList_.size());
    Eigen::MatrixXd A(k, k);
    Eigen::VectorXd r(k);
    slidingRates(false);
    for (Eigen::Index a = 0; a < k; ++a) {
        r(a) = rate_(static_cast<Eigen::Index>(slidingList_[static_cast<std::size_t>(a)]));
        for (Eigen::Index b = 0; b < k; ++b)
            A(a, b) = lieM_(static_cast<Eigen::Index>(slidingList_[static_cast<std::size_t>(a)]),
                            static_cast<Eigen::Index>(slidingList_[static_cast<std::size_t>(b)]));
    }
    const auto lu = A.fullPivLu();
    if (!lu.isInvertible()) {
        // The modes do not move the rates: keep the last ones, which then depend on nothing (the
        // Jacobian terms of the sliding modes are zero, not those of an earlier point).
        const auto n = static_cast<Eigen::Index>(model_->stateCount());
        modeJacobian_.resize(n, 0);
        slidingX_.resize(0, n);
        slidingP_.resize(0, static_cast<Eigen::Index>(model_->parameterCount()));
        return;
    }
    const Eigen::VectorXd step = lu.solve(-r);
    for (Eigen::Index a = 0; a < k; ++a)
        modes_[slidingList_[static_cast<std::size_t>(a)]] += step(a);
    model_->holdModes(modes_.data());
    if (!derivatives)
        return;
    slidingRates(true);
    Eigen::MatrixXd rowsX(k, lieX_.cols()), rowsP(k, lieP_.cols());
    for (Eigen::Index a = 0; a < k; ++a) {
        rowsX.row(a) = lieX_.row(static_cast<Eigen::Index>(slidingList_[static_cast<std::size_t>(a)]));
        if (rowsP.cols() > 0)  // a k x 0 matrix has no storage: its row a would offset a null pointer
            rowsP.row(a) = lieP_.row(static_cast<Eigen::Index>(slidingList_[static_cast<std::size_t>(a)]));
    }
    slidingX_ = -lu.solve(rowsX);
    // Eigen's solve with an empty right-hand side reads through a null pointer (a model without parameters).
    slidingP_ = rowsP.cols() > 0 ? Eigen::MatrixXd(-lu.solve(rowsP)) : Eigen::MatrixXd(k, 0);
    const std::size_t n = model_->stateCount(), ns = model_->switchCount();
    Eigen::MatrixXd all(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(ns));
    model_->rhsModeJacobian(all.data());
    modeJacobian_.resize(static_cast<Eigen::Index>(n), k);
    for (Eigen::Index a = 0; a < k; ++a)
        modeJacobian_.col(a) = all.col(static_cast<Eigen::Index>(slidingList_[static_cast<std::size_t>(a)]));
}

void ModelSystem::addSlidingTerms(double* J, double* Jp)
{
    if (slidingList_.empty() || modeJacobian_.cols() == 0)
        return;
    const auto n = static_cast<Eigen::Index>(model_->stateCount());
    Eigen::Map<Eigen::MatrixXd>(J, n, n) += modeJacobian_ * slidingX_;
    if (Jp && model_->parameterCount() > 0)
        Eigen::Map<Eigen::MatrixXd>(Jp, n, static_cast<Eigen::Index>(model_->parameterCount())) +=
            modeJacobian_ * slidingP_;
}

void ModelSystem::addSlidingTermsToValues(double* stateValues, double* parameterValues)
{
    if (slidingList_.empty() || modeJacobian_.cols() == 0)
        return;
    const std::size_t np = model_->parameterCount();
    auto indexOf = [](const JacobianPattern& pattern, std::vector<int>& index) {
        if (!index.empty())
            return;
        index.assign(pattern.rows * pattern.columns, -1);
        for (std::size_t k = 0; k < pattern.size(); ++k)
            index[pattern.column[k] * pattern.rows + pattern.row[k]] = static_cast<int>(k);
    };
    auto add = [&](const Eigen::MatrixXd& term, const JacobianPattern& pattern, std::vector<int>& index,
                   double* values) {
        indexOf(pattern, index);
        for (Eigen::Index j = 0; j < term.cols(); ++j)
            for (Eigen::Index i = 0; i < term.rows(); ++i) {
                if (term(i, j) == 0.0)
                    continue;
                const int k = index[static_cast<std::size_t>(j) * pattern.rows + static_cast<std::size_t>(i)];
                if (k < 0)
                    throw IntegrationError(IntegrationError::Reason::SolverFailure, time_,
                                           "sliding on the surface of " + switchName(slidingList_.front()) +
                                               " couples states this integrator's sparse Jacobian leaves out; "
                                               "choose dopri5 or rosenbrock4");
                values[k] += term(i, j);
            }
    };
    add(modeJacobian_ * slidingX_, statePattern_, stateEntry_, stateValues);
    if (parameterValues && np > 0)
        add(modeJacobian_ * slidingP_, parameterPattern_, parameterEntry_, parameterValues);
}

void ModelSystem::holdModes(const std::vector<double>& modes, const std::vector<char>& sliding)
{
    modes_ = modes;
    sliding_ = sliding;
    slidingList_.clear();
    for (std::size_t i = 0; i < sliding_.size(); ++i)
        if (sliding_[i])
            slidingList_.push_back(i);
    model_->holdModes(modes_.data());
    updateKernel();
}

void ModelSystem::releaseModes()
{
    slidingList_.clear();
    model_->releaseModes();
    updateKernel();
}

void ModelSystem::switchingFunctions(double t, const double* x, double* g)
{
    prepare(t, x, false);
    model_->switchingFunctions(g);
}

void ModelSystem::currentModes(double t, const double* x, double* m)
{
    prepare(t, x, false);
    std::copy(modes_.begin(), modes_.end(), m);
}

void ModelSystem::rates(double t, const double* x, const std::vector<double>& m, double* a)
{
    setPoint(t, x);
    inputValues(t, u_.data(), du_.data());
    model_->holdModes(m.data());
    slidingRates(false);
    std::copy(rate_.data(), rate_.data() + rate_.size(), a);
    model_->holdModes(modes_.data());
    updateKernel();
}

void ModelSystem::gradientRow(std::size_t i, std::size_t rows, double /*t*/, const std::vector<double>& gx,
                              const std::vector<double>& gp, const std::vector<double>& gtu, double* outX, double* outP,
                              double& outT) const
{
    const std::size_t n = model_->stateCount(), np = model_->parameterCount();
    for (std::size_t j = 0; j < n; ++j)
        outX[j] = gx[j * rows + i];
    for (std::size_t l = 0; l < np; ++l)
        outP[l] = gp[l * rows + i];
    outT = gtu[i];
    for (std::size_t r = 0; r < du_.size(); ++r)
        outT += gtu[(1 + r) * rows + i] * du_[r];
}

double ModelSystem::switchingGradient(double t, const double* x, std::size_t i, double* gx, double* gp)
{
    prepare(t, x, false);
    inputValues(t, u_.data(), du_.data());
    const std::size_t ns = model_->switchCount();
    gx_.resize(ns * model_->stateCount());
    gp_.resize(ns * model_->parameterCount());
    gtu_.resize(ns * (1 + model_->inputCount()));
    model_->switchingGradients(nullptr, gx_.data(), gp_.data(), gtu_.data());
    double gt = 0.0;
    gradientRow(i, ns, t, gx_, gp_, gtu_, gx, gp, gt);
    return gt;
}

void ModelSystem::eventConditions(double t, const double* x, double* g)
{
    prepare(t, x, false);
    model_->eventConditions(g);
}

double ModelSystem::eventGradient(double t, const double* x, std::size_t k, double* gx, double* gp)
{
    prepare(t, x, false);
    inputValues(t, u_.data(), du_.data());
    gx_.resize(model_->stateCount());
    gp_.resize(model_->parameterCount());
    gtu_.resize(1 + model_->inputCount());
    double g = 0.0;
    model_->eventCondition(k, &g, gx_.data(), gp_.data(), gtu_.data());
    double gt = 0.0;
    gradientRow(0, 1, t, gx_, gp_, gtu_, gx, gp, gt);
    return gt;
}

void ModelSystem::reset(double t, const double* x, std::size_t k, double* next, double* hx, double* hp, double* ht)
{
    prepare(t, x, false);
    inputValues(t, u_.data(), du_.data());
    const auto& assigned = model_->source().events[k].states;
    const std::size_t n = model_->stateCount(), np = model_->parameterCount(), a = assigned.size();
    h_.resize(a);
    hx_.resize(a * n);
    hp_.resize(a * np);
    htu_.resize(a * (1 + model_->inputCount()));
    model_->resetValues(k, h_.data(), hx_.data(), hp_.data(), htu_.data());
    std::copy(x, x + n, next);
    std::fill(hx, hx + n * n, 0.0);
    std::fill(hp, hp + n * np, 0.0);
    std::fill(ht, ht + n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        hx[i * n + i] = 1.0;
    for (std::size_t r = 0; r < a; ++r) {
        const std::size_t row = assigned[r];
        next[row] = h_[r];
        for (std::size_t j = 0; j < n; ++j)
            hx[j * n + row] = hx_[j * a + r];
        for (std::size_t l = 0; l < np; ++l)
            hp[l * n + row] = hp_[l * a + r];
        double dt = htu_[r];
        for (std::size_t q = 0; q < du_.size(); ++q)
            dt += htu_[(1 + q) * a + r] * du_[q];
        ht[row] = dt;
    }
}

std::string ModelSystem::switchName(std::size_t i) const
{
    return model_->source().switches.written[i];
}

std::string ModelSystem::eventName(std::size_t k) const
{
    const auto& e = model_->source().events[k];
    return "the event '" + e.text + "'" + (e.line > 0 ? " (line " + std::to_string(e.line) + ")" : std::string());
}

}  // namespace sysid::integrate
