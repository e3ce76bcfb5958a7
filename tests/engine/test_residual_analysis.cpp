// Residual analysis (estimate::analyseResiduals, Ljung 1999 §16.6): white noise leaves about 1 % of
// lags outside the 99 % bounds over many realisations, also against a coloured input (the bound
// with P = Σ R_u R_e); an AR(1) sequence has the autocorrelation 0.8^τ and is not white; a
// residual made of the delayed input peaks at that delay; the fit of the mass-spring-damper
// example passes, and its result JSON, report and log carry the analysis.
#include "engine/estimate/ResidualAnalysis.h"
#include "engine/job/FitJob.h"
#include "engine/project/FitReport.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"
#include "engine/project/ResidualAnalysisJson.h"
#include "engine/project/ResultJson.h"

#include <QElapsedTimer>
#include <QtTest>

#include <Eigen/Dense>

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace sysid;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

VectorXd whiteNoise(Eigen::Index n, std::mt19937& generator)
{
    std::normal_distribution<double> normal(0.0, 1.0);
    VectorXd v(n);
    for (Eigen::Index t = 0; t < n; ++t)
        v(t) = normal(generator);
    return v;
}

// x_t = a x_{t-1} + w_t, started in its stationary distribution.
VectorXd autoregressive(Eigen::Index n, double a, std::mt19937& generator)
{
    const VectorXd w = whiteNoise(n, generator);
    VectorXd x(n);
    x(0) = w(0) / std::sqrt(1.0 - a * a);
    for (Eigen::Index t = 1; t < n; ++t)
        x(t) = a * x(t - 1) + w(t);
    return x;
}

estimate::OutputResidualAnalysis analyse(const VectorXd& e, const VectorXd& u, int maxLag = 25)
{
    return estimate::analyseResiduals("y", {{e, u}}, {"u"}, maxLag);
}

double at(const estimate::Correlation& c, int lag)
{
    for (std::size_t k = 0; k < c.lags.size(); ++k)
        if (c.lags[k] == lag)
            return c.values[k];
    return NAN;
}

job::FitJob massSpringDamper()
{
    const auto project = project::loadProject(SYSID_SOURCE_DIR "/resources/examples/mass_spring_damper.sysid");
    return project::makeFitJob(project);
}

class LogSink : public job::ProgressSink {
public:
    void log(const std::string& line) override { lines.push_back(line); }
    std::vector<std::string> lines;
};

}  // namespace

class TestResidualAnalysis : public QObject {
    Q_OBJECT

private slots:
    // Over 200 realisations of 1000 samples, white residuals against a white input have 1 % of
    // their lags outside the 99 % bounds: 50 of 5000 autocorrelation lags and 102 of 10200
    // cross-correlation lags expected (sd about 7 and 10). A bound off by a factor of 2 puts
    // 20 % outside (too narrow) or none (too wide).
    void whiteNoiseHasOnePercentOfLagsOutside()
    {
        std::mt19937 generator(20261124);
        std::size_t outsideAuto = 0, testedAuto = 0, outsideCross = 0, testedCross = 0, notWhite = 0;
        for (int r = 0; r < 200; ++r) {
            const VectorXd e = whiteNoise(1000, generator);
            const VectorXd u = whiteNoise(1000, generator);
            const auto a = analyse(e, u);
            QCOMPARE(a.samples, std::size_t{1000});
            QCOMPARE(a.autocorrelation.lags.size(), std::size_t{26});
            QCOMPARE(a.autocorrelation.values.front(), 1.0);
            QCOMPARE(a.autocorrelation.bound, 2.5758293035489004 / std::sqrt(1000.0));
            QCOMPARE(a.inputs.size(), std::size_t{1});
            QCOMPARE(a.inputs[0].correlation.lags.front(), -25);
            QCOMPARE(a.inputs[0].correlation.lags.back(), 25);
            outsideAuto += a.autocorrelation.outside;
            testedAuto += a.autocorrelation.tested;
            outsideCross += a.inputs[0].correlation.outside;
            testedCross += a.inputs[0].correlation.tested;
            notWhite += a.white() ? 0 : 1;
        }
        qInfo("outside: %zu of %zu autocorrelation lags, %zu of %zu cross-correlation lags; %zu of 200 not white",
              outsideAuto, testedAuto, outsideCross, testedCross, notWhite);
        QCOMPARE(testedAuto, std::size_t{5000});
        QCOMPARE(testedCross, std::size_t{10200});
        QVERIFY2(outsideAuto >= 25 && outsideAuto <= 85, std::to_string(outsideAuto).c_str());
        QVERIFY2(outsideCross >= 55 && outsideCross <= 160, std::to_string(outsideCross).c_str());
        // More than 2 of 25 lags outside happens to white noise with probability 0.2 %.
        QVERIFY2(notWhite <= 4, std::to_string(notWhite).c_str());
    }

    // Residuals and input both coloured (AR(1), 0.8) and independent: √N R_eu has the variance
    // P = Σ R_u(k) R_e(k) = 4.6 R_u(0) R_e(0), so the white-noise bound 2.58/√N would put 22 %
    // of the lags outside; the bound from P keeps them near 1 % (2 % allowed: the lags of two
    // smooth sequences are strongly correlated, so the count varies more than a binomial).
    void colouredInputAndResidualsKeepOnePercentWithLjungsBound()
    {
        std::mt19937 generator(7);
        std::size_t outside = 0, tested = 0, naive = 0;
        for (int r = 0; r < 200; ++r) {
            const auto a = analyse(autoregressive(1000, 0.8, generator), autoregressive(1000, 0.8, generator));
            const estimate::Correlation& c = a.inputs.at(0).correlation;
            QVERIFY(c.bound > 1.8 * a.autocorrelation.bound);
            outside += c.outside;
            tested += c.tested;
            for (const double v : c.values)
                naive += std::abs(v) > a.autocorrelation.bound ? 1 : 0;
        }
        const double fraction = static_cast<double>(outside) / static_cast<double>(tested);
        const double naiveFraction = static_cast<double>(naive) / static_cast<double>(tested);
        qInfo("coloured: %.4f of the lags outside the bound from P, %.4f outside 2.58/sqrt(N)", fraction,
              naiveFraction);
        QVERIFY2(fraction > 0.002 && fraction < 0.025, std::to_string(fraction).c_str());
        QVERIFY2(naiveFraction > 0.12, std::to_string(naiveFraction).c_str());
    }

    // e_k = 0.8 e_{k-1} + w_k: the autocorrelation at lag τ is 0.8^τ (Bartlett's sd of the
    // estimate at N = 20000 is below 0.016), and the residuals are not white.
    void autoregressiveResidualsAreNotWhite()
    {
        std::mt19937 generator(3);
        const VectorXd e = autoregressive(20000, 0.8, generator);
        const auto a = analyse(e, whiteNoise(20000, generator));
        for (int tau = 0; tau <= 25; ++tau)
            QVERIFY2(std::abs(at(a.autocorrelation, tau) - std::pow(0.8, tau)) < 0.05, std::to_string(tau).c_str());
        QVERIFY(!a.white());
        QVERIFY(a.autocorrelation.outside >= 15);
        QVERIFY(a.inputs.at(0).correlation.passes());
        const std::string text = estimate::describe(a);
        QVERIFY2(text.starts_with("residuals of y are not white: ") &&
                     text.find("the model misses dynamics") != std::string::npos,
                 text.c_str());
    }

    // e_t = 0.5 u_{t-3} + 0.2 u_{t-4} + 0.1 w_t with white u: the normalised cross-correlation
    // is 0.5/√0.30 = 0.913 at lag 3 and 0.2/√0.30 = 0.365 at lag 4, within the bound elsewhere.
    void residualOfTheDelayedInputPeaksAtItsDelay()
    {
        std::mt19937 generator(11);
        const Eigen::Index n = 20000;
        const VectorXd u = whiteNoise(n, generator);
        const VectorXd w = whiteNoise(n, generator);
        VectorXd e(n);
        for (Eigen::Index t = 0; t < n; ++t)
            e(t) = (t >= 3 ? 0.5 * u(t - 3) : 0.0) + (t >= 4 ? 0.2 * u(t - 4) : 0.0) + 0.1 * w(t);
        const auto a = analyse(e, u);
        const estimate::Correlation& c = a.inputs.at(0).correlation;
        qInfo("%s", estimate::describe(a).c_str());
        QVERIFY(std::abs(at(c, 3) - 0.5 / std::sqrt(0.30)) < 0.02);
        QVERIFY(std::abs(at(c, 4) - 0.2 / std::sqrt(0.30)) < 0.02);
        QVERIFY(std::abs(at(c, -3)) < c.bound);
        QVERIFY(!c.passes());
        QVERIFY(c.outside >= 2 && c.outside <= 5);
        QVERIFY(estimate::describe(a).find("correlated with u: ") != std::string::npos);
        QVERIFY(estimate::describe(a).find("the model misses part of the effect of u") != std::string::npos);

        // The residual ahead of the input (u computed from it, as under feedback).
        VectorXd ahead(n);
        for (Eigen::Index t = 0; t < n; ++t)
            ahead(t) = (t + 2 < n ? u(t + 2) : 0.0) + 0.1 * w(t);
        const auto f = analyse(ahead, u);
        QVERIFY(at(f.inputs.at(0).correlation, -2) > 0.9);
        QVERIFY2(estimate::describe(f).find("at negative lags only") != std::string::npos,
                 estimate::describe(f).c_str());
    }

    // Lags beyond the data, records joined, inputs and residuals that do not vary.
    void recordsAndDegenerateSequences()
    {
        std::mt19937 generator(5);
        // Two records with opposite offsets: each record's mean is removed, so the offsets are not
        // a correlation; products never pair samples of different records.
        const VectorXd first = whiteNoise(500, generator).array() + 1.0;
        const VectorXd second = whiteNoise(500, generator).array() - 1.0;
        const auto joined = estimate::analyseResiduals(
            "y", {{first, whiteNoise(500, generator)}, {second, whiteNoise(500, generator)}}, {"u"});
        QCOMPARE(joined.samples, std::size_t{1000});
        QVERIFY(std::abs(joined.autocorrelation.values[1]) < joined.autocorrelation.bound);
        QVERIFY(joined.white());

        const auto shortRecord = analyse(whiteNoise(10, generator), whiteNoise(10, generator));
        QCOMPARE(shortRecord.autocorrelation.lags.back(), 9);
        QCOMPARE(shortRecord.inputs.at(0).correlation.lags.size(), std::size_t{19});

        const auto constantInput = analyse(whiteNoise(100, generator), VectorXd::Constant(100, 3.0));
        QVERIFY(constantInput.inputs.empty());
        QCOMPARE(constantInput.samples, std::size_t{100});
        QCOMPARE(analyse(VectorXd::Constant(100, 0.5), whiteNoise(100, generator)).samples, std::size_t{0});
        VectorXd broken = whiteNoise(100, generator);
        broken(7) = NAN;
        QCOMPARE(analyse(broken, whiteNoise(100, generator)).samples, std::size_t{0});
    }

    // White noise exceeds 2 of 25 lags with probability 0.2 %, 3 of 51 with 0.2 % too.
    void passingAllowsWhatChanceExplains()
    {
        estimate::Correlation c;
        c.bound = 0.1;
        c.tested = 25;
        c.outside = 2;
        QVERIFY(c.passes());
        c.outside = 3;
        QVERIFY(!c.passes());
        c.tested = 51;
        QVERIFY(c.passes());
        c.outside = 4;
        QVERIFY(!c.passes());
        c.bound = NAN;
        c.outside = 0;
        QVERIFY(!c.passes());
    }

    // 65 000 samples, three outputs and two inputs: O(N L), well under a second.
    void longRecordsAreQuick()
    {
        std::mt19937 generator(1);
        const Eigen::Index n = 65000;
        MatrixXd inputs(n, 2);
        inputs << autoregressive(n, 0.9, generator), whiteNoise(n, generator);
        QElapsedTimer timer;
        timer.start();
        for (int output = 0; output < 3; ++output) {
            const auto a = estimate::analyseResiduals("y", {{whiteNoise(n, generator), inputs}}, {"u", "v"});
            QCOMPARE(a.inputs.size(), std::size_t{2});
        }
        const qint64 ms = timer.elapsed();
        qInfo("three outputs, two inputs, 65000 samples: %lld ms", static_cast<long long>(ms));
        QVERIFY(ms < 1000);
    }

    // The example's residuals are its 2 % white measurement noise: they pass, and the result
    // JSON, the report and the log say so.
    void massSpringDamperFitPasses()
    {
        LogSink sink;
        const estimate::FitResult result = massSpringDamper().run(sink);
        QVERIFY(result.converged());
        QCOMPARE(result.residualAnalysis.outputs.size(), std::size_t{1});
        const estimate::OutputResidualAnalysis& s = result.residualAnalysis.outputs[0];
        QCOMPARE(s.output, std::string("s"));
        QCOMPARE(s.samples, std::size_t{1001});
        QCOMPARE(s.inputs.size(), std::size_t{1});
        QCOMPARE(s.inputs[0].input, std::string("u"));
        qInfo("%s", estimate::describe(s).c_str());
        QVERIFY2(s.white() && s.inputs[0].correlation.passes(), estimate::describe(s).c_str());
        QVERIFY(std::find(sink.lines.begin(), sink.lines.end(), estimate::describe(s)) != sink.lines.end());

        const std::string report = project::fitReport(result);
        QVERIFY(report.find("  residuals of s        white (") != std::string::npos);

        const nlohmann::json json = project::resultToJson(result);
        const nlohmann::json& analysis = json.at("residual_analysis").at("s");
        QCOMPARE(analysis.at("lags").size(), std::size_t{26});
        QCOMPARE(analysis.at("autocorrelation").size(), std::size_t{26});
        QCOMPARE(analysis.at("bound").get<double>(), s.autocorrelation.bound);
        QCOMPARE(analysis.at("white").get<bool>(), true);
        QCOMPARE(analysis.at("verdict").get<std::string>(), estimate::describe(s));
        const nlohmann::json& cross = analysis.at("cross_correlation").at("u");
        QCOMPARE(cross.at("lags").front().get<int>(), -25);
        QCOMPARE(cross.at("values").size(), std::size_t{51});
        QCOMPARE(cross.at("uncorrelated").get<bool>(), true);

        // A project's stored result brings the analysis back.
        const estimate::FitResult back = project::resultFromJson(json);
        QCOMPARE(back.residualAnalysis.outputs.size(), std::size_t{1});
        const auto& b = back.residualAnalysis.outputs[0];
        QCOMPARE(b.samples, s.samples);
        QCOMPARE(b.autocorrelation.values, s.autocorrelation.values);
        QCOMPARE(b.inputs.at(0).correlation.values, s.inputs[0].correlation.values);
        QCOMPARE(b.inputs.at(0).correlation.bound, s.inputs[0].correlation.bound);
        QCOMPARE(b.autocorrelation.outside, s.autocorrelation.outside);
        QCOMPARE(project::residualAnalysisToJson(back.residualAnalysis), json.at("residual_analysis"));
        // Results stored before the analysis existed have none.
        nlohmann::json older = json;
        older.erase("residual_analysis");
        QVERIFY(project::resultFromJson(older).residualAnalysis.outputs.empty());
    }
};

QTEST_APPLESS_MAIN(TestResidualAnalysis)
#include "test_residual_analysis.moc"
