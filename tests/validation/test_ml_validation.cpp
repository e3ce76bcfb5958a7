// Seed 000, eq. 2.11-2.13: maximum likelihood with the output noise variances estimated, over noise realisations.
// A damped oscillator x'' = -c x' - k x (x(0) = 1) measured in position x and velocity v = x' (201 samples) with
// Gaussian noise 100 times larger on the velocity (sd 0.002 and 0.2), in two rows: k 4 (the velocity, twice the
// position, dominates the sensitivities) and k 0.0625, c 0.05 over 40 s (the position, four times the velocity,
// dominates). Each realisation (seeded, 120 per row) is fitted from 30 % off by
//  - ml: the noise variances estimated with k and c;
//  - output error with fixed wrong weights: equal weights 1 and 1 (as if both outputs had the same noise);
//  - output error with its default weights 1/sigma^2 from the data's own noise estimate (printed, not asserted).
// Criteria:
//  - ml recovers both noise sd: their mean over the realisations within 10 % of the truth, and the sd it reports
//    for them within 30 % of their spread;
//  - ml's reported parameter sd is honest: the sample sd of the estimates within 30 % of the mean reported sd (the
//    sample sd of 120 values scatters by 1/sqrt(238) = 6.5 %, so 30 % is 4.6 of its standard errors);
//  - the fixed wrong weights are not: their estimates spread at least 3 times as much as ml's in both rows, and
//    where the precise output dominates the sensitivities (k 0.0625) the sd they report misses their spread by more
//    than 30 % (their residual variance pools the two noise levels; where the noisy output dominates, k 4, the
//    pooled variance happens to be close to the noise that matters and their sd is only about 30 % low).
#include "ValidationSupport.h"
#include "MonteCarloSpread.h"

#include "engine/estimate/MethodTraits.h"

#include <QtTest>

#include <cmath>
#include <random>
#include <thread>

using namespace sysid;

namespace {

constexpr double kNoiseX = 0.002, kNoiseV = 0.2;
constexpr int kRealisations = 120;

const char* kModel = "param k = 2.8 [0.01, 100]\n"
                     "param c = 0.28 [0, 10]\n"
                     "x'' = -c*x' - k*x\n"
                     "x(0) = 1, 0\n"
                     "output x\n"
                     "output v = x'\n";

using test::Spread;
using test::spreadOf;

}  // namespace

class TestMlValidation : public QObject {
    Q_OBJECT

private slots:
    void estimatedNoiseVariancesAreRecoveredAndTheSdIsHonest_data()
    {
        QTest::addColumn<double>("trueK");
        QTest::addColumn<double>("trueC");
        QTest::addColumn<double>("duration");
        QTest::addColumn<bool>("wrongSdOff");  // the equal weights' reported sd is expected > 30 % off
        QTest::newRow("k 4, velocity dominates") << 4.0 << 0.4 << 10.0 << false;
        QTest::newRow("k 0.0625, position dominates") << 0.0625 << 0.05 << 40.0 << true;
    }

    void estimatedNoiseVariancesAreRecoveredAndTheSdIsHonest()
    {
        QFETCH(double, trueK);
        QFETCH(double, trueC);
        QFETCH(double, duration);
        QFETCH(bool, wrongSdOff);
        const auto src = validation::compiledText(kModel, "oscillator.model");
        const auto start = validation::valuesWith(*src, {{"k", 0.7 * trueK}, {"c", 0.7 * trueC}});
        const auto truth = validation::valuesWith(*src, {{"k", trueK}, {"c", trueC}});
        std::vector<double> times(201);
        for (std::size_t i = 0; i < times.size(); ++i)
            times[i] = duration / 200 * static_cast<double>(i);
        const estimate::Experiment clean = test::simulatedExperiment(src, truth, times);

        estimate::FitSettings ml;
        ml.method = estimate::EstimationMethod::MaximumLikelihood;
        ml.integrator = validation::fitIntegrator();
        estimate::FitSettings equal = ml;
        equal.method = estimate::EstimationMethod::OutputError;
        equal.outputWeights = {{"x", 1.0}, {"v", 1.0}};
        estimate::FitSettings automatic = equal;
        automatic.outputWeights.clear();
        const std::vector<estimate::FitSettings> methods{ml, equal, automatic};

        const auto n = static_cast<std::size_t>(kRealisations);
        std::vector<std::vector<estimate::FitResult>> results(methods.size(), std::vector<estimate::FitResult>(n));
        std::vector<std::string> errors(n);
        auto work = [&](std::size_t first) {
            for (std::size_t k = first; k < n; k += 2) {
                try {
                    std::mt19937_64 rng(1000 + k);
                    std::normal_distribution<double> normal;
                    estimate::Experiment data = clean;
                    for (Eigen::Index i = 0; i < data.measured.rows(); ++i) {
                        data.measured(i, 0) += kNoiseX * normal(rng);
                        data.measured(i, 1) += kNoiseV * normal(rng);
                    }
                    for (std::size_t m = 0; m < methods.size(); ++m)
                        results[m][k] = estimate::fit(src, start, {data}, methods[m]);
                } catch (const std::exception& e) {
                    errors[k] = e.what();
                }
            }
        };
        std::thread other(work, 1);
        work(0);
        other.join();
        for (std::size_t k = 0; k < n; ++k) {
            QVERIFY2(errors[k].empty(), errors[k].c_str());
            for (const auto& r : results)
                QVERIFY2(r[k].converged(), r[k].termination.message.c_str());
        }

        const char* names[] = {"ml", "equal weights", "noise-estimate weights"};
        std::vector<std::vector<Spread>> spreads(methods.size());
        qInfo("%d realisations, noise sd x %g, v %g; estimate mean, sample sd over the realisations, mean reported sd, "
              "ratio",
              kRealisations, kNoiseX, kNoiseV);
        for (std::size_t m = 0; m < methods.size(); ++m) {
            double iterations = 0;
            for (const auto& r : results[m])
                iterations += static_cast<double>(r.iterations) / kRealisations;
            qInfo("%-24s mean iterations %.2f", names[m], iterations);
        }
        for (std::size_t m = 0; m < methods.size(); ++m)
            for (const auto& [name, value] : {std::pair{"k", trueK}, std::pair{"c", trueC}}) {
                std::vector<double> values, sds;
                for (const auto& r : results[m]) {
                    values.push_back(validation::estimateOf(r, name).value);
                    sds.push_back(validation::estimateOf(r, name).sd);
                }
                const Spread s = spreadOf(values, sds);
                spreads[m].push_back(s);
                qInfo("%-24s %s (true %g): mean %.6f, sample sd %.3e, reported sd %.3e, ratio %.3f", names[m], name,
                      value, s.mean, s.sampleSd, s.meanReportedSd, s.ratio());
            }

        // ml: both noise levels, and the sd it reports for them.
        for (std::size_t j = 0; j < 2; ++j) {
            const double truth = j == 0 ? kNoiseX : kNoiseV;
            std::vector<double> values, sds;
            int within = 0;
            for (const auto& r : results[0]) {
                QCOMPARE(r.noise.size(), std::size_t{2});
                values.push_back(r.noise[j].value);
                sds.push_back(r.noise[j].sd);
                within += std::abs(r.noise[j].value / truth - 1) < 0.1 ? 1 : 0;
            }
            const Spread s = spreadOf(values, sds);
            qInfo("ml noise sd of %s (true %g): mean %.6g (%+.2f %%), sample sd %.3e, reported sd %.3e, ratio %.3f; "
                  "%d of %d within 10 %%",
                  results[0][0].noise[j].output.c_str(), truth, s.mean, 100 * (s.mean / truth - 1), s.sampleSd,
                  s.meanReportedSd, s.ratio(), within, kRealisations);
            QVERIFY2(std::abs(s.mean / truth - 1) < 0.1,
                     qPrintable(QStringLiteral("noise sd %1 vs %2").arg(s.mean).arg(truth)));
            QVERIFY2(std::abs(s.ratio() - 1) < 0.3, qPrintable(QStringLiteral("noise sd ratio %1").arg(s.ratio())));
        }
        for (std::size_t p = 0; p < 2; ++p) {
            const Spread& mlSpread = spreads[0][p];
            const Spread& equalSpread = spreads[1][p];
            QVERIFY2(std::abs(mlSpread.ratio() - 1) < 0.3,
                     qPrintable(QStringLiteral("ml: sample sd %1 vs reported %2")
                                    .arg(mlSpread.sampleSd)
                                    .arg(mlSpread.meanReportedSd)));
            QVERIFY2(
                equalSpread.sampleSd > 3 * mlSpread.sampleSd,
                qPrintable(
                    QStringLiteral("equal weights spread %1, ml %2").arg(equalSpread.sampleSd).arg(mlSpread.sampleSd)));
            if (wrongSdOff)
                QVERIFY2(std::abs(equalSpread.ratio() - 1) > 0.3,
                         qPrintable(QStringLiteral("equal weights: sample sd %1 vs reported %2")
                                        .arg(equalSpread.sampleSd)
                                        .arg(equalSpread.meanReportedSd)));
        }
    }
};

QTEST_APPLESS_MAIN(TestMlValidation)
#include "test_ml_validation.moc"
