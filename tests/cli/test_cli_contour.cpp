// `sysid contour` run as a process: the cost of x' = a + b t (linear in a, b, so the cost is a
// quadratic known in closed form) over a grid of (a, b), as JSON and CSV, with the iteration
// path of a `sysid fit` result on top, and exit 1 / 2 with clear messages for bad arguments.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "SysidProcess.h"

#include <cmath>
#include <utility>

namespace {

using namespace sysid::test;

constexpr double kWeight = 2.5;

double t(int k)
{
    return 0.1 * k;
}
// a = 1, b = 2 with a fixed disturbance, so the least-squares cost is not zero.
double y(int k)
{
    return t(k) + t(k) * t(k) + 0.01 * ((k % 3) - 1.0);
}

double closedFormCost(double a, double b)
{
    double sum = 0;
    for (int k = 0; k <= 20; ++k) {
        const double r = y(k) - a * t(k) - b * t(k) * t(k) / 2;
        sum += r * r;
    }
    return 0.5 * kWeight * sum;
}

// The Bayes estimate with the prior a ~ N(mean, sd^2): the normal equations of closedFormCost + the prior.
std::pair<double, double> closedFormBayes(double mean, double sd)
{
    double t2 = 0, t3 = 0, t4 = 0, yt = 0, yt2 = 0;
    for (int k = 0; k <= 20; ++k) {
        t2 += t(k) * t(k);
        t3 += t(k) * t(k) * t(k);
        t4 += t(k) * t(k) * t(k) * t(k);
        yt += y(k) * t(k);
        yt2 += y(k) * t(k) * t(k);
    }
    const double m11 = kWeight * t2 + 1 / (sd * sd), m12 = kWeight * t3 / 2, m22 = kWeight * t4 / 4;
    const double r1 = kWeight * yt + mean / (sd * sd), r2 = kWeight * yt2 / 2;
    const double det = m11 * m22 - m12 * m12;
    return {(r1 * m22 - m12 * r2) / det, (m11 * r2 - m12 * r1) / det};
}

}  // namespace

class TestCliContour : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QByteArray csv = "t,x\n";
        for (int k = 0; k <= 20; ++k)
            csv += QByteArray::number(t(k), 'g', 17) + "," + QByteArray::number(y(k), 'g', 17) + "\n";
        QVERIFY(writeFile(path("data.csv"), csv));
        QVERIFY(writeFile(path("linear.model"), "param a = 0.2\nparam b = 2.8\nstate x = 0\nx' = a + b*t\noutput x\n"));
    }

    void gridAsJsonIsTheClosedFormQuadratic()
    {
        const Run r = runSysid({"contour", path("linear.model"), "--data", path("data.csv"), "--x", "a=0:2", "--y",
                                "b=1:3", "--grid", "5", "--weight", "x=2.5", "--rtol", "1e-10", "--atol", "1e-12", "-o",
                                path("surface.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.contains("smallest cost on the grid"), describe(r));
        const QJsonObject o = QJsonDocument::fromJson(readFile(path("surface.json"))).object();
        QCOMPARE(o["x"].toObject()["parameter"].toString(), QString("a"));
        QCOMPARE(o["y"].toObject()["points"].toInt(), 5);
        const QJsonArray xs = o["x"].toObject()["values"].toArray(), ys = o["y"].toObject()["values"].toArray();
        QCOMPARE(xs.size(), 5);
        QCOMPARE(xs[1].toDouble(), 0.5);
        const QJsonArray cost = o["cost"].toArray();
        QCOMPARE(cost.size(), 5);
        for (int iy = 0; iy < 5; ++iy)
            for (int ix = 0; ix < 5; ++ix) {
                const double expected = closedFormCost(xs[ix].toDouble(), ys[iy].toDouble());
                const double got = cost[iy].toArray()[ix].toDouble();
                QVERIFY2(std::abs(got - expected) <= 1e-8 * expected,
                         qPrintable(QString("%1 vs %2").arg(got).arg(expected)));
            }
        // (a, b) = (1, 2) is on the grid and the nearest grid point to the least-squares minimum.
        QCOMPARE(o["minimum"].toObject()["x"].toDouble(), 1.0);
        QCOMPARE(o["minimum"].toObject()["y"].toDouble(), 2.0);
        QCOMPARE(o["failed_points"].toInt(), 0);
        QVERIFY(o["path"].toArray().isEmpty());
    }

    void bayesContourHasItsMinimumAtTheBayesEstimate()
    {
        const auto [a, b] = closedFormBayes(0.5, 0.02);
        const QString xRange = QString("a=%1:%2").arg(a - 0.6, 0, 'g', 17).arg(a + 0.6, 0, 'g', 17);
        const QString yRange = QString("b=%1:%2").arg(b - 1.2, 0, 'g', 17).arg(b + 1.2, 0, 'g', 17);
        const QStringList common{
            "contour", path("linear.model"), "--data", path("data.csv"), "--x",   xRange,   "--y",   yRange, "--grid",
            "13",      "--weight",           "x=2.5",  "--rtol",         "1e-10", "--atol", "1e-12", "-q"};
        const Run r =
            runSysid(common + QStringList{"--method", "bayes", "--prior", "a=0.5,0.02", "-o", path("bayes.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        const QJsonObject o = QJsonDocument::fromJson(readFile(path("bayes.json"))).object();
        const QJsonArray xs = o["x"].toObject()["values"].toArray(), ys = o["y"].toObject()["values"].toArray();
        const QJsonArray cost = o["cost"].toArray();
        for (int iy = 0; iy < 13; ++iy)
            for (int ix = 0; ix < 13; ++ix) {
                const double av = xs[ix].toDouble(), bv = ys[iy].toDouble();
                const double expected = closedFormCost(av, bv) + 0.5 * (av - 0.5) * (av - 0.5) / (0.02 * 0.02);
                const double got = cost[iy].toArray()[ix].toDouble();
                QVERIFY2(std::abs(got - expected) <= 1e-8 * expected,
                         qPrintable(QString("%1 vs %2").arg(got).arg(expected)));
            }
        QVERIFY(std::abs(o["minimum"].toObject()["x"].toDouble() - a) < 1e-12);
        QVERIFY(std::abs(o["minimum"].toObject()["y"].toDouble() - b) < 1e-12);

        // The output-error contour of the same grid has its minimum near the data's a = 1.
        const Run plain = runSysid(common + QStringList{"-o", path("plain.json")});
        QVERIFY2(plain.exitCode == 0, describe(plain));
        const QJsonObject p = QJsonDocument::fromJson(readFile(path("plain.json"))).object();
        QVERIFY(std::abs(p["minimum"].toObject()["x"].toDouble() - 1.0) <= 0.1);
        QVERIFY(
            runSysid(common + QStringList{"--method", "bayes", "--prior", "a=0.5", "-o", path("bad.json")}).exitCode ==
            2);
    }

    void pathOfAFitOverTheSurface()
    {
        const Run fit = runSysid(
            {"fit", path("linear.model"), "--data", path("data.csv"), "--weight", "x=2.5", "-o", path("result.json")});
        QVERIFY2(fit.exitCode == 0, describe(fit));
        const QJsonObject result = QJsonDocument::fromJson(readFile(path("result.json"))).object();
        const double a = result["parameters"].toObject()["a"].toObject()["value"].toDouble();
        const double b = result["parameters"].toObject()["b"].toObject()["value"].toDouble();

        const Run r =
            runSysid({"contour", path("linear.model"), "--data", path("data.csv"), "--x", "b=1:3", "--y", "a=0:2",
                      "--grid", "3", "--weight", "x=2.5", "--path", path("result.json"), "-o", path("surface.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        const QJsonObject o = QJsonDocument::fromJson(readFile(path("surface.json"))).object();
        const QJsonArray p = o["path"].toArray();
        QCOMPARE(p.size(), result["history"].toArray().size());
        QCOMPARE(p.first().toObject()["x"].toDouble(), 2.8);  // the starting values (b, a)
        QCOMPARE(p.first().toObject()["y"].toDouble(), 0.2);
        QCOMPARE(p.last().toObject()["x"].toDouble(), b);
        QCOMPARE(p.last().toObject()["y"].toDouble(), a);
        // The path's first cost is the surface's cost at the start, computed independently here.
        QVERIFY(std::abs(p.first().toObject()["cost"].toDouble() - closedFormCost(0.2, 2.8)) <
                1e-6 * closedFormCost(0.2, 2.8));

        const Run csv = runSysid({"contour", path("linear.model"), "--data", path("data.csv"), "--x", "a=0:2", "--y",
                                  "b=1:3", "--grid", "3", "--weight", "x=2.5", "--path", path("result.json"), "-q",
                                  "-o", path("surface.csv")});
        QVERIFY2(csv.exitCode == 0, describe(csv));
        const QList<QByteArray> lines = readFile(path("surface.csv")).trimmed().split('\n');
        QCOMPARE(lines.size(), 10);
        QCOMPARE(lines[0], QByteArray("a,b,cost"));
        QVERIFY(lines[2].startsWith("1,1,"));  // x varies fastest
        QVERIFY(std::abs(lines[2].split(',')[2].toDouble() - closedFormCost(1, 1)) < 1e-8 * closedFormCost(1, 1));
        const QList<QByteArray> pathLines = readFile(path("surface.path.csv")).trimmed().split('\n');
        QCOMPARE(pathLines[0], QByteArray("iteration,a,b,cost"));
        QCOMPARE(pathLines.size(), p.size() + 1);
        QVERIFY(pathLines[1].startsWith("0,0.2000000000000000"));
    }

    void badArguments()
    {
        const QStringList base = {"contour", path("linear.model"), "--data", path("data.csv")};
        Run r = runSysid(base + QStringList{"--x", "a=0:2", "-o", path("s.json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("give both axes"), describe(r));
        r = runSysid(base + QStringList{"--x", "a=2:0", "--y", "b=0:1", "-o", path("s.json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--x a: range of a from 2 to 0; expected finite numbers with from < to"), describe(r));
        r = runSysid(base + QStringList{"--x", "a=0:2", "--y", "b=0:1", "-o", path("s.txt")});
        QCOMPARE(r.exitCode, 2);
        r = runSysid(base + QStringList{"--x", "k=0:2", "--y", "b=0:1", "-o", path("s.json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("the x axis names 'k', which is not a parameter of the model (parameters: a, b)"),
                 describe(r));
        QVERIFY(writeFile(path("bad.json"), "{\"parameters\": 3}"));
        r = runSysid(base +
                     QStringList{"--x", "a=0:2", "--y", "b=0:1", "--path", path("bad.json"), "-o", path("s.json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--path " + path("bad.json") + ": not a fit result"), describe(r));
        r = runSysid(base + QStringList{"--x", "a=0:2", "--y", "b=0:1", "--grid", "1", "-o", path("s.json")});
        QCOMPARE(r.exitCode, 2);
    }
};

QTEST_MAIN(TestCliContour)
#include "test_cli_contour.moc"
