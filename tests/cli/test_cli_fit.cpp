// `sysid fit` run as a process: the example projects and the MODEL --data form fit to the
// true values, RESULT.json has the keys of DESIGN.md, progress lines on stderr (none with
// --quiet), exit 1 with the file and place for user errors, exit 2 for bad arguments.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "SysidProcess.h"

#include "engine/estimate/MethodTraits.h"

#include <cmath>
#include <map>
#include <random>

namespace {

using sysid::test::describe;
using sysid::test::kExamples;
using sysid::test::kSysid;
using sysid::test::parseObject;
using sysid::test::readFile;
using sysid::test::Run;
using sysid::test::runSysid;
using sysid::test::writeFile;

// The keys of RESULT.json (DESIGN.md, "The command line").
QStringList resultKeyProblems(const QJsonObject& r, const QStringList& parameters, const QStringList& outputs)
{
    QStringList problems;
    const QStringList top{"cancelled",  "converged",   "correlation",       "cost",
                          "history",    "iterations",
                          "likelihood",  // -2 ln L for information criteria
                          "model",  // the model fitted, for `sysid compare RESULT.json`
                          "parameters", "report",      "residual_analysis", "residual_rms",
                          "statistics", "stop_reason", "termination",       "unidentifiable_directions"};
    if (r.keys() != top)
        problems << "top-level keys " + r.keys().join(',');
    const QJsonObject ps = r["parameters"].toObject();
    if (ps.keys() != parameters)  // QJsonObject keys are sorted, like the file
        problems << "parameters " + ps.keys().join(',');
    for (const auto& name : ps.keys()) {
        const QStringList keys = ps[name].toObject().keys();
        if (keys != QStringList{"initial", "lower95", "std", "unit", "upper95", "value"} &&  // measured data
            keys !=
                QStringList{"initial", "lower95", "relative_error", "std", "true", "unit", "upper95",
                            "value"})  // synthetic
            problems << name + " has keys " + keys.join(',');
    }
    if (!r["cost"].isDouble() || !r["iterations"].isDouble() || !r["converged"].isBool() || !r["cancelled"].isBool() ||
        !r["stop_reason"].isString())
        problems << "cost/iterations/converged/cancelled/stop_reason of the wrong type";
    if (r["residual_rms"].toObject().keys() != outputs)
        problems << "residual_rms " + r["residual_rms"].toObject().keys().join(',');
    // Every output measured here has its residual analysis (ResidualAnalysisJson.h).
    const QJsonObject analysis = r["residual_analysis"].toObject();
    if (analysis.keys() != outputs)
        problems << "residual_analysis " + analysis.keys().join(',');
    for (const auto& output : analysis.keys()) {
        const QJsonObject a = analysis[output].toObject();
        if (a.keys() !=
            QStringList{"autocorrelation", "bound", "cross_correlation", "lags", "outside", "samples", "tested",
                        "verdict", "white"})
            problems << "residual_analysis of " + output + " has keys " + a.keys().join(',');
    }
    const QJsonArray corr = r["correlation"].toArray();
    if (corr.size() != parameters.size())
        problems << "correlation has " + QString::number(corr.size()) + " rows";
    for (int i = 0; i < corr.size(); ++i)
        if (corr[i].toArray().size() != parameters.size() || std::abs(corr[i].toArray()[i].toDouble() - 1) > 1e-9)
            problems << "correlation row " + QString::number(i);
    const QJsonArray history = r["history"].toArray();
    if (history.isEmpty())
        problems << "empty history";
    for (const auto& h : history) {
        const QJsonObject o = h.toObject();
        if (o.keys() != QStringList{"cost", "iteration", "parameters"} ||
            o["parameters"].toObject().keys() != parameters)
            problems << "history entry keys " + o.keys().join(',');
    }
    if (!history.isEmpty() && history.last().toObject()["iteration"].toInt() != r["iterations"].toInt())
        problems << "the last history entry is not the last iteration";
    return problems;
}

struct Truth {
    double value;
    double maxSd;  // the standard deviation the data support, with a margin of ~2
};

// Each estimate within 4 of its reported standard deviations of the true value, and each
// standard deviation no larger than the data support (so 4 sd cannot be a vacuous bound).
QStringList estimateProblems(const QJsonObject& r, const std::map<QString, Truth>& truth)
{
    QStringList problems;
    for (const auto& [name, t] : truth) {
        const QJsonObject p = r["parameters"].toObject()[name].toObject();
        const double value = p["value"].toDouble(), sd = p["std"].toDouble();
        if (!(std::abs(value - t.value) <= 4 * sd) || !(sd > 0 && sd <= t.maxSd))
            problems << QString("%1 = %2 +- %3, true %4 (sd at most %5)")
                            .arg(name)
                            .arg(value)
                            .arg(sd)
                            .arg(t.value)
                            .arg(t.maxSd);
    }
    return problems;
}

// The "iteration N  cost C  name=value ..." lines on stderr: their iteration numbers.
QList<int> iterationLines(const QString& err, const QStringList& names, QStringList* problems)
{
    static const QRegularExpression line(R"(^iteration (\d+)  cost (\S+)  (.*)$)");
    QList<int> numbers;
    for (const auto& text : err.split('\n')) {
        if (!text.startsWith("iteration"))
            continue;
        const auto m = line.match(text);
        if (!m.hasMatch()) {
            *problems << "malformed: " + text;
            continue;
        }
        numbers << m.captured(1).toInt();
        bool ok = false;
        m.captured(2).toDouble(&ok);
        QStringList assigned;
        for (const auto& item : m.captured(3).split(' ')) {
            const int eq = item.lastIndexOf('=');
            bool numeric = false;
            item.mid(eq + 1).toDouble(&numeric);
            assigned << item.left(eq);
            ok = ok && eq > 0 && numeric;
        }
        if (!ok || assigned != names)
            *problems << "malformed: " + text;
    }
    return numbers;
}

// Sample standard deviation of uniform noise within +-percent % of the signal's RMS.
double uniformNoiseSd(double percent, double rms)
{
    return percent / 100 * rms / std::sqrt(3.0);
}

}  // namespace

class TestCliFit : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(QFile::exists(kSysid), qPrintable(kSysid + " is not built")); }

    void exampleSdofCubic()
    {
        // Data: sdof_cubic.model (gamma 0.5, Omega2 25, k3 2.5, Q = u'(0) = 5), 335 samples over
        // 5 s, uniform noise within +-5 % of RMS(u) = 0.31: noise sd 0.0089. Started 30 % off.
        QTemporaryDir tmp;
        const QString out = tmp.filePath("RESULT.json");
        const Run r = runSysid({"fit", kExamples + "sdof_cubic.sysid", "-o", out});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY(!QFile::exists(out + ".tmp"));
        const QJsonObject result = parseObject(readFile(out));
        const QStringList names{"Omega2", "gamma", "k3", "u'(0)"};
        const QStringList keys = resultKeyProblems(result, names, {"u"});
        QVERIFY2(keys.isEmpty(), qPrintable(keys.join('\n')));
        QVERIFY2(result["converged"].toBool(), describe(r));
        QVERIFY(!result["cancelled"].toBool());
        QCOMPARE(result["parameters"].toObject()["gamma"].toObject()["initial"].toDouble(), 0.35);
        // The sd the data support (linearised, from the Fisher information at the truth) is about
        // 0.0017, 0.033, 0.11 and 0.012: the caps allow twice that.
        const QStringList estimates = estimateProblems(
            result, {{"gamma", {0.5, 0.004}}, {"Omega2", {25, 0.08}}, {"k3", {2.5, 0.25}}, {"u'(0)", {5, 0.03}}});
        QVERIFY2(estimates.isEmpty(), qPrintable(estimates.join('\n')));
        // The project's data are synthetic with known true values: the result carries the errors.
        const QJsonObject gamma = result["parameters"].toObject()["gamma"].toObject();
        QCOMPARE(gamma["true"].toDouble(), 0.5);
        QVERIFY(std::abs(gamma["relative_error"].toDouble() - (gamma["value"].toDouble() - 0.5) / 0.5) < 1e-12);
        // At the optimum the residuals are the noise: RMS within 15 % of its sd (335 samples).
        const double noise = uniformNoiseSd(5, 0.309);
        QVERIFY2(std::abs(result["residual_rms"].toObject()["u"].toDouble() / noise - 1) < 0.15, describe(r));

        // A progress line per reported iteration, numbered as in the history.
        QStringList problems;
        const QList<int> lines = iterationLines(r.err, {"gamma", "Omega2", "k3", "u'(0)"}, &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        const QJsonArray history = result["history"].toArray();
        QCOMPARE(lines.size(), history.size());
        for (int i = 0; i < lines.size(); ++i)
            QCOMPARE(lines[i], history[i].toObject()["iteration"].toInt());
    }

    // Seed 004's multistep method on the displacement-only example: the velocity is
    // differentiated (Savitzky-Golay), the estimate is close, and --refine's output-error fit
    // from it ends where the plain output-error fit does.
    void equationErrorWithRefine()
    {
        QTemporaryDir tmp;
        const QString plain = tmp.filePath("oe.json"), refined = tmp.filePath("refined.json");
        const Run oe = runSysid({"fit", kExamples + "sdof_cubic.sysid", "-o", plain, "-q"});
        QVERIFY2(oe.exitCode == 0, describe(oe));
        const Run r = runSysid({"fit", kExamples + "sdof_cubic.sysid", "--method", "multistep", "--formula", "simpson",
                                "--differentiation", "savitzky-golay:11:3", "--refine", "-o", refined});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.contains("u' is not measured: it is taken as the derivative of u (savitzky-golay)"),
                 describe(r));
        QVERIFY2(r.err.contains("refining by output error from the multistep estimate"), describe(r));
        const QJsonObject result = parseObject(readFile(refined));
        const QJsonObject start = result["equation_error_estimate"].toObject();
        QVERIFY2(start["converged"].toBool(), describe(r));
        const QJsonObject startParameters = start["parameters"].toObject();
        QVERIFY(!startParameters.contains("u'(0)"));  // an initial value: not an equation-error unknown
        const QStringList first =
            estimateProblems(start, {{"gamma", {0.5, 0.1}}, {"Omega2", {25, 1.5}}, {"k3", {2.5, 5.0}}});
        QVERIFY2(first.isEmpty(), qPrintable(first.join('\n')));
        const QJsonObject reference = parseObject(readFile(plain))["parameters"].toObject();
        const QJsonObject final = result["parameters"].toObject();
        for (const QString& name : QStringList{"gamma", "Omega2", "k3", "u'(0)"}) {
            const double a = final[name].toObject()["value"].toDouble(),
                         b = reference[name].toObject()["value"].toDouble();
            QVERIFY2(std::abs(a - b) < 1e-5 * std::abs(b),
                     qPrintable(QStringLiteral("%1: %2 vs %3").arg(name).arg(a).arg(b)));
        }
        QCOMPARE(final["gamma"].toObject()["initial"].toDouble(),
                 startParameters["gamma"].toObject()["value"].toDouble());
    }

    // The 2-DOF example project (seed 004 ch. 7): multistep from the seed's starting values
    // converges in one Newton step; the refined output-error fit recovers the 12 coefficients.
    void exampleTwoDofMultistep()
    {
        QTemporaryDir tmp;
        const QString out = tmp.filePath("r.json");
        const Run r = runSysid({"fit", kExamples + "two_dof_cubic.sysid", "--refine", "-q", "-o", out});
        QVERIFY2(r.exitCode == 0, describe(r));
        const QJsonObject result = parseObject(readFile(out));
        const QJsonObject first = result["equation_error_estimate"].toObject();
        QVERIFY2(first["converged"].toBool(), describe(r));
        QCOMPARE(first["iterations"].toInt(), 1);  // linear in the parameters: one Newton step
        QVERIFY2(result["converged"].toBool(), describe(r));
        // Frequencies and damping to a few per cent (5 % noise); cross-coupling terms are weakly
        // determined, as in the seed's Table 21.
        const QStringList problems = estimateProblems(
            result,
            {{"Omega1sq", {25, 0.5}}, {"Omega2sq", {17, 0.5}}, {"gamma1", {0.35, 0.02}}, {"gamma2", {0.25, 0.02}}});
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    void examplePeriodicResponse()
    {
        // duffing_periodic.sysid: steady states of x'' + c x' + k x + k3 x^3 = B cos(w t) at
        // w = 0.5, 1, 2.5 (251 samples each over t = 200..225, Gaussian noise 2 % of RMS(x)),
        // started at c, k, k3, B = 0.3, 0.5, 0.75, 0.25 (+-50 %). The sd found there are about
        // 0.0015, 0.008, 0.006, 0.0037: the caps allow twice that.
        QTemporaryDir tmp;
        const QString out = tmp.filePath("RESULT.json");
        const Run r = runSysid({"fit", kExamples + "duffing_periodic.sysid", "-o", out, "-q"});
        QVERIFY2(r.exitCode == 0, describe(r));
        const QJsonObject result = parseObject(readFile(out));
        QVERIFY2(result["converged"].toBool(), describe(r));
        QVERIFY(result["iterations"].toInt() <= 20);
        const QStringList estimates = estimateProblems(
            result, {{"c", {0.2, 0.003}}, {"k", {1.0, 0.016}}, {"k3", {0.5, 0.012}}, {"B", {0.5, 0.0075}}});
        QVERIFY2(estimates.isEmpty(), qPrintable(estimates.join('\n')));
        // At the optimum the residuals are the noise (2 % of RMS(x), between 0.004 and 0.03 here).
        const double rms = result["residual_rms"].toObject()["x"].toDouble();
        QVERIFY2(rms > 0.005 && rms < 0.015, describe(r));

        // The time discretisation (Hermite-Simpson, 100 nodes a period) differs from shooting by
        // its discretisation error only, far below the sd.
        const Run d = runSysid({"fit", kExamples + "duffing_periodic.sysid", "-q", "-o", tmp.filePath("d.json"),
                                "--periodic-solver", "discretisation", "--nodes", "100"});
        QVERIFY2(d.exitCode == 0, describe(d));
        const QJsonObject discrete = parseObject(readFile(tmp.filePath("d.json")));
        for (const QString name : {"c", "k", "k3", "B"}) {
            const double a = result["parameters"].toObject()[name].toObject()["value"].toDouble();
            const double b = discrete["parameters"].toObject()[name].toObject()["value"].toDouble();
            QVERIFY2(std::abs(a - b) <= 1e-5 * std::abs(a), qPrintable(name));
        }
    }

    void periodicResponseModelForm()
    {
        // One record at the model's own w = 1, the period given on the command line. One
        // frequency hardly separates c, k, k3 and B (sd 35-70 % of the values; the project uses
        // three frequencies for that), so only consistency with the truth is checked.
        const Run r = runSysid({"fit", kExamples + "duffing_periodic.model", "--data",
                                kExamples + "data/duffing_periodic_w1.csv", "--method", "periodic-response", "--period",
                                "6.283185307179586", "--set", "c=0.3", "--set", "k=1.3", "-q", "-o", "-"});
        QVERIFY2(r.exitCode == 0, describe(r));
        const QJsonObject result = parseObject(r.out.toUtf8());
        QVERIFY2(result["converged"].toBool(), describe(r));
        const QStringList estimates =
            estimateProblems(result, {{"c", {0.2, 0.3}}, {"k", {1.0, 0.7}}, {"k3", {0.5, 1.0}}, {"B", {0.5, 0.7}}});
        QVERIFY2(estimates.isEmpty(), qPrintable(estimates.join('\n')));
    }

    void exampleMassSpringDamper()
    {
        // Data: m = b = k = 1 driven by the sum-of-sines force, 1001 samples over 10 s, uniform
        // noise within +-2 % of RMS(s) = 0.67: noise sd 0.0077. Started at 10, 10, 10 (seed 001).
        QTemporaryDir tmp;
        const QString out = tmp.filePath("r.json");
        const Run r = runSysid({"fit", kExamples + "mass_spring_damper.sysid", "-o", out, "--quiet"});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.isEmpty(), describe(r));
        const QJsonObject result = parseObject(readFile(out));
        const QStringList keys = resultKeyProblems(result, {"b", "k", "m"}, {"s"});
        QVERIFY2(keys.isEmpty(), qPrintable(keys.join('\n')));
        QVERIFY(result["converged"].toBool());
        // The model's units come along.
        const QJsonObject parameters = result["parameters"].toObject();
        QCOMPARE(parameters["m"].toObject()["unit"].toString(), QStringLiteral("kg"));
        QCOMPARE(parameters["b"].toObject()["unit"].toString(), QStringLiteral("N*s/m"));
        QCOMPARE(parameters["k"].toObject()["unit"].toString(), QStringLiteral("N/m"));
        // Fisher sd about 0.0009, 0.0005, 0.0009 (b, k, m).
        const QStringList estimates =
            estimateProblems(result, {{"m", {1, 0.002}}, {"b", {1, 0.002}}, {"k", {1, 0.001}}});
        QVERIFY2(estimates.isEmpty(), qPrintable(estimates.join('\n')));
        const double noise = uniformNoiseSd(2, 0.669);
        QVERIFY2(std::abs(result["residual_rms"].toObject()["s"].toDouble() / noise - 1) < 0.1, describe(r));
    }

    void projectFitsOnlyIncludedEstimationDataSets()
    {
        // The example with two more records that would spoil the fit if it used them: one
        // excluded, one kept for validation. The fit is the example's own, number for number.
        QTemporaryDir tmp;
        QByteArray still = "t,u,s\n";
        for (int i = 0; i <= 100; ++i)
            still += QByteArray::number(0.1 * i) + ",0,5\n";
        QVERIFY(writeFile(tmp.filePath("still.csv"), still));
        QJsonObject project = parseObject(readFile(kExamples + "mass_spring_damper.sysid"));
        QJsonArray data = project["data"].toArray();
        QJsonObject measured = data[0].toObject();
        measured["path"] = kExamples + "data/mass_spring_damper_measured.csv";
        QJsonObject excluded{{"name", "excluded"}, {"path", tmp.filePath("still.csv")}, {"included", false}};
        QJsonObject validation{{"name", "validation"}, {"path", tmp.filePath("still.csv")}, {"role", "validation"}};
        project["data"] = QJsonArray{excluded, measured, validation};
        const QString file = tmp.filePath("roles.sysid");
        QVERIFY(writeFile(file, QJsonDocument(project).toJson()));

        const Run plain = runSysid({"fit", kExamples + "mass_spring_damper.sysid", "-o", tmp.filePath("a.json"), "-q"});
        QVERIFY2(plain.exitCode == 0, describe(plain));
        const Run r = runSysid({"fit", file, "-o", tmp.filePath("b.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.contains("to 1 data set(s)"), describe(r));
        const QJsonObject a = parseObject(readFile(tmp.filePath("a.json")));
        const QJsonObject b = parseObject(readFile(tmp.filePath("b.json")));
        QCOMPARE(b["cost"].toDouble(), a["cost"].toDouble());
        QCOMPARE(b["parameters"].toObject(), a["parameters"].toObject());

        // Nothing left to fit: a clear refusal, exit status 1.
        measured["role"] = "validation";
        project["data"] = QJsonArray{excluded, measured, validation};
        QVERIFY(writeFile(file, QJsonDocument(project).toJson()));
        const Run none = runSysid({"fit", file, "-o", tmp.filePath("c.json")});
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains("no data set to fit"), describe(none));
        QVERIFY2(none.err.contains("excluded or kept for validation"), describe(none));
        QVERIFY(!QFile::exists(tmp.filePath("c.json")));
    }

    void modelAndDataForm()
    {
        // The same fit as the project, from the command line: the same numbers.
        QTemporaryDir tmp;
        const QString fromProject = tmp.filePath("p.json"), fromModel = tmp.filePath("m.json");
        const Run p = runSysid({"fit", kExamples + "sdof_cubic.sysid", "-o", fromProject, "-q"});
        QVERIFY2(p.exitCode == 0, describe(p));
        const Run m = runSysid({"fit",
                                kExamples + "sdof_cubic.model",
                                "--data",
                                kExamples + "data/sdof_cubic_5pct.csv",
                                "--set",
                                "gamma=0.35",
                                "--set",
                                "Omega2=32.5",
                                "--set",
                                "k3=1.75",
                                "--set",
                                "u'(0)=3.5",
                                "--method",
                                "output-error",
                                "--max-iterations",
                                "100",
                                "--integrator",
                                "dopri5",
                                "--rtol",
                                "1e-8",
                                "--atol",
                                "1e-10",
                                "-o",
                                fromModel});
        QVERIFY2(m.exitCode == 0, describe(m));
        const QJsonObject a = parseObject(readFile(fromProject)), b = parseObject(readFile(fromModel));
        QVERIFY(!a.isEmpty());
        // The same numbers; only the project knows the true values of its synthetic data.
        QJsonObject estimates = a["parameters"].toObject();
        for (const QString& name : estimates.keys()) {
            QJsonObject p = estimates[name].toObject();
            QVERIFY(p.contains("true"));
            p.remove("true");
            p.remove("relative_error");
            estimates[name] = p;
        }
        QCOMPARE(b["parameters"].toObject(), estimates);
        QCOMPARE(b["cost"].toDouble(), a["cost"].toDouble());
        QVERIFY(m.err.contains("iteration 0  cost "));
    }

    // --method ml on a damped oscillator measured in position (noise sd 0.002) and velocity (sd 0.2): both noise
    // levels come back with their sd in "noise_sd", the parameters within 4 reported sd of the truth, and -2 ln L
    // with what an information criterion needs; with --prior it is the Bayesian estimator with estimated variances.
    void maximumLikelihood()
    {
        QTemporaryDir tmp;
        const QString model = tmp.filePath("osc.model"), data = tmp.filePath("osc.csv");
        QVERIFY(writeFile(model,
                          "param k = 2.8 [0.1, 100]\nparam c = 0.28 [0, 10]\nx'' = -c*x' - k*x\n"
                          "x(0) = 1, 0\noutput x\noutput v = x'\n"));
        // x'' = -0.4 x' - 4 x from (1, 0) in closed form, with seeded Gaussian noise.
        const double gamma = 0.2, wd = std::sqrt(4.0 - gamma * gamma);
        std::mt19937_64 rng(5);
        std::normal_distribution<double> normal;
        QByteArray csv = "t,x,v\n";
        for (int i = 0; i <= 200; ++i) {
            const double t = 0.05 * i, e = std::exp(-gamma * t);
            const double x = e * (std::cos(wd * t) + gamma / wd * std::sin(wd * t));
            const double v = -4.0 / wd * e * std::sin(wd * t);
            csv += QByteArray::number(t, 'g', 17) + ',' + QByteArray::number(x + 0.002 * normal(rng), 'g', 17) + ',' +
                QByteArray::number(v + 0.2 * normal(rng), 'g', 17) + '\n';
        }
        QVERIFY(writeFile(data, csv));
        const QString out = tmp.filePath("ml.json");
        const Run r = runSysid({"fit", model, "--data", data, "--method", "ml", "--report", "-o", out});
        QVERIFY2(r.exitCode == 0, describe(r));
        const QJsonObject result = parseObject(readFile(out));
        QVERIFY2(result["converged"].toBool(), describe(r));
        const QJsonObject noise = result["noise_sd"].toObject();
        QCOMPARE(noise.keys(), (QStringList{"v", "x"}));
        for (const auto& [output, truth] : {std::pair{"x", 0.002}, std::pair{"v", 0.2}}) {
            const QJsonObject n = noise[output].toObject();
            QVERIFY2(std::abs(n["value"].toDouble() / truth - 1) < 0.2, describe(r));
            QVERIFY2(std::abs(n["std"].toDouble() / (n["value"].toDouble() / std::sqrt(402.0)) - 1) < 1e-9,
                     describe(r));
            QCOMPARE(n["samples"].toInt(), 201);
        }
        QVERIFY2(estimateProblems(result, {{"k", {4.0, 0.01}}, {"c", {0.4, 0.01}}}).isEmpty(), describe(r));
        const QJsonObject likelihood = result["likelihood"].toObject();
        QCOMPARE(likelihood["samples"].toInt(), 402);
        QCOMPARE(likelihood["noise_variances"].toInt(), 2);
        QCOMPARE(likelihood["parameters"].toInt(), 2);
        QVERIFY(std::abs(likelihood["minus_two_log_likelihood"].toDouble() - 2 * result["cost"].toDouble()) <
                1e-9 * std::abs(result["cost"].toDouble()));
        QVERIFY2(r.err.contains("noise sd of v: "), describe(r));  // the log and the report
        QVERIFY2(r.err.contains("-2 ln L"), describe(r));

        const Run withPrior = runSysid({"fit", model, "--data", data, "--method", "ml", "--prior", "k=4,0.0001", "-q",
                                        "-o", tmp.filePath("b.json")});
        QVERIFY2(withPrior.exitCode == 0, describe(withPrior));
        const QJsonObject bayes = parseObject(readFile(tmp.filePath("b.json")));
        const double k = bayes["parameters"].toObject()["k"].toObject()["value"].toDouble();
        QVERIFY2(std::abs(k - 4.0) < 0.001, describe(withPrior));  // held near the prior's mean
        QVERIFY(bayes.contains("noise_sd"));
    }

    // Seed 003's steepest descent on the heat-rod example: the first step is K times the
    // gradient, so doubling --gain doubles it (the same starting gradient).
    void steepestDescentGain()
    {
        QTemporaryDir tmp;
        const QString data = tmp.filePath("rod.csv");
        const Run sim = runSysid({"simulate", kExamples + "heat_rod.model", "--t-end", "3", "--dt", "0.05", "--set",
                                  "alpha[1]=0.1", "--set", "alpha[2]=0.15", "--set", "alpha[3]=0.18", "-o", data});
        QVERIFY2(sim.exitCode == 0, describe(sim));
        QList<double> firstSteps;
        for (const QString& gain : {QStringLiteral("0.02"), QStringLiteral("0.04")}) {
            const QString out = tmp.filePath("r" + gain + ".json");
            const Run r = runSysid({"fit", kExamples + "heat_rod.model", "--data", data, "--method", "steepest-descent",
                                    "--gain", gain, "--max-iterations", "5", "-o", out});
            QVERIFY2(r.exitCode == 0, describe(r));
            const QJsonObject result = parseObject(readFile(out));
            QCOMPARE(result["iterations"].toInt(), 5);
            const QJsonArray history = result["history"].toArray();
            QCOMPARE(history.size(), 6);
            for (int i = 1; i < history.size(); ++i)
                QVERIFY(history[i].toObject()["cost"].toDouble() < history[i - 1].toObject()["cost"].toDouble());
            firstSteps.append(history[1].toObject()["parameters"].toObject()["alpha[1]"].toDouble() - 0.2);
        }
        QVERIFY2(std::abs(firstSteps[1] / firstSteps[0] - 2.0) < 1e-9,
                 qPrintable(QString::number(firstSteps[1] / firstSteps[0])));
    }

    // --sensitivity structural: the same Gauss-Newton fit of the heat rod as the forward
    // sensitivities (data simulated by dopri5, so both stop at the data's integration error);
    // refused with a nonlinear model (naming the state) and with a method that cannot use it.
    void structuralSensitivity()
    {
        QTemporaryDir tmp;
        const QString data = tmp.filePath("rod.csv");
        const Run sim = runSysid({"simulate", kExamples + "heat_rod.model", "--t-end", "3", "--dt", "0.05", "--set",
                                  "alpha[1]=0.1", "--set", "alpha[2]=0.15", "--set", "alpha[3]=0.18", "--rtol", "1e-11",
                                  "--atol", "1e-13", "-o", data});
        QVERIFY2(sim.exitCode == 0, describe(sim));
        QMap<QString, QJsonObject> results;
        for (const QString& method : {QStringLiteral("forward"), QStringLiteral("structural")}) {
            const QString out = tmp.filePath(method + ".json");
            const Run r = runSysid({"fit", kExamples + "heat_rod.model", "--data", data, "--sensitivity", method,
                                    "--rtol", "1e-11", "--atol", "1e-13", "-o", out});
            QVERIFY2(r.exitCode == 0, describe(r));
            QCOMPARE(r.err.contains("structural sensitivities"), method == "structural");
            results[method] = parseObject(readFile(out));
        }
        const QJsonObject f = results["forward"]["parameters"].toObject(),
                          s = results["structural"]["parameters"].toObject();
        const QMap<QString, double> truth{{"alpha[1]", 0.1}, {"alpha[2]", 0.15}, {"alpha[3]", 0.18}};
        for (const QString& name : truth.keys()) {
            const double fv = f[name].toObject()["value"].toDouble(), sv = s[name].toObject()["value"].toDouble();
            QVERIFY2(std::abs(sv - truth[name]) < 1e-7, qPrintable(name + ": " + QString::number(sv, 'g', 12)));
            QVERIFY2(std::abs(sv - fv) < 1e-7, qPrintable(name + ": " + QString::number(sv - fv)));
        }

        const Run nonlinear = runSysid({"fit", kExamples + "sdof_cubic.sysid", "--sensitivity", "structural", "-q"});
        QCOMPARE(nonlinear.exitCode, 1);
        QVERIFY2(nonlinear.err.contains("structural sensitivity needs equations linear in the states") &&
                     nonlinear.err.contains("state u'"),
                 qPrintable(nonlinear.err));
        const Run shooting =
            runSysid({"fit", kExamples + "heat_rod.model", "--data", data, "--method", "multiple-shooting",
                      "--sensitivity", "structural", "-o", tmp.filePath("x.json")});
        QCOMPARE(shooting.exitCode, 2);
        QVERIFY2(
            shooting.err.contains("--sensitivity structural is for --method output-error, bayes, steepest-descent or "
                                  "ml, not multiple-shooting"),
            qPrintable(shooting.err));
        const Run unknown = runSysid({"fit", kExamples + "heat_rod.model", "--data", data, "--sensitivity", "adjoint",
                                      "-o", tmp.filePath("x.json")});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("--sensitivity must be forward or structural, not 'adjoint'"),
                 qPrintable(unknown.err));
    }

    // The inputs' intersample behaviour, one table entry of the fit settings: --intersample INPUT=BEHAVIOUR.
    // x' = -a x + u with a square-wave u the record was made with under zero-order hold (a = 2).
    void intersampleBehaviour()
    {
        QTemporaryDir tmp;
        const QString model = tmp.filePath("first_order.model"), data = tmp.filePath("held.csv");
        QVERIFY(writeFile(model, "param a = 0.5 [0.01, 10]\ninput u\nstate x = 0\nx' = -a*x + u\noutput x\n"));
        QByteArray csv = "t,u,x\n";
        double state = 0.0;
        for (int k = 0; k <= 40; ++k) {
            const double u = (k / 4) % 2 == 0 ? 1.0 : -0.5;
            csv += QByteArray::number(0.25 * k, 'g', 17) + "," + QByteArray::number(u, 'g', 17) + "," +
                QByteArray::number(state, 'g', 17) + "\n";
            state = u / 2 + (state - u / 2) * std::exp(-2 * 0.25);
        }
        QVERIFY(writeFile(data, csv));
        auto fit = [&](const QStringList& extra) {
            return runSysid(
                QStringList{"fit", model, "--data", data, "--rtol", "1e-11", "--atol", "1e-13", "-q", "-o", "-"} +
                extra);
        };
        const Run held = fit({"--intersample", "u=hold"});
        QVERIFY2(held.exitCode == 0, describe(held));
        const double a = parseObject(held.rawOut)["parameters"].toObject()["a"].toObject()["value"].toDouble();
        QVERIFY2(std::abs(a - 2) < 1e-7, describe(held));
        const Run linear = fit({});
        QVERIFY2(linear.exitCode == 0, describe(linear));
        const double b = parseObject(linear.rawOut)["parameters"].toObject()["a"].toObject()["value"].toDouble();
        QVERIFY2(std::abs(b - 2) > 1e-2, describe(linear));

        const Run unknown = fit({"--intersample", "u=cubic"});
        QVERIFY2(unknown.exitCode == 2, describe(unknown));
        QVERIFY2(unknown.err.contains("--intersample") && unknown.err.contains("hold") &&
                     unknown.err.contains("spline"),
                 describe(unknown));
        const Run noInput = fit({"--intersample", "w=hold"});
        QVERIFY2(noInput.exitCode == 1, describe(noInput));
        QVERIFY2(noInput.err.contains("intersample behaviour for 'w': the model has no input 'w' (inputs: u)"),
                 describe(noInput));
        const Run help = runSysid({"fit", "--help"});
        QVERIFY2(help.out.contains("--intersample") && help.out.contains("hold | linear | spline"), describe(help));
    }

    void modelFormWithMappingAndTwoDataSets()
    {
        // mass_spring_damper with renamed columns (--time, --map for the input and the output),
        // first the first 6 s of the record alone, then twice as two experiments sharing m, b, k.
        QTemporaryDir tmp;
        const QStringList lines =
            QString::fromUtf8(readFile(kExamples + "data/mass_spring_damper_measured.csv")).split('\n');
        QByteArray csv = "time,force,disp\n";
        int row = 0;
        for (const auto& line : lines) {
            if (line.isEmpty() || line.startsWith('#') || line.startsWith("t,"))
                continue;
            if (row++ < 600)
                csv += line.toUtf8() + "\n";
        }
        QVERIFY(writeFile(tmp.filePath("a.csv"), csv));
        QVERIFY(writeFile(tmp.filePath("b.csv"), csv));
        const QStringList mapping{"--time", "time", "--map", "u=force", "--map", "s=disp",
                                  "--set",  "m=10", "--set", "b=10",    "--set", "k=10"};
        const QString out = tmp.filePath("r.json");
        const Run r = runSysid(
            QStringList{"fit", kExamples + "mass_spring_damper.model", "--data", tmp.filePath("a.csv"), "-o", out} +
            mapping);
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY(r.err.contains("to 1 data set(s)"));
        const QJsonObject one = parseObject(readFile(out));
        // 600 samples instead of 1001: the sd grow to ~0.002; the caps allow twice that.
        QStringList estimates = estimateProblems(one, {{"m", {1, 0.004}}, {"b", {1, 0.004}}, {"k", {1, 0.004}}});
        QVERIFY2(estimates.isEmpty(), qPrintable(estimates.join('\n')));

        const Run two = runSysid(QStringList{"fit", kExamples + "mass_spring_damper.model", "--data",
                                             tmp.filePath("a.csv"), "--data", tmp.filePath("b.csv"), "-o", out} +
                                 mapping);
        QVERIFY2(two.exitCode == 0, describe(two));
        QVERIFY2(two.err.contains("to 2 data set(s)"), describe(two));
        const QJsonObject both = parseObject(readFile(out));
        // The same record twice: the same estimates (to the fit's tolerance) and sd / sqrt(2), up to
        // the residual variance's degrees of freedom: sqrt(2 (600 - 3) / (1200 - 3)) = 0.99875.
        for (const QString name : {"m", "b", "k"}) {
            const QJsonObject a = one["parameters"].toObject()[name].toObject(),
                              b = both["parameters"].toObject()[name].toObject();
            QVERIFY2(std::abs(a["value"].toDouble() - b["value"].toDouble()) < 1e-3 * a["std"].toDouble(),
                     describe(two));
            QVERIFY2(std::abs(b["std"].toDouble() * std::sqrt(2.0) / a["std"].toDouble() - 1) < 3e-3, describe(two));
        }
    }

    void quietPrintsNothing()
    {
        QTemporaryDir tmp;
        const Run r = runSysid({"fit", kExamples + "sdof_cubic.sysid", "--quiet", "-o", tmp.filePath("r.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.isEmpty(), describe(r));
        QVERIFY(r.out.isEmpty());
    }

    void resultOnStandardOutput()
    {
        for (const QStringList& args : {QStringList{"fit", kExamples + "sdof_cubic.sysid", "-q", "-o", "-"},
                                        QStringList{"fit", kExamples + "sdof_cubic.sysid", "-q"}}) {
            const Run r = runSysid(args);
            QVERIFY2(r.exitCode == 0, describe(r));
            const QJsonObject result = parseObject(r.out.toUtf8());
            QVERIFY2(resultKeyProblems(result, {"Omega2", "gamma", "k3", "u'(0)"}, {"u"}).isEmpty(), describe(r));
        }
    }

    // The sensitivities in or out of the step-size control (CVODES' errconS), from the command line
    // and from the project file: the steps differ (a fit's total need not be fewer: its path changes
    // with the sensitivities), the estimates agree to the tolerance.
    // The project's own integrator (dopri5) and rosenbrock4, whose controller is odeint's with the
    // sensitivities optionally out of its norm.
    void sensitivityErrorControlFromOptionAndProject_data()
    {
        QTest::addColumn<QStringList>("integrator");
        QTest::newRow("project's integrator") << QStringList{};
        QTest::newRow("rosenbrock4") << QStringList{"--integrator", "rosenbrock4"};
    }

    void sensitivityErrorControlFromOptionAndProject()
    {
        QFETCH(QStringList, integrator);
        QTemporaryDir tmp;
        const QString project = kExamples + "sdof_cubic.sysid";
        auto fit = [&](const QString& file, const QStringList& extra, const QString& out) {
            const Run r = runSysid(QStringList{"fit", file, "-q", "-o", tmp.filePath(out)} + integrator + extra);
            return std::make_pair(r, parseObject(readFile(tmp.filePath(out))));
        };
        const auto [included, in] = fit(project, {"--sensitivity-error-control", "include"}, "in.json");
        QVERIFY2(included.exitCode == 0, describe(included));
        const auto [excluded, ex] = fit(project, {"--sensitivity-error-control", "exclude"}, "ex.json");
        QVERIFY2(excluded.exitCode == 0, describe(excluded));
        const double stepsIn = in["statistics"].toObject()["steps"].toDouble();
        const double stepsEx = ex["statistics"].toObject()["steps"].toDouble();
        qInfo("%g steps without, %g with the sensitivities", stepsEx, stepsIn);
        QVERIFY2(stepsEx != stepsIn, qPrintable(QString("%1 steps without, %2 with").arg(stepsEx).arg(stepsIn)));
        for (const char* name : {"gamma", "Omega2", "k3"}) {
            const double a = in["parameters"].toObject()[name].toObject()["value"].toDouble();
            const double b = ex["parameters"].toObject()[name].toObject()["value"].toDouble();
            QVERIFY2(std::abs(a / b - 1) < 1e-5, name);
        }

        // The project key gives the run the option gives.
        QJsonObject file = parseObject(readFile(project));
        QJsonObject settings = file["settings"].toObject();
        QJsonObject integratorKeys = settings["integrator"].toObject();
        integratorKeys["sensitivity_error_control"] = "exclude";
        settings["integrator"] = integratorKeys;
        file["settings"] = settings;
        QJsonArray data = file["data"].toArray();
        QJsonObject set = data[0].toObject();
        set["path"] = kExamples + set["path"].toString();
        data[0] = set;
        file["data"] = data;
        QVERIFY(writeFile(tmp.filePath("p.sysid"), QJsonDocument(file).toJson()));
        const auto [fromFile, ff] = fit(tmp.filePath("p.sysid"), {}, "ff.json");
        QVERIFY2(fromFile.exitCode == 0, describe(fromFile));
        QCOMPARE(ff["statistics"].toObject()["steps"].toDouble(), stepsEx);
        QCOMPARE(ff["parameters"], ex["parameters"]);
    }

    void badArgumentsExit2_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString model = kExamples + "sdof_cubic.model", data = kExamples + "data/sdof_cubic_5pct.csv";
        const QString project = kExamples + "sdof_cubic.sysid";
        QTest::newRow("nothing") << QStringList{"fit"} << "missing the PROJECT.sysid or MODEL file";
        QTest::newRow("model without data") << QStringList{"fit", model, "-o", "r.json"} << "missing --data";
        QTest::newRow("model without -o") << QStringList{"fit", model, "--data", data} << "missing -o";
        QTest::newRow("unknown method") << QStringList{"fit", project, "--method", "newton"} << "--method must be";
        QTest::newRow("unknown integrator")
            << QStringList{"fit", project, "--integrator", "rk45"} << "--integrator must be";
        QTest::newRow("unknown sensitivity error control")
            << QStringList{"fit", project, "--sensitivity-error-control", "partial"}
            << "--sensitivity-error-control must be include or exclude";
        QTest::newRow("set without value")
            << QStringList{"fit", project, "--set", "gamma"} << "--set expects NAME=VALUE";
        QTest::newRow("set not a number")
            << QStringList{"fit", project, "--set", "gamma=fast"} << "not a finite number";
        QTest::newRow("prior without sd") << QStringList{"fit", project, "--prior", "gamma=0.5"} << "--prior expects";
        QTest::newRow("prior sd zero") << QStringList{"fit", project, "--prior", "gamma=0.5,0"}
                                       << "--prior gamma.sd: expected a number > 0, got 0";
        QTest::newRow("weight not a number")
            << QStringList{"fit", project, "--weight", "u=heavy"} << "not a finite number";
        QTest::newRow("negative iterations")
            << QStringList{"fit", project, "--max-iterations", "-3"} << "max-iterations";
        QTest::newRow("zero intervals") << QStringList{"fit", project, "--intervals", "0"} << "--intervals";
        QTest::newRow("unknown periodic solver") << QStringList{"fit", project, "--periodic-solver", "euler"}
                                                 << "--periodic-solver must be shooting or discretisation";
        QTest::newRow("period not positive") << QStringList{"fit", project, "--period", "0"} << "--period";
        QTest::newRow("period and frequency parameter")
            << QStringList{"fit", project, "--period", "6", "--frequency-parameter", "w"}
            << "either --period or --frequency-parameter";
        QTest::newRow("zero periods") << QStringList{"fit", project, "--periods", "0"} << "--periods";
        QTest::newRow("unknown option") << QStringList{"fit", project, "--fast"} << "fast";
        QTest::newRow("unknown formula") << QStringList{"fit", project, "--method", "multistep", "--formula", "euler"}
                                         << "--formula must be heun, rk4";
        QTest::newRow("formula of the other method")
            << QStringList{"fit", project, "--method", "single-step", "--formula", "simpson"}
            << "--formula simpson is not a single-step formula";
        QTest::newRow("formula without equation error")
            << QStringList{"fit", project, "--formula", "heun"}
            << "--formula heun is for --method single-step or multistep, not output-error";
        QTest::newRow("refine without equation error")
            << QStringList{"fit", project, "--refine"} << "--refine follows an equation-error fit";
        QTest::newRow("bad differentiation")
            << QStringList{"fit", project, "--method", "multistep", "--differentiation", "savitzky-golay:4:3"}
            << "--differentiation";
        QTest::newRow("state weight zero")
            << QStringList{"fit", project, "--method", "multistep", "--state-weight", "u=0"}
            << "--state-weight u: expected a number > 0, got 0";
        QTest::newRow("gain without steepest descent")
            << QStringList{"fit", project, "--gain", "0.02"} << "--gain is for --method steepest-descent";
        QTest::newRow("negative gain") << QStringList{"fit", project, "--method", "steepest-descent", "--gain", "-1"}
                                       << "--gain: expected a number > 0, got -1";
        QTest::newRow("data with a project")
            << QStringList{"fit", project, "--data", data} << "--data is for the MODEL form";
        QTest::newRow("format with a project")
            << QStringList{"fit", project, "--skip-rows", "1"} << "--skip-rows is for the MODEL form";
        QTest::newRow("unknown separator")
            << QStringList{"fit", model, "--data", data, "--separator", "|", "-o", "r.json"}
            << "--separator expects one of comma, semicolon, tab, got '|'";
        QTest::newRow("header line zero")
            << QStringList{"fit", model, "--data", data, "--header-line", "0", "-o", "r.json"}
            << "--header-line must be from 1";
        QTest::newRow("map without column")
            << QStringList{"fit", model, "--data", data, "--map", "u", "-o", "r.json"} << "--map expects";
        QTest::newRow("unknown filter ends") << QStringList{"fit", project, "--low-pass", "3", "--filter-ends", "even"}
                                             << "--filter-ends must be least-squares or odd, not 'even'";
        QTest::newRow("filter ends without low-pass")
            << QStringList{"fit", project, "--filter-ends", "odd"} << "--filter-ends applies to a low-pass";
        QTest::newRow("low-pass cutoff zero")
            << QStringList{"fit", project, "--low-pass", "0"} << "--low-pass: expected a finite frequency > 0";
        QTest::newRow("low-pass order fraction")
            << QStringList{"fit", project, "--low-pass", "3:2.5"} << "--low-pass order must be a whole number";
        QTest::newRow("low-pass order 12")
            << QStringList{"fit", project, "--low-pass", "3:12"} << "--low-pass: expected an integer from 1 to 10";
        QTest::newRow("window backwards")
            << QStringList{"fit", project, "--window", "4:1"} << "--window: expected finite times with start < end";
        QTest::newRow("window without colon") << QStringList{"fit", project, "--window", "4"} << "START:END";
        QTest::newRow("window after filter without window")
            << QStringList{"fit", project, "--window-after-filter"} << "--window-after-filter cuts a time window";
    }

    // The low-pass, its ends and a window cut after filtering from the command line: the log says
    // what the filter does and how long its end transients last; the filtered fit is as good as
    // the unfiltered one; odd ends and a window cut before filtering give other estimates.
    void lowPassAndWindowAfterFilter()
    {
        QTemporaryDir tmp;
        const QString model = kExamples + "sdof_cubic.model", data = kExamples + "data/sdof_cubic_5pct.csv";
        const QStringList common{
            "fit",        model, "--data", data, "--method", "multistep", "--differentiation", "savitzky-golay:11:3",
            "--low-pass", "4",   "-o",     "-"};
        const auto gammaOf = [](const Run& run) {
            return parseObject(run.rawOut)["parameters"].toObject()["gamma"].toObject()["value"].toDouble();
        };
        const Run filtered = runSysid(common);
        QVERIFY2(filtered.exitCode == 0, describe(filtered));
        QVERIFY2(filtered.err.contains("data filtered by a zero-phase Butterworth low-pass of order 4 at 4 Hz; ends "
                                       "by least squares; its end transients decay to 1 % within"),
                 describe(filtered));
        const QJsonObject result = parseObject(filtered.rawOut);
        QVERIFY2(result["converged"].toBool(), describe(filtered));
        const QStringList problems = estimateProblems(result, {{"gamma", {0.5, 0.1}}, {"Omega2", {25, 1.5}}});
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));

        const Run after = runSysid(common + QStringList{"--window", "0.5:5", "--window-after-filter"});
        QVERIFY2(after.exitCode == 0, describe(after));
        QVERIFY2(after.err.contains("the time window is cut from the filtered record"), describe(after));
        const Run before = runSysid(common + QStringList{"--window", "0.5:5", "-q"});
        const Run odd = runSysid(common + QStringList{"--filter-ends", "odd", "-q"});
        QVERIFY2(before.exitCode == 0 && odd.exitCode == 0, describe(before) + describe(odd));
        QVERIFY(gammaOf(after) != gammaOf(before));
        QVERIFY(gammaOf(odd) != gammaOf(filtered));
    }

    // An option of a setting the method does not take is refused, with the methods that take it
    // (estimate::kMethodTraits) named.
    void optionsTheMethodDoesNotTakeAreRefused_data()
    {
        using In = sysid::estimate::MethodInput;
        using M = sysid::estimate::EstimationMethod;
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* name, M method, QStringList options, const char* subject,
                            std::vector<In> inputs) {
            QTest::newRow(name)
                << (QStringList{"--method", QString::fromStdString(sysid::estimate::methodName(method))} + options)
                << QString::fromStdString(sysid::estimate::notTakenMessage(subject, inputs, method));
        };
        row("gain", M::OutputError, {"--gain", "0.1"}, "--gain", {In::Gain});
        row("intervals", M::Bayes, {"--intervals", "5"}, "--intervals", {In::ShootingIntervals, In::PeriodicResponse});
        row("structural", M::MultipleShooting, {"--sensitivity", "structural"}, "--sensitivity structural",
            {In::SensitivityMethod});
        row("output weight", M::SingleStep, {"--weight", "u=2"}, "--weight", {In::OutputWeights});
        row("state weight", M::OutputError, {"--state-weight", "u=2"}, "--state-weight", {In::StateWeights});
        row("simulation", M::Bayes, {"--no-simulation"}, "--no-simulation", {In::SimulateFit});
        row("prior", M::Multistep, {"--prior", "gamma=0.5,0.1"}, "--prior", {In::Priors});
        row("periods", M::OutputError, {"--periods", "2"}, "--periods", {In::PeriodicResponse});
        row("period", M::SteepestDescent, {"--period", "2"}, "--period", {In::PeriodicResponse});
        row("scheme", M::OutputError, {"--scheme", "central"}, "--scheme central", {In::PeriodicResponse});
        row("differentiation", M::SteepestDescent, {"--differentiation", "central"}, "--differentiation",
            {In::Differentiation});
        row("ml weight", M::MaximumLikelihood, {"--weight", "u=2"}, "--weight", {In::OutputWeights});
    }

    void optionsTheMethodDoesNotTakeAreRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = runSysid(QStringList{"fit", kExamples + "sdof_cubic.sysid", "-q"} + args);
        QVERIFY2(r.exitCode == 2, describe(r));
        QVERIFY2(r.err.contains(message), qPrintable(message + "\n" + describe(r)));
    }

    void badArgumentsExit2()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = runSysid(args);
        QVERIFY2(r.exitCode == 2, describe(r));
        QVERIFY2(r.err.contains(message), describe(r));
        QVERIFY(!QFile::exists("r.json"));
    }

    void brokenDataFileExits1()
    {
        QTemporaryDir tmp;
        const QString broken = tmp.filePath("broken.csv");
        QVERIFY(writeFile(broken, "t,u\n0,0\n0.1,0.2\n# comment\n0.2,oops\n0.3,0.1\n"));
        const Run r = runSysid({"fit", kExamples + "sdof_cubic.model", "--data", broken, "-o", tmp.filePath("r.json")});
        QVERIFY2(r.exitCode == 1, describe(r));
        QVERIFY2(r.err.contains(broken + ":5"), describe(r));  // the file and the line
        QVERIFY(!QFile::exists(tmp.filePath("r.json")));

        // The same through a project that names the file.
        QJsonObject project = parseObject(readFile(kExamples + "sdof_cubic.sysid"));
        QJsonArray data = project["data"].toArray();
        QJsonObject set = data[0].toObject();
        set["path"] = "broken.csv";
        data[0] = set;
        project["data"] = data;
        QVERIFY(writeFile(tmp.filePath("p.sysid"), QJsonDocument(project).toJson()));
        const Run p = runSysid({"fit", tmp.filePath("p.sysid"), "-o", tmp.filePath("r.json")});
        QVERIFY2(p.exitCode == 1, describe(p));
        QVERIFY2(p.err.contains(broken + ":5"), describe(p));
    }

    void userErrorsExit1_data()
    {
        QTest::addColumn<QString>("file");  // written into the temporary folder
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");  // expected on stderr; FILE stands for the file's path
        QTest::newRow("damaged project") << "p.sysid" << QByteArray("{\n  \"version\": 1,\n  \"model\": {\n")
                                         << QStringList{} << "FILE:4:1: not a JSON project file";
        QTest::newRow("unknown method in project")
            << "p.sysid"
            << QByteArray(
                   "{\"version\": 1, \"model\": {\"text\": \"param a = 1\\nstate y = 1\\ny' = -a*y\\noutput y\\n\"}, "
                   "\"method\": \"newton\"}")
            << QStringList{} << "FILE: method: unknown method 'newton'";
        QTest::newRow("model error") << "bad.model" << QByteArray("param a = 1\nstate y = 1\ny' = -a*\noutput y\n")
                                     << QStringList{"--data", kExamples + "data/sdof_cubic_5pct.csv", "-o", "-"}
                                     << "FILE:3:";
        QTest::newRow("unknown parameter")
            << "ok.model" << QByteArray("param a = 1\nstate u = 1\nu' = -a*u\noutput u\n")
            << QStringList{"--data", kExamples + "data/sdof_cubic_5pct.csv", "--set", "b=2", "-o", "-"}
            << "no parameter 'b'";
        QTest::newRow("no matching column")
            << "ok.model" << QByteArray("param a = 1\nstate y = 1\ny' = -a*y\noutput y\n")
            << QStringList{"--data", kExamples + "data/sdof_cubic_5pct.csv", "-o", "-"} << "sdof_cubic_5pct.csv";
    }

    void userErrorsExit1()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, text);
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        const QString path = tmp.filePath(file);
        QVERIFY(writeFile(path, text));
        const Run r = runSysid(QStringList{"fit", path} + extra);
        QVERIFY2(r.exitCode == 1, describe(r));
        QVERIFY2(r.err.contains(QString(message).replace("FILE", path)), describe(r));
        QVERIFY(r.out.isEmpty());
    }

    void periodicResponseErrorsExit1()
    {
        const Run r = runSysid({"fit", kExamples + "duffing_periodic.sysid", "--frequency-parameter", "omega", "-q"});
        QVERIFY2(r.exitCode == 1, describe(r));
        QVERIFY2(r.err.contains("the frequency parameter 'omega' is not a parameter of the model"), describe(r));
        const Run none =
            runSysid({"fit", kExamples + "duffing_periodic.model", "--data", kExamples + "data/duffing_periodic_w1.csv",
                      "--method", "periodic-response", "-o", "-"});
        QVERIFY2(none.exitCode == 1, describe(none));
        QVERIFY2(none.err.contains("periodic-response needs the forcing period"), describe(none));
    }

    void missingFilesExit1()
    {
        QTemporaryDir tmp;
        Run r = runSysid({"fit", tmp.filePath("none.sysid")});
        QVERIFY2(r.exitCode == 1 && r.err.contains(tmp.filePath("none.sysid")), describe(r));
        r = runSysid({"fit", tmp.filePath("none.model"), "--data", kExamples + "data/sdof_cubic_5pct.csv", "-o", "-"});
        QVERIFY2(r.exitCode == 1 && r.err.contains(tmp.filePath("none.model")), describe(r));
        r = runSysid({"fit", kExamples + "sdof_cubic.model", "--data", tmp.filePath("none.csv"), "-o", "-"});
        QVERIFY2(r.exitCode == 1 && r.err.contains(tmp.filePath("none.csv")), describe(r));
        // The result's folder is checked before the fit runs.
        r = runSysid({"fit", kExamples + "sdof_cubic.sysid", "-o", tmp.filePath("no/such/r.json")});
        QVERIFY2(r.exitCode == 1 && r.err.contains(tmp.filePath("no/such/r.json")), describe(r));
        QVERIFY2(!r.err.contains("iteration"), describe(r));
    }

    void resultWrittenAtomically()
    {
        // An existing result is replaced whole; a result path that is a directory is an error
        // that leaves it alone.
        QTemporaryDir tmp;
        const QString out = tmp.filePath("r.json");
        QVERIFY(writeFile(out, "old"));
        Run r = runSysid({"fit", kExamples + "sdof_cubic.sysid", "-q", "-o", out});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY(!parseObject(readFile(out)).isEmpty());
        QVERIFY(QDir(tmp.path()).mkdir("dir.json"));
        r = runSysid({"fit", kExamples + "sdof_cubic.sysid", "-q", "-o", tmp.filePath("dir.json")});
        QVERIFY2(r.exitCode == 1 && r.err.contains(tmp.filePath("dir.json")), describe(r));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
                 (QStringList{"dir.json", "r.json"}));
    }

    void helpAndUsage()
    {
        const Run help = runSysid({"fit", "--help"});
        QVERIFY2(help.exitCode == 0 && help.out.contains("--data") && help.out.contains("--prior"), describe(help));
        const Run usage = runSysid({"--help"});
        QVERIFY2(usage.out.contains("fit PROJECT.sysid"), describe(usage));
    }
};

QTEST_GUILESS_MAIN(TestCliFit)
#include "test_cli_fit.moc"
