#include "engine/estimate/ResponseFitProblem.h"

#include "engine/estimate/PriorRows.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace sysid::estimate {

namespace {

// jacobian(firstRow[j] + s, columns[c]) = -sqrt(w_j) dy_j/dp_c at sample s, as the samples come
// (a long record then holds no matrix per sample). They are collected in blocks of samples so that
// each write fills whole cache lines of a Jacobian column: sample by sample, every entry landed on
// its own page (a column of 200 000 rows spans 1.6 MB), and the copy took a sixth of the PDE
// benchmark's fit.
class JacobianRows {
public:
    JacobianRows(const std::vector<Eigen::Index>& firstRow, const std::vector<double>& sqrtWeights,
                 const std::vector<std::size_t>& columns, Eigen::MatrixXd& jacobian) :
        firstRow_(firstRow), sqrtWeights_(sqrtWeights), columns_(columns), jacobian_(jacobian)
    {
        for (std::size_t j = 0; j < firstRow.size(); ++j)
            if (firstRow[j] >= 0)
                measured_.push_back(j);
        buffer_.resize(kBlock * measured_.size() * columns.size());
    }
    JacobianRows(const JacobianRows&) = delete;
    JacobianRows& operator=(const JacobianRows&) = delete;
    ~JacobianRows() { flush(); }

    void add(std::size_t s, const Eigen::MatrixXd& sensitivity)
    {
        if (count_ == kBlock || (count_ > 0 && s != first_ + count_))
            flush();
        if (count_ == 0)
            first_ = s;
        double* slot = buffer_.data() + count_;
        for (std::size_t c = 0; c < columns_.size(); ++c)
            for (const std::size_t j : measured_) {
                *slot = sensitivity(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(c));
                slot += kBlock;
            }
        ++count_;
    }
    void flush()
    {
        const double* slot = buffer_.data();
        for (std::size_t c = 0; c < columns_.size(); ++c) {
            double* column = jacobian_.col(static_cast<Eigen::Index>(columns_[c])).data();
            for (const std::size_t j : measured_) {
                const double w = -sqrtWeights_[j];
                double* target = column + firstRow_[j] + static_cast<Eigen::Index>(first_);
                for (std::size_t i = 0; i < count_; ++i)
                    target[i] = w * slot[i];
                slot += kBlock;
            }
        }
        count_ = 0;
    }

private:
    static constexpr std::size_t kBlock = 16;
    const std::vector<Eigen::Index>& firstRow_;
    const std::vector<double>& sqrtWeights_;
    const std::vector<std::size_t>& columns_;
    Eigen::MatrixXd& jacobian_;
    std::vector<std::size_t> measured_;
    std::vector<double> buffer_;  // per column, per measured output: kBlock samples
    std::size_t first_ = 0, count_ = 0;
};

}  // namespace

ResponseFitProblem::ResponseFitProblem(std::shared_ptr<const eval::CompiledModelSource> model,
                                       const ParameterLayout& layout, const std::vector<Experiment>& experiments,
                                       const std::vector<double>& weights, std::vector<std::optional<Prior>> priors,
                                       const integrate::IntegratorSettings& integrator) :
    model_(std::move(model)),
    layout_(layout), experiments_(experiments), integrator_(integrator), priors_(std::move(priors)),
    theta_(layout.initial())
{
    for (double w : weights)
        sqrtWeights_.push_back(std::sqrt(w));
    for (const auto& e : experiments_)
        for (std::size_t j = 0; j < e.outputMeasured.size(); ++j)
            if (e.outputMeasured[j] && sqrtWeights_[j] > 0)
                dataRows_ += e.times.size();
    priorRows_ = priorRowCount(priors_);
    outputs_.resize(experiments_.size());
}

bool ResponseFitProblem::formsNormalEquations() const
{
    if (estimateNoise_ || normalForm_ == NormalForm::Never)
        return false;
    return normalForm_ == NormalForm::Always ||
        static_cast<double>(dataRows_ + priorRows_) * static_cast<double>(layout_.size()) >= kNormalFormEntries;
}

bool ResponseFitProblem::evaluate(const Eigen::VectorXd& step, Linearization& out, std::string& failure,
                                  std::stop_token stop)
{
    pendingTheta_ = theta_ + step;
    const auto p = static_cast<Eigen::Index>(layout_.size());
    out.residuals.resize(static_cast<Eigen::Index>(dataRows_ + priorRows_));
    out.normalForm = formsNormalEquations();
    if (out.normalForm) {
        out.jacobian.resize(0, 0);
        accumulator_.reset(p);
    } else {
        // Kept, not zeroed, where every entry is written below: zeroing 320 MB (200 000 rows, 200
        // parameters) costs as much as filling it.
        out.jacobian.resize(static_cast<Eigen::Index>(dataRows_ + priorRows_), p);
        if (p > 0)  // with nothing estimated the matrix has no storage to take rows of
            out.jacobian.bottomRows(static_cast<Eigen::Index>(priorRows_)).setZero();
    }
    pendingOutputs_.resize(experiments_.size());
    // Maximum likelihood: where each output's rows are, to weight them once their variance is known.
    struct Block {
        Eigen::Index first, rows;
        std::size_t output;
    };
    std::vector<Block> blocks;
    pendingSquares_.assign(estimateNoise_ ? sqrtWeights_.size() : 0, OutputSquares{});
    Eigen::Index row = 0;
    for (std::size_t e = 0; e < experiments_.size(); ++e) {
        const Experiment& ex = experiments_[e];
        model_.setParameters(layout_.modelValues(pendingTheta_, e));
        // Row of output j at sample s: firstRow[j] + s.
        std::vector<Eigen::Index> firstRow(ex.outputMeasured.size(), -1);
        // The normal form: the measured outputs, their factors -sqrt(w_j) in J and each sample's residuals.
        std::vector<Eigen::Index> measured;
        std::vector<double> factors, sampleResiduals;
        Eigen::Index next = row;
        for (std::size_t j = 0; j < ex.outputMeasured.size(); ++j) {
            if (!ex.outputMeasured[j] || sqrtWeights_[j] == 0)
                continue;
            firstRow[j] = next;
            next += static_cast<Eigen::Index>(ex.times.size());
            measured.push_back(static_cast<Eigen::Index>(j));
            factors.push_back(-sqrtWeights_[j]);
        }
        sampleResiduals.resize(measured.size());
        const auto& columns = layout_.unknownsOf(e);
        // Residuals as below, J's rows of the sample -sqrt(w_j) dy_j/dp.
        const integrate::OutputSensitivitySink toNormal = [&](std::size_t s, const double* y,
                                                              const Eigen::MatrixXd& sensitivity) {
            const auto ss = static_cast<Eigen::Index>(s);
            for (std::size_t i = 0; i < measured.size(); ++i) {
                const Eigen::Index j = measured[i];
                sampleResiduals[i] = sqrtWeights_[static_cast<std::size_t>(j)] * (ex.measured(ss, j) - y[j]);
            }
            accumulator_.addRows(sensitivity, measured, factors, sampleResiduals.data());
        };
        if (out.normalForm)
            accumulator_.beginExperiment(columns);
        const std::size_t rowsBefore = accumulator_.rows();
        std::optional<JacobianRows> jacobianRows;
        if (!out.normalForm)
            jacobianRows.emplace(firstRow, sqrtWeights_, columns, out.jacobian);
        const integrate::OutputSensitivitySink toJacobian = [&](std::size_t s, const double*,
                                                                const Eigen::MatrixXd& sensitivity) {
            jacobianRows->add(s, sensitivity);
        };
        Response response;
        if (!respond(e, response, out.normalForm ? &toNormal : &toJacobian, failure, stop))
            return false;
        const Eigen::Index experimentRow = row;
        for (std::size_t j = 0; j < ex.outputMeasured.size(); ++j) {
            if (firstRow[j] < 0)
                continue;
            const auto jj = static_cast<Eigen::Index>(j);
            for (std::size_t s = 0; s < ex.times.size(); ++s, ++row) {
                const auto ss = static_cast<Eigen::Index>(s);
                out.residuals(row) = sqrtWeights_[j] * (ex.measured(ss, jj) - response.outputs(ss, jj));
            }
            if (estimateNoise_) {
                const auto samples = static_cast<Eigen::Index>(ex.times.size());
                blocks.push_back({row - samples, samples, j});
                pendingSquares_[j].squares += out.residuals.segment(row - samples, samples).squaredNorm();
                pendingSquares_[j].samples += ex.times.size();
            }
        }
        if (out.normalForm) {
            // A response that kept its sensitivities (not streamed) goes through the same sums.
            for (std::size_t s = 0; s < response.sensitivity.size(); ++s) {
                const Eigen::VectorXd y = response.outputs.row(static_cast<Eigen::Index>(s)).transpose();
                toNormal(s, y.data(), response.sensitivity[s]);
            }
            if (!columns.empty() && accumulator_.rows() - rowsBefore != static_cast<std::size_t>(row - experimentRow))
                throw std::logic_error("the normal equations missed rows of the Jacobian");
            accumulator_.endExperiment();
            pendingOutputs_[e] = std::move(response.outputs);
            continue;
        }
        std::vector<bool> estimatedHere(static_cast<std::size_t>(p), false);
        for (std::size_t c : columns)
            estimatedHere[c] = true;
        for (Eigen::Index c = 0; c < p; ++c)
            if (!estimatedHere[static_cast<std::size_t>(c)])
                out.jacobian.col(c).segment(experimentRow, row - experimentRow).setZero();
        // A response that kept its sensitivities (not streamed) goes the same way.
        for (std::size_t s = 0; s < response.sensitivity.size(); ++s)
            jacobianRows->add(s, response.sensitivity[s]);
        jacobianRows->flush();
        pendingOutputs_[e] = std::move(response.outputs);
    }
    if (out.normalForm) {
        out.dataNormalMatrix = accumulator_.matrix();
        out.normalMatrix = accumulator_.matrix();
        out.normalGradient = accumulator_.gradient();
    }
    out.gap = 0.0;
    out.likelihood = estimateNoise_;
    if (!estimateNoise_)
        return finishWithPriors(priors_, pendingTheta_, row, out, failure);
    std::vector<Eigen::VectorXd> gradients(pendingSquares_.size(), Eigen::VectorXd::Zero(p));
    for (const Block& b : blocks) {
        const double sigma = std::sqrt(estimatedVariance(pendingSquares_[b.output], floors_[b.output]));
        out.residuals.segment(b.first, b.rows) /= sigma;
        if (p == 0)  // nothing estimated (a profile holding the only unknown): as above
            continue;
        out.jacobian.middleRows(b.first, b.rows) /= sigma;
        gradients[b.output].noalias() +=
            out.jacobian.middleRows(b.first, b.rows).transpose() * out.residuals.segment(b.first, b.rows);
    }
    // The curvature of sum_j n_j/2 ln M_jj that the frozen weights leave out (Linearization::curvature); an
    // output whose variance is held at its floor has -ln L linear in M_jj, so none.
    out.curvature = Eigen::MatrixXd::Zero(p, p);
    for (std::size_t j = 0; j < gradients.size(); ++j)
        if (pendingSquares_[j].samples > 0 &&
            pendingSquares_[j].squares / static_cast<double>(pendingSquares_[j].samples) > floors_[j])
            out.curvature.noalias() +=
                (2.0 / static_cast<double>(pendingSquares_[j].samples)) * gradients[j] * gradients[j].transpose();
    if (!finishWithPriors(priors_, pendingTheta_, row, out, failure))
        return false;
    out.merit = negativeLogLikelihood(pendingSquares_, floors_) + priorCost(priors_, pendingTheta_);
    if (!std::isfinite(out.merit)) {
        failure = "the likelihood is not finite";
        return false;
    }
    return true;
}

void ResponseFitProblem::estimateNoiseVariances(std::vector<double> floors)
{
    estimateNoise_ = true;
    floors_ = std::move(floors);
}

void ResponseFitProblem::accept()
{
    theta_ = pendingTheta_;
    outputs_ = pendingOutputs_;
    squares_ = pendingSquares_;
}

}  // namespace sysid::estimate
