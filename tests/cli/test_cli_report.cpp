// The stop report from the command line: `sysid fit --report` prints the full report on
// stderr (the result JSON holds it too), and the fit, periodic and optimal results carry the
// termination and the statistics.
#include "SysidProcess.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <numbers>

using namespace sysid::test;

namespace {

// The report's line with this label, without the label ("" when there is none).
QString reportValue(const QString& report, const QString& label)
{
    for (const QString& line : report.split('\n'))
        if (line.startsWith("  " + label + "  "))
            return line.mid(2 + label.size()).trimmed();
    return {};
}

void checkTermination(const QJsonObject& termination)
{
    const QStringList kinds{"converged", "iteration_limit", "cancelled", "failed"};
    QVERIFY2(kinds.contains(termination["kind"].toString()), qPrintable(termination["kind"].toString()));
    QVERIFY(termination["criterion"].isString());
    QVERIFY(termination["message"].isString());
}

void checkStatistics(const QJsonObject& statistics)
{
    for (const char* key : {"steps", "rejected_steps", "rhs_evaluations", "jacobian_evaluations", "factorizations"})
        QVERIFY2(statistics[key].isDouble(), key);
    const QJsonObject seconds = statistics["seconds"].toObject();
    QCOMPARE(seconds.keys(), (QStringList{"compilation", "integration", "linear_algebra", "total"}));
    QVERIFY(seconds["total"].toDouble() > 0.0);
}

}  // namespace

class TestCliReport : public QObject {
    Q_OBJECT

private slots:
    void fitReportOnStandardError()
    {
        QTemporaryDir tmp;
        const QString out = tmp.filePath("r.json");
        const Run r = runSysid({"fit", kExamples + "mass_spring_damper.sysid", "-o", out, "--quiet", "--report",
                                "--max-iterations", "60"});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.startsWith("fit report\n"), describe(r));
        QVERIFY2(reportValue(r.err, "method").startsWith("output-error by Levenberg-Marquardt, integrator "),
                 describe(r));
        QVERIFY2(reportValue(r.err, "non-default settings").contains("max_iterations = 60"), describe(r));
        QVERIFY2(reportValue(r.err, "unknowns").startsWith("3 (m, b, k) from 1001 residuals"), describe(r));
        QVERIFY2(reportValue(r.err, "time").contains("linear algebra"), describe(r));
        QVERIFY2(!reportValue(r.err, "integration").isEmpty(), describe(r));
        QVERIFY2(!reportValue(r.err, "evaluations").isEmpty(), describe(r));

        const QJsonObject result = readJson(out);
        const QJsonObject termination = result["termination"].toObject();
        checkTermination(termination);
        QCOMPARE(termination["kind"].toString(), QStringLiteral("converged"));
        QCOMPARE(reportValue(r.err, "termination"),
                 QStringLiteral("converged (%1): %2")
                     .arg(termination["criterion"].toString(), termination["message"].toString()));
        QCOMPARE(result["stop_reason"].toString(), termination["message"].toString());
        QCOMPARE(reportValue(r.err, "iterations"), QString::number(result["iterations"].toInt()));
        checkStatistics(result["statistics"].toObject());
        // The result holds the same report.
        const QJsonObject report = result["report"].toObject();
        QCOMPARE(report["text"].toString() + "\n", r.err);
        QCOMPARE(report["non_default_settings"].toObject()["max_iterations"].toInt(), 60);
        QCOMPARE(report["method"].toString(), QStringLiteral("output-error"));
    }

    void noReportUnlessAsked()
    {
        QTemporaryDir tmp;
        const Run r = runSysid({"fit", kExamples + "mass_spring_damper.sysid", "-o", tmp.filePath("r.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(!r.err.contains("fit report"), describe(r));
        QVERIFY2(r.err.contains("iteration 1 "), describe(r));  // the progress lines as before
        const Run help = runSysid({"fit", "--help"});
        QVERIFY2(help.out.contains("--report") && help.out.contains("stderr"), describe(help));
    }

    void periodicResultCarriesTerminationAndStatistics()
    {
        QTemporaryDir dir;
        const QString model = dir.filePath("linear.model");
        {
            QFile f(model);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("param c = 0.2\nparam w = 1.3 fixed\nx'' = -c*x' - x + cos(w*t)\nx(0) = 0, 0\noutput x\n");
        }
        const Run r = runSysid({"periodic", model, "--period", QString::number(2 * std::numbers::pi / 1.3, 'g', 17),
                                "-o", dir.filePath("o.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.contains("termination: converged (residual_tolerance)"), describe(r));
        QVERIFY2(r.err.contains("statistics: "), describe(r));
        const QJsonObject o = readJson(dir.filePath("o.json"));
        checkTermination(o["termination"].toObject());
        QCOMPARE(o["termination"].toObject()["criterion"].toString(), QStringLiteral("residual_tolerance"));
        QVERIFY(o["converged"].toBool());
        checkStatistics(o["statistics"].toObject());
    }

    void optimalResultCarriesTerminationAndStatistics()
    {
        QTemporaryDir tmp;
        const QString out = tmp.filePath("r.json");
        const Run r = runSysid(
            {"optimal", kExamples + "msd_optimal.model", "--data", kExamples + "msd_optimal_data.csv", "-o", out});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.contains("termination: converged (residual_tolerance)"), describe(r));
        QVERIFY2(r.err.contains("statistics: "), describe(r));
        const QJsonObject o = readJson(out);
        checkTermination(o["termination"].toObject());
        QVERIFY(o["converged"].toBool());
        QCOMPARE(o["message"].toString(), o["termination"].toObject()["message"].toString());
        checkStatistics(o["statistics"].toObject());
    }
};

QTEST_GUILESS_MAIN(TestCliReport)
#include "test_cli_report.moc"
