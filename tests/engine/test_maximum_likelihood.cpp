// Maximum likelihood with the output noise variances estimated (seed 000, eq. 2.11-2.13) against known answers:
//  - outputs with parameters of their own: the likelihood separates, so each output's parameters are its own
//    least-squares estimate, sigma_j^2 = RSS_j / n_j and the covariance sigma_j^2 (X'X)^-1 exactly (closed form),
//    with the variance shared by two data sets of different length;
//  - one parameter shared by two outputs of very different noise: the root of d(-ln L)/da found by bisection
//    in the test, with and without a Gaussian prior (the Bayesian estimator with estimated variances);
//  - the local model handed to the minimiser has -ln L's slope and curvature (its closed form);
//  - every accepted step lowers -ln L, the reported cost is -ln L, and -2 ln L is twice it;
//  - weights given for another method are ignored; the result JSON and the project's method round-trip.
#include "EstimateTestSupport.h"

#include "engine/estimate/MethodTraits.h"
#include "engine/estimate/NoiseVariances.h"
#include "engine/estimate/OutputErrorProblem.h"
#include "engine/project/Project.h"
#include "engine/project/ResultJson.h"

#include <QtTest>

#include <cmath>
#include <fstream>
#include <functional>
#include <numbers>
#include <random>

using namespace sysid;

namespace {

std::shared_ptr<const eval::CompiledModelSource> compiled(const std::string& text)
{
    return eval::compileModel(model::parseModel(text, "ml.model"));
}

std::vector<double> grid(std::size_t n, double end)
{
    std::vector<double> t(n);
    for (std::size_t i = 0; i < n; ++i)
        t[i] = end * static_cast<double>(i) / static_cast<double>(n - 1);
    return t;
}

// An experiment measuring two outputs, f1(t) + s1 * noise and f2(t) + s2 * noise (Gaussian, seeded).
estimate::Experiment twoOutputs(const std::vector<double>& t, const std::function<double(double)>& f1,
                                const std::function<double(double)>& f2, double s1, double s2, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    estimate::Experiment e;
    e.name = "record";
    e.times = t;
    e.measured.resize(static_cast<Eigen::Index>(t.size()), 2);
    for (std::size_t i = 0; i < t.size(); ++i) {
        const auto ii = static_cast<Eigen::Index>(i);
        e.measured(ii, 0) = f1(t[i]) + s1 * normal(rng);
        e.measured(ii, 1) = f2(t[i]) + s2 * normal(rng);
    }
    e.outputMeasured = {true, true};
    return e;
}

estimate::FitSettings mlSettings()
{
    estimate::FitSettings s;
    s.method = estimate::EstimationMethod::MaximumLikelihood;
    s.integrator = test::tight();
    return s;
}

const estimate::ParameterEstimate& estimateOf(const estimate::FitResult& r, const std::string& name)
{
    for (const auto& p : r.parameters)
        if (p.name == name)
            return p;
    throw std::invalid_argument("no estimate of " + name);
}

// The root of a continuous function with a sign change on [lo, hi], by bisection.
double bisect(const std::function<double(double)>& f, double lo, double hi)
{
    double flo = f(lo);
    for (int i = 0; i < 200 && hi - lo > 1e-15 * std::abs(hi); ++i) {
        const double mid = 0.5 * (lo + hi), fmid = f(mid);
        if ((fmid < 0) == (flo < 0)) {
            lo = mid;
            flo = fmid;
        } else {
            hi = mid;
        }
    }
    return 0.5 * (lo + hi);
}

bool costsNeverRise(const estimate::FitResult& r)
{
    for (std::size_t k = 1; k < r.history.size(); ++k)
        if (r.history[k].cost > r.history[k - 1].cost)
            return false;
    return true;
}

// y1 = a*t (sd 0.01) and y2 = a*t^2 (sd 0.5), a = 2, 101 samples on [0, 1].
struct SharedParameterCase {
    std::shared_ptr<const eval::CompiledModelSource> model = compiled("state z = 0\n"
                                                                      "z' = 0\n"
                                                                      "param a = 1.5 [0, 10]\n"
                                                                      "output y1 = a*t unit m\n"
                                                                      "output y2 = a*t^2 unit m/s\n");
    std::vector<double> t = grid(101, 1.0);
    estimate::Experiment data = twoOutputs(
        t, [](double x) { return 2.0 * x; }, [](double x) { return 2.0 * x * x; }, 0.01, 0.5, 7);
    double n = 101.0;

    // M_11(a), M_22(a) and their derivatives in a.
    double m1(double a) const { return (data.measured.col(0) - a * column(1)).squaredNorm(); }
    double m2(double a) const { return (data.measured.col(1) - a * column(2)).squaredNorm(); }
    double dm1(double a) const { return -2.0 * column(1).dot(data.measured.col(0) - a * column(1)); }
    double dm2(double a) const { return -2.0 * column(2).dot(data.measured.col(1) - a * column(2)); }
    Eigen::VectorXd column(int power) const
    {
        Eigen::VectorXd c(static_cast<Eigen::Index>(t.size()));
        for (std::size_t i = 0; i < t.size(); ++i)
            c(static_cast<Eigen::Index>(i)) = std::pow(t[i], power);
        return c;
    }
    // -ln L with both variances maximised out (eq. 2.12).
    double negativeLogLikelihood(double a) const
    {
        return 0.5 * n * (std::log(2 * std::numbers::pi * m1(a) / n) + 1) +
            0.5 * n * (std::log(2 * std::numbers::pi * m2(a) / n) + 1);
    }
    double slope(double a) const { return 0.5 * n * (dm1(a) / m1(a) + dm2(a) / m2(a)); }
    // d2/da2 of n/2 ln M: n/2 (M''/M - (M'/M)^2), M'' = 2 sum t^(2 power).
    double curvature(double a) const
    {
        const double d1 = dm1(a) / m1(a), d2 = dm2(a) / m2(a);
        return 0.5 * n *
            (2 * column(1).squaredNorm() / m1(a) - d1 * d1 + 2 * column(2).squaredNorm() / m2(a) - d2 * d2);
    }
};

}  // namespace

class TestMaximumLikelihood : public QObject {
    Q_OBJECT

private slots:
    void theMethodIsOneRowOfTheTable()
    {
        using estimate::MethodInput;
        const auto method = estimate::kEstimationMethods.parse("ml");
        QVERIFY(method.has_value());
        QVERIFY(*method == estimate::EstimationMethod::MaximumLikelihood);
        const auto& row = estimate::traitsOf(*method);
        QVERIFY(row.weighting == estimate::OutputWeighting::Estimated);
        QVERIFY(row.objective == estimate::Objective::OutputError);
        QVERIFY(row.takes(MethodInput::Priors));
        QVERIFY(!row.takes(MethodInput::OutputWeights));  // estimated, so not given
        QCOMPARE(estimate::notTakenMessage("--weight", {MethodInput::OutputWeights}, *method),
                 std::string("--weight is for --method output-error, multiple-shooting, bayes, periodic-response or "
                             "steepest-descent, not ml"));
    }

    // Outputs with parameters of their own: y1 = a + b t (sd 0.01), y2 = c t (sd 1), in two data sets of 101 and 51
    // samples. -ln L = n/2 ln M_11(a, b) + n/2 ln M_22(c) + const separates, so (a, b) and c are the least-squares
    // estimates of their outputs over both records, sigma_j^2 = RSS_j / n_j and cov = sigma_j^2 (X'X)^-1.
    void separateOutputsGiveEachOutputsLeastSquares()
    {
        const auto model = compiled("state z = 0\n"
                                    "z' = 0\n"
                                    "param a = 0.5 [-10, 10]\n"
                                    "param b = 0.2 [-10, 10]\n"
                                    "param c = 1.5 [-10, 10]\n"
                                    "output y1 = a + b*t\n"
                                    "output y2 = c*t\n");
        const auto f1 = [](double x) { return 1.0 + 2.0 * x; };
        const auto f2 = [](double x) { return 3.0 * x; };
        const std::vector<estimate::Experiment> data{twoOutputs(grid(101, 1.0), f1, f2, 0.01, 1.0, 1),
                                                     twoOutputs(grid(51, 2.0), f1, f2, 0.01, 1.0, 2)};
        const auto r = estimate::fit(model, model->parameterValues, data, mlSettings());
        QVERIFY2(r.converged(), r.termination.message.c_str());

        // The closed form over the stacked records.
        const Eigen::Index n = 152;
        Eigen::MatrixXd x1(n, 2);
        Eigen::VectorXd t(n), y1(n), y2(n);
        Eigen::Index row = 0;
        for (const auto& e : data)
            for (std::size_t i = 0; i < e.times.size(); ++i, ++row) {
                t(row) = e.times[i];
                x1.row(row) << 1.0, e.times[i];
                y1(row) = e.measured(static_cast<Eigen::Index>(i), 0);
                y2(row) = e.measured(static_cast<Eigen::Index>(i), 1);
            }
        const Eigen::Matrix2d xtx = x1.transpose() * x1;
        const Eigen::Vector2d ab = xtx.ldlt().solve(x1.transpose() * y1);
        const double c = t.dot(y2) / t.squaredNorm();
        const double rss1 = (y1 - x1 * ab).squaredNorm(), rss2 = (y2 - c * t).squaredNorm();
        const double s1 = std::sqrt(rss1 / n), s2 = std::sqrt(rss2 / n);
        const Eigen::Matrix2d cov1 = s1 * s1 * xtx.inverse();

        QVERIFY(std::abs(estimateOf(r, "a").value - ab(0)) < 1e-9);
        QVERIFY(std::abs(estimateOf(r, "b").value - ab(1)) < 1e-9);
        QVERIFY(std::abs(estimateOf(r, "c").value - c) < 1e-8);
        QVERIFY(std::abs(estimateOf(r, "a").sd / std::sqrt(cov1(0, 0)) - 1) < 1e-6);
        QVERIFY(std::abs(estimateOf(r, "b").sd / std::sqrt(cov1(1, 1)) - 1) < 1e-6);
        QVERIFY(std::abs(estimateOf(r, "c").sd / (s2 / t.norm()) - 1) < 1e-6);

        QCOMPARE(r.noise.size(), std::size_t{2});
        QCOMPARE(r.noise[0].output, std::string("y1"));
        QCOMPARE(r.noise[0].samples, std::size_t{152});
        QVERIFY(std::abs(r.noise[0].value / s1 - 1) < 1e-9);
        QVERIFY(std::abs(r.noise[1].value / s2 - 1) < 1e-9);
        QVERIFY(std::abs(r.noise[0].sd / (s1 / std::sqrt(2.0 * n)) - 1) < 1e-9);
        QVERIFY(std::abs(r.noise[1].sd / (s2 / std::sqrt(2.0 * n)) - 1) < 1e-9);

        // The cost is -ln L; -2 ln L in the result is twice it.
        const double nll = 0.5 * n * (std::log(2 * std::numbers::pi * s1 * s1) + 1) +
            0.5 * n * (std::log(2 * std::numbers::pi * s2 * s2) + 1);
        QVERIFY(std::abs(r.cost - nll) < 1e-9 * std::abs(nll));
        QVERIFY(std::abs(r.likelihood.minusTwoLog - 2 * nll) < 1e-9 * std::abs(nll));
        QCOMPARE(r.likelihood.samples, std::size_t{304});
        QCOMPARE(r.likelihood.noiseVariances, std::size_t{2});
        QCOMPARE(r.likelihood.parameters, std::size_t{3});
        QVERIFY(costsNeverRise(r));
    }

    // One parameter in both outputs: the ML estimate is the root of d(-ln L)/da (found here by bisection), between
    // the two outputs' own estimates and close to the precise output's; sd(a) from the Fisher information
    // 1 / (sum t^2 / s1^2 + sum t^4 / s2^2) at the estimated variances.
    void sharedParameterSolvesTheLikelihoodEquation()
    {
        const SharedParameterCase c;
        const auto r = estimate::fit(c.model, c.model->parameterValues, {c.data}, mlSettings());
        QVERIFY2(r.converged(), r.termination.message.c_str());
        QVERIFY(c.slope(1.9) < 0 && c.slope(2.1) > 0);
        const double a = bisect([&](double x) { return c.slope(x); }, 1.9, 2.1);
        QVERIFY2(std::abs(estimateOf(r, "a").value - a) < 1e-9,
                 qPrintable(QStringLiteral("%1 vs %2").arg(estimateOf(r, "a").value, 0, 'g', 15).arg(a, 0, 'g', 15)));
        QVERIFY(std::abs(r.cost - c.negativeLogLikelihood(a)) < 1e-10 * std::abs(r.cost));
        const double v1 = c.m1(a) / c.n, v2 = c.m2(a) / c.n;
        const double sd = 1.0 / std::sqrt(c.column(1).squaredNorm() / v1 + c.column(2).squaredNorm() / v2);
        QVERIFY(std::abs(estimateOf(r, "a").sd / sd - 1) < 1e-6);
        QVERIFY(std::abs(r.noise[0].value / std::sqrt(v1) - 1) < 1e-9);
        QVERIFY(std::abs(r.noise[1].value / std::sqrt(v2) - 1) < 1e-9);
        QCOMPARE(r.noise[1].unit, std::string("m/s"));  // the output's
        QVERIFY(costsNeverRise(r));

        // Equal weights let the noisy output pull the estimate: a worse answer on this record.
        estimate::FitSettings equal = mlSettings();
        equal.method = estimate::EstimationMethod::OutputError;
        equal.outputWeights = {{"y1", 1.0}, {"y2", 1.0}};
        const auto unweighted = estimate::fit(c.model, c.model->parameterValues, {c.data}, equal);
        QVERIFY(std::abs(estimateOf(unweighted, "a").value - 2.0) > 5 * std::abs(estimateOf(r, "a").value - 2.0));
    }

    // The local model the minimiser gets: its gradient J'r is d(-ln L)/da, and J'J - curvature is d2(-ln L)/da2 —
    // exactly, as the outputs are linear in a (the closed form's derivatives in the test).
    void localModelHasTheLikelihoodsSlopeAndCurvature()
    {
        const SharedParameterCase c;
        const std::vector<estimate::Experiment> data{c.data};
        const auto layout = estimate::layoutFor(*c.model, c.model->parameterValues, data);
        estimate::OutputErrorProblem problem(c.model, layout, data, {1.0, 1.0}, {std::nullopt}, test::tight());
        problem.estimateNoiseVariances(estimate::noiseVarianceFloors(data, 2));
        for (const double a : {1.8, 2.0, 2.3}) {
            estimate::Linearization l;
            std::string failure;
            QVERIFY2(problem.evaluate(Eigen::VectorXd::Constant(1, a - 1.5), l, failure, {}), failure.c_str());
            QVERIFY(l.likelihood);
            QVERIFY(std::abs(l.merit - c.negativeLogLikelihood(a)) < 1e-12 * std::abs(l.merit));
            QVERIFY(std::abs(0.5 * l.residuals.squaredNorm() - c.n) < 1e-9);  // n/2 per output: the frozen cost
            const double slope = (l.jacobian.transpose() * l.residuals)(0);
            QVERIFY(std::abs(slope / c.slope(a) - 1) < 1e-9);
            const double second = c.curvature(a);
            const double model = (l.jacobian.transpose() * l.jacobian)(0, 0) - l.curvature(0, 0);
            QVERIFY2(std::abs(model / second - 1) < 1e-6,
                     qPrintable(QStringLiteral("a %1: model %2, -ln L'' %3").arg(a).arg(model).arg(second)));
        }
    }

    // With a prior a ~ N(1.99, 0.002) the objective is -ln L + 1/2 ((a - 1.99)/0.002)^2 (the Bayesian estimator with
    // estimated variances, eq. 2.10 with 2.12); its stationary point by bisection, the cost with the prior's term.
    void priorAddsItsTermToTheLikelihood()
    {
        const SharedParameterCase c;
        estimate::FitSettings s = mlSettings();
        s.priors = {{"a", {1.99, 0.002}}};
        const auto r = estimate::fit(c.model, c.model->parameterValues, {c.data}, s);
        QVERIFY2(r.converged(), r.termination.message.c_str());
        const auto objective = [&](double a) {
            return c.negativeLogLikelihood(a) + 0.5 * std::pow((a - 1.99) / 0.002, 2);
        };
        const auto slope = [&](double a) { return c.slope(a) + (a - 1.99) / (0.002 * 0.002); };
        QVERIFY(slope(1.9) < 0 && slope(2.1) > 0);
        const double a = bisect(slope, 1.9, 2.1);
        QVERIFY(std::abs(estimateOf(r, "a").value - a) < 1e-9);
        QVERIFY(std::abs(r.cost - objective(a)) < 1e-10 * std::abs(r.cost));
        // The likelihood block holds the data's -2 ln L alone.
        const double estimate = estimateOf(r, "a").value;
        QVERIFY(std::abs(r.likelihood.minusTwoLog - 2 * c.negativeLogLikelihood(estimate)) <
                1e-10 * std::abs(r.likelihood.minusTwoLog));
        const double v1 = c.m1(a) / c.n, v2 = c.m2(a) / c.n;
        const double sd =
            1.0 / std::sqrt(c.column(1).squaredNorm() / v1 + c.column(2).squaredNorm() / v2 + 1.0 / (0.002 * 0.002));
        QVERIFY(std::abs(estimateOf(r, "a").sd / sd - 1) < 1e-6);
        QVERIFY(costsNeverRise(r));
    }

    // Noise-free data: each variance stops at its floor (1e-12 of the output's mean square), so -ln L stays finite
    // and the fit ends at the exact answer instead of chasing an infinite likelihood.
    void noiseFreeDataStopAtTheFloor()
    {
        SharedParameterCase c;
        c.data = twoOutputs(
            c.t, [](double x) { return 2.0 * x; }, [](double x) { return 2.0 * x * x; }, 0.0, 0.0, 1);
        const auto r = estimate::fit(c.model, c.model->parameterValues, {c.data}, mlSettings());
        QVERIFY2(r.converged(), r.termination.message.c_str());
        QVERIFY(std::abs(estimateOf(r, "a").value - 2.0) < 1e-9);
        QVERIFY(std::isfinite(r.cost));
        const auto floors = estimate::noiseVarianceFloors({c.data}, 2);
        for (std::size_t j = 0; j < 2; ++j)
            QVERIFY(std::abs(r.noise[j].value / std::sqrt(floors[j]) - 1) < 1e-6);
        QVERIFY(costsNeverRise(r));
    }

    // Weights belong to the methods that take them: a project's weights do not change a maximum-likelihood fit.
    void givenWeightsAreIgnored()
    {
        const SharedParameterCase c;
        estimate::FitSettings s = mlSettings();
        const auto plain = estimate::fit(c.model, c.model->parameterValues, {c.data}, s);
        s.outputWeights = {{"y1", 1e-6}, {"y2", 1e6}};
        const auto weighted = estimate::fit(c.model, c.model->parameterValues, {c.data}, s);
        QCOMPARE(weighted.parameters[0].value, plain.parameters[0].value);
        QCOMPARE(weighted.cost, plain.cost);
    }

    // Least-squares fits report the likelihood too (for information criteria), with each variance at RSS/n.
    void leastSquaresFitsReportTheirLikelihood()
    {
        const SharedParameterCase c;
        estimate::FitSettings s = mlSettings();
        s.method = estimate::EstimationMethod::OutputError;
        const auto r = estimate::fit(c.model, c.model->parameterValues, {c.data}, s);
        QVERIFY(r.noise.empty());
        const double a = estimateOf(r, "a").value;
        QVERIFY(std::abs(r.likelihood.minusTwoLog - 2 * c.negativeLogLikelihood(a)) <
                1e-10 * std::abs(r.likelihood.minusTwoLog));
        QCOMPARE(r.likelihood.noiseVariances, std::size_t{2});
    }

    void resultJsonRoundTrip()
    {
        const SharedParameterCase c;
        const auto r = estimate::fit(c.model, c.model->parameterValues, {c.data}, mlSettings());
        const nlohmann::json j = project::resultToJson(r);
        QVERIFY(j.contains("noise_sd"));
        QCOMPARE(j["noise_sd"]["y2"]["value"].get<double>(), r.noise[1].value);
        QCOMPARE(j["noise_sd"]["y2"]["std"].get<double>(), r.noise[1].sd);
        QCOMPARE(j["likelihood"]["minus_two_log_likelihood"].get<double>(), r.likelihood.minusTwoLog);
        const auto back = project::resultFromJson(nlohmann::json::parse(j.dump()));
        QCOMPARE(back.noise.size(), r.noise.size());
        for (std::size_t k = 0; k < r.noise.size(); ++k) {
            QCOMPARE(back.noise[k].output, r.noise[k].output);
            QCOMPARE(back.noise[k].value, r.noise[k].value);
            QCOMPARE(back.noise[k].sd, r.noise[k].sd);
            QCOMPARE(back.noise[k].samples, r.noise[k].samples);
            QCOMPARE(back.noise[k].unit, r.noise[k].unit);
        }
        QCOMPARE(back.likelihood.minusTwoLog, r.likelihood.minusTwoLog);
        QCOMPARE(back.likelihood.samples, r.likelihood.samples);
        QCOMPARE(back.likelihood.noiseVariances, r.likelihood.noiseVariances);
        QCOMPARE(back.likelihood.parameters, r.likelihood.parameters);
        // A result without them (least squares of equation error, older files) reads as before.
        nlohmann::json old = j;
        old.erase("noise_sd");
        old.erase("likelihood");
        const auto older = project::resultFromJson(old);
        QVERIFY(older.noise.empty());
        QVERIFY(std::isnan(older.likelihood.minusTwoLog));
    }

    void projectKeepsTheMethod()
    {
        project::Project p;
        p.modelText = "param c = 0.1\nx'' = -c*x' - x\nx(0) = 1, 0\noutput x\n";
        p.settings.method = estimate::EstimationMethod::MaximumLikelihood;
        p.settings.priors = {{"c", {0.2, 0.05}}};
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("ml.sysid")).toStdString();
        project::saveProject(p, path);
        std::ifstream in(path);
        const auto j = nlohmann::json::parse(in);
        QCOMPARE(j["method"].get<std::string>(), std::string("ml"));
        const project::Project back = project::loadProject(path);
        QVERIFY(back.settings.method == estimate::EstimationMethod::MaximumLikelihood);
        QCOMPARE(back.settings.priors.at("c").sd, 0.05);
    }
};

QTEST_APPLESS_MAIN(TestMaximumLikelihood)
#include "test_maximum_likelihood.moc"
