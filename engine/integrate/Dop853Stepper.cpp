#include "engine/integrate/Dop853Stepper.h"

#include "engine/integrate/ControlledStep.h"
#include "engine/integrate/Dop853Tableau.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace sysid::integrate {

namespace {

using State = std::vector<double>;

// The step-size control of dop853.f with its defaults: h_new = h / clamp(err^(1/8) / 0.9, 1/6,
// 1/0.333) (no PI part, beta = 0), no increase on the step after a rejection.
constexpr double kSafety = 0.9;
constexpr double kSmallestFactor = 0.333;
constexpr double kLargestFactor = 6.0;

class Dop853Stepper final : public Stepper {
public:
    Dop853Stepper(SensitivitySystem& system, const IntegratorSettings& settings) :
        system_(system), relativeTolerance_(settings.relativeTolerance), absoluteTolerance_(settings.absoluteTolerance),
        maxStep_(std::max(settings.maxStep, 0.0)), size_(system.size()),
        controlled_(settings.sensitivityErrorControl == SensitivityErrorControl::Exclude ? system.stateCount() : size_)
    {
        for (auto* v : {&x_, &xOld_, &xNew_, &stage_})
            v->assign(size_, 0.0);
        for (auto& k : k_)
            k.assign(size_, 0.0);
        for (auto& r : r_)
            r.assign(size_, 0.0);
    }

    bool adaptive() const override { return true; }

    void initialize(const double* z, double t, double h) override
    {
        std::copy(z, z + size_, x_.begin());
        t_ = tOld_ = t;
        dt_ = h;
        derivative_ = Derivative::Unknown;
        rejected_ = false;
        denseReady_ = false;
    }

    bool continueAcross(double h) override
    {
        tOld_ = t_;
        dt_ = h;
        rejected_ = false;
        denseReady_ = false;
        return true;
    }

    void step(double limit, bool stopAtLimit) override
    {
        if (derivative_ == Derivative::Unknown)
            evaluate(t_, x_, k_[0]);
        else if (derivative_ == Derivative::AtStepEnd)
            k_[0].swap(k_[12]);  // first same as last
        derivative_ = Derivative::AtStepStart;
        tOld_ = t_;
        takeControlledStep(
            t_, dt_, limit, stopAtLimit, statistics_, [this](double& t, double& dt) { return tryStep(t, dt); },
            [this] { return statistics_.rhsEvaluations; },
            [this](double) {
                xOld_.swap(x_);
                x_.swap(xNew_);
                derivative_ = Derivative::AtStepEnd;
                denseReady_ = false;
            });
    }

    double time() const override { return t_; }
    double previousTime() const override { return tOld_; }
    const double* state() const override { return x_.data(); }

    void interpolate(double t, double* z) override
    {
        if (t == t_ || derivative_ != Derivative::AtStepEnd) {
            std::copy(x_.begin(), x_.end(), z);
            return;
        }
        if (t == tOld_) {
            std::copy(xOld_.begin(), xOld_.end(), z);
            return;
        }
        if (!denseReady_)
            prepareDenseOutput();
        const double s = (t - tOld_) / h_;
        const double s1 = 1.0 - s;
        for (std::size_t i = 0; i < size_; ++i)
            z[i] = xOld_[i] +
                s *
                    (r_[0][i] +
                     s1 *
                         (r_[1][i] +
                          s * (r_[2][i] + s1 * (r_[3][i] + s * (r_[4][i] + s1 * (r_[5][i] + s * r_[6][i]))))));
    }

    double nextStep() const override { return dt_; }

private:
    // Where k_[0] stands: not evaluated since initialize(), at the start of the step about to be
    // taken, or (after an accepted step) in k_[12] at its end.
    enum class Derivative { Unknown, AtStepStart, AtStepEnd };

    void evaluate(double t, const State& z, State& dz)
    {
        ++statistics_.rhsEvaluations;
        system_.rhs(t, z.data(), dz.data());
    }

    // out = base + h sum_{j < count} coefficients[j] k_j
    void combine(const State& base, double h, const double* coefficients, int count, State& out) const
    {
        std::copy(base.begin(), base.end(), out.begin());
        accumulate(h, coefficients, count, out);
    }

    // out += h sum_{j < count} coefficients[j] k_j
    void accumulate(double h, const double* coefficients, int count, State& out) const
    {
        for (int j = 0; j < count; ++j) {
            if (coefficients[j] == 0.0)
                continue;
            const double w = h * coefficients[j];
            const double* k = k_[static_cast<std::size_t>(j)].data();
            for (std::size_t i = 0; i < size_; ++i)
                out[i] += w * k[i];
        }
    }

    // One try of the step dt from (t, x_): the stages, y1 in xNew_, k_[12] = f(t + dt, y1) and
    // Hairer's error norm; on acceptance t advances. dt becomes the step to try next either way.
    bool tryStep(double& t, double& dt)
    {
        const double h = dt;
        for (int s = 1; s < dop853::kStages; ++s) {
            combine(x_, h, dop853::a[s], s, stage_);
            evaluate(t + dop853::c[static_cast<std::size_t>(s)] * h, stage_, k_[static_cast<std::size_t>(s)]);
        }
        combine(x_, h, dop853::a[dop853::kStages], dop853::kStages, xNew_);
        evaluate(t + h, xNew_, k_[12]);

        // err5 and err3 in the RMS norm weighted by atol + rtol max(|y0|, |y1|), combined as
        // err5^2 / sqrt(err5^2 + 0.01 err3^2) (an estimate of order 8 that is not too optimistic).
        double sum5 = 0.0, sum3 = 0.0;
        for (std::size_t i = 0; i < controlled_; ++i) {
            const double scale =
                absoluteTolerance_ + relativeTolerance_ * std::max(std::abs(x_[i]), std::abs(xNew_[i]));
            double e5 = 0.0;
            for (std::size_t j = 0; j < dop853::e5.size(); ++j)
                if (dop853::e5[j] != 0.0)
                    e5 += dop853::e5[j] * k_[j][i];
            const double e3 = (xNew_[i] - x_[i]) / h - dop853::e3Offset[0] * k_[0][i] - dop853::e3Offset[8] * k_[8][i] -
                dop853::e3Offset[11] * k_[11][i];
            sum5 += (e5 / scale) * (e5 / scale);
            sum3 += (e3 / scale) * (e3 / scale);
        }
        double denominator = sum5 + 0.01 * sum3;
        if (!(denominator > 0.0))
            denominator = 1.0;
        const double err = std::abs(h) * sum5 / std::sqrt(static_cast<double>(controlled_) * denominator);

        const double root = std::pow(err, 0.125);
        if (err <= 1.0) {
            const double factor = std::clamp(root / kSafety, 1.0 / kLargestFactor, 1.0 / kSmallestFactor);
            double next = h / factor;
            if (maxStep_ > 0.0)
                next = std::min(next, maxStep_);
            if (rejected_)
                next = std::min(next, h);
            rejected_ = false;
            h_ = h;
            t += h;
            dt = next;
            return true;
        }
        // std::min keeps 1/0.333 when err is NaN (an overflow in a stage): the step shrinks.
        dt = h / std::min(1.0 / kSmallestFactor, root / kSafety);
        rejected_ = true;
        return false;
    }

    // The continuous extension of order 7 of the last step: three more stages, then r_.
    void prepareDenseOutput()
    {
        const double h = h_;
        for (int s = dop853::kStages + 1; s < dop853::kDenseStages; ++s) {
            combine(xOld_, h, dop853::a[s], s, stage_);
            evaluate(tOld_ + dop853::c[static_cast<std::size_t>(s)] * h, stage_, k_[static_cast<std::size_t>(s)]);
        }
        for (std::size_t i = 0; i < size_; ++i) {
            const double difference = x_[i] - xOld_[i];
            r_[0][i] = difference;
            r_[1][i] = h * k_[0][i] - difference;
            r_[2][i] = difference - h * k_[12][i] - r_[1][i];
        }
        for (std::size_t row = 0; row < 4; ++row) {
            std::fill(r_[3 + row].begin(), r_[3 + row].end(), 0.0);
            accumulate(h, dop853::d[row], dop853::kDenseStages, r_[3 + row]);
        }
        denseReady_ = true;
    }

    SensitivitySystem& system_;
    double relativeTolerance_, absoluteTolerance_, maxStep_;
    std::size_t size_;
    std::size_t controlled_;  // the leading components of z in the error norm (sensitivityErrorControl)
    State x_, xOld_, xNew_, stage_;
    std::array<State, dop853::kDenseStages> k_;
    std::array<State, 7> r_;
    double t_ = 0.0, tOld_ = 0.0, dt_ = 0.0;
    double h_ = 0.0;  // the last accepted step
    Derivative derivative_ = Derivative::Unknown;
    bool rejected_ = false;  // the last try was rejected
    bool denseReady_ = false;
};

}  // namespace

std::unique_ptr<Stepper> makeDop853Stepper(SensitivitySystem& system, const IntegratorSettings& settings)
{
    return std::make_unique<Dop853Stepper>(system, settings);
}

}  // namespace sysid::integrate
