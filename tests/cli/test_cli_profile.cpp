// `sysid profile` run as a process: the profile likelihood of x' = a + b t (linear in a and b, so
// the profile interval is the Wald interval), its JSON in the documented shape, a range that ends
// a side, and exit 1 / 2 with clear messages for bad arguments.

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "SysidProcess.h"

#include <cmath>

namespace {

using namespace sysid::test;

double t(int k)
{
    return 0.1 * k;
}
// a = 1, b = 2 with a fixed disturbance, so the residuals are not zero.
double y(int k)
{
    return t(k) + t(k) * t(k) + 0.01 * ((k % 3) - 1.0);
}

}  // namespace

class TestCliProfile : public QObject {
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
        QVERIFY(writeFile(path("linear.model"),
                          "param a = 0.2 [-10, 10]\nparam b = 2.8 [-10, 10]\nstate x = 0\nx' = a + b*t\noutput x\n"));
    }

    void linearProfileIsTheWaldInterval()
    {
        const Run r = runSysid({"profile", path("linear.model"), "--data", path("data.csv"), "--parameter", "a",
                                "--parameter", "b", "-o", path("profile.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.out.contains("identifiable"), describe(r));
        const QJsonObject json = readJson(path("profile.json"));
        QCOMPARE(json["threshold"].toDouble(), 3.841458820694124);
        const QJsonObject profiles = json["profiles"].toObject();
        QCOMPARE(profiles.keys(), (QStringList{"a", "b"}));
        for (const QString& name : {QStringLiteral("a"), QStringLiteral("b")}) {
            const QJsonObject p = profiles[name].toObject();
            QCOMPARE(p["verdict"].toString(), QStringLiteral("identifiable"));
            const QJsonArray interval = p["interval"].toArray(), wald = p["wald_interval"].toArray();
            const double width = wald[1].toDouble() - wald[0].toDouble();
            QVERIFY(width > 0);
            QVERIFY2(std::abs(interval[0].toDouble() - wald[0].toDouble()) < 1e-6 * width, qPrintable(name));
            QVERIFY2(std::abs(interval[1].toDouble() - wald[1].toDouble()) < 1e-6 * width, qPrintable(name));
            const QJsonArray points = p["points"].toArray();
            QVERIFY(points.size() >= 10);
            double previous = -INFINITY;
            for (const auto& item : points) {
                const QJsonObject point = item.toObject();
                QVERIFY(point["value"].toDouble() > previous);  // from the lowest value to the highest
                previous = point["value"].toDouble();
                QVERIFY(point["objective"].isDouble());
                QCOMPARE(point["parameters"].toObject().keys(), (QStringList{"a", "b"}));
                QCOMPARE(point["parameters"].toObject()[name].toDouble(), point["value"].toDouble());
            }
        }
    }

    void rangeEndsASide()
    {
        const Run r = runSysid({"profile", path("linear.model"), "--data", path("data.csv"), "--parameter", "a",
                                "--range", "0.99:1.5", "--points", "30", "-o", "-", "--quiet"});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.isEmpty(), describe(r));
        const QJsonObject a = parseObject(r.rawOut)["profiles"].toObject()["a"].toObject();
        QCOMPARE(a["lower"].toObject()["end"].toString(), QStringLiteral("limit"));
        QCOMPARE(a["lower"].toObject()["limit"].toDouble(), 0.99);
        QVERIFY(a["interval"].toArray()[0].isNull());
        QCOMPARE(a["verdict"].toString(), QStringLiteral("practically non-identifiable"));
        QCOMPARE(a["points"].toArray().first().toObject()["value"].toDouble(), 0.99);
    }

    // A project's "profile" settings are the defaults; options override them.
    void projectSettingsAreTheDefaults()
    {
        const QByteArray project =
            "{\"version\": 1, \"model\": {\"source\": \"linear.model\", \"text\": [\"param a = 0.2 [-10, 10]\", "
            "\"param b = 2.8 [-10, 10]\", \"state x = 0\", \"x' = a + b*t\", \"output x\"]}, \"data\": [{\"path\": "
            "\"data.csv\"}], \"profile\": {\"points\": 4, \"confidence\": 0.9, \"parameters\": [\"b\"]}}";
        QVERIFY(writeFile(path("linear.sysid"), project));
        Run r = runSysid({"profile", path("linear.sysid"), "-o", "-", "--quiet"});
        QVERIFY2(r.exitCode == 0, describe(r));
        QJsonObject json = parseObject(r.rawOut);
        QCOMPARE(json["profiles"].toObject().keys(), QStringList{"b"});
        QCOMPARE(json["settings"].toObject()["points"].toInt(), 4);
        QCOMPARE(json["settings"].toObject()["confidence"].toDouble(), 0.9);
        r = runSysid({"profile", path("linear.sysid"), "-o", "-", "--quiet", "--points", "6", "--parameter", "a"});
        QVERIFY2(r.exitCode == 0, describe(r));
        json = parseObject(r.rawOut);
        QCOMPARE(json["profiles"].toObject().keys(), QStringList{"a"});
        QCOMPARE(json["settings"].toObject()["points"].toInt(), 6);
        QCOMPARE(json["settings"].toObject()["confidence"].toDouble(), 0.9);
        QVERIFY(writeFile(path("bad.sysid"), QByteArray(project).replace("\"points\": 4", "\"points\": 1")));
        r = runSysid({"profile", path("bad.sysid"), "-o", "-", "--quiet"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("profile.points"), describe(r));
    }

    void badArguments()
    {
        Run r = runSysid(
            {"profile", path("linear.model"), "--data", path("data.csv"), "--parameter", "c", "-o", path("bad.json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("'c' is not estimated by the fit (estimated: a, b)"), describe(r));
        r = runSysid({"profile", path("linear.model"), "--data", path("data.csv"), "--range", "2:1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--range"), describe(r));
        r = runSysid({"profile", path("linear.model"), "--data", path("data.csv"), "-o", path("profile.csv")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(".json"), describe(r));
        r = runSysid({"profile", path("linear.model"), "--data", path("data.csv"), "--confidence", "1.5"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("confidence"), describe(r));
    }
};

QTEST_GUILESS_MAIN(TestCliProfile)
#include "test_cli_profile.moc"
