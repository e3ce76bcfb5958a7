// `sysid fit --multistart` run as a process on the bundled sine-frequency example, whose cost has
// many local minima in the frequency: the single fit ends in one of them, the multistart finds the
// true frequency 2; the JSON in the documented shape, the same with 1 and 3 threads, the seed and
// count from a project's "multistart", and exit 1 / 2 with clear messages for bad arguments.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "SysidProcess.h"

#include <cmath>

namespace {

using namespace sysid::test;

const QString kModel = kExamples + "sine_frequency.model";
const QString kData = kExamples + "data/sine_frequency.csv";

}  // namespace

class TestCliMultistart : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void multistartFindsTheTrueFrequency()
    {
        const Run single = runSysid({"fit", kModel, "--data", kData, "-q", "-o", path("single.json")});
        QVERIFY2(single.exitCode == 0, describe(single));
        const double singleW =
            readJson(path("single.json"))["parameters"].toObject()["w"].toObject()["value"].toDouble();
        QVERIFY2(std::abs(singleW - 2) > 0.1, qPrintable(QString::number(singleW)));

        const Run r = runSysid({"fit", kModel, "--data", kData, "--multistart", "30", "--seed", "1", "--threads", "1",
                                "-o", path("ms1.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.err.contains("distinct minima") && r.err.contains("start 29"), describe(r));
        const QJsonObject json = readJson(path("ms1.json"));
        const QJsonObject parameters = json["parameters"].toObject();
        QVERIFY(std::abs(parameters["w"].toObject()["value"].toDouble() - 2) < 1e-3);
        QVERIFY(std::abs(parameters["A"].toObject()["value"].toDouble() - 1) < 0.01);
        const QJsonObject ms = json["multistart"].toObject();
        QCOMPARE(ms["seed"].toInt(), 1);
        QCOMPARE(ms["completed"].toInt(), 30);
        QVERIFY(ms["ranges"].toObject()["A"].toObject()["logarithmic"].toBool());
        QVERIFY(!ms["ranges"].toObject()["w"].toObject()["logarithmic"].toBool());
        const QJsonArray starts = ms["starts"].toArray();
        QCOMPARE(starts.size(), 30);
        for (int k = 0; k < starts.size(); ++k) {
            const QJsonObject s = starts[k].toObject();
            QCOMPARE(s["index"].toInt(), k);
            QCOMPARE(s["initial"].toObject().keys(), (QStringList{"A", "w"}));
            QCOMPARE(s["final"].toObject().keys(), (QStringList{"A", "w"}));
            QVERIFY(s["cost"].isDouble());
            QVERIFY(s["iterations"].isDouble());
            QVERIFY(!s["stop_reason"].toString().isEmpty());
            QVERIFY(s["status"].isString());
        }
        const QJsonArray minima = ms["minima"].toArray();
        QVERIFY(minima.size() >= 3);
        const QJsonObject best = minima[0].toObject();
        QCOMPARE(best["cost"].toDouble(), json["cost"].toDouble());
        QCOMPARE(ms["fraction_best"].toDouble(), best["count"].toDouble() / 30);
        QCOMPARE(ms["best_start"].toInt(), best["start"].toInt());

        const Run three = runSysid({"fit", kModel, "--data", kData, "--multistart", "30", "--seed", "1", "--threads",
                                    "3", "-q", "-o", path("ms3.json")});
        QVERIFY2(three.exitCode == 0, describe(three));
        QCOMPARE(QJsonDocument(readJson(path("ms3.json"))["multistart"].toObject()).toJson(),
                 QJsonDocument(ms).toJson());
    }

    void projectHoldsTheSettings()
    {
        QByteArray model = readFile(kModel);
        QJsonArray lines;
        for (const QByteArray& line : model.split('\n'))
            lines.append(QString::fromUtf8(line));
        const QJsonObject project{{"version", 1},
                                  {"model", QJsonObject{{"source", "sine_frequency.model"}, {"text", lines}}},
                                  {"data", QJsonArray{QJsonObject{{"path", kData}}}},
                                  {"multistart", QJsonObject{{"starts", 6}, {"seed", 4}}}};
        QVERIFY(writeFile(path("sine.sysid"), QJsonDocument(project).toJson()));
        const Run r = runSysid({"fit", path("sine.sysid"), "--multistart", "8", "-q", "-o", path("p.json")});
        QVERIFY2(r.exitCode == 0, describe(r));
        const QJsonObject ms = readJson(path("p.json"))["multistart"].toObject();
        QCOMPARE(ms["seed"].toInt(), 4);  // the project's
        QCOMPARE(ms["completed"].toInt(), 8);  // the option's
    }

    void badArguments()
    {
        Run r = runSysid({"fit", kModel, "--data", kData, "--seed", "3", "-o", path("x.json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--seed applies to a multistart"), describe(r));
        r = runSysid({"fit", kModel, "--data", kData, "--multistart", "0", "-o", path("x.json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--multistart"), describe(r));
        QVERIFY(writeFile(path("open.model"),
                          "param w = 1.2 [0.5, 5]\nparam A = 0.8\nstate x = 0\n"
                          "x' = A*w*cos(w*t)\noutput x\n"));
        r = runSysid({"fit", path("open.model"), "--data", kData, "--multistart", "4", "-o", path("x.json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("A [-inf, inf]") && r.err.contains("have none"), describe(r));
    }
};

QTEST_GUILESS_MAIN(TestCliMultistart)
#include "test_cli_multistart.moc"
