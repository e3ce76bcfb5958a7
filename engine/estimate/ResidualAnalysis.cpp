#include "engine/estimate/ResidualAnalysis.h"

#include "engine/estimate/Distributions.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sysid::estimate {

namespace {

// The two-sided point of the standard normal distribution that |N(0, 1)| exceeds with probability alpha.
double normalPoint(double alpha)
{
    return normalUpperQuantile(alpha / 2.0);
}

const double z99 = normalPoint(1.0 - residualConfidence);

// The most lags of `tested` a sequence without correlation has outside its 99 % bounds, except with
// probability below 1 %: the upper 1 % point of the binomial distribution B(tested, 0.01).
std::size_t lagsOutsideByChance(std::size_t tested)
{
    if (tested == 0)
        return 0;
    const double alpha = 1.0 - residualConfidence;
    std::size_t k = 0;
    while (k < tested && binomialUpperTail(static_cast<double>(k), static_cast<double>(tested), alpha) > alpha)
        ++k;
    return k;
}

// The index of the first lag compared with the bound (an autocorrelation's lag 0 is not).
std::size_t firstTested(const Correlation& c)
{
    return c.values.size() - std::min(c.tested, c.values.size());
}

// The tested lag with the largest |value| (c.values.size() when none is tested).
std::size_t largest(const Correlation& c)
{
    std::size_t best = c.values.size();
    for (std::size_t k = firstTested(c); k < c.values.size(); ++k)
        if (best == c.values.size() || std::abs(c.values[k]) > std::abs(c.values[best]))
            best = k;
    return best;
}

// R(τ) of one record: Σ a(t) b(t - τ) over the samples where both exist.
double laggedProduct(const Eigen::VectorXd& a, const Eigen::VectorXd& b, int lag)
{
    const Eigen::Index n = a.size();
    const Eigen::Index shift = std::abs(lag);
    if (shift >= n)
        return 0.0;
    const Eigen::Index count = n - shift;
    return lag >= 0 ? a.tail(count).dot(b.head(count)) : a.head(count).dot(b.tail(count));
}

Eigen::VectorXd centred(const Eigen::VectorXd& v)
{
    return v.array() - v.mean();
}

void count(Correlation& c, std::size_t firstTested)
{
    c.tested = c.values.size() - firstTested;
    c.outside = 0;
    for (std::size_t k = firstTested; k < c.values.size(); ++k)
        if (std::abs(c.values[k]) > c.bound)
            ++c.outside;
}

// Whether every lag outside the bound is negative: the residual goes with later inputs, as when the
// input is computed from the output (feedback), not with the earlier ones a model must explain.
bool outsideAtNegativeLagsOnly(const Correlation& c)
{
    for (std::size_t k = 0; k < c.values.size(); ++k)
        if (c.lags[k] >= 0 && std::abs(c.values[k]) > c.bound)
            return false;
    return true;
}

std::string lagsText(const Correlation& c)
{
    return std::to_string(c.outside) + " of " + std::to_string(c.tested) + " lags outside";
}

// "…, the largest 0.91 at lag 3": where a failing correlation is strongest.
std::string largestText(const Correlation& c)
{
    const std::size_t k = largest(c);
    if (k == c.values.size())
        return {};
    char value[32];
    std::snprintf(value, sizeof value, "%.2f", c.values[k]);
    return ", the largest " + std::string(value) + " at lag " + std::to_string(c.lags[k]);
}

}  // namespace

bool Correlation::passes() const
{
    if (std::isnan(bound))
        return false;
    if (outside > lagsOutsideByChance(tested))
        return false;
    // Nor one lag further out than any of the tested lags of an uncorrelated sequence reaches, except
    // with probability 1 % (Bonferroni's bound over the lags): a strong correlation at a single lag.
    const std::size_t k = largest(*this);
    if (k == values.size())
        return true;
    const double joint = bound * normalPoint((1.0 - residualConfidence) / static_cast<double>(tested)) / z99;
    return std::abs(values[k]) <= joint;
}

OutputResidualAnalysis analyseResiduals(std::string output, const std::vector<ResidualRecord>& records,
                                        const std::vector<std::string>& inputNames, int maxLag)
{
    OutputResidualAnalysis result;
    result.output = std::move(output);
    std::vector<Eigen::VectorXd> e;
    std::size_t samples = 0;
    for (const ResidualRecord& r : records) {
        if (r.residuals.size() == 0)
            continue;
        if (!r.residuals.allFinite())
            return result;
        e.push_back(centred(r.residuals));
        samples += static_cast<std::size_t>(r.residuals.size());
    }
    if (samples < 2)
        return result;
    const double n = static_cast<double>(samples);
    const int lags = std::min(maxLag, static_cast<int>(samples) - 1);
    const auto covariance = [&](const std::vector<Eigen::VectorXd>& a, const std::vector<Eigen::VectorXd>& b, int lag) {
        double sum = 0.0;
        for (std::size_t r = 0; r < a.size(); ++r)
            sum += laggedProduct(a[r], b[r], lag);
        return sum / n;
    };

    std::vector<double> ree(static_cast<std::size_t>(lags) + 1);
    for (int k = 0; k <= lags; ++k)
        ree[static_cast<std::size_t>(k)] = covariance(e, e, k);
    if (!(ree[0] > 0.0))
        return result;
    result.samples = samples;
    Correlation& ac = result.autocorrelation;
    for (int k = 0; k <= lags; ++k) {
        ac.lags.push_back(k);
        ac.values.push_back(ree[static_cast<std::size_t>(k)] / ree[0]);
    }
    // Ljung (1999) §16.6: √N times the autocorrelation of white residuals is asymptotically N(0, 1).
    ac.bound = z99 / std::sqrt(n);
    count(ac, 1);

    for (std::size_t i = 0; i < inputNames.size(); ++i) {
        std::vector<Eigen::VectorXd> u;
        for (const ResidualRecord& r : records)
            if (r.residuals.size() > 0)
                u.push_back(centred(r.inputs.col(static_cast<Eigen::Index>(i))));
        const double ruu0 = covariance(u, u, 0);
        if (!(ruu0 > 0.0) || !std::isfinite(ruu0))
            continue;  // an input that does not vary explains nothing
        const double scale = std::sqrt(ruu0 * ree[0]);
        InputCorrelation cross{inputNames[i], {}};
        Correlation& c = cross.correlation;
        for (int k = -lags; k <= lags; ++k) {
            c.lags.push_back(k);
            c.values.push_back(covariance(e, u, k) / scale);
        }
        // Ljung (1999) eq. 16.62: √N R_eu(τ) is asymptotically N(0, P), P = Σ_k R_u(k) R_e(k), when the
        // residuals are independent of the input; the sum is taken over |k| <= L.
        double p = ruu0 * ree[0];
        for (int k = 1; k <= lags; ++k)
            p += 2.0 * covariance(u, u, k) * ree[static_cast<std::size_t>(k)];
        if (p > 0.0)
            c.bound = z99 * std::sqrt(p / n) / scale;
        count(c, 0);
        result.inputs.push_back(std::move(cross));
    }
    return result;
}

ResidualAnalysis analyseFitResiduals(const eval::CompiledModelSource& model, const std::vector<Experiment>& experiments,
                                     const std::vector<Eigen::MatrixXd>& outputs, int maxLag)
{
    // Each experiment's inputs at its samples, read once for all outputs.
    std::vector<Eigen::MatrixXd> inputs;
    for (const Experiment& x : experiments) {
        const auto rows = static_cast<Eigen::Index>(x.times.size());
        Eigen::MatrixXd u(rows, static_cast<Eigen::Index>(x.inputs.size()));
        for (std::size_t i = 0; i < x.inputs.size(); ++i) {
            std::size_t hint = 0;
            for (Eigen::Index t = 0; t < rows; ++t)
                u(t, static_cast<Eigen::Index>(i)) = x.inputs.value(i, x.times[static_cast<std::size_t>(t)], hint);
        }
        inputs.push_back(std::move(u));
    }
    ResidualAnalysis analysis;
    for (std::size_t j = 0; j < model.outputCount(); ++j) {
        const auto jj = static_cast<Eigen::Index>(j);
        std::vector<ResidualRecord> records;
        for (std::size_t x = 0; x < experiments.size(); ++x) {
            if (!experiments[x].outputMeasured[j] || x >= outputs.size() || outputs[x].rows() == 0 ||
                outputs[x].rows() != experiments[x].measured.rows())
                continue;
            records.push_back({experiments[x].measured.col(jj) - outputs[x].col(jj), inputs[x]});
        }
        OutputResidualAnalysis output = analyseResiduals(model.outputNames[j], records, model.inputNames, maxLag);
        if (output.samples > 0)
            analysis.outputs.push_back(std::move(output));
    }
    return analysis;
}

std::string verdict(const OutputResidualAnalysis& analysis)
{
    const Correlation& a = analysis.autocorrelation;
    std::string text = a.passes()
        ? "white (" + lagsText(a) + " the 99 % bounds)"
        : "not white: " + lagsText(a) + " the 99 % bounds" + largestText(a) + " (the model misses dynamics)";
    for (const InputCorrelation& input : analysis.inputs) {
        const Correlation& c = input.correlation;
        if (std::isnan(c.bound))
            text += "; their correlation with " + input.input + " has no bound";
        else if (c.passes())
            text += "; uncorrelated with " + input.input + " (" + lagsText(c) + ")";
        else
            text += "; correlated with " + input.input + ": " + lagsText(c) + largestText(c) +
                (outsideAtNegativeLagsOnly(c)
                     ? " at negative lags only (the input follows the output, as under feedback)"
                     : " (the model misses part of the effect of " + input.input + ")");
    }
    return text;
}

std::string describe(const OutputResidualAnalysis& analysis)
{
    return "residuals of " + analysis.output + " are " + verdict(analysis);
}

}  // namespace sysid::estimate
