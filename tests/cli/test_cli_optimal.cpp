// `sysid optimal` run as a process: the seed-001 mass-spring-damper example (msd_optimal.model,
// data simulated with m = b = k = 1, no noise) converges to the truth, RESULT.json and the
// residual CSV have their members, a project gives its settings, user errors exit 1 naming the
// place, bad arguments exit 2.

#include <QDir>
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

const QString kModel = kExamples + "msd_optimal.model";
const QString kData = kExamples + "msd_optimal_data.csv";

}  // namespace

class TestCliOptimal : public QObject {
    Q_OBJECT

private slots:
    // Seed 001 §3.4: from m = b = k = 10 the estimate reaches 1, 1, 1 (noise-free data).
    void exampleConverges()
    {
        QTemporaryDir tmp;
        const QString result = tmp.filePath("r.json"), residuals = tmp.filePath("res.csv");
        const Run r = runSysid({"optimal", kModel, "--data", kData, "-o", result, "--residuals", residuals});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.contains("stage 1 iteration 1"), describe(r));  // progress with stage and timings
        QVERIFY2(r.err.contains(" LU "), describe(r));
        QVERIFY2(r.err.contains("stages euler 1 step per interval -> dopri5 rtol 1e-06 -> dopri5 rtol 1e-11"),
                 describe(r));
        // The stiffness along the starting guess is printed before the run.
        QVERIFY2(r.err.contains("stiffness at the starting guess: kappa = min Re(lambda) = "), describe(r));
        QVERIFY2(r.err.indexOf("stiffness at the starting guess") < r.err.indexOf("stage 1 iteration 1"), describe(r));
        const QJsonObject j = parseObject(readFile(result));
        QCOMPARE(j.keys(),
                 (QStringList{"converged", "cost", "costates", "inputs", "iterations", "message", "parameter_traces",
                              "parameters", "residual_norm", "residuals", "states", "statistics", "stiffness",
                              "termination", "times"}));
        QCOMPARE(j["costates"].toObject().keys(), (QStringList{"b", "k", "m", "s", "s'"}));
        QCOMPARE(j["stiffness"].toObject().keys(), (QStringList{"at_guess", "at_solution"}));
        QCOMPARE(j["stiffness"].toObject()["at_guess"].toObject()["kappa"].toArray().size(), 101);
        QVERIFY(j["converged"].toBool());
        const QJsonObject ps = j["parameters"].toObject();
        QCOMPARE(ps.keys(), (QStringList{"b", "k", "m"}));
        for (const auto& name : ps.keys()) {
            const double value = ps[name].toObject()["value"].toDouble();
            QVERIFY2(std::abs(value - 1.0) < 1e-3, qPrintable(name + " = " + QString::number(value, 'g', 10)));
            QVERIFY(ps[name].toObject()["drift"].toDouble() < 1e-3);
        }
        const int samples = j["times"].toArray().size();
        QCOMPARE(samples, 1001);
        QCOMPARE(j["states"].toObject().keys(), (QStringList{"s", "s'"}));
        QCOMPARE(j["inputs"].toObject().keys(), (QStringList{"s''", "u"}));
        QCOMPARE(j["states"].toObject()["s"].toArray().size(), samples);
        const QStringList residualNames = j["residuals"].toObject().keys();
        QVERIFY2(residualNames.contains("xi:s") && residualNames.contains("eps:s") &&
                     residualNames.contains("eps:eom:s"),
                 qPrintable(residualNames.join(',')));
        // The true model on noise-free data: every residual vanishes (to the estimate's accuracy).
        const QJsonObject traces = j["residuals"].toObject();
        for (const auto& name : residualNames) {
            double worst = 0.0;
            for (const auto& v : traces[name].toArray())
                worst = std::max(worst, std::abs(v.toDouble()));
            QVERIFY2(worst < 1e-4, qPrintable(name + " up to " + QString::number(worst)));
        }
        // The residual CSV: t and one column per residual, one row per sample.
        const QList<QByteArray> lines = readFile(residuals).trimmed().split('\n');
        QCOMPARE(lines.size(), samples + 1);
        const QList<QByteArray> header = lines.front().split(',');
        QCOMPARE(header.front(), QByteArray("t"));
        QCOMPARE(header.size(), residualNames.size() + 1);
    }

    // Settings from the project's "optimal_estimation"; too few shooting points do not converge
    // or are refused, and the command line overrides the project.
    void projectGivesTheSettings()
    {
        QTemporaryDir tmp;
        QFile model(kModel);
        QVERIFY(model.open(QIODevice::ReadOnly));
        QJsonArray lines;
        for (const auto& line : QString::fromUtf8(model.readAll()).split('\n'))
            lines.append(line);
        QJsonObject project{{"version", 1},
                            {"model", QJsonObject{{"source", "msd_optimal.model"}, {"text", lines}}},
                            {"data", QJsonArray{QJsonObject{{"path", kData}}}},
                            {"optimal_estimation", QJsonObject{{"state_weights", QJsonObject{{"nothing", 1.0}}}}}};
        const QString file = tmp.filePath("p.sysid");
        QVERIFY(writeFile(file, QJsonDocument(project).toJson()));
        // The project's weight names an augmented state the model lacks.
        Run r = runSysid({"optimal", file, "-q", "-o", tmp.filePath("r.json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("nothing"), describe(r));

        project["optimal_estimation"] =
            QJsonObject{{"shooting_points", 51}, {"state_weights", QJsonObject{{"s", 1.0}}}};
        QVERIFY(writeFile(file, QJsonDocument(project).toJson()));
        r = runSysid({"optimal", file, "-q"});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.isEmpty(), describe(r));
        const QJsonObject j = parseObject(r.out.toUtf8());
        QVERIFY2(std::abs(j["parameters"].toObject()["k"].toObject()["value"].toDouble() - 1.0) < 1e-3, describe(r));
    }

    // The first stage of the schedule is the user's: a trapezoidal first stage reaches the same
    // estimate, and the log names it.
    void firstStageIsChosen()
    {
        QTemporaryDir tmp;
        const Run r = runSysid({"optimal", kModel, "--data", kData, "--first-stage", "crank-nicolson",
                                "--first-stage-steps", "2", "-o", tmp.filePath("r.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.contains("stages crank-nicolson 2 steps per interval -> dopri5"), describe(r));
        const QJsonObject ps = parseObject(readFile(tmp.filePath("r.json")))["parameters"].toObject();
        for (const auto& name : ps.keys())
            QVERIFY2(std::abs(ps[name].toObject()["value"].toDouble() - 1.0) < 1e-3, qPrintable(name));
    }

    // Every stage of the schedule: --stage K:NAME=VALUE edits stage K (K one past the last adds one),
    // --stages N keeps N; the log names the schedule that ran.
    void everyStageIsSettable()
    {
        QTemporaryDir tmp;
        Run r = runSysid({"optimal", kModel, "--data", kData, "--stage", "1:integrator=rk4,steps=2", "--stage",
                          "2:rtol=1e-7,newton-tolerance=1e-5", "--stage", "4:rtol=1e-12,atol=1e-14", "-o",
                          tmp.filePath("r.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.contains("stages rk4 2 steps per interval -> dopri5 rtol 1e-07 -> dopri5 rtol 1e-11 -> dopri5 "
                                "rtol 1e-12"),
                 describe(r));
        QVERIFY2(r.err.contains("stage 3 done"), describe(r));
        const QJsonObject ps = parseObject(readFile(tmp.filePath("r.json")))["parameters"].toObject();
        for (const auto& name : ps.keys())
            QVERIFY2(std::abs(ps[name].toObject()["value"].toDouble() - 1.0) < 1e-4, qPrintable(name));
        r = runSysid({"optimal", kModel, "--data", kData, "--stages", "2", "--stage", "2:rtol=1e-10", "-o",
                      tmp.filePath("r2.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.contains("stages euler 1 step per interval -> dopri5 rtol 1e-10\n"), describe(r));
    }

    // --diagnose prints the stiffness along the starting guess and stops; -o gets it as JSON.
    void diagnoseOnly()
    {
        QTemporaryDir tmp;
        const QString out = tmp.filePath("d.json");
        const Run r = runSysid({"optimal", kModel, "--data", kData, "--diagnose", "-o", out});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.out.contains("stiffness along the starting guess: kappa = min Re(lambda) = "), describe(r));
        QVERIFY2(r.out.contains("with 101 shooting points"), describe(r));
        QVERIFY2(!r.err.contains("iteration"), describe(r));
        const QJsonObject d = parseObject(readFile(out))["stiffness"].toObject()["at_guess"].toObject();
        QCOMPARE(d["kappa"].toArray().size(), 101);
        QVERIFY(d["kappa_min"].toDouble() < 0);
        QVERIFY(d["suggested_points"].toInt() >= 2);
    }

    // The seed's guess syntax and starting from a previous result.
    void guessesAndPreviousResults()
    {
        QTemporaryDir tmp;
        const QString first = tmp.filePath("first.json");
        Run r = runSysid({"optimal", kModel, "--data", kData, "-q", "-o", first});
        QVERIFY2(r.exitCode == 0, describe(r));
        const int fromData = parseObject(readFile(first))["iterations"].toInt();
        r = runSysid({"optimal", kModel, "--data", kData, "--guess-from", first, "-o", tmp.filePath("second.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.contains("starting from " + first), describe(r));
        const int warm = parseObject(readFile(tmp.filePath("second.json")))["iterations"].toInt();
        qInfo("from the data %d iterations, from the previous result %d", fromData, warm);
        QVERIFY(warm < fromData);
        // Guesses as expressions (here of the parameters' starting values): m at 1, b at k/10 = 1.
        r = runSysid({"optimal", kModel, "--data", kData, "-q", "--guess", "m=1", "--guess", "b=k/10", "-o",
                      tmp.filePath("third.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        const QJsonObject third = parseObject(readFile(tmp.filePath("third.json")));
        QVERIFY(third["converged"].toBool());
        QVERIFY(third["iterations"].toInt() < fromData);
    }

    void userErrorsNameThePlace_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("csv");  // replaces the data when not empty
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown state weight") << QStringList{"--state-weight", "q=2"} << QString() << "q";
        QTest::newRow("unknown measurement weight")
            << QStringList{"--measurement-weight", "eom:z=2"} << QString() << "eom:z";
        QTest::newRow("unknown prior") << QStringList{"--initial", "z=1,1"} << QString() << "z";
        QTest::newRow("unknown parameter") << QStringList{"--set", "c=2"} << QString() << "'c'";
        QTest::newRow("NaN in the data") << QStringList{} << "t,u,s\n0,0,0\n0.1,0.1,nan\n0.2,0.2,0.01\n0.3,0.1,0.02\n"
                                         << "d.csv:3: column 's'";
        QTest::newRow("missing input column") << QStringList{} << "t,s\n0,0\n0.1,0.001\n0.2,0.004\n0.3,0.009\n"
                                              << "u";
        QTest::newRow("mapped column missing") << QStringList{"--map", "s=pos"} << QString() << "pos";
        QTest::newRow("guess of an unknown state") << QStringList{"--guess", "q=1"} << QString() << "'q'";
        QTest::newRow("guess with an unknown name")
            << QStringList{"--guess", "s'=zz*2"} << QString() << "initial guess of s'";
        QTest::newRow("result to start from missing")
            << QStringList{"--guess-from", "/nonexistent/r.json"} << QString() << "/nonexistent/r.json";
        QTest::newRow("result to start from not JSON")
            << QStringList{"--guess-from", kModel} << QString() << "not a JSON result";
    }

    void userErrorsNameThePlace()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, csv);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        QString data = kData;
        if (!csv.isEmpty()) {
            data = tmp.filePath("d.csv");
            QVERIFY(writeFile(data, csv.toUtf8()));
        }
        const Run r =
            runSysid(QStringList{"optimal", kModel, "--data", data, "-q", "-o", tmp.filePath("r.json")} + extra);
        QVERIFY2(r.exitCode == 1, describe(r));
        QVERIFY2(r.err.contains(expected), describe(r));
        QVERIFY2(!r.err.contains("iteration"), describe(r));
    }

    // A run that does not converge still writes its JSON and exits 1 with the reason.
    void notConvergedExitsOne()
    {
        QTemporaryDir tmp;
        const QString result = tmp.filePath("r.json");
        // Three shooting points from a start far off (m = 0.01, k = 100, b = 0): the shooting
        // matrix of the first stage is singular.
        const Run r = runSysid({"optimal", kModel, "--data", kData, "--points", "3", "--set", "m=1e-2", "--set",
                                "k=100", "--set", "b=0", "-q", "-o", result});
        QVERIFY2(r.exitCode == 1, describe(r));
        QVERIFY2(r.err.contains("did not converge"), describe(r));
        QVERIFY(!parseObject(readFile(result))["converged"].toBool());
    }

    void badArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no input") << QStringList{"optimal"};
        QTest::newRow("no data") << QStringList{"optimal", kModel, "-o", "r.json"};
        QTest::newRow("no output") << QStringList{"optimal", kModel, "--data", kData};
        QTest::newRow("weight not a number")
            << QStringList{"optimal", kModel, "--data", kData, "--state-weight", "s=x", "-o", "r.json"};
        QTest::newRow("weight zero") << QStringList{"optimal",        kModel, "--data", kData,
                                                    "--state-weight", "s=0",  "-o",     "r.json"};
        QTest::newRow("V negative") << QStringList{"optimal", kModel, "--data", kData, "--measurement-weight",
                                                   "s=-1",    "-o",   "r.json"};
        QTest::newRow("prior without weight")
            << QStringList{"optimal", kModel, "--data", kData, "--initial", "s=1", "-o", "r.json"};
        QTest::newRow("one point") << QStringList{"optimal", kModel, "--data", kData, "--points", "1", "-o", "r.json"};
        QTest::newRow("adaptive first stage")
            << QStringList{"optimal", kModel, "--data", kData, "--first-stage", "dopri5", "-o", "r.json"};
        QTest::newRow("no first-stage steps")
            << QStringList{"optimal", kModel, "--data", kData, "--first-stage-steps", "0", "-o", "r.json"};
        QTest::newRow("stage tolerance 0")
            << QStringList{"optimal", kModel, "--data", kData, "--stage", "2:rtol=0", "-o", "r.json"};
        QTest::newRow("stage beyond the next")
            << QStringList{"optimal", kModel, "--data", kData, "--stage", "5:rtol=1e-7", "-o", "r.json"};
        QTest::newRow("unknown stage setting")
            << QStringList{"optimal", kModel, "--data", kData, "--stage", "1:bogus=1", "-o", "r.json"};
        QTest::newRow("unknown stage integrator")
            << QStringList{"optimal", kModel, "--data", kData, "--stage", "1:integrator=rk45", "-o", "r.json"};
        QTest::newRow("stage without a number")
            << QStringList{"optimal", kModel, "--data", kData, "--stage", "rtol=1e-7", "-o", "r.json"};
        QTest::newRow("no stages") << QStringList{"optimal", kModel, "--data", kData, "--stages", "0", "-o", "r.json"};
        QTest::newRow("guess without expression")
            << QStringList{"optimal", kModel, "--data", kData, "--guess", "s=", "-o", "r.json"};
        QTest::newRow("last result without a project")
            << QStringList{"optimal", kModel, "--data", kData, "--guess-from", "last_result", "-o", "r.json"};
        QTest::newRow("residuals of a diagnosis")
            << QStringList{"optimal", kModel, "--data", kData, "--diagnose", "--residuals", "x.csv"};
        QTest::newRow("unknown option") << QStringList{"optimal",   kModel, "--data", kData,
                                                       "--weights", "1",    "-o",     "r.json"};
        QTest::newRow("data with a project") << QStringList{"optimal", "p.sysid", "--data", kData};
    }

    void badArguments()
    {
        QFETCH(QStringList, args);
        const Run r = runSysid(args);
        QVERIFY2(r.exitCode == 2, describe(r));
        QVERIFY2(r.err.contains("sysid optimal"), describe(r));
    }

    // A broken stage setting is named as it is typed.
    void stageErrorsNameTheStage()
    {
        const Run r = runSysid({"optimal", kModel, "--data", kData, "--stage", "2:rtol=0", "-o", "r.json"});
        QVERIFY2(r.err.contains("--stage 2:rtol: expected a number > 0, got 0"), describe(r));
    }

    // The bundled flexible-manipulator project (Rutten 1993 ch. 4, model 1 with the seed's weights
    // on data with friction) converges; its equation-of-motion residual carries the friction.
    void manipulatorProjectRuns()
    {
        QTemporaryDir tmp;
        const QString result = tmp.filePath("m.json");
        const Run r = runSysid({"optimal", kExamples + "flexible_manipulator_optimal.sysid", "-q", "-o", result});
        QVERIFY2(r.exitCode == 0, describe(r));
        const QJsonObject j = parseObject(readFile(result));
        QVERIFY(j["converged"].toBool());
        QVERIFY(j["residuals"].toObject().contains("eps:eom:s2"));
        // The extended model with friction recovers f2 (the record was simulated with 39.9).
        const Run f = runSysid(
            {"optimal", kExamples + "flexible_manipulator_friction_optimal.sysid", "-q", "-o", tmp.filePath("f.json")});
        QVERIFY2(f.exitCode == 0, describe(f));
        const double f2 =
            parseObject(readFile(tmp.filePath("f.json")))["parameters"].toObject()["f2"].toObject()["value"].toDouble();
        QVERIFY2(std::abs(f2 / 39.9 - 1) < 1e-3, qPrintable(QString::number(f2)));
        // One Euler step per interval as the first stage: the friction's clamp slides at a surface
        // whose modes do not move its rate; this once crashed (a stale sliding Jacobian). Now it
        // ends with a message (or converges).
        const Run euler = runSysid({"optimal", kExamples + "flexible_manipulator_friction_optimal.sysid", "-q",
                                    "--stage", "1:integrator=euler,steps=1", "-o", tmp.filePath("e.json")});
        QVERIFY2(euler.exitCode == 0 || (euler.exitCode == 1 && euler.err.contains("did not converge")),
                 describe(euler));
    }

    void usageListsTheCommand()
    {
        const Run r = runSysid({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("optimal MODEL --data"));
    }
};

QTEST_GUILESS_MAIN(TestCliOptimal)
#include "test_cli_optimal.moc"
