// The distributions behind the intervals and residual tests (estimate/Distributions.h) against
// closed forms (the chi-squared quantile with 2 degrees of freedom is -2 ln(1 - p), Student's t
// with 1 and 2 degrees of freedom has closed forms) and against Boost.Math, an independent
// implementation, over grids that reach into the tails; arguments outside a domain give NaN.
#include "engine/estimate/Distributions.h"

#include <QtTest>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>

#include <cmath>
#include <numbers>
#include <string>

using namespace sysid::estimate;

namespace {

void compare(double actual, double expected, double tolerance, const std::string& what)
{
    const double error = std::fabs(actual - expected) / std::max(std::fabs(expected), 1e-300);
    if (!(error <= tolerance))
        QFAIL(qPrintable(QString::fromStdString(what) + QString(": %1 against %2, relative error %3")
                                                            .arg(actual, 0, 'g', 17)
                                                            .arg(expected, 0, 'g', 17)
                                                            .arg(error, 0, 'g', 3)));
}

std::string at(const char* name, double a, double b)
{
    return std::string(name) + "(" + std::to_string(a) + ", " + std::to_string(b) + ")";
}

}  // namespace

class TestDistributions : public QObject {
    Q_OBJECT

private slots:
    void normalQuantileMatchesTablesAndBoost()
    {
        compare(normalUpperQuantile(0.025), 1.959963984540054, 1e-15, "z(0.025)");
        compare(normalUpperQuantile(0.005), 2.5758293035489004, 1e-15, "z(0.005)");
        QCOMPARE(normalUpperQuantile(0.5), 0.0);
        for (double q : {1e-300, 1e-100, 1e-20, 1e-10, 1e-6, 1e-3, 0.005, 0.025, 0.1, 0.3, 0.45, 0.55, 0.7, 0.975,
                         1.0 - 1e-6}) {
            const double z = normalUpperQuantile(q);
            compare(z, boost::math::quantile(boost::math::complement(boost::math::normal(), q)), 2e-15,
                    "z(" + std::to_string(q) + ")");
            // Round trip through erfc, the upper tail it was solved for.
            compare(0.5 * std::erfc(z / std::numbers::sqrt2), q, 1e-13, "Q(z(" + std::to_string(q) + "))");
        }
    }

    void studentTQuantileMatchesClosedFormsAndBoost()
    {
        for (double tail : {1e-9, 1e-6, 0.025, 0.3}) {
            const double p = 1.0 - tail;
            const double q = 1.0 - p;  // exact
            compare(studentTQuantile(p, 1.0), 1.0 / std::tan(std::numbers::pi * q), 1e-15, at("t", p, 1.0));
            compare(studentTQuantile(p, 2.0), (1.0 - 2.0 * q) / std::sqrt(2.0 * q * (1.0 - q)), 1e-14, at("t", p, 2.0));
        }
        // Even degrees of freedom: the upper tail in closed form (Abramowitz & Stegun 1964, 26.7.3).
        const auto evenTail = [](double t, int dof) {
            const double theta = std::atan(t / std::sqrt(dof));
            const double c2 = std::cos(theta) * std::cos(theta);
            double sum = 1.0;
            double term = 1.0;
            for (int j = 1; j < dof / 2; ++j) {
                term *= (2.0 * j - 1.0) / (2.0 * j) * c2;
                sum += term;
            }
            return 0.5 * (1.0 - std::sin(theta) * sum);
        };
        for (int dof : {4, 10, 30})
            for (double q : {0.1, 0.025, 0.005})
                compare(evenTail(studentTQuantile(1.0 - q, dof), dof), q, 1e-13, at("tail of t", 1.0 - q, dof));
        QCOMPARE(studentTQuantile(0.5, 7.0), 0.0);
        for (double dof : {1.0, 1.5, 2.0, 3.0, 4.5, 5.0, 10.0, 30.0, 100.0, 999.0, 2000.0, 2001.0, 5000.0, 1e5, 1e7})
            for (double p : {0.025, 0.3, 0.6, 0.9, 0.975, 0.995, 1.0 - 1e-6}) {
                const double t = studentTQuantile(p, dof);
                // Boost's quantile is good to about 1e-11 here (its own distribution function puts
                // the tail of its quantile that far off), its distribution function to a few ulp:
                // the tail at t must come back as the tail asked for.
                compare(t, boost::math::quantile(boost::math::students_t(dof), p), 1e-10, at("t", p, dof));
                compare(boost::math::cdf(boost::math::complement(boost::math::students_t(dof), std::fabs(t))),
                        std::min(p, 1.0 - p), 6e-13, at("tail of t", p, dof));
            }
    }

    void chiSquaredQuantileMatchesClosedFormAndBoost()
    {
        for (double p : {0.05, 0.5, 0.95, 0.99})
            compare(chiSquaredQuantile(p, 2.0), -2.0 * std::log1p(-p), 1e-14, at("chi2", p, 2.0));
        compare(chiSquaredQuantile(0.95, 1.0), 3.841458820694124, 1e-14, "chi2(0.95, 1)");
        QCOMPARE(chiSquaredQuantile(0.0, 3.0), 0.0);
        for (double k : {0.5, 1.0, 2.0, 3.0, 7.0, 20.0, 100.0, 1000.0, 1e5})
            for (double p : {1e-6, 0.01, 0.05, 0.5, 0.95, 0.99, 1.0 - 1e-8})
                compare(chiSquaredQuantile(p, k), boost::math::quantile(boost::math::chi_squared(k), p), 1e-11,
                        at("chi2", p, k));
    }

    void binomialTailMatchesBoost()
    {
        for (double n : {1.0, 5.0, 25.0, 100.0, 1000.0})
            for (double p : {0.01, 0.05, 0.5, 0.9})
                for (double k = 0; k < n; k += n > 100 ? 37.0 : 1.0) {
                    const double expected = boost::math::cdf(boost::math::complement(boost::math::binomial(n, p), k));
                    if (expected < 1e-290)
                        continue;  // below the range where either keeps relative precision
                    compare(binomialUpperTail(k, n, p), expected, 1e-11,
                            "P(X > " + std::to_string(k) + ") of B" + at("", n, p));
                }
        QCOMPARE(binomialUpperTail(-1.0, 10.0, 0.3), 1.0);
        QCOMPARE(binomialUpperTail(10.0, 10.0, 0.3), 0.0);
        // P(X > 0) = 1 - (1 - p)^n.
        compare(binomialUpperTail(0.0, 25.0, 0.01), -std::expm1(25.0 * std::log1p(-0.01)), 1e-13, "P(X > 0)");
    }

    void incompleteFunctionsMatchBoost()
    {
        for (double a : {0.5, 1.0, 3.5, 20.0, 400.0})
            for (double b : {0.5, 1.0, 7.0, 150.0})
                for (double x : {1e-4, 0.1, 0.5, 0.9, 0.9999})
                    compare(regularizedBeta(x, a, b), boost::math::ibeta(a, b, x),
                            boost::math::ibeta(a, b, x) < 1e-200 ? 1e-9 : 1e-12,
                            "I(" + std::to_string(x) + ", " + std::to_string(a) + ", " + std::to_string(b) + ")");
        for (double a : {0.25, 1.0, 2.5, 30.0, 1000.0})
            for (double x : {1e-3, 0.5, 2.0, 29.0, 31.0, 900.0, 1100.0}) {
                compare(regularizedGammaP(a, x), boost::math::gamma_p(a, x), 1e-12, at("P", a, x));
                compare(regularizedGammaQ(a, x), boost::math::gamma_q(a, x), 1e-11, at("Q", a, x));
            }
        QCOMPARE(regularizedBeta(0.0, 2.0, 3.0), 0.0);
        QCOMPARE(regularizedBeta(1.0, 2.0, 3.0), 1.0);
        QCOMPARE(regularizedGammaP(2.0, 0.0), 0.0);
        QCOMPARE(regularizedGammaQ(2.0, 0.0), 1.0);
    }

    void outsideTheDomainIsNaN()
    {
        QVERIFY(std::isnan(normalUpperQuantile(0.0)));
        QVERIFY(std::isnan(normalUpperQuantile(1.0)));
        QVERIFY(std::isnan(normalUpperQuantile(std::nan(""))));
        QVERIFY(std::isnan(studentTQuantile(0.975, 0.0)));
        QVERIFY(std::isnan(studentTQuantile(1.0, 5.0)));
        QVERIFY(std::isnan(chiSquaredQuantile(1.0, 3.0)));
        QVERIFY(std::isnan(chiSquaredQuantile(0.5, -1.0)));
        QVERIFY(std::isnan(binomialUpperTail(1.0, 10.0, 1.5)));
        QVERIFY(std::isnan(regularizedBeta(1.5, 1.0, 1.0)));
        QVERIFY(std::isnan(regularizedGammaP(-1.0, 1.0)));
    }
};

QTEST_APPLESS_MAIN(TestDistributions)
#include "test_distributions.moc"
