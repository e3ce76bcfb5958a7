#include "engine/integrate/SparseImplicitStepper.h"

#include "engine/data/Text.h"
#include "engine/integrate/Constraints.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/integrate/IterationMatrix.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace sysid::integrate {

namespace {

// ROS34PW2: Rang & Angermann, "New Rosenbrock W-methods of order 3 for partial differential
// algebraic equations of index 1", BIT 45 (2005) 761-787, Table 4.1: four stages, order 3 with
// (also for index-1 DAEs M z' = F(z) with M = diag(I, 0), each stage solving (M - gamma h J) k = ...;
// Hairer & Wanner, Solving ODEs II, sec. VI.4),
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

using SparseMatrix = IterationMatrix::Matrix;
// [x, S] with rows contiguous: J * S then runs as vectorised row updates S.row(i) += v S.row(j)
// (addRowProduct) instead of scalar scattered ones.
using Augmented = IterationMatrix::RowBlock;
// Rows per tile of a sample (interpolate): a 64-byte cache line of each column of the driver's layout.
constexpr Eigen::Index kSampleTile = 8;

// The rows of df/dx (its pattern is fixed): row i is entries start[i] .. start[i + 1] of (column,
// position in the matrix's values), by increasing column.
struct RowIndex {
    std::vector<Eigen::Index> start, column, position;

    explicit RowIndex(const SparseMatrix& J)
    {
        start.assign(static_cast<std::size_t>(J.rows()) + 1, 0);
        for (Eigen::Index j = 0; j < J.outerSize(); ++j)
            for (Eigen::Index p = J.outerIndexPtr()[j]; p < J.outerIndexPtr()[j + 1]; ++p)
                ++start[static_cast<std::size_t>(J.innerIndexPtr()[p]) + 1];
        for (std::size_t i = 0; i + 1 < start.size(); ++i)
            start[i + 1] += start[i];
        column.resize(static_cast<std::size_t>(J.nonZeros()));
        position.resize(column.size());
        std::vector<Eigen::Index> next(start.begin(), start.end() - 1);
        for (Eigen::Index j = 0; j < J.outerSize(); ++j)
            for (Eigen::Index p = J.outerIndexPtr()[j]; p < J.outerIndexPtr()[j + 1]; ++p) {
                const auto k = static_cast<std::size_t>(next[static_cast<std::size_t>(J.innerIndexPtr()[p])]++);
                column[k] = j;
                position[k] = p;
            }
    }
};

// Entries [first, width) of `out` (a row) += J's row i times those of `in`'s rows, entry by entry in
// increasing column: for each entry of out the additions of a column-by-column product
// out.row(r) += J(r, j) in.row(j), in its order, so the same bits, while the row stays in the
// first-level cache instead of being read and written once per entry of J.
inline void addRowProduct(const SparseMatrix& J, const RowIndex& rows, Eigen::Index i, const Augmented& in,
                          Eigen::Index first, Eigen::Index width, double* out)
{
    const double* values = J.valuePtr();
    const auto r = static_cast<std::size_t>(i);
    for (Eigen::Index k = rows.start[r]; k < rows.start[r + 1]; ++k) {
        const double v = values[rows.position[static_cast<std::size_t>(k)]];
        const double* x = in.row(rows.column[static_cast<std::size_t>(k)]).data();
        for (Eigen::Index c = first; c < width; ++c)
            out[c] += v * x[c];
    }
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

class Ros34pw2Stepper final : public Stepper {
public:
    Ros34pw2Stepper(SensitivitySystem& system, const IntegratorSettings& settings) :
        system_(system), settings_(settings), n_(static_cast<Eigen::Index>(system.stateCount())),
        width_(1 + static_cast<Eigen::Index>(system.columnCount())), f_(system.stateCount()),
        shifted_(system.stateCount()), jx_(system.system().statePattern().size()),
        jp_(system.system().parameterPattern().size()), timeDependent_(system.system().dependsOnTime()),
        newton_(system.system().statePattern(),
                system.system().constraints() ? system.system().constraints()->algebraicCount() : 0)
    {
        jacobian_ = newton_.jacobianPattern();
        stageJacobian_ = jacobian_;
        // df/dp's entries by row (in their order within a row) with their sensitivity columns.
        const auto& pattern = system.system().parameterPattern();
        const auto& column = system.parameterEntryColumn();
        parameterStart_.assign(static_cast<std::size_t>(n_) + 1, 0);
        for (std::size_t k = 0; k < column.size(); ++k)
            if (column[k] >= 0)
                ++parameterStart_[pattern.row[k] + 1];
        for (std::size_t i = 0; i + 1 < parameterStart_.size(); ++i)
            parameterStart_[i + 1] += parameterStart_[i];
        parameterEntries_.resize(static_cast<std::size_t>(parameterStart_.back()));
        std::vector<Eigen::Index> next(parameterStart_.begin(), parameterStart_.end() - 1);
        for (std::size_t k = 0; k < column.size(); ++k)
            if (column[k] >= 0)
                parameterEntries_[static_cast<std::size_t>(next[pattern.row[k]]++)] = {1 + column[k], k};
        for (auto& k : stage_)
            k.resize(n_, width_);
        sample_.resize(kSampleTile, width_);
        value_.resize(n_, width_);
        firstStage_.resize(n_, width_);
        previous_.resize(n_, width_);
        previousSlope_.resize(n_, width_);
        combined_.resize(n_, width_);
        rhs_.resize(n_, width_);
        Z_.resize(n_, width_);
        timeDerivative_.setZero(n_);
    }

    bool adaptive() const override { return true; }

    void initialize(const double* z, double t, double h) override
    {
        Z_ = Eigen::Map<const Eigen::MatrixXd>(z, n_, width_);
        t_ = tOld_ = t;
        h_ = h;
        begin(t_);
    }

    void step(double limit, bool) override
    {
        double tried = std::min(h_, limit - t_);
        if (settings_.maxStep > 0)
            tried = std::min(tried, settings_.maxStep);
        std::size_t rejected = 0;
        for (;;) {
            // A step that would leave a sliver before the limit goes all the way to it.
            const bool last = t_ + 1.01 * tried >= limit;
            if (last)
                tried = limit - t_;
            const double error = attempt(t_, tried);
            if (error <= 1.0) {
                previous_.swap(Z_);
                // Swapped, not copied: firstStage_ and combined_ are rewritten whole before they are read.
                previousSlope_.swap(firstStage_);
                Z_.swap(combined_);
                tOld_ = t_;
                t_ = last ? limit : t_ + tried;
                if (correct_) {
                    columns_ = Z_;
                    correct_(t_, columns_.data());
                    Z_ = columns_;
                }
                const double grown = tried * std::clamp(0.9 * std::pow(std::max(error, 1e-10), -1.0 / 3.0), 0.2, 5.0);
                // A step cut short at the limit says nothing against the longer one.
                h_ = last ? std::max(grown, h_) : grown;
                // The slope at the new point starts the next step and closes the interpolant.
                begin(t_);
                ++statistics_.steps;
                return;
            }
            ++statistics_.rejectedSteps;
            tried *= std::isfinite(error) ? std::max(0.2, 0.9 * std::pow(error, -1.0 / 3.0)) : 0.25;
            h_ = tried;
            if (++rejected > 100 || tried < 1e-14 * std::max(1.0, std::abs(t_)))
                throw IntegrationError(IntegrationError::Reason::StepSizeUnderflow, t_,
                                       "integration failed at t = " + data::formatNumber(t_, 10) +
                                           ": no step of size above " + data::formatNumber(tried, 3) +
                                           " meets the tolerances (the step size underflows after " +
                                           std::to_string(rejected) +
                                           " rejected steps); the solution may blow up or have a discontinuity here");
        }
    }

    double time() const override { return t_; }
    double previousTime() const override { return tOld_; }
    const double* state() const override
    {
        columns_ = Z_;
        return columns_.data();
    }
    // Samples inside the step from the cubic Hermite interpolant of both ends' values and slopes,
    // O(h^4) like the local error of the order-3 step (Hairer, Norsett & Wanner, Solving ODEs I,
    // sec. II.6, eq. (6.7)).
    // Formed by rows (vectorised) eight at a time into a tile in the first-level cache, then written
    // into the driver's column layout, where each column's eight entries share a cache line (not
    // through a whole row-major sample: 320 kB per sample more for the 200-node rod with 200
    // sensitivity columns).
    void interpolate(double t, double* z) override
    {
        Eigen::Map<Eigen::MatrixXd> out(z, n_, width_);
        if (t == t_) {
            out = Z_;
            return;
        }
        const double h = t_ - tOld_;
        const double theta = (t - tOld_) / h;
        for (Eigen::Index r = 0; r < n_; r += kSampleTile) {
            const Eigen::Index rows = std::min(kSampleTile, n_ - r);
            const auto p = previous_.middleRows(r, rows);
            const auto x = Z_.middleRows(r, rows);
            sample_.topRows(rows) = (1 - theta) * p + theta * x +
                (theta * (theta - 1)) *
                    ((1 - 2 * theta) * (x - p) + ((theta - 1) * h) * previousSlope_.middleRows(r, rows) +
                     (theta * h) * firstStage_.middleRows(r, rows));
            out.middleRows(r, rows) = sample_.topRows(rows);
        }
    }
    double nextStep() const override { return h_; }

private:
    // Evaluates the augmented right-hand side at (t, Z) times `scale` into F, and df/dx there into J.
    // Row by row in one pass: F's row is formed (the sensitivities from zero, df/dx S, then df/dp)
    // and scaled while it is in cache; every entry gets the operations, in the order, of the passes
    // F = [f, 0]; F += [0, J S]; F += [0, df/dp]; F *= scale.
    void evaluate(double t, const Augmented& Z, Augmented& F, SparseMatrix& J, double scale)
    {
        x_ = Z.col(0);
        system_.system().rhsAndJacobianValues(t, x_.data(), f_.data(), jx_.data(), jp_.empty() ? nullptr : jp_.data());
        ++statistics_.rhsEvaluations;
        ++statistics_.jacobianEvaluations;
        newton_.setJacobian(J, jx_.data());
        for (Eigen::Index i = 0; i < n_; ++i) {
            double* row = F.row(i).data();
            row[0] = f_[static_cast<std::size_t>(i)];
            if (width_ > 1) {
                std::fill(row + 1, row + width_, 0.0);
                addRowProduct(J, rows_, i, Z, 1, width_, row);
                for (Eigen::Index k = parameterStart_[static_cast<std::size_t>(i)];
                     k < parameterStart_[static_cast<std::size_t>(i) + 1]; ++k) {
                    const auto& e = parameterEntries_[static_cast<std::size_t>(k)];
                    row[e.column] += jp_[e.value];
                }
            }
            if (scale != 1.0)
                for (Eigen::Index c = 0; c < width_; ++c)
                    row[c] *= scale;
        }
    }

    // Everything at the start of a step from (t, Z_) that does not depend on its size.
    void begin(double t)
    {
        evaluate(t, Z_, firstStage_, jacobian_, 1.0);
        if (timeDependent_) {
            // df/dt (with the inputs' slopes) by a forward difference: only the state stages
            // use it (Hairer & Wanner, Solving ODEs II, sec. IV.7, eq. (7.4')).
            const double delta = 1e-7 * std::max(1.0, std::abs(t));
            system_.system().rhs(t + delta, x_.data(), shifted_.data());
            ++statistics_.rhsEvaluations;
            for (Eigen::Index i = 0; i < n_; ++i)
                timeDerivative_(i) = (shifted_[static_cast<std::size_t>(i)] - f_[static_cast<std::size_t>(i)]) / delta;
        }
    }

    // One step of size h from the state given to begin(); returns the scaled error norm of the
    // states (infinite when the step cannot be taken) and leaves the new state in combined_.
    double attempt(double t, double h)
    {
        ++statistics_.factorizations;
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
                combine(i, Z_.data(), alphaCoefficient[i], stage_, combined_);
                evaluate(t + alphaSum * h, combined_, value_, stageJacobian_, h);
                double scaled[stages];
                for (int j = 0; j < i; ++j)
                    scaled[j] = h * gammaCoefficient[i][j];
                combine(i, nullptr, scaled, stage_, combined_);
                for (Eigen::Index r = 0; r < n_; ++r)
                    addRowProduct(jacobian_, rows_, r, combined_, 0, width_, value_.row(r).data());
                rhs = &value_;
            }
            if (timeDependent_) {
                double gammaSum = gammaDiagonal;
                for (int j = 0; j < i; ++j)
                    gammaSum += gammaCoefficient[i][j];
                rhs->col(0) += (gammaSum * h * h) * timeDerivative_;
            }
            newton_.solveRows(*rhs, stage_[static_cast<std::size_t>(i)]);
        }
        combine(stages, Z_.data(), weight, stage_, combined_);
        Eigen::VectorXd error = Eigen::VectorXd::Zero(n_);
        for (int i = 0; i < stages; ++i)
            error += (weight[i] - embeddedWeight[i]) * stage_[static_cast<std::size_t>(i)].col(0);
        double sum = 0.0;
        for (Eigen::Index i = 0; i < n_; ++i) {
            const double scale = settings_.absoluteTolerance +
                settings_.relativeTolerance * std::max(std::abs(Z_(i, 0)), std::abs(combined_(i, 0)));
            sum += (error(i) / scale) * (error(i) / scale);
        }
        const double norm = std::sqrt(sum / static_cast<double>(n_));
        return std::isfinite(norm) && combined_.allFinite() ? norm : INFINITY;
    }

    SensitivitySystem& system_;
    const IntegratorSettings settings_;
    Eigen::Index n_, width_;
    std::vector<double> f_, shifted_, jx_, jp_;
    bool timeDependent_;
    IterationMatrix newton_;
    SparseMatrix jacobian_, stageJacobian_;
    RowIndex rows_{newton_.jacobianPattern()};
    struct ParameterEntry {
        Eigen::Index column;  // in the augmented block
        std::size_t value;  // in jp_
    };
    std::vector<Eigen::Index> parameterStart_;
    std::vector<ParameterEntry> parameterEntries_;
    std::array<Augmented, stages> stage_;
    Augmented value_, firstStage_, combined_, rhs_;
    Augmented Z_, previous_, previousSlope_, sample_;
    mutable Eigen::MatrixXd columns_;  // the driver's layout, [x, S_1, ..., S_K] column after column
    Eigen::VectorXd timeDerivative_, x_;
    double t_ = 0.0, tOld_ = 0.0, h_ = 0.0;
};

}  // namespace

std::unique_ptr<Stepper> makeSparseImplicitStepper(SensitivitySystem& system, const IntegratorSettings& settings)
{
    return std::make_unique<Ros34pw2Stepper>(system, settings);
}

}  // namespace sysid::integrate
