#include "engine/estimate/NormalEquationsAccumulator.h"

#include <algorithm>
#include <stdexcept>

namespace sysid::estimate {

namespace {

// Rows per rank-k update: deep enough for the product kernel's blocking, small enough to stay in
// cache (2048 rows x 200 columns is 3.2 MB).
constexpr Eigen::Index kBlockRows = 2048;

}  // namespace

void NormalEquationsAccumulator::reset(Eigen::Index parameters)
{
    matrix_.setZero(parameters, parameters);
    gradient_.setZero(parameters);
    rows_ = 0;
    used_ = 0;
    columns_.clear();
}

void NormalEquationsAccumulator::beginExperiment(const std::vector<std::size_t>& columns)
{
    columns_ = columns;
    const auto k = static_cast<Eigen::Index>(columns_.size());
    local_.setZero(k, k);
    localGradient_.setZero(k);
    if (block_.cols() != k)
        block_.resize(0, k);
    used_ = 0;
}

void NormalEquationsAccumulator::addRows(const Eigen::MatrixXd& source, const std::vector<Eigen::Index>& sourceRows,
                                         const std::vector<double>& factors, const double* residuals)
{
    const auto k = static_cast<Eigen::Index>(columns_.size());
    if (source.cols() != k || factors.size() != sourceRows.size())
        throw std::logic_error("NormalEquationsAccumulator::addRows: the rows do not match the experiment's columns");
    const auto count = static_cast<Eigen::Index>(sourceRows.size());
    rows_ += sourceRows.size();
    if (k == 0)
        return;
    if (block_.rows() < std::max(kBlockRows, count)) {
        block_.resize(std::max(kBlockRows, count), k);
        blockResiduals_.resize(block_.rows());
    }
    if (used_ + count > block_.rows())
        flush();
    // Column by column: contiguous reads of the source and writes into the buffer.
    for (Eigen::Index c = 0; c < k; ++c) {
        const double* from = source.col(c).data();
        double* to = block_.col(c).data() + used_;
        for (Eigen::Index i = 0; i < count; ++i)
            to[i] = factors[static_cast<std::size_t>(i)] * from[sourceRows[static_cast<std::size_t>(i)]];
    }
    std::copy(residuals, residuals + count, blockResiduals_.data() + used_);
    used_ += count;
}

void NormalEquationsAccumulator::flush()
{
    if (used_ == 0)
        return;
    const auto rows = block_.topRows(used_);
    local_.selfadjointView<Eigen::Lower>().rankUpdate(rows.transpose());
    localGradient_.noalias() += rows.transpose() * blockResiduals_.head(used_);
    used_ = 0;
}

void NormalEquationsAccumulator::endExperiment()
{
    flush();
    const auto k = static_cast<Eigen::Index>(columns_.size());
    for (Eigen::Index b = 0; b < k; ++b) {
        const auto cb = static_cast<Eigen::Index>(columns_[static_cast<std::size_t>(b)]);
        gradient_(cb) += localGradient_(b);
        for (Eigen::Index a = b; a < k; ++a) {
            const auto ca = static_cast<Eigen::Index>(columns_[static_cast<std::size_t>(a)]);
            matrix_(ca, cb) += local_(a, b);
            if (ca != cb)
                matrix_(cb, ca) += local_(a, b);
        }
    }
    columns_.clear();
}

}  // namespace sysid::estimate
