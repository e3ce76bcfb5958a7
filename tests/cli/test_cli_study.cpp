// `sysid study` run as a process: a Monte Carlo noise study of a project whose clean data come
// from x' = a + b t (linear in a, b, so the estimates' sd is the least-squares one), the table
// on stdout, progress on stderr, JSON and CSV results, options overriding the project's
// "study" member, and exit 1 / 2 with clear messages for bad projects and arguments. On data
// without true values: a parametric bootstrap.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "SysidProcess.h"

#include <cmath>

namespace {

using namespace sysid::test;

constexpr double kA = 1.0, kB = 2.0;

// x(t) = a t + b t^2/2 on t = 0, 0.05, ..., 2 (clean).
QByteArray cleanCsv()
{
    QByteArray text = "t,x\n";
    for (int k = 0; k <= 40; ++k) {
        const double t = 0.05 * k;
        text += QByteArray::number(t, 'g', 17) + "," + QByteArray::number(kA * t + kB * t * t / 2, 'g', 17) + "\n";
    }
    return text;
}

QByteArray project(const QByteArray& study,
                   const QByteArray& model = "\"param a = 0.5\", \"param b = 0.5\", "
                                             "\"state x = 0\", \"x' = a + b*t\", \"output x\"")
{
    return "{\"version\": 1, \"model\": {\"source\": \"linear.model\", \"text\": [" + model +
        "]}, \"data\": [{\"path\": \"clean.csv\", \"true_values\": {\"a\": 1, \"b\": 2}}]" +
        (study.isEmpty() ? QByteArray() : ", \"study\": " + study) + "}\n";
}

}  // namespace

class TestCliStudy : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QVERIFY(writeFile(path("clean.csv"), cleanCsv()));
        QVERIFY(writeFile(
            path("linear.sysid"),
            project("{\"realisations\": 7, \"noise_percent\": 5, \"distribution\": \"gaussian\", \"seed\": 3}")));
    }

    void gaussianStudyToJson()
    {
        const Run r = runSysid(
            {"study", path("linear.sysid"), "--realisations", "200", "--threads", "2", "-o", path("study.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        // The table: header and one row per parameter; the settings line.
        QVERIFY2(r.out.startsWith("Monte Carlo against the true values\n"), describe(r));
        QVERIFY2(r.out.contains("200 of 200 realisations, 0 failed"), describe(r));
        QVERIFY2(r.out.contains("noise 5 % RMS gaussian, seed 3"), describe(r));  // from the project
        QVERIFY2(r.out.contains(QRegularExpression("parameter\\s+true\\s+mean\\s+sd\\s+bias\\s+bias %")), describe(r));
        QVERIFY2(r.out.contains(QRegularExpression("\\na\\s+1\\s+0\\.99")) ||
                     r.out.contains(QRegularExpression("\\na\\s+1\\s+1\\.0")),
                 describe(r));
        // Progress on stderr: one line per realisation.
        QCOMPARE(r.err.count("realisation "), 200);

        const QJsonObject j = QJsonDocument::fromJson(readFile(path("study.json"))).object();
        QCOMPARE(j["completed"].toInt(), 200);
        QCOMPARE(j["method"].toString(), QString("output-error"));
        QCOMPARE(j["settings"].toObject()["seed"].toInt(), 3);
        QCOMPARE(j["realisations"].toArray().size(), 200);
        // Least squares: sd(a) = sigma sqrt((X'X)^-1)_aa with sigma = 5 % of the clean RMS.
        double rms = 0, s11 = 0, s12 = 0, s22 = 0;
        for (int k = 0; k <= 40; ++k) {
            const double t = 0.05 * k, x = kA * t + kB * t * t / 2, u = t * t / 2;
            rms += x * x;
            s11 += t * t;
            s12 += t * u;
            s22 += u * u;
        }
        const double sigma = 0.05 * std::sqrt(rms / 41);
        const double sdA = sigma * std::sqrt(s22 / (s11 * s22 - s12 * s12));
        const QJsonObject a = j["parameters"].toObject()["a"].toObject();
        qInfo("a: mean %.5f sd %.5f (least squares %.5f)", a["mean"].toDouble(), a["sd"].toDouble(), sdA);
        QCOMPARE(a["true"].toDouble(), kA);
        QVERIFY(std::abs(a["mean"].toDouble() - kA) < 4 * sdA / std::sqrt(200.0));
        QVERIFY(std::abs(a["sd"].toDouble() - sdA) < 4 * sdA / std::sqrt(2.0 * 199));
        QCOMPARE(a["bias"].toDouble(), a["mean"].toDouble() - kA);
    }

    void projectSettingsAndCsv()
    {
        // Without options the project's 7 realisations; --method and CSV output.
        const Run r = runSysid(
            {"study", path("linear.sysid"), "--method", "multiple-shooting", "--quiet", "-o", path("study.csv")});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.isEmpty(), describe(r));
        QVERIFY2(r.out.contains("7 of 7 realisations") && r.out.contains("multiple-shooting"), describe(r));
        const QList<QByteArray> lines = readFile(path("study.csv")).trimmed().split('\n');
        QCOMPARE(lines.size(), 8);
        QCOMPARE(lines[0], QByteArray("realisation,seed,failed,converged,iterations,cost,\"a\",\"b\",message"));
        QVERIFY(lines[2].startsWith("1,1000006,0,1,"));  // seed 3 + 1000003

        // The same study as JSON on stdout instead of the table; options override the project.
        const Run j = runSysid({"study", path("linear.sysid"), "-n", "3", "--noise", "20", "--distribution", "uniform",
                                "--seed", "9", "-q", "-o", "-"});
        QVERIFY2(j.exitCode == 0, describe(j));
        const QJsonObject o = QJsonDocument::fromJson(j.rawOut).object();
        QCOMPARE(o["completed"].toInt(), 3);
        QCOMPARE(o["settings"].toObject()["noise_percent"].toDouble(), 20.0);
        QCOMPARE(o["settings"].toObject()["distribution"].toString(), QString("uniform"));
        QCOMPARE(o["settings"].toObject()["seed"].toInt(), 9);
    }

    void measuredDataGiveAParametricBootstrap()
    {
        // Data without true values, with a little deterministic "measurement noise": the study is
        // a bootstrap around the estimate, says so, and prints no bias.
        QByteArray text = "t,x\n";
        for (int k = 0; k <= 40; ++k) {
            const double t = 0.05 * k;
            text += QByteArray::number(t, 'g', 17) + "," +
                QByteArray::number(kA * t + kB * t * t / 2 + 0.02 * std::sin(37.0 * k), 'g', 17) + "\n";
        }
        QVERIFY(writeFile(path("measured.csv"), text));
        QByteArray measured = project("{\"realisations\": 20}");
        measured.replace("\"path\": \"clean.csv\", \"true_values\": {\"a\": 1, \"b\": 2}",
                         "\"path\": \"measured.csv\"");
        QVERIFY(writeFile(path("measured.sysid"), measured));
        const Run r = runSysid({"study", path("measured.sysid"), "-o", path("bootstrap.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.out.startsWith("Parametric bootstrap (Efron & Tibshirani 1993) around the estimate\n"), describe(r));
        QVERIFY2(r.out.contains(QRegularExpression("parameter\\s+estimate\\s+mean\\s+sd\\s+2\\.5 %\\s+97\\.5 %")),
                 describe(r));
        QVERIFY2(!r.out.contains("bias"), describe(r));
        QVERIFY2(r.err.contains("study: Parametric bootstrap"), describe(r));
        const QJsonObject j = QJsonDocument::fromJson(readFile(path("bootstrap.json"))).object();
        QCOMPARE(j["kind"].toString(), QString("bootstrap"));
        const QJsonObject a = j["parameters"].toObject()["a"].toObject();
        QVERIFY(a["bias"].isNull());
        QVERIFY(a["sd"].toDouble() > 0);
        QVERIFY(a["percentile_2_5"].toDouble() < a["estimate"].toDouble());
        QVERIFY(a["percentile_97_5"].toDouble() > a["estimate"].toDouble());

        // Asked for explicitly, the same data give a Monte Carlo study (without true values: no bias).
        const Run mc = runSysid({"study", path("measured.sysid"), "--kind", "monte-carlo", "-n", "3", "-q"});
        QVERIFY2(mc.exitCode == 0, describe(mc));
        QVERIFY2(mc.out.startsWith("Monte Carlo against the true values\n"), describe(mc));
    }

    void sameSeedSameNumbersWhateverTheThreads()
    {
        const Run one = runSysid({"study", path("linear.sysid"), "-n", "9", "--threads", "1", "-q", "-o", "-"});
        const Run three = runSysid({"study", path("linear.sysid"), "-n", "9", "--threads", "3", "-q", "-o", "-"});
        QVERIFY2(one.exitCode == 0, describe(one));
        QVERIFY2(three.exitCode == 0, describe(three));
        QCOMPARE(one.rawOut, three.rawOut);
    }

    void badArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString p = path("linear.sysid");
        QTest::newRow("distribution") << QStringList{p, "--distribution", "laplace"} << "--distribution";
        QTest::newRow("noise zero") << QStringList{p, "--noise", "0"} << "--noise";
        QTest::newRow("noise text") << QStringList{p, "--noise", "five"} << "--noise";
        QTest::newRow("realisations") << QStringList{p, "-n", "0"} << "--realisations";
        QTest::newRow("threads") << QStringList{p, "--threads", "-2"} << "--threads";
        QTest::newRow("method") << QStringList{p, "--method", "guessing"} << "guessing";
        QTest::newRow("output") << QStringList{p, "-o", path("result.txt")} << ".json or .csv";
        QTest::newRow("model") << QStringList{path("clean.csv")} << "PROJECT.sysid";
        QTest::newRow("none") << QStringList{} << "missing";
    }

    void badArguments()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = runSysid(QStringList{"study"} + args);
        QVERIFY2(r.exitCode == 2, describe(r));
        QVERIFY2(r.err.contains(message), describe(r));
    }

    void userErrors()
    {
        // A bad "study" member names its key.
        QVERIFY(writeFile(path("bad.sysid"), project("{\"seed\": -4}")));
        Run r = runSysid({"study", path("bad.sysid")});
        QVERIFY2(r.exitCode == 1 && r.err.contains("study.seed"), describe(r));
        QVERIFY(writeFile(path("unknown.sysid"), project("{\"repeats\": 4}")));
        r = runSysid({"study", path("unknown.sysid")});
        QVERIFY2(r.exitCode == 1 && r.err.contains("study.repeats") && r.err.contains("unknown key"), describe(r));
        // A missing project.
        r = runSysid({"study", path("missing.sysid")});
        QVERIFY2(r.exitCode == 1 && r.err.contains("missing.sysid"), describe(r));
        // Every realisation failing (the model has no 'c'): exit 1 with the fit's message.
        QVERIFY(writeFile(
            path("broken.sysid"),
            project("{\"realisations\": 3}", "\"param a = 1\", \"state x = 0\", \"x' = a*c\", \"output x\"")));
        r = runSysid({"study", path("broken.sysid"), "-q"});
        QVERIFY2(r.exitCode == 1 && r.err.contains("every realisation failed") && r.err.contains("linear.model"),
                 describe(r));
    }
};

QTEST_GUILESS_MAIN(TestCliStudy)
#include "test_cli_study.moc"
