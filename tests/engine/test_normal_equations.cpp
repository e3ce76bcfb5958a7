// Normal equations formed sample by sample (estimate::NormalEquationsAccumulator, the normal form
// of ResponseFitProblem) against the dense J'J and J'r of the materialised Jacobian: the kernel on
// random blocks of every shape its tiles meet, an output-error problem with two experiments, an
// estimated initial value per experiment, an unmeasured output and a prior, and a fit of a heat rod
// with one diffusivity per node large enough for estimate::fit to choose the normal form, whose
// estimates and standard deviations must agree with Levenberg-Marquardt on the dense Jacobian.
#include "EstimateTestSupport.h"
#include "VectorTestSupport.h"

#include "engine/estimate/LevenbergMarquardt.h"
#include "engine/estimate/NormalEquationsAccumulator.h"
#include "engine/estimate/NormalMatrix.h"
#include "engine/estimate/OutputErrorProblem.h"
#include "engine/estimate/PriorRows.h"
#include "engine/estimate/Uncertainty.h"
#include "engine/model/ModelBuilder.h"

#include <QtTest>

#include <Eigen/Dense>

#include <cmath>
#include <random>

using namespace sysid;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using estimate::ResponseFitProblem;

namespace {

using test::randomMatrix;

double relativeDifference(const MatrixXd& a, const MatrixXd& b)
{
    return (a - b).norm() / std::max(b.norm(), 1e-300);
}

// A damped oscillator whose initial position is estimated per experiment, with a prior on c.
const char* kOscillator = R"(param k = 2 [0.1, 10]
param c = 0.3 [0, 5] prior 0.4, 0.2
state x = 1 [0, 2] estimate
state v = 0
x' = v
v' = -k*x - c*v + 0.5*sin(3*t)
output x
output v
)";

std::string heatRod(int nodes)
{
    return "field s on x in [0, 1] nodes " + std::to_string(nodes) +
        "\nparam alpha(x) = 0.15 [0.01, 1]\ns_t = alpha(x) * s_xx\ns(0, t) = 0 ; s(1, t) = 0\n"
        "s(x, 0) = sin(pi*x) + 0.5*sin(3*pi*x)\noutput s\n";
}

}  // namespace

class TestNormalEquations : public QObject {
    Q_OBJECT

private slots:
    // Rows added in pieces of every size, for experiments with their own columns (in any order), give
    // J'J and J'r of the whole Jacobian: every tile shape of the kernel (8 x 6, 4 x 6, the scalar rest,
    // the columns beyond the last multiple of 6), buffers flushed part-way and grown for a piece larger
    // than they hold while holding rows.
    void accumulatedSumsEqualTheDenseProducts()
    {
        for (const Eigen::Index p : {1, 3, 4, 6, 7, 13, 50, 203}) {
            const Eigen::Index rows = 3000;
            MatrixXd jacobian = randomMatrix(rows, p, static_cast<unsigned>(p));
            const VectorXd residuals = randomMatrix(rows, 1, static_cast<unsigned>(p) + 1000);
            // Experiment 1 (the first 1700 rows) sees every column but the second, in reverse order.
            std::vector<std::size_t> first, all;
            for (Eigen::Index c = p - 1; c >= 0; --c)
                if (c != 1 || p == 1)
                    first.push_back(static_cast<std::size_t>(c));
            for (Eigen::Index c = 0; c < p; ++c)
                all.push_back(static_cast<std::size_t>(c));
            if (p > 1)
                jacobian.col(1).head(1700).setZero();
            estimate::NormalEquationsAccumulator accumulator;
            accumulator.reset(p);
            Eigen::Index row = 0;
            const Eigen::Index pieces[] = {1, 200, 7, 1500, 33};  // 1500: more than the buffer holds
            for (int e = 0; e < 2; ++e) {
                const auto& columns = e == 0 ? first : all;
                const Eigen::Index end = e == 0 ? 1700 : rows;
                accumulator.beginExperiment(columns);
                for (int piece = 0; row < end; ++piece) {
                    const Eigen::Index count = std::min(pieces[piece % 5], end - row);
                    // The rows in the experiment's columns, scattered in a source with one spare row, factor 2.
                    MatrixXd source = MatrixXd::Zero(count + 1, static_cast<Eigen::Index>(columns.size()));
                    std::vector<Eigen::Index> sourceRows;
                    std::vector<double> factors;
                    for (Eigen::Index i = 0; i < count; ++i) {
                        sourceRows.push_back(count - i);
                        factors.push_back(2.0);
                        for (std::size_t c = 0; c < columns.size(); ++c)
                            source(count - i, static_cast<Eigen::Index>(c)) =
                                0.5 * jacobian(row + i, static_cast<Eigen::Index>(columns[c]));
                    }
                    accumulator.addRows(source, sourceRows, factors, residuals.data() + row);
                    row += count;
                }
                accumulator.endExperiment();
            }
            QCOMPARE(accumulator.rows(), static_cast<std::size_t>(rows));
            const MatrixXd dense = estimate::normalMatrix(jacobian);
            QVERIFY2(relativeDifference(accumulator.matrix(), dense) < 1e-14,
                     qPrintable(QString("p %1: %2").arg(p).arg(relativeDifference(accumulator.matrix(), dense))));
            QVERIFY(accumulator.matrix().isApprox(accumulator.matrix().transpose(), 0.0));
            const VectorXd gradient = jacobian.transpose() * residuals;
            QVERIFY(relativeDifference(accumulator.gradient(), gradient) < 1e-14);
        }
    }

    // Each kernel sums every entry of the lower triangle from zero over the rows in row order and then
    // adds it: the baseline with rounded products, the AVX2 and AVX-512 kernels with fused multiply-adds,
    // bit for bit the scalar sums below; and that is B'B to rounding.
    void kernelsSumEachEntryInRowOrder()
    {
        using estimate::GramInstructions;
        QVERIFY(estimate::gramInstructionsAvailable(GramInstructions::Baseline));
        for (const Eigen::Index p : {1, 5, 6, 11, 12, 23, 29, 200}) {
            const Eigen::Index k = 131;
            const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> b =
                randomMatrix(k, p, static_cast<unsigned>(7 * p));
            const MatrixXd start = randomMatrix(p, p, 99);
            MatrixXd rounded = start, fused = start;
            for (Eigen::Index j = 0; j < p; ++j)
                for (Eigen::Index i = j; i < p; ++i) {
                    double sum = 0.0, fusedSum = 0.0;
                    for (Eigen::Index r = 0; r < k; ++r) {
                        const double product = b(r, i) * b(r, j);
                        sum += product;
                        fusedSum = std::fma(b(r, i), b(r, j), fusedSum);
                    }
                    rounded(i, j) += sum;
                    fused(i, j) += fusedSum;
                }
            const MatrixXd expected = start + b.transpose() * b;
            for (const auto instructions :
                 {GramInstructions::Baseline, GramInstructions::Avx2, GramInstructions::Avx512}) {
                if (!estimate::gramInstructionsAvailable(instructions))
                    continue;
                MatrixXd sums = start;
                estimate::addLowerGram(instructions, b.data(), k, p, p, sums.data(), p);
                const MatrixXd lower = sums.triangularView<Eigen::Lower>();
                const MatrixXd reference = MatrixXd(
                    (instructions == GramInstructions::Baseline ? rounded : fused).triangularView<Eigen::Lower>());
                const auto spelling = estimate::kGramInstructions.name(instructions);
                const auto name =
                    QString("p %1, %2").arg(p).arg(QString::fromLatin1(spelling.data(), qsizetype(spelling.size())));
                QVERIFY2(lower == reference, qPrintable(name));
                QVERIFY2(MatrixXd((sums - expected).triangularView<Eigen::Lower>()).norm() < 1e-14 * expected.norm(),
                         qPrintable(name));
                // The strictly upper triangle outside the diagonal tiles stays as it was.
                QCOMPARE(sums(0, p - 1), p > 6 ? start(0, p - 1) : sums(0, p - 1));
            }
        }
        if (!estimate::gramInstructionsAvailable(GramInstructions::Avx512))
            qInfo("this processor has no AVX-512: that kernel was not compared");
    }

    // A g++ build reads glibc's record of the processor; libgcc's own detector, a second reading, agrees
    // (each wider kernel needs FMA besides its vectors).
    void kernelsAvailableAsTheProcessorSays()
    {
#if defined(__GNUC__) && defined(__x86_64__)
        using estimate::GramInstructions;
        __builtin_cpu_init();
        QCOMPARE(estimate::gramInstructionsAvailable(GramInstructions::Avx2),
                 __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
        QCOMPARE(estimate::gramInstructionsAvailable(GramInstructions::Avx512),
                 __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma"));
#else
        QSKIP("the wider kernels exist on x86-64 only");
#endif
    }

    // The normal form of an output-error problem equals J'J, J'r of its dense form at the same point:
    // two experiments (their own estimated x(0)), one with only x measured, a prior, output weights.
    void outputErrorProblemGivesTheDenseNormalEquations()
    {
        const auto source = eval::compileModel(model::parseModel(kOscillator));
        std::vector<double> truth = source->parameterValues;
        truth[0] = 2.5;
        const auto times = integrate::uniformGrid(0, 6, 0.05);
        std::vector<estimate::Experiment> experiments{test::simulatedExperiment(source, truth, times, 2.0, 3),
                                                      test::simulatedExperiment(source, truth, times, 2.0, 4)};
        experiments[1].name = "second";
        experiments[1].outputMeasured[1] = false;
        const std::vector<std::map<std::string, double>> none(2);
        const estimate::ParameterLayout layout(*source, source->parameterValues, none);
        QCOMPARE(layout.size(), std::size_t(4));  // k, c and x(0) of each experiment
        estimate::FitSettings settings;
        const auto priors = estimate::priorsFor(layout, *source, settings);
        const std::vector<double> weights{4.0, 0.25};
        estimate::OutputErrorProblem dense(source, layout, experiments, weights, priors, test::tight());
        estimate::OutputErrorProblem normal(source, layout, experiments, weights, priors, test::tight());
        normal.setNormalForm(ResponseFitProblem::NormalForm::Always);
        QVERIFY(normal.formsNormalEquations());
        QVERIFY(!dense.formsNormalEquations());
        const VectorXd step = (VectorXd(4) << 0.1, -0.05, 0.02, -0.01).finished();
        for (const VectorXd& at : {VectorXd(VectorXd::Zero(4)), step}) {
            estimate::Linearization d, n;
            std::string failure;
            QVERIFY(dense.evaluate(at, d, failure, {}));
            QVERIFY(normal.evaluate(at, n, failure, {}));
            QVERIFY(!d.normalForm && n.normalForm);
            QCOMPARE(n.jacobian.size(), Eigen::Index(0));
            QVERIFY(n.residuals == d.residuals);  // the same residuals, bit for bit
            QCOMPARE(n.merit, d.merit);
            const auto dataRows = static_cast<Eigen::Index>(dense.dataResidualCount());
            QCOMPARE(d.jacobian.rows(), dataRows + 1);  // the prior's row
            QVERIFY(relativeDifference(n.normalMatrix, estimate::normalMatrix(d.jacobian)) < 1e-12);
            QVERIFY(relativeDifference(n.dataNormalMatrix, estimate::normalMatrix(d.jacobian.topRows(dataRows))) <
                    1e-12);
            QVERIFY(relativeDifference(n.normalGradient, d.jacobian.transpose() * d.residuals) < 1e-12);
            // The prior acts on c only: J'J differs from the data part in (c, c) alone.
            MatrixXd priorPart = n.normalMatrix - n.dataNormalMatrix;
            QCOMPARE(priorPart(1, 1), 1.0 / (0.2 * 0.2));
            priorPart(1, 1) = 0.0;
            QVERIFY(priorPart.isZero(0.0));
            // What Levenberg-Marquardt reads of either form.
            QVERIFY(relativeDifference(n.columnSquares(), d.columnSquares()) < 1e-12);
            const VectorXd s = (VectorXd(4) << 1e-3, 2e-3, -1e-3, 5e-4).finished();
            QVERIFY(std::abs(n.modelHalfSquares(s) - d.modelHalfSquares(s)) < 1e-12 * d.modelHalfSquares(s));
            VectorXd scaleN = VectorXd::Zero(4), scaleD = VectorXd::Zero(4);
            const estimate::NormalEquations en = estimate::normalEquations(n, scaleN);
            const estimate::NormalEquations ed = estimate::normalEquations(d, scaleD);
            const double predicted = ed.predictedDecrease(d, s);
            QVERIFY(std::abs(en.predictedDecrease(n, s) - predicted) < 1e-9 * std::abs(predicted));
        }
        // Maximum likelihood weights its rows once every residual is known: always the Jacobian.
        normal.estimateNoiseVariances({1e-12, 1e-12});
        QVERIFY(!normal.formsNormalEquations());
    }

    // estimate::fit chooses the normal form for a Jacobian of 2^20 entries or more: a heat rod with
    // 40 nodes (40 diffusivities) and all nodes at 700 samples, 1.12e6 entries. Its estimates and
    // standard deviations agree with Levenberg-Marquardt on the dense Jacobian to the digits the
    // integration's tolerance (rtol 1e-8) leaves.
    void heatRodFitAgreesWithTheDenseJacobian()
    {
        const int nodes = 40;
        const auto source = eval::compileModel(model::parseModel(heatRod(nodes)));
        std::vector<double> truth(nodes), start(nodes, 0.15);
        for (int i = 0; i < nodes; ++i)
            truth[static_cast<std::size_t>(i)] = 0.1 + 0.1 * (i + 1) / (nodes + 1.0);
        const auto times = integrate::uniformGrid(0, 0.35, 0.0005);
        integrate::IntegratorSettings integrator;
        integrator.method = integrate::IntegrationMethod::SparseImplicit;
        integrator.methodChosen = true;
        integrator.relativeTolerance = 1e-8;
        integrator.absoluteTolerance = 1e-11;
        std::vector<estimate::Experiment> experiments{test::simulatedExperiment(source, truth, times)};
        std::mt19937 rng(5);
        std::normal_distribution<double> noise(0.0, 1e-4);
        for (Eigen::Index k = 0; k < experiments[0].measured.size(); ++k)
            experiments[0].measured.data()[k] += noise(rng);
        const double entries = static_cast<double>(times.size()) * nodes * nodes;
        QVERIFY(entries >= ResponseFitProblem::kNormalFormEntries);

        estimate::FitSettings settings;
        settings.integrator = integrator;
        settings.costTolerance = 1e-10;
        for (const auto& name : source->outputNames)
            settings.outputWeights[name] = 1e8;
        const estimate::FitResult fitted = estimate::fit(source, start, experiments, settings);
        QVERIFY2(fitted.converged(), fitted.termination.message.c_str());

        const estimate::ParameterLayout layout = estimate::layoutFor(*source, start, experiments);
        estimate::OutputErrorProblem dense(source, layout, experiments, std::vector<double>(nodes, 1e8),
                                           std::vector<std::optional<estimate::Prior>>(layout.size()), integrator);
        QVERIFY(!dense.formsNormalEquations());
        const auto outcome =
            estimate::levenbergMarquardt(dense, estimate::levenbergMarquardtOptions(settings), {}, {});
        QCOMPARE(outcome.iterations, fitted.iterations);
        const estimate::Uncertainty u = estimate::uncertainty(outcome.final.jacobian, outcome.final.residuals,
                                                              VectorXd::Zero(static_cast<Eigen::Index>(nodes)));
        const VectorXd theta = dense.parameters();
        double worstValue = 0, worstSd = 0, worstTruth = 0;
        for (int i = 0; i < nodes; ++i) {
            const auto& p = fitted.parameters[static_cast<std::size_t>(i)];
            worstValue = std::max(worstValue, std::abs(p.value - theta(i)) / p.sd);
            worstSd = std::max(worstSd, std::abs(p.sd - u.sd(i)) / u.sd(i));
            worstTruth = std::max(worstTruth, std::abs(p.value - truth[static_cast<std::size_t>(i)]) / p.sd);
        }
        qInfo("heat rod, %d parameters, %zu iterations: estimates differ by %.1e sd, sd by %.1e relative; "
              "largest error against the truth %.1f sd",
              nodes, fitted.iterations, worstValue, worstSd, worstTruth);
        QVERIFY(worstValue < 1e-4);
        QVERIFY(worstSd < 1e-6);
        QVERIFY(worstTruth < 5.0);  // and the fit found the truth, within the noise
        QVERIFY(std::abs(fitted.cost - outcome.final.merit) < 1e-8 * outcome.final.merit);
    }
};

QTEST_APPLESS_MAIN(TestNormalEquations)
#include "test_normal_equations.moc"
