// Covariance, standard deviations, correlation and the rank decision of estimate::uncertainty:
// against the closed form of a straight-line fit, unchanged by the parameters' units (scales from
// 1e-3 to 2e5, where the unscaled information matrix spans 16 decades), and the undetermined
// parameters of a rank-deficient Jacobian whatever their units.
#include "EstimateTestSupport.h"
#include "VectorTestSupport.h"

#include "engine/estimate/UndeterminedDirections.h"
#include "engine/estimate/Uncertainty.h"
#include "engine/project/ResultJson.h"

#include <QtTest>

#include <Eigen/Dense>

#include <cmath>

using namespace sysid;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

using test::randomMatrix;

bool relativelyClose(double a, double b, double tolerance)
{
    return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b));
}

}  // namespace

class TestUncertainty : public QObject {
    Q_OBJECT

private slots:
    // y = a + b t: sd(b) = s / sqrt(sum (t - mean t)^2), sd(a) = s sqrt(1/m + mean(t)^2 / sum (t - mean t)^2),
    // s^2 = |r|^2 / (m - 2) (Seber & Wild 1989, sec. 1.1 / any regression text).
    void straightLineHasTheClosedForm()
    {
        const int m = 50;
        MatrixXd jacobian(m, 2);
        VectorXd residuals = randomMatrix(m, 1, 7).col(0) * 0.1;
        for (int i = 0; i < m; ++i) {
            jacobian(i, 0) = 1.0;
            jacobian(i, 1) = 1e4 * i;  // time in large units
        }
        const estimate::Uncertainty u = estimate::uncertainty(jacobian, residuals, VectorXd::Zero(2));
        const double s = std::sqrt(residuals.squaredNorm() / (m - 2));
        const double mean = jacobian.col(1).mean();
        const double sxx = (jacobian.col(1).array() - mean).square().sum();
        QVERIFY(relativelyClose(u.sd(1), s / std::sqrt(sxx), 1e-10));
        QVERIFY(relativelyClose(u.sd(0), s * std::sqrt(1.0 / m + mean * mean / sxx), 1e-10));
        QVERIFY(relativelyClose(u.correlation(0, 1), -mean / std::sqrt(mean * mean + sxx / m), 1e-10));
    }

    // The same problem in other units: sd scales with the unit, correlation is unchanged, and no
    // parameter is declared undetermined although the information matrix's eigenvalues span
    // more than 13 decades.
    void parametersOfVeryDifferentSizeAreAllDetermined()
    {
        const int m = 400, p = 6;
        const MatrixXd jacobian = randomMatrix(m, p, 11);
        const VectorXd residuals = randomMatrix(m, 1, 12).col(0) * 0.01;
        VectorXd unit(p);
        unit << 1e-3, 1e-1, 1.0, 1e2, 1e4, 2e5;  // theta' = theta / unit: column k of J times unit(k)
        const MatrixXd scaledJacobian = jacobian * unit.asDiagonal();
        const Eigen::SelfAdjointEigenSolver<MatrixXd> eigen(scaledJacobian.transpose() * scaledJacobian);
        QVERIFY2(eigen.eigenvalues().minCoeff() < 1e-13 * eigen.eigenvalues().maxCoeff(),
                 "the case must defeat an unscaled eigenvalue cut");

        const estimate::Uncertainty reference = estimate::uncertainty(jacobian, residuals, VectorXd::Zero(p));
        const estimate::Uncertainty inUnits = estimate::uncertainty(scaledJacobian, residuals, VectorXd::Zero(p));
        for (int k = 0; k < p; ++k) {
            QVERIFY2(std::isfinite(inUnits.sd(k)), qPrintable(QStringLiteral("parameter %1 undetermined").arg(k)));
            QVERIFY2(relativelyClose(inUnits.sd(k) * unit(k), reference.sd(k), 1e-8),
                     qPrintable(QStringLiteral("parameter %1: %2 vs %3")
                                    .arg(k)
                                    .arg(inUnits.sd(k) * unit(k), 0, 'g', 12)
                                    .arg(reference.sd(k), 0, 'g', 12)));
            for (int l = 0; l < p; ++l)
                QVERIFY(std::abs(inUnits.correlation(k, l) - reference.correlation(k, l)) < 1e-8);
        }
    }

    // Two parameters that only act together (one column a multiple of the other, in very different
    // units) are both undetermined; the third is not, and a parameter without any effect is undetermined.
    void undeterminedParametersWhateverTheirUnits()
    {
        const int m = 100;
        MatrixXd jacobian = randomMatrix(m, 4, 21);
        jacobian.col(1) = 1e6 * jacobian.col(0);
        jacobian.col(3).setZero();
        const VectorXd residuals = randomMatrix(m, 1, 22).col(0) * 0.01;
        const estimate::Uncertainty u = estimate::uncertainty(jacobian, residuals, VectorXd::Zero(4));
        QVERIFY(std::isinf(u.sd(0)));
        QVERIFY(std::isinf(u.sd(1)));
        QVERIFY(std::isfinite(u.sd(2)) && u.sd(2) > 0);
        QVERIFY(std::isinf(u.sd(3)));
        QVERIFY(std::isnan(u.correlation(0, 2)));
        QCOMPARE(u.correlation(2, 2), 1.0);

        // A prior on the parameter without effect determines it: its sd is the prior's.
        VectorXd precision = VectorXd::Zero(4);
        precision(3) = 1.0 / (0.5 * 0.5);
        const estimate::Uncertainty withPrior = estimate::uncertainty(jacobian, residuals, precision);
        QVERIFY(relativelyClose(withPrior.sd(3), 0.5, 1e-12));
        QVERIFY(std::isinf(withPrior.sd(0)));
    }

    // x' = -a b x + c: the data fix a*b, not a and b. The fit reports one combination, a and b
    // changing by equal and opposite relative amounts, says to fix one, and keeps it in its JSON.
    void aScalingSymmetryIsOneCombination_data()
    {
        QTest::addColumn<int>("method");
        QTest::newRow("output error") << int(estimate::EstimationMethod::OutputError);
        QTest::newRow("multistep") << int(estimate::EstimationMethod::Multistep);
    }

    void aScalingSymmetryIsOneCombination()
    {
        QFETCH(int, method);
        const auto source = eval::compileModel(
            model::parseModel("param a = 2\nparam b = 3\nparam c = 0.5\nstate x = 1\nx' = -a*b*x + c\noutput x\n"));
        const auto data = test::simulatedExperiment(source, {2.0, 3.0, 0.5}, integrate::uniformGrid(0, 2, 0.01), 1.0);
        estimate::FitSettings settings;
        settings.method = estimate::EstimationMethod(method);
        settings.integrator = test::tight(integrate::IntegrationMethod::Dopri5, 1e-10, 1e-12);
        const estimate::FitResult result = estimate::fit(source, {1.5, 3.5, 0.4}, {data}, settings);
        QVERIFY2(!result.cancelled(), result.termination.message.c_str());
        QCOMPARE(result.undetermined.size(), std::size_t{1});
        const auto& components = result.undetermined.front().components;
        QCOMPARE(components.size(), std::size_t{2});
        QCOMPARE(components[0].first, std::string("a"));
        QCOMPARE(components[1].first, std::string("b"));
        QVERIFY(std::abs(std::abs(components[0].second) - 1.0) < 1e-6);
        QVERIFY(std::abs(components[0].second + components[1].second) < 1e-6);  // da/a = -db/b
        QVERIFY(std::isinf(result.parameters[0].sd) && std::isinf(result.parameters[1].sd));
        QVERIFY(std::isfinite(result.parameters[2].sd));
        const std::string said = estimate::describe(result.undetermined.front());
        QVERIFY2(said.find("a and b cannot be determined one by one") != std::string::npos, said.c_str());
        QVERIFY2(said.find("fix one of them") != std::string::npos, said.c_str());

        const estimate::FitResult back = project::resultFromJson(project::resultToJson(result));
        QCOMPARE(back.undetermined.size(), std::size_t{1});
        QCOMPARE(back.undetermined.front().components, components);
    }
};

QTEST_APPLESS_MAIN(TestUncertainty)
#include "test_uncertainty.moc"
