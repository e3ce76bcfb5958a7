// `sysid periodic`: periodic steady states, Floquet multipliers and frequency-response
// continuation from the command line, checked against analytic answers.
#include "SysidProcess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <complex>
#include <numbers>

using namespace sysid::test;

namespace {

// x'' + c x' + k x = F cos(w t): x = X cos(w t - phi), X = F / sqrt((k - w^2)^2 + (c w)^2).
const char* kLinear = "param c = 0.2\nparam k = 1\nparam F = 1 fixed\nparam w = 1.3 fixed\n"
                      "x'' = -c*x' - k*x + F*cos(w*t)\nx(0) = 0, 0\noutput x\n";

double amplitude(double c, double k, double F, double w)
{
    return F / std::hypot(k - w * w, c * w);
}

// The same oscillator driven by a measured input u: its record is F cos(w t).
const char* kDriven = "param c = 0.2\nparam k = 1\ninput u\nx'' = -c*x' - k*x + u\nx(0) = 0, 0\noutput x\n";

// u = scale(period) cos(w t) at `perPeriod` samples per period over `periods` periods.
QByteArray forceCsv(double w, int perPeriod, int periods, double laterScale = 1.0)
{
    QByteArray csv = "t,u\n";
    const double T = 2 * std::numbers::pi / w;
    for (int p = 0; p < periods; ++p)
        for (int k = 0; k < perPeriod; ++k) {
            const double t = T * (p + static_cast<double>(k) / perPeriod);
            csv += QByteArray::number(t, 'g', 17) + "," +
                QByteArray::number((p == 0 ? 1.0 : laterScale) * std::cos(w * t), 'g', 17) + "\n";
        }
    return csv;
}

QString writeModel(const QTemporaryDir& dir, const char* name, const char* text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(text);
    return path;
}

}  // namespace

class TestCliPeriodic : public QObject {
    Q_OBJECT

private slots:
    void linearOrbitAndMultipliersAreAnalytic()
    {
        QTemporaryDir dir;
        const QString model = writeModel(dir, "linear.model", kLinear);
        const double w = 1.3, T = 2 * std::numbers::pi / w;
        const Run r =
            runSysid({"periodic", model, "--period", QString::number(T, 'g', 17), "-o", dir.filePath("o.json")});
        QVERIFY2(r.exitCode == 0, describe(r, 2000));
        const QJsonObject o = readJson(dir.filePath("o.json"));
        const double X = amplitude(0.2, 1, 1, w), phi = std::atan2(0.2 * w, 1 - w * w);
        QVERIFY(std::abs(o["initial_state"].toObject()["x"].toDouble() - X * std::cos(phi)) < 1e-7);
        QVERIFY(std::abs(o["initial_state"].toObject()["x'"].toDouble() - X * w * std::sin(phi)) < 1e-7);
        QVERIFY(std::abs(o["period"].toDouble() - T) < 1e-12);
        QVERIFY(o["stable"].toBool());
        QVERIFY(o["converged"].toBool());
        // mu = exp(lambda T) with lambda = -c/2 +- i sqrt(k - c^2/4).
        const std::complex<double> lambda(-0.1, std::sqrt(1 - 0.01));
        const std::complex<double> mu = std::exp(lambda * T);
        const QJsonArray multipliers = o["floquet_multipliers"].toArray();
        QCOMPARE(multipliers.size(), 2);
        for (const auto& m : multipliers) {
            const std::complex<double> got(m.toArray()[0].toDouble(), m.toArray()[1].toDouble());
            QVERIFY2(std::min(std::abs(got - mu), std::abs(got - std::conj(mu))) < 1e-7,
                     qPrintable(QString::number(got.real())));
        }
        const QJsonArray xs = o["orbit"].toObject()["outputs"].toObject()["x"].toArray();
        QVERIFY(xs.size() >= 100);
    }

    // Driven by the record of u = cos(1.3 t) over one period (64 samples, periodic spline), the orbit is
    // the analytic one to the spline's accuracy (~1e-6 here), by shooting and by time discretisation.
    void measuredInputOverOnePeriod()
    {
        QTemporaryDir dir;
        const QString model = writeModel(dir, "driven.model", kDriven);
        const QString force = dir.filePath("u.csv");
        QFile f(force);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(forceCsv(1.3, 64, 1));
        f.close();
        const double w = 1.3, T = 2 * std::numbers::pi / w;
        const double X = amplitude(0.2, 1, 1, w), phi = std::atan2(0.2 * w, 1 - w * w);
        for (const QStringList& solver :
             {QStringList{},
              QStringList{"--solver", "discretisation", "--scheme", "hermite-simpson", "--nodes", "400"}}) {
            const Run r =
                runSysid(QStringList{"periodic", model, "--input", force, "--period", QString::number(T, 'g', 17),
                                     "--intersample", "u=spline", "-o", dir.filePath("o.json")} +
                         solver);
            QVERIFY2(r.exitCode == 0, describe(r, 2000));
            QVERIFY2(r.err.contains("one period, 64 samples per period (u spline)"), describe(r, 2000));
            const QJsonObject o = readJson(dir.filePath("o.json"));
            QVERIFY2(std::abs(o["initial_state"].toObject()["x"].toDouble() - X * std::cos(phi)) < 1e-5,
                     describe(r, 2000));
            QVERIFY(std::abs(o["initial_state"].toObject()["x'"].toDouble() - X * w * std::sin(phi)) < 1e-5);
            QVERIFY(o["stable"].toBool());
        }
        // Without the record the model is refused, saying what to give.
        const Run none = runSysid({"periodic", model, "--period", QString::number(T, 'g', 17), "-o", "-"});
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains("give their record over one forcing period"), describe(none, 2000));
    }

    // Three periods whose later two are twice as large: averaged by default, the first alone with
    // --input-periods 1.
    void inputPeriodsAveragedOrFirst()
    {
        QTemporaryDir dir;
        const QString model = writeModel(dir, "driven.model", kDriven);
        const QString force = dir.filePath("u3.csv");
        QFile f(force);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(forceCsv(1.3, 64, 3, 2.0));
        f.close();
        const double w = 1.3, T = 2 * std::numbers::pi / w;
        const double X = amplitude(0.2, 1, 1, w), phi = std::atan2(0.2 * w, 1 - w * w);
        const QStringList base{"periodic",
                               model,
                               "--input",
                               force,
                               "--period",
                               QString::number(T, 'g', 17),
                               "--intersample",
                               "u=spline",
                               "-o",
                               dir.filePath("o.json")};
        const Run all = runSysid(base);
        QVERIFY2(all.exitCode == 0, describe(all, 2000));
        QVERIFY2(all.err.contains("3 periods averaged"), describe(all, 2000));
        const double averaged = readJson(dir.filePath("o.json"))["initial_state"].toObject()["x"].toDouble();
        QVERIFY2(std::abs(averaged - 5.0 / 3.0 * X * std::cos(phi)) < 1e-5, describe(all, 2000));
        const Run first = runSysid(base + QStringList{"--input-periods", "1"});
        QVERIFY2(first.exitCode == 0, describe(first, 2000));
        QVERIFY2(first.err.contains("one period"), describe(first, 2000));
        const double firstOnly = readJson(dir.filePath("o.json"))["initial_state"].toObject()["x"].toDouble();
        QVERIFY2(std::abs(firstOnly - X * std::cos(phi)) < 1e-5, describe(first, 2000));
    }

    // Continuation in the damping under the measured input: |H(iw)| at every branch point; a
    // frequency sweep contradicts the record's fixed period and is refused.
    void continuationUnderMeasuredInput()
    {
        QTemporaryDir dir;
        const QString model = writeModel(dir, "driven.model", kDriven);
        const QString force = dir.filePath("u.csv");
        QFile f(force);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(forceCsv(1.3, 64, 1));
        f.close();
        const QString T = QString::number(2 * std::numbers::pi / 1.3, 'g', 17);
        const Run r = runSysid({"periodic", model, "--input", force, "--period", T, "--intersample", "u=spline",
                                "--sweep", "c=0.2:0.6", "-o", dir.filePath("b.csv")});
        QVERIFY2(r.exitCode == 0, describe(r, 2000));
        QFile b(dir.filePath("b.csv"));
        QVERIFY(b.open(QIODevice::ReadOnly));
        QCOMPARE(b.readLine().trimmed(), QByteArray("c,amplitude,period,stable,type"));
        int points = 0;
        while (!b.atEnd()) {
            const QList<QByteArray> cells = b.readLine().trimmed().split(',');
            const double c = cells[0].toDouble();
            QVERIFY2(std::abs(cells[1].toDouble() - amplitude(c, 1, 1, 1.3)) < 1e-5, cells[0].constData());
            ++points;
        }
        QVERIFY(points >= 5);
        const Run frequency = runSysid(
            {"periodic", model, "--input", force, "--sweep", "c=0.5:2", "--frequency", "-o", dir.filePath("b.csv")});
        QCOMPARE(frequency.exitCode, 1);
        QVERIFY2(frequency.err.contains("fixed by the measured input record"), describe(frequency, 2000));
    }

    // Time discretisation (Hermite-Simpson) is a second, independent method: the same orbit.
    void discretisationAgreesWithShooting()
    {
        QTemporaryDir dir;
        const QString model = kExamples + "duffing_frequency_response.model";
        const QString T = QString::number(2 * std::numbers::pi, 'g', 17);
        const Run a = runSysid({"periodic", model, "--period", T, "-q", "-o", dir.filePath("s.json")});
        const Run b = runSysid({"periodic", model, "--period", T, "--solver", "discretisation", "--scheme",
                                "hermite-simpson", "--nodes", "400", "-q", "-o", dir.filePath("d.json")});
        QVERIFY2(a.exitCode == 0, describe(a, 2000));
        QVERIFY2(b.exitCode == 0, describe(b, 2000));
        const QJsonObject s = readJson(dir.filePath("s.json"))["initial_state"].toObject();
        const QJsonObject d = readJson(dir.filePath("d.json"))["initial_state"].toObject();
        for (const QString state : {"x", "x'"})
            QVERIFY2(std::abs(s[state].toDouble() - d[state].toDouble()) < 1e-6, qPrintable(state));
    }

    // Autonomous: the period is an unknown; Van der Pol at mu = 1 has T = 6.6632868593231.
    void vanDerPolPeriod()
    {
        const Run r = runSysid({"periodic", kExamples + "vanderpol.model", "--period", "6", "-q", "-o", "-"});
        QVERIFY2(r.exitCode == 0, describe(r, 2000));
        const QJsonObject o = QJsonDocument::fromJson(r.rawOut).object();
        QVERIFY2(std::abs(o["period"].toDouble() - 6.6632868593231) < 1e-6, describe(r, 2000));
        QVERIFY(o["stable"].toBool());
    }

    // The frequency response of the linear oscillator is |H(iw)| F at every branch point.
    void linearFrequencyResponse()
    {
        QTemporaryDir dir;
        const QString model = writeModel(dir, "linear.model", kLinear);
        const Run r = runSysid({"periodic", model, "--sweep", "w=0.5:2", "--frequency", "-o", dir.filePath("b.csv")});
        QVERIFY2(r.exitCode == 0, describe(r, 2000));
        QFile f(dir.filePath("b.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readLine().trimmed(), QByteArray("w,amplitude,period,stable,type"));
        int points = 0;
        while (!f.atEnd()) {
            const QList<QByteArray> cells = f.readLine().trimmed().split(',');
            QCOMPARE(cells.size(), 5);
            const double w = cells[0].toDouble();
            QVERIFY2(std::abs(cells[1].toDouble() - amplitude(0.2, 1, 1, w)) < 1e-6, cells[0].constData());
            QCOMPARE(cells[3], QByteArray("1"));
            ++points;
        }
        QVERIFY(points >= 20);
        QVERIFY(r.err.contains("w = "));  // a progress line per branch point
    }

    // The hardening Duffing curve folds twice; between the folds the branch is unstable.
    void duffingFrequencyResponseFolds()
    {
        const Run r = runSysid({"periodic", kExamples + "duffing_frequency_response.model", "--sweep", "w=0.5:2.5",
                                "--frequency", "-q", "-o", "-"});
        QVERIFY2(r.exitCode == 0, describe(r, 2000));
        const QJsonObject branch = QJsonDocument::fromJson(r.rawOut).object()["branch"].toObject();
        QCOMPARE(branch["parameter"].toString(), QStringLiteral("w"));
        QVERIFY(branch["completed"].toBool());
        QList<double> folds;
        int unstable = 0;
        for (const auto& p : branch["points"].toArray()) {
            if (p.toObject()["type"].toString() == "fold")
                folds << p.toObject()["parameter"].toDouble();
            if (!p.toObject()["stable"].toBool())
                ++unstable;
        }
        QCOMPARE(folds.size(), 2);
        std::sort(folds.begin(), folds.end());
        QVERIFY2(std::abs(folds[0] - 1.358) < 2e-3 && std::abs(folds[1] - 1.905) < 2e-3, describe(r, 2000));
        QVERIFY(unstable > 0);
    }

    // The continuation method and the scheme are named as in their tables; the older
    // spellings (--natural, --scheme central) are still read but not offered.
    void choicesAreTheTablesSpellings()
    {
        const Run help = runSysid({"periodic", "--help"});
        QVERIFY2(help.exitCode == 0, describe(help));
        QVERIFY(help.out.contains("--continuation") && help.out.simplified().contains("natural | pseudo-arclength"));
        QVERIFY(help.out.simplified().contains("central-difference | hermite-simpson"));
        QVERIFY(!help.out.contains("--natural"));
        const QString m = kExamples + "vanderpol.model";
        const Run bad =
            runSysid({"periodic", m, "--period", "6", "--sweep", "mu=1:2", "--continuation", "arc", "-o", "-"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--continuation must be natural or pseudo-arclength, not 'arc'"), describe(bad));
        const Run old =
            runSysid({"periodic", m, "--period", "6", "--scheme", "central", "--solver", "discretization", "--nodes",
                      "50", "--sweep", "mu=1:1.2", "--natural", "--max-points", "3", "-q", "-o", "-"});
        QVERIFY2(old.exitCode == 0, describe(old));
    }

    void badArgumentsExit2_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString m = kExamples + "vanderpol.model";
        QTest::newRow("no period") << QStringList{"periodic", m, "-o", "-"};
        QTest::newRow("no output") << QStringList{"periodic", m, "--period", "6"};
        QTest::newRow("negative period") << QStringList{"periodic", m, "--period", "-1", "-o", "-"};
        QTest::newRow("solver") << QStringList{"periodic", m, "--period", "6", "--solver", "magic", "-o", "-"};
        QTest::newRow("scheme") << QStringList{"periodic", m, "--period", "6", "--scheme", "rk9", "-o", "-"};
        QTest::newRow("sweep form") << QStringList{"periodic", m, "--period", "6", "--sweep", "mu=1", "-o", "-"};
        QTest::newRow("step without sweep") << QStringList{"periodic", m, "--period", "6", "--step", "0.1", "-o", "-"};
        QTest::newRow("zero intervals") << QStringList{"periodic", m,    "--period", "6", "--shooting-intervals",
                                                       "0",        "-o", "-"};
        QTest::newRow("guess form") << QStringList{"periodic", m, "--period", "6", "--guess", "x", "-o", "-"};
        QTest::newRow("input periods without input")
            << QStringList{"periodic", m, "--period", "6", "--input-periods", "1", "-o", "-"};
    }

    void badArgumentsExit2()
    {
        QFETCH(QStringList, args);
        const Run r = runSysid(args);
        QVERIFY2(r.exitCode == 2, describe(r, 2000));
        QVERIFY(r.err.contains("sysid periodic"));
    }

    void userErrorsExit1_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString m = kExamples + "vanderpol.model";
        QTest::newRow("unknown state") << QStringList{"periodic", m, "--period", "6", "--guess", "y=1", "-o", "-"}
                                       << "the model has no state 'y' (it has: x, x')";
        QTest::newRow("unknown parameter")
            << QStringList{"periodic", m, "--period", "6", "--set", "nu=1", "-o", "-"} << "nu";
        QTest::newRow("unknown sweep parameter")
            << QStringList{"periodic", m, "--period", "6", "--sweep", "nu=1:2", "-o", "-"} << "no parameter 'nu'";
        QTest::newRow("model with inputs")
            << QStringList{"periodic", kExamples + "mass_spring_damper.model", "--period", "6", "-o", "-"}
            << "give their record over one forcing period";
        QTest::newRow("missing model") << QStringList{"periodic", kExamples + "nosuch.model", "--period", "6", "-o",
                                                      "-"}
                                       << "cannot open the model file";
        // An equilibrium (x = 0 stays 0) has no orbit to find: Newton says so.
        QTest::newRow("no orbit") << QStringList{"periodic", m,          "--period", "6",  "--guess",
                                                 "x=0",      "--settle", "0",        "-o", "-"}
                                  << "no periodic solution found";
    }

    void userErrorsExit1()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = runSysid(args);
        QVERIFY2(r.exitCode == 1, describe(r, 2000));
        QVERIFY2(r.err.contains(message), describe(r, 2000));
    }
};

QTEST_GUILESS_MAIN(TestCliPeriodic)
#include "test_cli_periodic.moc"
