// `mpirun --oversubscribe -np 3 sysid study|profile|contour|fit --multistart ...` against the same command in one
// process: the written JSON is the same bit for bit except "ranks", each item's "rank" (each
// realisation, profile point, cost surface row, start) and the run's times ("seconds", "report"), which name the
// processes; realisations that fail on ranks other than 0 are reported in the result, not fatal; only rank 0 prints and
// writes; a bad option ends every rank with exit status 2. MPI is a module loaded only under a launcher: without
// it (an executable copied away from sysid-mpi.so) every rank runs the whole command after one note.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>

#include "SysidProcess.h"

#include <cmath>

namespace {

using namespace sysid::test;

// mpirun with three processes on this machine, allowed to run as root (as in CI containers).
Run runMpi(const QStringList& args, const QString& program = kSysid)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OMPI_ALLOW_RUN_AS_ROOT", "1");
    env.insert("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    env.insert("OMPI_MCA_rmaps_base_oversubscribe", "1");
    // Containers often forbid the cross-memory attach OpenMPI's shared-memory transport tries first.
    env.insert("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
    return runProgram(QStringLiteral(SYSID_MPIEXEC), QStringList{"--oversubscribe", "-np", "3", program} + args, env,
                      120000);
}

// The JSON with the members that name processes removed.
QJsonValue withoutRanks(const QJsonValue& v)
{
    if (v.isObject()) {
        QJsonObject o = v.toObject();
        // "seconds" and a fit's "report" (whose text prints them) are the run's times.
        for (const char* key : {"ranks", "rank", "row_ranks", "seconds", "report"})
            o.remove(key);
        for (auto it = o.begin(); it != o.end(); ++it)
            *it = withoutRanks(*it);
        return o;
    }
    if (v.isArray()) {
        QJsonArray a = v.toArray();
        for (auto it = a.begin(); it != a.end(); ++it)
            *it = withoutRanks(*it);
        return a;
    }
    return v;
}

QByteArray compact(const QJsonObject& o)
{
    return QJsonDocument(withoutRanks(o).toObject()).toJson(QJsonDocument::Compact);
}

// x' = a + b t + 1e-9 log(u): u is 1 except one sample of 0.01, so the noise of a study takes
// some realisations' u below zero there and their fits fail.
QByteArray dataCsv()
{
    QByteArray text = "t,x,u\n";
    for (int k = 0; k <= 40; ++k) {
        const double t = 0.05 * k;
        text += QByteArray::number(t, 'g', 17) + "," +
            QByteArray::number(t + t * t + 0.02 * std::sin(7.0 * k), 'g', 17) + "," + (k == 20 ? "0.01" : "1") + "\n";
    }
    return text;
}

const QByteArray kProject = "{\"version\": 1, \"model\": {\"source\": \"linear.model\", \"text\": [\"param a = 0.5\", "
                            "\"param b = 0.5\", \"input u\", \"state x = 0\", \"x' = a + b*t + 1e-9*log(u)\", "
                            "\"output x\"]}, \"data\": [{\"path\": \"linear.csv\", \"true_values\": {\"a\": 1, "
                            "\"b\": 2}}], \"study\": {\"realisations\": 12, \"noise_percent\": 5, "
                            "\"distribution\": \"gaussian\", \"seed\": 3}}\n";

}  // namespace

class TestCliMpi : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }

    // The command in one process and over three; both must succeed; returns the two JSON files.
    std::pair<QJsonObject, QJsonObject> both(const QStringList& args, const QString& name)
    {
        const Run one = runSysid(args + QStringList{"-o", path(name + "-1.json")});
        const Run three = runMpi(args + QStringList{"-o", path(name + "-3.json")});
        if (one.exitCode != 0)
            qWarning() << describe(one);
        if (three.exitCode != 0)
            qWarning() << describe(three);
        // Rank 0 alone prints: one table, as in one process.
        if (one.out != three.out)
            qWarning() << "stdout differs:\n" << one.out << "\n" << three.out;
        return {readJson(path(name + "-1.json")), readJson(path(name + "-3.json"))};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QVERIFY(writeFile(path("linear.csv"), dataCsv()));
        QVERIFY(writeFile(path("linear.sysid"), kProject));
        QVERIFY(writeFile(path("linear.model"), "param a = 0.5\nparam b = 0.5\nstate x = 0\nx' = a + b*t\noutput x\n"));
    }

    void withoutTheMpiModule()
    {
        // sysid and its symbolic helper, in which every rank runs under a launcher, without the module.
        const QString alone = path("without-mpi");
        QVERIFY(QDir().mkpath(alone));
        const QString copy = alone + "/sysid";
        for (const QString& program : {kSysid, kSysidSymbolic}) {
            const QString to = alone + "/" + QFileInfo(program).fileName();
            QVERIFY(QFile::copy(program, to));
            QVERIFY(QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        }
        const Run run = runMpi({"check", path("linear.sysid").replace(".sysid", ".model")}, copy);
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(run.err.count("sysid: note: MPI could not be loaded ("), 1);
        QVERIFY(run.err.contains("every process started by the launcher runs the whole command"));
        QCOMPARE(run.out.count("parameters"), 3);  // each rank ran `check`
    }

    void study()
    {
        const auto [one, three] = both({"study", path("linear.sysid"), "--threads", "1", "-q"}, "study");
        QVERIFY(!one.isEmpty() && !three.isEmpty());
        QCOMPARE(one["ranks"].toInt(), 1);
        QCOMPARE(three["ranks"].toInt(), 3);
        QCOMPARE(compact(three), compact(one));
        // Failed realisations are in the result, some computed by ranks 1 and 2.
        int failedElsewhere = 0;
        for (const QJsonValue& v : three["realisations"].toArray()) {
            const QJsonObject r = v.toObject();
            QCOMPARE(r["rank"].toInt(), r["index"].toInt() % 3);
            if (r["failed"].toBool() && r["rank"].toInt() != 0) {
                ++failedElsewhere;
                QVERIFY2(r["message"].toString().contains("NaN"), qPrintable(r["message"].toString()));
            }
        }
        QVERIFY(one["failed"].toInt() > 0 && one["completed"].toInt() == 12);
        QVERIFY(failedElsewhere > 0);
    }

    void studyTableOnStandardOutput()
    {
        const Run one = runSysid({"study", path("linear.sysid"), "--threads", "1", "-q"});
        const Run three = runMpi({"study", path("linear.sysid"), "--threads", "1", "-q"});
        QVERIFY2(one.exitCode == 0, describe(one));
        QVERIFY2(three.exitCode == 0, describe(three));
        QCOMPARE(three.out, one.out);  // one table: ranks 1 and 2 print nothing
    }

    void profile()
    {
        const auto [one, three] =
            both({"profile", path("linear.sysid"), "--points", "6", "--threads", "1", "-q"}, "profile");
        QVERIFY(!one.isEmpty() && !three.isEmpty());
        QCOMPARE(three["ranks"].toInt(), 3);
        QCOMPARE(compact(three), compact(one));
        QSet<int> ranks;
        for (const char* name : {"a", "b"})
            for (const QJsonValue& p : three["profiles"][name]["points"].toArray())
                ranks.insert(p["rank"].toInt());
        QCOMPARE(ranks, (QSet<int>{0, 1, 2}));
    }

    void contour()
    {
        const auto [one, three] = both({"contour", path("linear.sysid"), "--x", "a=0.5:1.5", "--y", "b=1:3", "--grid",
                                        "7", "--threads", "1", "-q"},
                                       "contour");
        QVERIFY(!one.isEmpty() && !three.isEmpty());
        QCOMPARE(compact(three), compact(one));
        QCOMPARE(three["row_ranks"].toArray(), (QJsonArray{0, 1, 2, 0, 1, 2, 0}));
    }

    // Starts of a sine's frequency (local minima in the frequency): the result, every start and the
    // minima as in one process; the best start's fit is computed again on rank 0 to the same bits.
    void multistart()
    {
        const auto [one, three] =
            both({"fit", kExamples + "sine_frequency.model", "--data", kExamples + "data/sine_frequency.csv",
                  "--multistart", "8", "--seed", "2", "--threads", "1", "-q"},
                 "multistart");
        QVERIFY(!one.isEmpty() && !three.isEmpty());
        QCOMPARE(three["multistart"]["ranks"].toInt(), 3);
        QCOMPARE(compact(three), compact(one));
        const QJsonArray starts = three["multistart"]["starts"].toArray();
        QCOMPARE(starts.size(), 8);
        for (const QJsonValue& s : starts)
            QCOMPARE(s["rank"].toInt(), s["index"].toInt() % 3);
    }

    void aBadOptionEndsEveryRank()
    {
        const Run r = runMpi({"study", path("linear.sysid"), "--no-such-option"});
        QVERIFY2(r.exitCode == 2 && r.err.contains("no-such-option"), describe(r));
        QCOMPARE(r.err.count("unrecognised option"), 1);  // rank 0's message only
    }
};

QTEST_GUILESS_MAIN(TestCliMpi)
#include "test_cli_mpi.moc"
