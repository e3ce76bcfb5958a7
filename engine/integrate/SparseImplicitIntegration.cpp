#include "engine/integrate/SparseImplicitIntegration.h"

#include "engine/data/Text.h"
#include "engine/integrate/SparseIterationMatrix.h"

#include <Eigen/Sparse>
#include <Eigen/SparseLU>

#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>

namespace sysid::integrate {

namespace {

// ROS34PW2: Rang & Angermann, "New Rosenbrock W-methods of order 3 for partial differential
// algebraic equations of index 1", BIT 45 (2005) 761-787, Table 4.1: four stages, order 3 with
// an embedded order-2 solution, stiffly accurate and L-stable, and a W-method (full order with
// an approximate Jacobian). That last property is what lets the sensitivity block use df/dx
// alone (not the second derivatives coupling it to x), so one factorisation serves every column.
constexpr int stages = 4;
constexpr double gammaDiagonal = 0.4358665215084590;
constexpr double alphaCoefficient[stages][stages] = {
    {0, 0, 0, 0}, {0.87173304301691801, 0, 0, 0}, {0.84457060015369423, -0.11299064236484185, 0, 0}, {0, 0, 1, 0}};
constexpr double gammaCoefficient[stages][stages] = {
    {0, 0, 0, 0},
    {-0.87173304301691801, 0, 0, 0},
    {-0.90338057013044082, 0.054180672388095326, 0, 0},
    {0.24212380706095346, -1.2232505839045147, 0.54526025533510214, 0}};
constexpr double weight[stages] = {0.24212380706095346, -1.2232505839045147, 1.5452602553351020, 0.4358665215084590};
constexpr double embeddedWeight[stages] = {0.37810903145819369, -0.096042292212423178, 0.5, 0.2179332607542295};

using SparseMatrix = Eigen::SparseMatrix<double>;
// [x, S] with rows contiguous: J * S then runs as vectorised row updates S.row(i) += v S.row(j)
// (addProduct) instead of scalar scattered ones.
using Augmented = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// out.rightCols(width) += J * in.rightCols(width), one contiguous row update per nonzero.
void addProduct(const SparseMatrix& J, const Augmented& in, Augmented& out, Eigen::Index width)
{
    const Eigen::Index first = in.cols() - width;
    for (Eigen::Index j = 0; j < J.outerSize(); ++j)
        for (SparseMatrix::InnerIterator it(J, j); it; ++it)
            out.row(it.row()).segment(first, width) += it.value() * in.row(j).segment(first, width);
}

// out = base + sum_j coefficient[j] * term[j] (base 0 when null) in one pass over the
// entries, adding in the order the separate passes out = base; out += c_j term_j would, so the
// sums are bit for bit those of the expression-by-expression form.
template <int Count>
void combine(const double* base, const double* coefficient, const std::array<Augmented, stages>& term, Augmented& out)
{
    const Eigen::Index size = out.size();
    double* target = out.data();
    std::array<const double*, Count> from;
    for (int j = 0; j < Count; ++j)
        from[static_cast<std::size_t>(j)] = term[static_cast<std::size_t>(j)].data();
    for (Eigen::Index k = 0; k < size; ++k) {
        double v = base ? base[k] : 0.0;
        for (int j = 0; j < Count; ++j)
            v += coefficient[j] * from[static_cast<std::size_t>(j)][k];
        target[k] = v;
    }
}

void combine(int count, const double* base, const double* coefficient, const std::array<Augmented, stages>& term,
             Augmented& out)
{
    switch (count) {
    case 1: combine<1>(base, coefficient, term, out); break;
    case 2: combine<2>(base, coefficient, term, out); break;
    case 3: combine<3>(base, coefficient, term, out); break;
    default: combine<4>(base, coefficient, term, out); break;
    }
}

using SparseLu = Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>>;
using ColumnBlock = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic>;

// solution = A^-1 rhs for the factors of `lu`, with rhs and solution stored row by row. The
// operations are those of SparseLU::solve (SparseLU.h, SparseLU_SupernodalMatrix.h: row
// permutation, supernodal L, U, column permutation), each applied to a whole row of right-hand
// sides at once: every entry sees the same arithmetic in the same order, so the result is bit
// for bit SparseLU's, without its column-major copies, its in-place permutations (a cycle
// walk per column) and its strided scalar loops. Multi-column supernodes go through the same
// dense kernels as SparseLU on a column-major copy of their rows.
void solveRows(const SparseLu& lu, const Augmented& rhs, Augmented& work, Augmented& solution, ColumnBlock& block,
               ColumnBlock& product)
{
    const Eigen::Index n = rhs.rows();
    const auto& rowPermutation = lu.rowsPermutation().indices();
    work.resize(n, rhs.cols());
    for (Eigen::Index i = 0; i < n; ++i)
        work.row(rowPermutation(i)) = rhs.row(i);

    const auto lower = lu.matrixL();
    const auto& L = lower.m_mapL;
    using LIterator = std::remove_cvref_t<decltype(L)>::InnerIterator;
    const double* values = L.valuePtr();
    for (Eigen::Index k = 0; k <= L.nsuper(); ++k) {
        const Eigen::Index first = L.supToCol()[k];
        const Eigen::Index columns = L.supToCol()[k + 1] - first;
        if (columns == 1) {
            LIterator it(L, first);
            ++it;  // the unit diagonal
            for (; it; ++it)
                work.row(it.row()) -= work.row(first) * it.value();
            continue;
        }
        const Eigen::Index start = L.rowIndexPtr()[first];
        const Eigen::Index below = L.rowIndexPtr()[first + 1] - start - columns;
        const Eigen::Index luptr = L.colIndexPtr()[first];
        const Eigen::Index lda = L.colIndexPtr()[first + 1] - luptr;
        using Stride = Eigen::OuterStride<>;
        Eigen::Map<const ColumnBlock, 0, Stride> diagonal(values + luptr, columns, columns, Stride(lda));
        block = work.middleRows(first, columns);
        block = diagonal.triangularView<Eigen::UnitLower>().solve(block);
        work.middleRows(first, columns) = block;
        Eigen::Map<const ColumnBlock, 0, Stride> offDiagonal(values + luptr + columns, below, columns, Stride(lda));
        product.noalias() = offDiagonal * block;
        for (Eigen::Index i = 0; i < below; ++i)
            work.row(L.rowIndex()[start + columns + i]) -= product.row(i);
    }

    const auto upper = lu.matrixU();
    const auto& U = upper.m_mapU;
    using UIterator = std::remove_cvref_t<decltype(U)>::InnerIterator;
    for (Eigen::Index k = L.nsuper(); k >= 0; --k) {
        const Eigen::Index first = L.supToCol()[k];
        const Eigen::Index columns = L.supToCol()[k + 1] - first;
        const Eigen::Index luptr = L.colIndexPtr()[first];
        const Eigen::Index lda = L.colIndexPtr()[first + 1] - luptr;
        if (columns == 1) {
            work.row(first) /= values[luptr];
        } else {
            using Stride = Eigen::OuterStride<>;
            Eigen::Map<const ColumnBlock, 0, Stride> diagonal(values + luptr, columns, columns, Stride(lda));
            block = work.middleRows(first, columns);
            block = diagonal.triangularView<Eigen::Upper>().solve(block);
            work.middleRows(first, columns) = block;
        }
        for (Eigen::Index column = first; column < first + columns; ++column)
            for (UIterator it(U, column); it; ++it)
                work.row(it.index()) -= work.row(column) * it.value();
    }

    const auto& columnPermutation = lu.colsPermutation().indices();
    solution.resize(n, rhs.cols());
    for (Eigen::Index i = 0; i < n; ++i)
        solution.row(i) = work.row(columnPermutation(i));
}

class Stepper {
public:
    Stepper(eval::CompiledModel& model, SensitivitySystem& system, const IntegratorSettings& settings) :
        model_(model), system_(system), settings_(settings), n_(static_cast<Eigen::Index>(model.stateCount())),
        width_(1 + static_cast<Eigen::Index>(system.columnCount())), f_(model.stateCount()),
        shifted_(model.stateCount()), jx_(model.source().rhsStateJacobian.entries.size()),
        jp_(model.source().rhsParamJacobian.entries.size()),
        timeDependent_(!model.source().rhsTimeInputJacobian.entries.empty()), newton_(model.source())
    {
        jacobian_ = newton_.jacobianPattern();
        stageJacobian_ = jacobian_;

        for (auto& k : stage_)
            k.resize(n_, width_);
        start_.resize(n_, width_);
        value_.resize(n_, width_);
        firstStage_.resize(n_, width_);
        combined_.resize(n_, width_);
        rhs_.resize(n_, width_);
        timeDerivative_.setZero(n_);
    }

    // Evaluates the augmented right-hand side at (t, Z) into F and df/dx there into J.
    void evaluate(double t, const Augmented& Z, Augmented& F, SparseMatrix& J)
    {
        x_ = Z.col(0);
        system_.setPointFor(t, x_.data());
        model_.rhsAndJacobianValues(f_.data(), jx_.data(), jp_.data());
        F.col(0) = Eigen::Map<const Eigen::VectorXd>(f_.data(), n_);
        newton_.setJacobian(J, jx_);
        if (width_ == 1)
            return;
        F.rightCols(width_ - 1).setZero();
        addProduct(J, Z, F, width_ - 1);
        const auto& entries = model_.source().rhsParamJacobian.entries;
        for (std::size_t k = 0; k < entries.size(); ++k) {
            const int c = system_.columnOfParameter(entries[k].column);
            if (c >= 0)
                F(static_cast<Eigen::Index>(entries[k].row), 1 + c) += jp_[k];
        }
    }

    // Everything at the start of a step that does not depend on its size.
    void begin(double t, const Augmented& Z)
    {
        start_ = Z;
        evaluate(t, Z, firstStage_, jacobian_);
        if (timeDependent_) {
            // df/dt (with the inputs' slopes) by a forward difference: only the state stages
            // use it (Hairer & Wanner, Solving ODEs II, sec. IV.7, eq. (7.4')).
            const double delta = 1e-7 * std::max(1.0, std::abs(t));
            system_.setPointFor(t + delta, x_.data());
            model_.rhs(shifted_.data());
            for (Eigen::Index i = 0; i < n_; ++i)
                timeDerivative_(i) = (shifted_[static_cast<std::size_t>(i)] - f_[static_cast<std::size_t>(i)]) / delta;
        }
    }

    // One step of size h from the state given to begin(); returns the scaled error norm of the
    // states (infinite when the step cannot be taken) and leaves the new state in result().
    double step(double t, double h)
    {
        if (!newton_.factorise(jacobian_, h * gammaDiagonal))
            return INFINITY;
        for (int i = 0; i < stages; ++i) {
            Augmented* rhs = &rhs_;
            if (i == 0) {
                rhs_ = h * firstStage_;
            } else {
                double alphaSum = 0.0;
                for (int j = 0; j < i; ++j)
                    alphaSum += alphaCoefficient[i][j];
                combine(i, start_.data(), alphaCoefficient[i], stage_, combined_);
                evaluate(t + alphaSum * h, combined_, value_, stageJacobian_);
                value_ *= h;
                double scaled[stages];
                for (int j = 0; j < i; ++j)
                    scaled[j] = h * gammaCoefficient[i][j];
                combine(i, nullptr, scaled, stage_, combined_);
                addProduct(jacobian_, combined_, value_, width_);
                rhs = &value_;
            }
            if (timeDependent_) {
                double gammaSum = gammaDiagonal;
                for (int j = 0; j < i; ++j)
                    gammaSum += gammaCoefficient[i][j];
                rhs->col(0) += (gammaSum * h * h) * timeDerivative_;
            }
            solveRows(newton_.lu(), *rhs, solveWork_, stage_[static_cast<std::size_t>(i)], block_, product_);
        }
        combine(stages, start_.data(), weight, stage_, combined_);
        Eigen::VectorXd error = Eigen::VectorXd::Zero(n_);
        for (int i = 0; i < stages; ++i)
            error += (weight[i] - embeddedWeight[i]) * stage_[static_cast<std::size_t>(i)].col(0);
        double sum = 0.0;
        for (Eigen::Index i = 0; i < n_; ++i) {
            const double scale = settings_.absoluteTolerance +
                settings_.relativeTolerance * std::max(std::abs(start_(i, 0)), std::abs(combined_(i, 0)));
            sum += (error(i) / scale) * (error(i) / scale);
        }
        const double norm = std::sqrt(sum / static_cast<double>(n_));
        return std::isfinite(norm) && combined_.allFinite() ? norm : INFINITY;
    }

    const Augmented& result() const { return combined_; }
    const Augmented& slope() const { return firstStage_; }  // F(t, Z) of the last begin()

private:
    eval::CompiledModel& model_;
    SensitivitySystem& system_;
    const IntegratorSettings& settings_;
    Eigen::Index n_, width_;
    std::vector<double> f_, shifted_, jx_, jp_;
    bool timeDependent_;
    SparseIterationMatrix newton_;
    SparseMatrix jacobian_, stageJacobian_;
    std::array<Augmented, stages> stage_;
    Augmented start_, value_, firstStage_, combined_, rhs_;
    Augmented solveWork_;
    ColumnBlock block_, product_;
    Eigen::VectorXd timeDerivative_, x_;
};

}  // namespace

void integrateSparseImplicit(eval::CompiledModel& model, SensitivitySystem& system, std::vector<double>& z,
                             const std::vector<double>& times, const std::vector<double>& boundaries,
                             const IntegratorSettings& settings, double initialStep,
                             const SparseImplicitCallbacks& callbacks)
{
    const auto n = static_cast<Eigen::Index>(model.stateCount());
    const auto width = 1 + static_cast<Eigen::Index>(system.columnCount());
    Stepper stepper(model, system, settings);
    Augmented Z = Eigen::Map<const Eigen::MatrixXd>(z.data(), n, width);
    Augmented previous, previousSlope, sample;
    Eigen::MatrixXd columns = Z, sampled;  // the callbacks' layout, [x, S_1, ..., S_K] column after column
    callbacks.record(0, columns.data());
    std::size_t k = 1;
    double h = initialStep;
    for (std::size_t segment = 0; segment + 1 < boundaries.size() && k < times.size(); ++segment) {
        const double end = boundaries[segment + 1];
        system.holdInputsOnSegment(boundaries[segment], end);
        double t = boundaries[segment];
        stepper.begin(t, Z);
        while (t < end) {
            double tried = std::min(h, end - t);
            if (settings.maxStep > 0)
                tried = std::min(tried, settings.maxStep);
            std::size_t rejected = 0;
            for (;;) {
                // A step that would leave a sliver before the segment's end goes all the way to it.
                const bool last = t + 1.01 * tried >= end;
                if (last)
                    tried = end - t;
                const double error = stepper.step(t, tried);
                if (error <= 1.0) {
                    previous.swap(Z);
                    previousSlope = stepper.slope();
                    Z = stepper.result();
                    const double from = t;
                    t = last ? end : t + tried;
                    columns = Z;
                    callbacks.afterStep(t, columns.data(), tried);
                    const double grown =
                        tried * std::clamp(0.9 * std::pow(std::max(error, 1e-10), -1.0 / 3.0), 0.2, 5.0);
                    // A step cut short at a segment's end says nothing against the longer one.
                    h = last ? std::max(grown, h) : grown;
                    // The slope at the new point starts the next step and closes the interpolant.
                    stepper.begin(t, Z);
                    // Samples inside the step from the cubic Hermite interpolant of both ends'
                    // values and slopes, O(h^4) like the local error of the order-3 step
                    // (Hairer, Norsett & Wanner, Solving ODEs I, sec. II.6, eq. (6.7)).
                    while (k < times.size() && times[k] <= t) {
                        const double theta = (times[k] - from) / tried;
                        sample = (1 - theta) * previous + theta * Z +
                            (theta * (theta - 1)) *
                                ((1 - 2 * theta) * (Z - previous) + ((theta - 1) * tried) * previousSlope +
                                 (theta * tried) * stepper.slope());
                        if (times[k] == t)
                            callbacks.record(k, columns.data());
                        else {
                            sampled = sample;
                            callbacks.record(k, sampled.data());
                        }
                        ++k;
                    }
                    break;
                }
                tried *= std::isfinite(error) ? std::max(0.2, 0.9 * std::pow(error, -1.0 / 3.0)) : 0.25;
                h = tried;
                if (++rejected > 100 || tried < 1e-14 * std::max(1.0, std::abs(t)))
                    callbacks.onFailure(t,
                                        "no step of size above " + data::formatNumber(tried, 3) +
                                            " meets the tolerances (the step size underflows after " +
                                            std::to_string(rejected) +
                                            " rejected steps); the solution may blow up or have a discontinuity here");
            }
        }
    }
    columns = Z;
    z.assign(columns.data(), columns.data() + columns.size());
}

}  // namespace sysid::integrate
