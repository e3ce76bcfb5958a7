// Profile likelihood (engine/job/ProfileLikelihood). Known answers: for a model linear in its
// parameters the profile interval equals the Wald interval, and both equal the closed-form least-squares
// interval; with a Gaussian prior, the posterior's. The cascaded tanks' plain model (measured data)
// with the pump gain k4 estimated has a scale symmetry (x1 -> c x1, k1 -> sqrt(c) k1, k2 -> k2/sqrt(c),
// k4 -> c k4): k1, k2, k4 and x1(0) have flat profiles, and with k4 fixed they are identifiable.
// A decay much faster than the sampling bounds its rate from below only. Also: thread-count
// independence, cancel, refusals, a held initial value of a second record.

#include "engine/data/DataTable.h"
#include "engine/data/Noise.h"
#include "engine/job/PreparedFit.h"
#include "engine/job/ProfileLikelihood.h"
#include "engine/project/ProfileJson.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"

#include <QtTest>

#include <Eigen/Dense>

#include <atomic>
#include <cmath>
#include <string>
#include <vector>

using namespace sysid;

namespace {

// x' = a + b t, x(0) = 0: x(t) = a t + b t^2 / 2, linear in (a, b); dopri5 integrates it exactly.
const std::string kLinearModel = "param a = 0.5 [-100, 100]\n"
                                 "param b = 0.5 [-100, 100]\n"
                                 "state x = 0\n"
                                 "x' = a + b*t\n"
                                 "output x\n";

std::vector<double> grid(double tEnd, std::size_t intervals)
{
    std::vector<double> t;
    for (std::size_t k = 0; k <= intervals; ++k)
        t.push_back(tEnd * static_cast<double>(k) / static_cast<double>(intervals));
    return t;
}

data::DataTable table(const std::vector<std::string>& names, const std::vector<std::vector<double>>& columns)
{
    data::DataTable out;
    out.source = "record.csv";
    out.columnNames = names;
    out.columns = columns;
    out.timeColumn = 0;
    return out;
}

job::FitJob linearJob()
{
    const std::vector<double> t = grid(2.0, 40);
    std::vector<double> x;
    for (const double s : t)
        x.push_back(1.0 * s + 2.0 * s * s / 2);
    job::FitJob fit;
    fit.modelText = kLinearModel;
    fit.modelSource = "linear.model";
    job::ExperimentData experiment;
    experiment.table = table({"t", "x"}, {t, x});
    fit.experiments.push_back(experiment);
    fit.preprocessing.noise = data::Preprocessing::AddedNoise{5.0, data::NoiseDistribution::Gaussian, 7};
    return fit;
}

// The closed-form least-squares estimate of (a, b) on the noisy record the fit sees, its residual
// sum of squares and (X'X)^-1: the interval theta_i +- sqrt(q s^2 (X'X)^-1_ii), s^2 = RSS/(m - 2).
struct LeastSquares {
    Eigen::Vector2d theta;
    double rss;
    Eigen::Matrix2d inverseNormal;
    std::size_t m;
};

LeastSquares closedForm(const job::FitJob& fit)
{
    const data::DataTable noisy = job::preprocessedRecord(fit.experiments[0].table, fit.preprocessing, 0);
    const auto& t = noisy.columns[0];
    const auto& y = noisy.columns[1];
    const auto m = static_cast<Eigen::Index>(t.size());
    Eigen::MatrixXd X(m, 2);
    Eigen::VectorXd Y(m);
    for (Eigen::Index k = 0; k < m; ++k) {
        X(k, 0) = t[static_cast<std::size_t>(k)];
        X(k, 1) = t[static_cast<std::size_t>(k)] * t[static_cast<std::size_t>(k)] / 2;
        Y(k) = y[static_cast<std::size_t>(k)];
    }
    LeastSquares ls;
    ls.inverseNormal = (X.transpose() * X).inverse();
    ls.theta = ls.inverseNormal * X.transpose() * Y;
    ls.rss = (Y - X * ls.theta).squaredNorm();
    ls.m = t.size();
    return ls;
}

bool near(double a, double b, double tolerance)
{
    return std::abs(a - b) <= tolerance;
}

job::FitJob tanksJob(bool k4Fixed)
{
    const project::Project project =
        project::loadProject(std::string(SYSID_SOURCE_DIR) + "/resources/examples/cascaded_tanks.sysid");
    job::FitJob fit = project::makeFitJob(project);
    if (!k4Fixed) {
        const std::string fixedLine = "param k4 = 0.05 fixed";
        const auto at = fit.modelText.find(fixedLine);
        if (at == std::string::npos)
            qFatal("the tanks example no longer fixes k4 as expected");
        fit.modelText.replace(at, fixedLine.size(), "param k4 = 0.05 [0, 10]");
    }
    return fit;
}

// x' = -k x from x(0) = 1 sampled once per second: with k = 8 the state is below the noise from the
// second sample on, so any faster decay fits as well, while a slower one does not.
job::FitJob fastDecayJob()
{
    const std::vector<double> t = grid(10.0, 10);
    std::vector<double> x;
    for (const double s : t)
        x.push_back(std::exp(-8.0 * s));
    job::FitJob fit;
    fit.modelText = "param k = 5 [0.01, 60]\nstate x = 1\nx' = -k*x\noutput x\n";
    fit.modelSource = "decay.model";
    job::ExperimentData experiment;
    experiment.table = table({"t", "x"}, {t, x});
    fit.experiments.push_back(experiment);
    fit.preprocessing.noise = data::Preprocessing::AddedNoise{3.0, data::NoiseDistribution::Gaussian, 11};
    fit.settings.outputWeights["x"] = 1.0;
    return fit;
}

const job::ParameterProfile& profileOf(const job::ProfileResult& result, const std::string& name)
{
    for (const auto& p : result.profiles)
        if (p.name == name)
            return p;
    qFatal("no profile of %s", name.c_str());
}

void printProfile(const job::ProfileResult& result, const job::ParameterProfile& p)
{
    qInfo("%s: estimate %.6g sd %.3g, interval [%s, %s], Wald [%.6g, %.6g], %s, largest rise %.3g, %zu + %zu points "
          "(%s / %s)",
          p.name.c_str(), p.estimate, p.sd, p.low ? std::to_string(*p.low).c_str() : "open",
          p.high ? std::to_string(*p.high).c_str() : "open", p.waldInterval[0], p.waldInterval[1],
          job::verdictName(p.verdict).c_str(), p.largestRise, p.lower.points.size(), p.upper.points.size(),
          std::string(job::kProfileSideEnds.name(p.lower.end)).c_str(),
          std::string(job::kProfileSideEnds.name(p.upper.end)).c_str());
    for (const auto& point : p.points(result.optimum))
        qInfo("    %.8g  %.6g", point.value, point.objective - result.objectiveAtOptimum);
}

}  // namespace

class TestProfileLikelihood : public QObject {
    Q_OBJECT

private slots:
    void linearModelProfileIsTheWaldInterval()
    {
        job::ProfileLikelihood profile;
        profile.fit = linearJob();
        const job::ProfileResult result = profile.run();
        QVERIFY(!result.cancelled);
        QCOMPARE(result.profiles.size(), std::size_t{2});
        QVERIFY(near(result.threshold, 3.841458820694124, 1e-12));  // scipy.stats.chi2.ppf(0.95, 1)
        const LeastSquares ls = closedForm(profile.fit);
        const double s2 = ls.rss / static_cast<double>(ls.m - 2);
        for (int i = 0; i < 2; ++i) {
            const job::ParameterProfile& p = result.profiles[static_cast<std::size_t>(i)];
            printProfile(result, p);
            const double half = std::sqrt(result.threshold * s2 * ls.inverseNormal(i, i));
            QCOMPARE(p.verdict, job::ProfileVerdict::Identifiable);
            QVERIFY(p.low && p.high);
            // Closed form against the fit, the Wald interval and the profile: to the fit's convergence.
            QVERIFY(near(p.estimate, ls.theta(i), 1e-8 * half));
            QVERIFY(near(p.waldInterval[0], ls.theta(i) - half, 1e-6 * half));
            QVERIFY(near(p.waldInterval[1], ls.theta(i) + half, 1e-6 * half));
            QVERIFY2(near(*p.low, p.waldInterval[0], 1e-6 * half), p.name.c_str());
            QVERIFY2(near(*p.high, p.waldInterval[1], 1e-6 * half), p.name.c_str());
            // Evenly spaced in sqrt(rise): about 8 steps to the threshold, each side.
            QVERIFY(p.lower.points.size() >= 7 && p.lower.points.size() <= 10);
            QVERIFY(p.upper.points.size() >= 7 && p.upper.points.size() <= 10);
            // The profile is the parabola (theta - estimate)^2 / sd^2 at every point.
            for (const auto& point : p.points(result.optimum)) {
                const double expected = std::pow((point.value - p.estimate) / p.sd, 2);
                QVERIFY(near(point.objective - result.objectiveAtOptimum, expected, 1e-6 * (1 + expected)));
                QCOMPARE(point.parameters[static_cast<std::size_t>(i)], point.value);
            }
        }
        QVERIFY(std::isnan(result.lowerObjective));
        QCOMPARE(result.ranks, 1);
    }

    void simultaneousIntervalsUseChiSquaredWithPDegrees()
    {
        job::ProfileLikelihood profile;
        profile.fit = linearJob();
        profile.parameters = {"b"};
        profile.settings.simultaneous = true;
        profile.settings.confidence = 0.9;
        const job::ProfileResult result = profile.run();
        QVERIFY(near(result.threshold, 4.605170185988091, 1e-12));  // scipy.stats.chi2.ppf(0.9, 2)
        QCOMPARE(result.profiles.size(), std::size_t{1});
        const auto& b = result.profiles[0];
        QVERIFY(b.low && b.high);
        QVERIFY(near(*b.high - *b.low, 2 * std::sqrt(result.threshold) * b.sd, 1e-6 * b.sd));
    }

    void priorEntersTheProfileAsThePosterior()
    {
        // Bayes with a prior a ~ N(1.2, 0.02^2) and the weight w = 400 taken as the inverse noise
        // variance: the objective w |r|^2 + ((a - 1.2)/0.02)^2 is the -2 log posterior, quadratic, so
        // the profile interval is theta_i -+ sqrt(3.84 (H^-1)_ii) with H = w X'X + diag(1/0.02^2, 0),
        // centred on the posterior mode H^-1 (w X'y + (1.2/0.02^2, 0)).
        job::ProfileLikelihood profile;
        profile.fit = linearJob();
        profile.fit.settings.method = estimate::EstimationMethod::Bayes;
        profile.fit.settings.priors["a"] = {1.2, 0.02};
        const double w = 400;
        profile.fit.settings.outputWeights["x"] = w;
        const job::ProfileResult result = profile.run();
        QCOMPARE(result.residualVariance, 1.0);

        const data::DataTable noisy =
            job::preprocessedRecord(profile.fit.experiments[0].table, profile.fit.preprocessing, 0);
        const auto m = static_cast<Eigen::Index>(noisy.columns[0].size());
        Eigen::MatrixXd X(m, 2);
        Eigen::VectorXd Y(m);
        for (Eigen::Index k = 0; k < m; ++k) {
            const double t = noisy.columns[0][static_cast<std::size_t>(k)];
            X(k, 0) = t;
            X(k, 1) = t * t / 2;
            Y(k) = noisy.columns[1][static_cast<std::size_t>(k)];
        }
        Eigen::Matrix2d H = w * X.transpose() * X;
        H(0, 0) += 1 / (0.02 * 0.02);
        Eigen::Vector2d g = w * X.transpose() * Y;
        g(0) += 1.2 / (0.02 * 0.02);
        const Eigen::Vector2d mode = H.inverse() * g;
        for (int i = 0; i < 2; ++i) {
            const auto& p = result.profiles[static_cast<std::size_t>(i)];
            printProfile(result, p);
            const double half = std::sqrt(result.threshold * H.inverse()(i, i));
            QVERIFY(p.low && p.high);
            QVERIFY2(near(p.estimate, mode(i), 1e-6 * half), p.name.c_str());
            QVERIFY2(near(*p.low, mode(i) - half, 1e-5 * half), p.name.c_str());
            QVERIFY2(near(*p.high, mode(i) + half, 1e-5 * half), p.name.c_str());
        }
        // The prior pulls a towards 1.2 and narrows it against the plain fit.
        job::ProfileLikelihood plain;
        plain.fit = linearJob();
        const job::ProfileResult without = plain.run();
        QVERIFY(*profileOf(result, "a").high - *profileOf(result, "a").low <
                *profileOf(without, "a").high - *profileOf(without, "a").low);
    }

    void resultDoesNotDependOnTheThreadCount()
    {
        job::ProfileLikelihood profile;
        profile.fit = tanksJob(true);  // four sides of real re-fits (k1, k2)
        profile.parameters = {"k1", "k2"};
        profile.settings.points = 4;
        profile.threads = 1;
        const job::ProfileResult one = profile.run();
        profile.threads = 3;
        const job::ProfileResult three = profile.run();
        QCOMPARE(one.profiles.size(), three.profiles.size());
        for (std::size_t k = 0; k < one.profiles.size(); ++k) {
            const auto a = one.profiles[k].points(one.optimum);
            const auto b = three.profiles[k].points(three.optimum);
            QCOMPARE(a.size(), b.size());
            for (std::size_t i = 0; i < a.size(); ++i) {
                QVERIFY(a[i].value == b[i].value);  // bit for bit (QCOMPARE of doubles is fuzzy)
                QVERIFY(a[i].objective == b[i].objective);
                QCOMPARE(a[i].parameters, b[i].parameters);
            }
        }
    }

    void fastDecayIsBoundedFromBelowOnly()
    {
        job::ProfileLikelihood profile;
        profile.fit = fastDecayJob();
        const job::ProfileResult result = profile.run();
        const auto& k = profileOf(result, "k");
        printProfile(result, k);
        QCOMPARE(k.verdict, job::ProfileVerdict::PracticallyNonIdentifiable);
        QVERIFY(k.low);
        QVERIFY(!k.high);
        QCOMPARE(k.lower.end, job::ProfileSideEnd::Crossed);
        QVERIFY(k.upper.end == job::ProfileSideEnd::Limit || k.upper.end == job::ProfileSideEnd::Points);
        QVERIFY(*k.low < k.estimate);
        QVERIFY(k.largestRise > 0.01 * result.threshold);  // it rises, it is not flat
    }

    void tanksScaleSymmetryIsFlatUntilK4IsFixed()
    {
        job::ProfileLikelihood free;
        free.fit = tanksJob(false);
        free.parameters = {"k1", "k2", "k4", "x1(0)", "k3"};
        free.settings.points = 12;
        const job::ProfileResult symmetric = free.run();
        for (const auto& p : symmetric.profiles)
            printProfile(symmetric, p);
        for (const char* name : {"k1", "k2", "k4", "x1(0)"})
            QVERIFY2(profileOf(symmetric, name).verdict == job::ProfileVerdict::StructurallyNonIdentifiable, name);
        QCOMPARE(profileOf(symmetric, "k3").verdict, job::ProfileVerdict::Identifiable);

        job::ProfileLikelihood fixed;
        fixed.fit = tanksJob(true);
        fixed.parameters = {"k1", "k2", "x1(0)"};
        const job::ProfileResult determined = fixed.run();
        for (const auto& p : determined.profiles) {
            printProfile(determined, p);
            QVERIFY2(p.verdict == job::ProfileVerdict::Identifiable, p.name.c_str());
        }
    }

    void heldInitialValueOfASecondRecord()
    {
        // Two records of x' = -k x with their own estimated x(0): x(0)#2 is held in record 2 only.
        job::FitJob fit;
        fit.modelText = "param k = 0.5 [0, 10]\nstate x = 1 estimate\nx' = -k*x\noutput x\n";
        fit.modelSource = "two.model";
        const std::vector<double> t = grid(4.0, 40);
        for (const double x0 : {1.0, 2.0}) {
            std::vector<double> x;
            for (const double s : t)
                x.push_back(x0 * std::exp(-0.7 * s));
            job::ExperimentData e;
            e.table = table({"t", "x"}, {t, x});
            fit.experiments.push_back(e);
        }
        fit.preprocessing.noise = data::Preprocessing::AddedNoise{2.0, data::NoiseDistribution::Gaussian, 5};
        const job::PreparedFit prepared(fit);
        QCOMPARE(prepared.unknownNames(), (std::vector<std::string>{"k", "x(0)", "x(0)#2"}));
        const estimate::FitResult held = prepared.fit({0.6, 1.1, 2.1}, job::HeldUnknown{2, 2.05});
        QCOMPARE(held.parameters.size(), std::size_t{2});
        QCOMPARE(held.parameters[0].name, std::string("k"));
        QCOMPARE(held.parameters[1].name, std::string("x(0)"));
        QVERIFY(held.converged());

        job::ProfileLikelihood profile;
        profile.fit = fit;
        profile.parameters = {"x(0)#2"};
        const job::ProfileResult result = profile.run();
        const auto& p = profileOf(result, "x(0)#2");
        printProfile(result, p);
        QCOMPARE(p.verdict, job::ProfileVerdict::Identifiable);
        QVERIFY(*p.low < 2.0 && *p.high > 2.0);
        // Nearly linear near the optimum: within a few per cent of the Wald interval.
        QVERIFY(near(*p.high - *p.low, p.waldInterval[1] - p.waldInterval[0], 0.05 * (*p.high - *p.low)));
    }

    void failedRefitIsReportedNotFatal()
    {
        // x' = -k x, but the model cannot be evaluated for k < 0.93 (the log's argument turns negative,
        // the state is no number): the lower side's re-fits fail there, the profile goes on.
        job::FitJob fit = fastDecayJob();
        fit.modelText = "param k = 1 [0.01, 60]\nstate x = 1\nx' = -k*x*(1 + 1e-9*log(k - 0.93))\noutput x\n";
        const std::vector<double> t = grid(2.0, 10);
        std::vector<double> x;
        for (const double s : t)
            x.push_back(std::exp(-1.0 * s));
        fit.experiments[0].table = table({"t", "x"}, {t, x});
        fit.preprocessing.noise = data::Preprocessing::AddedNoise{10.0, data::NoiseDistribution::Gaussian, 3};
        job::ProfileLikelihood profile;
        profile.fit = fit;
        const job::ProfileResult result = profile.run();
        const auto& k = profileOf(result, "k");
        printProfile(result, k);
        QVERIFY(k.estimate > 0.93);
        QCOMPARE(k.lower.end, job::ProfileSideEnd::Failed);
        QVERIFY(!k.lower.failures.empty());
        for (const auto& failure : k.lower.failures)
            QVERIFY(failure.value < 0.93 && !failure.message.empty());
        QVERIFY(!k.lower.message.empty());
        QVERIFY(!k.low);
        QCOMPARE(k.upper.end, job::ProfileSideEnd::Crossed);
        QCOMPARE(k.verdict, job::ProfileVerdict::PracticallyNonIdentifiable);
        const nlohmann::json json = project::profileResultToJson(result);
        const auto& lower = json["profiles"]["k"]["lower"];
        QCOMPARE(lower["end"].get<std::string>(), std::string("failed"));
        QCOMPARE(lower["failures"].size(), k.lower.failures.size());
        QVERIFY(json["profiles"]["k"]["interval"][0].is_null());
    }

    void rangeLimitsASide()
    {
        job::ProfileLikelihood profile;
        profile.fit = fastDecayJob();
        profile.ranges["k"] = {10.0, 55.0};
        const job::ProfileResult result = profile.run();
        const auto& k = profileOf(result, "k");
        QCOMPARE(k.lower.limit, 10.0);
        QCOMPARE(k.lower.end, job::ProfileSideEnd::Limit);
        QVERIFY(!k.lower.points.empty());
        QCOMPARE(k.lower.points.back().value, 10.0);
        QCOMPARE(k.upper.limit, 55.0);
        for (const auto& point : k.points(result.optimum))
            QVERIFY(point.value >= 10.0 && point.value <= 55.0);
        // A range that leaves the estimate out cannot be profiled from it.
        profile.ranges["k"] = {1.0, 4.0};
        try {
            profile.run();
            QFAIL("a range without the estimate was taken");
        } catch (const job::JobError& e) {
            QVERIFY2(std::string(e.what()).find("does not contain the estimate") != std::string::npos, e.what());
        }
    }

    void stopEndsTheProfile()
    {
        job::ProfileLikelihood profile;
        profile.fit = tanksJob(false);
        profile.parameters = {"k1"};
        std::stop_source stop;
        std::atomic<int> points{0};
        const job::ProfileResult result = profile.run(
            [&](const job::ProfileLikelihood::Progress& p) {
                if (p.point && ++points == 2)
                    stop.request_stop();
            },
            stop.get_token());
        QVERIFY(result.cancelled);
        QVERIFY(points.load() >= 2);
    }

    void refusals()
    {
        job::ProfileLikelihood profile;
        profile.fit = linearJob();
        profile.parameters = {"c"};
        try {
            profile.run();
            QFAIL("an unknown parameter was profiled");
        } catch (const job::JobError& e) {
            QVERIFY2(std::string(e.what()).find("'c' is not estimated by the fit (estimated: a, b)") !=
                         std::string::npos,
                     e.what());
        }
        profile.parameters = {"a"};
        profile.ranges["a"] = {200, 300};
        QVERIFY_THROWS_EXCEPTION(job::JobError, profile.run());
        profile.ranges.clear();
        profile.settings.confidence = 1.5;
        try {
            profile.run();
            QFAIL("confidence 1.5 was taken");
        } catch (const job::JobError& e) {
            QVERIFY2(std::string(e.what()).find("confidence 1.5; expected a number between 0 and 1") !=
                         std::string::npos,
                     e.what());
        }
        profile.settings.confidence = 0.95;
        profile.fit.settings.method = estimate::EstimationMethod::SingleStep;
        try {
            profile.run();
            QFAIL("an equation-error method was profiled");
        } catch (const job::JobError& e) {
            QVERIFY2(std::string(e.what()).find("no likelihood") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestProfileLikelihood)
#include "test_profile_likelihood.moc"
