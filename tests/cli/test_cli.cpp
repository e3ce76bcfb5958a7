// The command line `sysid` (app/cli) run as a process: exit codes (0 ok, 1 user error,
// 2 bad arguments), messages naming the file and place, and the CSV that `simulate` writes.

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>

#include "SysidProcess.h"

#include <ginac/ginac.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace sysid::test;

// The shared description, as text for the messages built here.
QString describeText(const Run& r)
{
    return QString::fromUtf8(describe(r, 2000));
}

struct Csv {
    QStringList header;
    std::vector<std::vector<double>> rows;
    QString problem;  // empty when the text was a well-formed numeric CSV
};

Csv parseCsv(const QString& text)
{
    Csv csv;
    QStringList lines = text.split('\n');
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.pop_back();
    if (lines.isEmpty()) {
        csv.problem = "empty";
        return csv;
    }
    csv.header = lines.front().split(',');
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split(',');
        if (cells.size() != csv.header.size()) {
            csv.problem = QString("line %1 has %2 cells").arg(i + 1).arg(cells.size());
            return csv;
        }
        std::vector<double> row;
        for (const auto& c : cells) {
            bool ok = false;
            row.push_back(c.toDouble(&ok));
            if (!ok) {
                csv.problem = QString("line %1: '%2' is not a number").arg(i + 1).arg(c);
                return csv;
            }
        }
        csv.rows.push_back(std::move(row));
    }
    return csv;
}

// The number printed after the first "t = " in text, if any.
std::optional<double> timeIn(const QString& text)
{
    const int at = text.indexOf("t = ");
    if (at < 0)
        return std::nullopt;
    int end = at + 4;
    while (end < text.size() &&
           (text[end].isDigit() || text[end] == '.' || text[end] == 'e' || text[end] == '-' || text[end] == '+'))
        ++end;
    bool ok = false;
    const double v = text.mid(at + 4, end - at - 4).toDouble(&ok);
    if (!ok)
        return std::nullopt;
    return v;
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString path(const QString& name) const { return dir_.filePath(name); }

    // `simulate` arguments for MODEL driven by u sampled 1 at t = 0 and 0 at t = 1 and 2 (written
    // to `csvName`), one step to t = 1 at tight tolerances; empty when the file cannot be written.
    QStringList sampledStepArguments(const QString& model, const QString& csvName)
    {
        const QString input = dir_.filePath(csvName);
        if (!writeFile(input, "t,u\n0,1\n1,0\n2,0\n"))
            return {};
        return {model, "--t-end", "1", "--dt", "1", "--input", input, "--rtol", "1e-12", "--atol", "1e-14"};
    }

    QString writeModel(const QString& name, const QByteArray& text)
    {
        const QString p = path(name);
        if (!writeFile(p, text))
            qFatal("cannot write %s", qPrintable(p));
        return p;
    }

    QString decayModel() { return writeModel("decay.model", "param a = 0.5\nstate x = 1\nx' = -a*x\noutput x\n"); }

    // Runs simulate and parses the CSV it wrote to stdout.
    Csv simulateToCsv(const QStringList& args, Run* runOut = nullptr)
    {
        const Run r = runSysid(QStringList{"simulate"} + args + QStringList{"-o", "-"});
        if (runOut)
            *runOut = r;
        if (r.exitCode != 0) {
            Csv bad;
            bad.problem = describeText(r);
            return bad;
        }
        return parseCsv(r.out);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QVERIFY2(QFile::exists(kSysid), qPrintable(kSysid + " is not built"));
    }

    // ---- check --------------------------------------------------------------------------

    void checkListsDuffing()
    {
        const Run r = runSysid({"check", kExamples + "duffing.model"});
        QVERIFY2(r.exitCode == 0, qPrintable(describeText(r)));
        QVERIFY2(r.err.isEmpty(), qPrintable(describeText(r)));
        const QStringList lines = r.out.split('\n');
        const int states = lines.indexOf("states (2):");
        QVERIFY2(states >= 0, qPrintable(r.out));
        QVERIFY2(lines.value(states + 1).simplified().startsWith("x initial 3"), qPrintable(r.out));
        QVERIFY2(lines.value(states + 2).simplified().startsWith("x' initial 0"), qPrintable(r.out));
        const int params = lines.indexOf("parameters (2):");
        QVERIFY2(params >= 0, qPrintable(r.out));
        QVERIFY2(lines.value(params + 1).simplified().startsWith("k = 0.05 estimated in [0, 1]"), qPrintable(r.out));
        QVERIFY2(lines.value(params + 2).simplified().startsWith("B = 7.5 fixed"), qPrintable(r.out));
        QVERIFY2(lines.contains("inputs (0):"), qPrintable(r.out));
        QVERIFY2(lines.contains("outputs (1): x"), qPrintable(r.out));
        QVERIFY2(!r.out.contains("Lagrange"), qPrintable(r.out));
    }

    void checkEquationsPrintsLagrangeEquation()
    {
        const Run r = runSysid({"check", kExamples + "pendulum_lagrange.model", "--equations"});
        QVERIFY2(r.exitCode == 0, qPrintable(describeText(r)));
        const QStringList lines = r.out.split('\n');
        int header = -1;
        for (int i = 0; i < lines.size(); ++i)
            if (lines[i].startsWith("Lagrange's equations"))
                header = i;
        QVERIFY2(header >= 0, qPrintable(r.out));
        QString equation = lines.value(header + 1).trimmed();
        QVERIFY2(equation.endsWith(" = 0"), qPrintable(equation));
        // Read the printed left-hand side back with GiNaC: it is m*l^2*q'' + c*q' + m*g*l*sin(q).
        QString lhs = equation.left(equation.size() - 4);
        lhs.replace("q''", "qdd").replace("q'", "qd");
        GiNaC::symbol m("m"), l("l"), g("g"), c("c"), q("q"), qd("qd"), qdd("qdd");
        GiNaC::symtab table{{"m", m}, {"l", l}, {"g", g}, {"c", c}, {"q", q}, {"qd", qd}, {"qdd", qdd}};
        GiNaC::parser reader(table, true);
        GiNaC::ex parsed;
        try {
            parsed = reader(lhs.toStdString());
        } catch (const std::exception& e) {
            QFAIL(qPrintable("cannot read back '" + lhs + "': " + e.what()));
        }
        const GiNaC::ex expected = m * GiNaC::pow(l, 2) * qdd + c * qd + m * g * l * GiNaC::sin(q);
        QVERIFY2((parsed - expected).expand().is_zero(), qPrintable(equation));
        // and the first-order form and outputs follow
        QVERIFY2(r.out.contains("first-order system:"), qPrintable(r.out));
        QVERIFY2(r.out.contains("d/dt q = q'"), qPrintable(r.out));
        // without --equations, none of it
        const Run plain = runSysid({"check", kExamples + "pendulum_lagrange.model"});
        QCOMPARE(plain.exitCode, 0);
        QVERIFY(!plain.out.contains("Lagrange's equations"));
    }

    void checkListsUnits()
    {
        const Run r = runSysid({"check", kExamples + "mass_spring_damper.model", "--equations"});
        QVERIFY2(r.exitCode == 0, qPrintable(describeText(r)));
        const QStringList lines = r.out.split('\n');
        QVERIFY2(lines.value(lines.indexOf("states (2):") + 1).simplified() == "s initial 0 unit m", qPrintable(r.out));
        const int params = lines.indexOf("parameters (3):");
        QVERIFY2(params >= 0, qPrintable(r.out));
        QVERIFY2(lines.value(params + 1).simplified() == "m = 1 estimated in [0.01, 100] unit kg", qPrintable(r.out));
        QVERIFY2(lines.value(params + 2).simplified().endsWith("unit N*s/m"), qPrintable(r.out));
        QVERIFY2(lines.contains("inputs (1): u [N]"), qPrintable(r.out));
        QVERIFY2(lines.contains("outputs (1): s [m]"), qPrintable(r.out));
        QVERIFY2(lines.contains("  s [m] = s"), qPrintable(r.out));
    }

    // The events (when) as written, with their line; with --equations also the switching
    // function and the reset values as the integrator receives them.
    void checkListsEvents()
    {
        const Run r = runSysid({"check", kExamples + "bouncing_ball.model", "--equations"});
        QVERIFY2(r.exitCode == 0, qPrintable(describeText(r)));
        const QStringList lines = r.out.split('\n');
        const int events = lines.indexOf("events (1):");
        QVERIFY2(events >= 0, qPrintable(r.out));
        QCOMPARE(lines.value(events + 1), QString("  when x < 0 : x' = -e*x'  (line 19)"));
        int derived = -1;
        for (int i = 0; i < lines.size(); ++i)
            if (lines[i].startsWith("events (the resets use the states just before the event"))
                derived = i;
        QVERIFY2(derived > events, qPrintable(r.out));
        QCOMPARE(lines.value(derived + 1), QString("  when x < 0 (line 19): fires when x falls through 0"));
        const QString reset = lines.value(derived + 2).trimmed();
        QVERIFY2(reset == "x' = -x'*e" || reset == "x' = -e*x'", qPrintable(r.out));
        const Run plain = runSysid({"check", kExamples + "duffing.model", "--equations"});
        QCOMPARE(plain.exitCode, 0);
        QVERIFY2(!plain.out.contains("events"), qPrintable(plain.out));
        // A broken reset is refused with its place.
        const QString broken =
            writeModel("broken_when.model", "param e = 0.8\nx'' = -9.81\nx(0) = 1, 0\nwhen x = 0 : x' = -e*x'\n");
        const Run bad = runSysid({"check", broken});
        QVERIFY2(bad.exitCode == 1, qPrintable(describeText(bad)));
        QVERIFY2(bad.err.contains(broken + ":4:8: expected '<' or '>' in the condition of 'when'"),
                 qPrintable(describeText(bad)));
    }

    // The bundled bouncing ball against its closed form: free fall between impacts at
    // tau_0 = T, tau_k = tau_(k-1) + 2 e^k T (T = sqrt(2h/g)), leaving with e^(k+1) g T; the
    // impacts accumulate at T (1 + e)/(1 - e), where the simulation stops naming the event.
    void simulateBouncingBallExample()
    {
        const QString out = path("ball.csv");
        const Run r =
            runSysid({"simulate", kExamples + "bouncing_ball.model", "--t-end", "3", "--dt", "0.001", "-o", out});
        QVERIFY2(r.exitCode == 0, qPrintable(describeText(r)));
        const Csv csv = parseCsv(QString::fromUtf8(readFile(out)));
        QVERIFY2(csv.problem.isEmpty(), qPrintable(csv.problem));
        QCOMPARE(csv.rows.size(), std::size_t(3001));
        const double g = 9.81, e = 0.8, T = std::sqrt(2 / g);
        std::vector<double> impacts{T};
        while (impacts.back() < 3)
            impacts.push_back(impacts.back() + 2 * std::pow(e, static_cast<double>(impacts.size())) * T);
        double worst = 0;
        for (const auto& row : csv.rows) {
            const double t = row[0];
            double exact = 1 - g * t * t / 2;
            for (std::size_t k = 0; k < impacts.size() && t >= impacts[k]; ++k) {
                const double s = t - impacts[k];
                exact = std::pow(e, static_cast<double>(k + 1)) * g * T * s - g * s * s / 2;
            }
            worst = std::max(worst, std::abs(row[1] - exact));
        }
        QVERIFY2(worst < 1e-6, qPrintable(QString("largest deviation from the closed form %1").arg(worst)));

        const Run zeno = runSysid(
            {"simulate", kExamples + "bouncing_ball.model", "--t-end", "5", "--dt", "0.01", "-o", path("zeno.csv")});
        QVERIFY2(zeno.exitCode == 1, qPrintable(describeText(zeno)));
        QVERIFY2(zeno.err.contains("'when x < 0' (line 19)"), qPrintable(describeText(zeno)));
        const std::optional<double> stop = timeIn(zeno.err);
        QVERIFY2(stop && std::abs(*stop - T * (1 + e) / (1 - e)) < 1e-3, qPrintable(describeText(zeno)));
    }

    // A bond graph: its elements listed, with --equations every bond's causality, effort and flow and
    // the state equations; a dependent inertia refused at its place, naming the elements.
    void checkListsBondGraph()
    {
        const Run r = runSysid({"check", kExamples + "bondgraph_dc_motor.model", "--equations"});
        QVERIFY2(r.exitCode == 0, qPrintable(describeText(r)));
        const QStringList lines = r.out.split('\n');
        QVERIFY2(lines.contains("bond graph (8 bonds): Se supply, R winding, I inductance, 1-junction circuit, GY motor, "
                                "R bearing, 1-junction rotor, TF gear, I load"),
                 qPrintable(r.out));
        QVERIFY2(lines.contains("  bond 5: GY motor -> 1-junction rotor"), qPrintable(r.out));
        QVERIFY2(lines.contains("  bond 8: TF gear -> I load (integral causality)"), qPrintable(r.out));
        QVERIFY2(r.out.contains("d/dt inductance.p = ") && r.out.contains("d/dt load.p = "), qPrintable(r.out));
        const Run plain = runSysid({"check", kExamples + "bondgraph_dc_motor.model"});
        QVERIFY(!plain.out.contains("bond 5:"));

        const QString rigid = writeModel("rigid_gear.model", "input u\nparam J1 = 1\nparam J2 = 2\nSe torque = u\n"
                                                             "I rotor = J1\n1 w1 : torque, rotor\n"
                                                             "TF gear = 2 : w1 -> w2\nI load = J2\n1 w2 : load\n");
        const Run bad = runSysid({"check", rigid});
        QVERIFY2(bad.exitCode == 1, qPrintable(describeText(bad)));
        QVERIFY2(bad.err.contains(rigid + ":8:3: the I load is forced into derivative causality: the 1-junction w2 "
                                          "sets its flow, as the causality of the I rotor requires"),
                 qPrintable(describeText(bad)));
    }

    void checkReportsFileLineColumn()
    {
        const QString model = writeModel("broken.model", "param k = 1\nstate y = 1\ny' = 2*zz\n");
        const Run r = runSysid({"check", model});
        QVERIFY2(r.exitCode == 1, qPrintable(describeText(r)));
        QVERIFY2(r.err.contains(model + ":3:8: unknown symbol 'zz'"), qPrintable(describeText(r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describeText(r)));
        // simulate reports the same
        const Run s = runSysid({"simulate", model, "--t-end", "1", "--dt", "0.1", "-o", path("never.csv")});
        QVERIFY2(s.exitCode == 1, qPrintable(describeText(s)));
        QVERIFY2(s.err.contains(model + ":3:8:"), qPrintable(describeText(s)));
        QVERIFY(!QFile::exists(path("never.csv")));
    }

    void checkMissingFile()
    {
        const QString missing = path("does_not_exist.model");
        const Run r = runSysid({"check", missing});
        QVERIFY2(r.exitCode == 1, qPrintable(describeText(r)));
        QVERIFY2(r.err.contains(missing), qPrintable(describeText(r)));
    }

    // GiNaC's messages without a place ("log_eval(): log(0)") were all the CLI said; a folder
    // given as a model "had no states"; /dev/zero was read until memory ran out.
    void checkReportsPolesAndRefusesNonModels()
    {
        const QString pole = writeModel("pole.model", "param a = 1\nstate y = 1\ny' = -a*y + log(0)\n");
        const Run r = runSysid({"check", pole});
        QVERIFY2(r.exitCode == 1, qPrintable(describeText(r)));
        QVERIFY2(r.err.contains(pole + ":3:13: log(...): the value is infinite here"), qPrintable(describeText(r)));
        QVERIFY2(!r.err.contains("log_eval"), qPrintable(describeText(r)));
        const Run s = runSysid({"simulate", pole, "--t-end", "1", "--dt", "0.1", "-o", path("never.csv")});
        QVERIFY2(s.exitCode == 1 && s.err.contains(pole + ":3:13:"), qPrintable(describeText(s)));

        const QString overflow = writeModel("overflow.model", "param a = exp(exp(exp(10)))\nstate y = 1\ny' = -a*y\n");
        const Run o = runSysid({"check", overflow});
        QVERIFY2(o.exitCode == 1 && o.err.contains(overflow + ":1:11:"), qPrintable(describeText(o)));

        QDir(dir_.path()).mkdir("folder.model");
        const Run folder = runSysid({"check", path("folder.model")});
        QVERIFY2(folder.exitCode == 1 && folder.err.contains("is a folder"), qPrintable(describeText(folder)));
        const Run zero = runSysid({"check", "/dev/zero"});
        QVERIFY2(zero.exitCode == 1 && zero.err.contains("not a regular file"), qPrintable(describeText(zero)));
        const Run fit = runSysid({"fit", "/dev/zero", "--data", path("none.csv"), "-o", path("never.json")});
        QVERIFY2(fit.exitCode == 1 && fit.err.contains("not a regular file"), qPrintable(describeText(fit)));
    }

    // ---- bad arguments: exit 2 ---------------------------------------------------------

    void badArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        const QString duffing = kExamples + "duffing.model";
        QTest::newRow("no command") << QStringList{} << "usage";
        QTest::newRow("unknown command") << QStringList{"frobnicate", duffing} << "frobnicate";
        QTest::newRow("check without model") << QStringList{"check"} << "MODEL";
        QTest::newRow("check unknown option") << QStringList{"check", duffing, "--bogus"} << "bogus";
        QTest::newRow("missing --t-end") << QStringList{"simulate", duffing, "--dt", "0.1", "-o", "-"} << "--t-end";
        QTest::newRow("missing --dt") << QStringList{"simulate", duffing, "--t-end", "1", "-o", "-"} << "--dt";
        QTest::newRow("missing -o") << QStringList{"simulate", duffing, "--t-end", "1", "--dt", "0.1"} << "-o";
        QTest::newRow("missing model") << QStringList{"simulate", "--t-end", "1", "--dt", "0.1", "-o", "-"} << "MODEL";
        QTest::newRow("bad --method") << QStringList{"simulate", duffing,    "--t-end",  "1",  "--dt",
                                                     "0.1",      "--method", "leapfrog", "-o", "-"}
                                      << "leapfrog";
        QTest::newRow("--set without =") << QStringList{"simulate", duffing, "--t-end", "1",  "--dt",
                                                        "0.1",      "--set", "k",       "-o", "-"}
                                         << "--set";
        QTest::newRow("--set not a number")
            << QStringList{"simulate", duffing, "--t-end", "1", "--dt", "0.1", "--set", "k=abc", "-o", "-"} << "abc";
        QTest::newRow("--t-end not a number")
            << QStringList{"simulate", duffing, "--t-end", "soon", "--dt", "0.1", "-o", "-"} << "t-end";
        QTest::newRow("--dt zero") << QStringList{"simulate", duffing, "--t-end", "1", "--dt", "0", "-o", "-"}
                                   << "--dt";
        QTest::newRow("--t-end before start")
            << QStringList{"simulate", duffing, "--t-end", "-1", "--dt", "0.1", "-o", "-"} << "--t-end";
        QTest::newRow("bad --noise-dist")
            << QStringList{"simulate",    duffing, "--t-end",      "1",      "--dt", "0.1",
                           "--noise-rms", "1",     "--noise-dist", "cauchy", "-o",   "-"}
            << "--noise-dist";
        QTest::newRow("negative --noise-rms")
            << QStringList{"simulate", duffing, "--t-end", "1", "--dt", "0.1", "--noise-rms", "-1", "-o", "-"}
            << "--noise-rms";
        QTest::newRow("bad --map")
            << QStringList{"simulate", kExamples + "forced_input_sdof.model",     "--t-end", "1", "--dt", "0.1",
                           "--input",  kExamples + "forced_input_sdof_force.csv", "--map",   "f", "-o",   "-"}
            << "--map";
        QTest::newRow("unknown option") << QStringList{"simulate", duffing,   "--t-end", "1", "--dt",
                                                       "0.1",      "--bogus", "-o",      "-"}
                                        << "bogus";
    }

    void badArguments()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const Run r = runSysid(args);
        QVERIFY2(r.exitCode == 2, qPrintable(describeText(r)));
        QVERIFY2(r.err.contains(mentions), qPrintable(describeText(r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describeText(r)));
    }

    // An option may be abbreviated to a unique prefix, and an option left out keeps its default
    // (--t-start); a prefix several options share is refused naming them all.
    void optionsMayBeAbbreviated()
    {
        const Run r = runSysid({"simulate", kExamples + "duffing.model", "--t-e", "1", "--dt", "0.5", "-o", "-"});
        QVERIFY2(r.exitCode == 0, qPrintable(describeText(r)));
        QCOMPARE(r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 4);  // header, t = 0, 0.5, 1
        const Run p = runSysid({"periodic", kExamples + "duffing_periodic.model", "--t", "1", "-o", "-"});
        QVERIFY2(p.exitCode == 2 && p.err.contains("'--t' is ambiguous") && p.err.contains("--time") &&
                     p.err.contains("--tolerance"),
                 qPrintable(describeText(p)));
    }

    // A command declares only the options its arguments can name (NamedOptions): a setting's option
    // is still taken abbreviated and next to grouped short options, and --help, -h, an abbreviation of
    // --help and -h grouped with another short option each list every option.
    void onlyTheOptionsTheArgumentsNameAreDeclared()
    {
        const QString model = kExamples + "duffing_periodic.model";
        const Run rtol = runSysid({"periodic", model, "--period", "6.28", "--rto=-1", "-qo", "-"});
        QVERIFY2(rtol.exitCode == 2 && rtol.err.contains("--rtol: expected a number > 0, got -1"),
                 qPrintable(describeText(rtol)));
        const Run intervals = runSysid({"periodic", model, "--period", "6.28", "-qo", "-", "--shooting-int=0"});
        QVERIFY2(intervals.exitCode == 2 && intervals.err.contains("--shooting-intervals"),
                 qPrintable(describeText(intervals)));
        for (const char* help : {"--help", "-h", "--hel", "-qh"}) {
            const Run listed = runSysid({"periodic", help});
            QVERIFY2(listed.exitCode == 0 && listed.out.contains("--shooting-intervals") &&
                         listed.out.contains("--rtol") && listed.out.contains("--header-line"),
                     qPrintable(QString(help) + ": " + describeText(listed)));
        }
    }

    // What the dynamic loader maps before main (LD_TRACE_LOADED_OBJECTS: it lists them and exits): never
    // MPI (a module loaded only under a launcher); where the build links GiNaC statically, no second,
    // shared GiNaC, CLN or GMP; where it links the C++ runtime statically, no libstdc++ and no libgcc_s
    // (whose start-up costs every run: app/CMakeLists.txt).
    void sharedLibrariesAtStart()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("LD_TRACE_LOADED_OBJECTS", "1");
        const Run run = runProgram(kSysid, {"--version"}, env);
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.contains("libc.so"), qPrintable(run.out));
        QVERIFY2(!run.out.contains("libmpi"), qPrintable(run.out));
        for (const char* library : {"libginac", "libcln", "libgmp"})
            QVERIFY2(!run.out.contains(library), qPrintable(run.out));
#ifdef SYSID_CLI_RUNTIME_LINKED_STATICALLY
        for (const char* library : {"libstdc++", "libgcc_s", "libboost_program_options"})
            QVERIFY2(!run.out.contains(library), qPrintable(run.out));
#endif
    }

    // sysid holds no GiNaC: its symbolic helper does the symbolic work (app/cli/SymbolicHelper.h).
    // GiNaC's code, linked in statically or not, stripped or not, brings its type names along.
    void theExecutableHoldsNoGinac()
    {
        QFile exe(kSysid);
        QVERIFY(exe.open(QIODevice::ReadOnly));
        const QByteArray bytes = exe.readAll();
        QVERIFY(bytes.size() > 100000);
        QVERIFY(!bytes.contains("5GiNaC"));
        QFile helper(kSysidSymbolic);
        QVERIFY(helper.open(QIODevice::ReadOnly));
        QVERIFY(helper.readAll().contains("5GiNaC"));  // the search finds GiNaC where it is
    }

    // Without its helper, sysid still runs a model whose compiled form its cache holds, and says
    // where it looked for the helper when it needs it: for a model it has not seen, and for check.
    void withoutItsHelperSysidSaysWhatIsMissing()
    {
        const QString alone = path("alone");
        QVERIFY(QDir().mkpath(alone));
        const QString lone = alone + "/sysid";
        QFile::remove(lone);
        QVERIFY(QFile::copy(kSysid, lone));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("SYSID_NATIVE_CACHE", path("helper-cache"));
        const QString model = writeModel("helper.model", "param a = 0.3\nstate x = 1\nx' = -a*x\noutput x\n");
        const QString data = path("helper.csv");
        QVERIFY(writeFile(data, "t,x\n0,1\n0.5,0.7788008\n1,0.6065307\n1.5,0.4723666\n2,0.3678794\n"));
        const QStringList fit{"fit", model, "--data", data, "--quiet", "-o", "-"};
        const Run full = runProgram(kSysid, fit, env);  // compiled by the helper, kept in the cache
        QVERIFY2(full.exitCode == 0, qPrintable(describe(full)));
        const Run cached = runProgram(lone, fit, env);
        QVERIFY2(cached.exitCode == 0, qPrintable(describe(cached)));
        const double a = parseObject(full.rawOut)["parameters"].toObject()["a"].toObject()["value"].toDouble();
        QVERIFY2(std::abs(a - 0.5) < 1e-5, qPrintable(describe(full)));
        QCOMPARE(parseObject(cached.rawOut)["parameters"].toObject()["a"].toObject()["value"].toDouble(), a);
        writeModel("helper.model", "param a = 0.25\nstate x = 1\nx' = -a*x\noutput x\n");
        for (const QStringList& args : {fit, QStringList{"check", model}}) {
            const Run r = runProgram(lone, args, env);
            QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
            QVERIFY2(r.err.contains("sysid-symbolic is missing"), qPrintable(describe(r)));
            QVERIFY2(r.err.contains(alone + "/sysid-symbolic"), qPrintable(describe(r)));
        }
    }

    void helpAndVersion()
    {
        const Run h = runSysid({"--help"});
        QCOMPARE(h.exitCode, 0);
        QVERIFY(h.out.contains("simulate"));
        const Run sh = runSysid({"simulate", "--help"});
        QCOMPARE(sh.exitCode, 0);
        QVERIFY2(sh.out.contains("--t-end"), qPrintable(describeText(sh)));
    }

    void setUnknownParameterIsAUserError()
    {
        const Run r = runSysid(
            {"simulate", kExamples + "duffing.model", "--t-end", "1", "--dt", "0.1", "--set", "nosuch=1", "-o", "-"});
        QVERIFY2(r.exitCode == 1, qPrintable(describeText(r)));
        QVERIFY2(r.err.contains("nosuch"), qPrintable(describeText(r)));
        QVERIFY2(r.err.contains("k, B"), qPrintable(describeText(r)));  // lists the parameters there are
        QVERIFY(r.out.isEmpty());
    }

    // ---- simulate ------------------------------------------------------------------------

    void simulateWritesTheGrid()
    {
        const QString model = decayModel();
        const QString out = path("decay.csv");
        const Run r = runSysid({"simulate", model, "--t-end", "2", "--dt", "0.1", "-o", out});
        QVERIFY2(r.exitCode == 0, qPrintable(describeText(r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describeText(r)));
        const QString text = QString::fromUtf8(readFile(out));
        QVERIFY2(text.startsWith("t,x\n"), qPrintable(text.left(200)));
        const Csv csv = parseCsv(text);
        QVERIFY2(csv.problem.isEmpty(), qPrintable(csv.problem));
        QCOMPARE(csv.header, (QStringList{"t", "x"}));
        QCOMPARE(csv.rows.size(), std::size_t(21));  // t-end/dt + 1
        for (std::size_t k = 0; k < csv.rows.size(); ++k) {
            const double t = csv.rows[k][0];
            QVERIFY2(std::abs(t - 0.1 * static_cast<double>(k)) < 1e-12,
                     qPrintable(QString("t[%1] = %2").arg(k).arg(t, 0, 'g', 17)));
            QVERIFY2(std::abs(csv.rows[k][1] - std::exp(-0.5 * t)) < 1e-7,
                     qPrintable(QString("x(%1) = %2").arg(t).arg(csv.rows[k][1], 0, 'g', 17)));
        }
        QCOMPARE(csv.rows.back()[0], 2.0);
        QDir(dir_.path()).remove("decay.csv");
    }

    // --parameters RESULT.json takes the values a fit estimated (here a = 0.8 and x(0) = 2 from a
    // model started at 0.5 and 1); --set still overrides them; a result of another model is refused
    // naming the file and the parameter.
    void simulateWithTheEstimatesOfAFit()
    {
        const QString model =
            writeModel("decay_x0.model", "param a = 0.5 [0, 5]\nstate x = 1 estimate\nx' = -a*x\noutput x\n");
        const QString data = path("decay_x0.csv");
        Run r = runSysid(
            {"simulate", model, "--t-end", "4", "--dt", "0.05", "--set", "a=0.8", "--set", "x(0)=2", "-o", data});
        QVERIFY2(r.exitCode == 0, qPrintable(describeText(r)));
        const QString result = path("decay_x0_fit.json");
        r = runSysid({"fit", model, "--data", data, "-o", result});
        QVERIFY2(r.exitCode == 0, qPrintable(describeText(r)));

        const Csv fitted = simulateToCsv({model, "--t-end", "4", "--dt", "0.5", "--parameters", result});
        QVERIFY2(fitted.problem.isEmpty(), qPrintable(fitted.problem));
        for (const auto& row : fitted.rows)
            QVERIFY2(std::abs(row[1] - 2 * std::exp(-0.8 * row[0])) < 1e-6,
                     qPrintable(QString("x(%1) = %2").arg(row[0]).arg(row[1], 0, 'g', 12)));
        const Csv overridden =
            simulateToCsv({model, "--t-end", "4", "--dt", "0.5", "--parameters", result, "--set", "a=0.1"});
        QVERIFY2(overridden.problem.isEmpty(), qPrintable(overridden.problem));
        QVERIFY(std::abs(overridden.rows.back()[1] - 2 * std::exp(-0.1 * 4)) < 1e-6);

        const QString other = writeModel("other.model", "param b = 1\nstate x = 1\nx' = -b*x\noutput x\n");
        r = runSysid({"simulate", other, "--t-end", "1", "--dt", "0.5", "--parameters", result, "-o", "-"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("decay_x0_fit.json") && r.err.contains("'a'"), qPrintable(describeText(r)));
        r = runSysid(
            {"simulate", other, "--t-end", "1", "--dt", "0.5", "--parameters", path("missing.json"), "-o", "-"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("missing.json"), qPrintable(describeText(r)));
    }

    void rowCountOnOtherGrids_data()
    {
        QTest::addColumn<QString>("tEnd");
        QTest::addColumn<QString>("dt");
        QTest::addColumn<int>("rows");
        QTest::newRow("10/0.01") << "10"
                                 << "0.01" << 1001;
        QTest::newRow("1/0.25") << "1"
                                << "0.25" << 5;
        QTest::newRow("3/0.3") << "3"
                               << "0.3" << 11;
        QTest::newRow("0.7/0.1") << "0.7"
                                 << "0.1" << 8;
    }

    void rowCountOnOtherGrids()
    {
        QFETCH(QString, tEnd);
        QFETCH(QString, dt);
        QFETCH(int, rows);
        const Csv csv = simulateToCsv({kExamples + "duffing.model", "--t-end", tEnd, "--dt", dt});
        QVERIFY2(csv.problem.isEmpty(), qPrintable(csv.problem));
        QCOMPARE(csv.header, (QStringList{"t", "x"}));
        QCOMPARE(static_cast<int>(csv.rows.size()), rows);
        const double step = dt.toDouble();
        for (std::size_t k = 0; k < csv.rows.size(); ++k)
            QVERIFY2(std::abs(csv.rows[k][0] - step * static_cast<double>(k)) < 1e-12,
                     qPrintable(QString("t[%1] = %2").arg(k).arg(csv.rows[k][0], 0, 'g', 17)));
        QVERIFY(std::abs(csv.rows.back()[0] - tEnd.toDouble()) < 1e-12);
        QCOMPARE(csv.rows.front()[1], 3.0);  // x(0) = 3
    }

    void setOverridesAParameter()
    {
        const QString model = decayModel();
        const Csv csv = simulateToCsv({model, "--t-end", "2", "--dt", "0.5", "--set", "a=1.5"});
        QVERIFY2(csv.problem.isEmpty(), qPrintable(csv.problem));
        for (const auto& row : csv.rows)
            QVERIFY2(std::abs(row[1] - std::exp(-1.5 * row[0])) < 1e-7, qPrintable(QString::number(row[1])));
        // repeated --set, last of each applies to its own parameter
        const QString two = writeModel("two.model", "param a = 1\nparam b = 1\nstate x = 1\nx' = -a*x + b\n");
        const Csv c2 = simulateToCsv({two, "--t-end", "1", "--dt", "1", "--set", "a=2", "--set", "b=0"});
        QVERIFY2(c2.problem.isEmpty(), qPrintable(c2.problem));
        QVERIFY(std::abs(c2.rows.back()[1] - std::exp(-2.0)) < 1e-7);
    }

    void everyMethodRuns_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("dopri5") << "dopri5" << 1e-7;
        QTest::newRow("rosenbrock4") << "rosenbrock4" << 1e-6;
        QTest::newRow("rk4") << "rk4" << 1e-5;
        QTest::newRow("euler") << "euler" << 5e-2;
        QTest::newRow("sparse-implicit") << "sparse-implicit" << 1e-6;
        QTest::newRow("implicit-euler") << "implicit-euler" << 5e-3;
        QTest::newRow("crank-nicolson") << "crank-nicolson" << 1e-5;
    }

    void everyMethodRuns()
    {
        QFETCH(QString, method);
        QFETCH(double, tolerance);
        const Csv csv = simulateToCsv({decayModel(), "--t-end", "2", "--dt", "0.01", "--method", method});
        QVERIFY2(csv.problem.isEmpty(), qPrintable(csv.problem));
        QCOMPARE(csv.rows.size(), std::size_t(201));
        for (const auto& row : csv.rows)
            QVERIFY2(std::abs(row[1] - std::exp(-0.5 * row[0])) < tolerance,
                     qPrintable(QString("%1 at t = %2").arg(row[1], 0, 'g', 17).arg(row[0])));
    }

    // Explicit Euler on a PDE model refuses a step above dx^2/(2 max alpha) (seed 003 eq. 2.19)
    // and says so on stderr; the implicit schemes take the same step.
    void explicitEulerStabilityLimitOnAPdeModel()
    {
        const QString rod = kExamples + "heat_rod.model";  // alpha = 0.2, dx = 0.2: the limit is 0.1
        Run r;
        simulateToCsv({rod, "--t-end", "1", "--dt", "0.2", "--method", "euler"}, &r);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("dx^2/(2 max alpha) = 0.1 for field s (dx = 0.2, max alpha = 0.2 at x = 0.4"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("use a step <= 0.1 (--max-step), or implicit-euler / crank-nicolson / sparse-implicit"),
                 qPrintable(r.err));
        const Csv below = simulateToCsv({rod, "--t-end", "1", "--dt", "0.2", "--method", "euler", "--max-step", "0.1"});
        QVERIFY2(below.problem.isEmpty(), qPrintable(below.problem));
        for (const char* method : {"implicit-euler", "crank-nicolson"}) {
            const Csv csv = simulateToCsv({rod, "--t-end", "1", "--dt", "0.2", "--method", method});
            QVERIFY2(csv.problem.isEmpty(), qPrintable(csv.problem));
            QCOMPARE(csv.rows.size(), std::size_t(6));
        }
    }

    void fieldModelsIntegrateStiffByDefault()
    {
        // A 100-node rod: df/dx has eigenvalues down to about -4 alpha / dx^2 = -4e4, so dopri5 needs
        // some 12 000 steps where sparse-implicit needs a few hundred. Within --max-steps 2000 the
        // default runs (and is sparse-implicit, bit for bit); dopri5 chosen by hand gives up.
        const QString rod = writeModel("rod100.model",
                                       "field s on x in [0, 1] nodes 100\nparam alpha = 1\n"
                                       "s_t = alpha * s_xx\ns(0, t) = 0 ; s(1, t) = 0\n"
                                       "s(x, 0) = sin(pi*x)\noutput s(0.5)\n");
        const QStringList grid{rod, "--t-end", "0.2", "--dt", "0.01", "--max-steps", "2000"};
        Run r;
        const Csv byDefault = simulateToCsv(grid, &r);
        QVERIFY2(byDefault.problem.isEmpty(), qPrintable(byDefault.problem));
        const Csv sparse = simulateToCsv(grid + QStringList{"--method", "sparse-implicit"});
        QVERIFY2(sparse.problem.isEmpty(), qPrintable(sparse.problem));
        QVERIFY(byDefault.rows == sparse.rows);
        const double dx = 1.0 / 101, lambda1 = std::pow(2 / dx * std::sin(M_PI * dx / 2), 2);
        QVERIFY(std::abs(byDefault.rows.back()[1] - std::sin(M_PI * 50 * dx) * std::exp(-lambda1 * 0.2)) < 1e-6);
        const Csv dopri = simulateToCsv(grid + QStringList{"--method", "dopri5"}, &r);
        QVERIFY(!dopri.problem.isEmpty());
        QVERIFY2(r.exitCode == 1 && r.err.contains("2000 steps"), qPrintable(describeText(r)));
        // A model without fields keeps dopri5: the default equals --method dopri5 exactly.
        const QStringList decay{decayModel(), "--t-end", "2", "--dt", "0.1"};
        QVERIFY(simulateToCsv(decay).rows == simulateToCsv(decay + QStringList{"--method", "dopri5"}).rows);
        QVERIFY(simulateToCsv(decay).rows != simulateToCsv(decay + QStringList{"--method", "sparse-implicit"}).rows);

        const Run help = runSysid({"simulate", "--help"});
        QVERIFY2(help.out.simplified().contains("default: dopri5; sparse-implicit for models with fields"),
                 qPrintable(help.out));
        const Run fitHelp = runSysid({"fit", "--help"});
        QVERIFY2(fitHelp.out.simplified().contains("default: dopri5; sparse-implicit for models with fields"),
                 qPrintable(fitHelp.out));
    }

    void fitOfAFieldModelSaysItsIntegrator()
    {
        const QString rod = kExamples + "heat_rod.model";
        const QString data = path("rod.csv");
        const Run sim = runSysid({"simulate", rod, "--t-end", "3", "--dt", "0.1", "--set", "alpha[1]=0.1", "--set",
                                  "alpha[2]=0.15", "--set", "alpha[3]=0.18", "-o", data});
        QVERIFY2(sim.exitCode == 0, qPrintable(describeText(sim)));
        const Run fit = runSysid({"fit", rod, "--data", data, "-o", path("rod.json")});
        QVERIFY2(fit.exitCode == 0, qPrintable(describeText(fit)));
        QVERIFY2(fit.err.contains("integrator sparse-implicit (default for this model)"),
                 qPrintable(describeText(fit)));
        const Run chosen =
            runSysid({"fit", rod, "--data", data, "--integrator", "rosenbrock4", "-o", path("rod.json")});
        QVERIFY2(chosen.exitCode == 0, qPrintable(describeText(chosen)));
        QVERIFY2(chosen.err.contains(", integrator rosenbrock4\n"), qPrintable(describeText(chosen)));
    }

    void identicalRunsGiveIdenticalValues_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("rows");
        QTest::newRow("duffing") << QStringList{kExamples + "duffing.model", "--t-end", "5", "--dt", "0.05"} << 101;
        QTest::newRow("forced_input_sdof")
            << QStringList{kExamples + "forced_input_sdof.model",    "--t-end", "10", "--dt", "0.01", "--input",
                           kExamples + "forced_input_sdof_force.csv"}
            << 1001;
        QTest::newRow("pendulum_lagrange")
            << QStringList{kExamples + "pendulum_lagrange.model", "--t-end", "10", "--dt", "0.01"} << 1001;
    }

    void identicalRunsGiveIdenticalValues()
    {
        // The same command, run several times, writes the same numbers (to 1e-12). Several runs,
        // because a dependence on the process (address-space layout, hashing) shows only sometimes.
        QFETCH(QStringList, args);
        QFETCH(int, rows);
        const Csv first = simulateToCsv(args);
        QVERIFY2(first.problem.isEmpty(), qPrintable(first.problem));
        QCOMPARE(static_cast<int>(first.rows.size()), rows);
        for (int run = 1; run < 8; ++run) {
            const Csv again = simulateToCsv(args);
            QVERIFY2(again.problem.isEmpty(), qPrintable(again.problem));
            QCOMPARE(again.rows.size(), first.rows.size());
            for (std::size_t k = 0; k < first.rows.size(); ++k)
                for (std::size_t j = 0; j < first.rows[k].size(); ++j)
                    QVERIFY2(std::abs(first.rows[k][j] - again.rows[k][j]) <= 1e-12,
                             qPrintable(QString("run %1, t = %2, column %3: %4 vs %5 in the first run")
                                            .arg(run)
                                            .arg(first.rows[k][0])
                                            .arg(first.header.value(static_cast<int>(j)))
                                            .arg(again.rows[k][j], 0, 'g', 17)
                                            .arg(first.rows[k][j], 0, 'g', 17)));
        }
    }

    // simulate takes the names fit and study use (--integrator, --noise, --distribution); the older
    // --method, --noise-rms and --noise-dist give the same file.
    void simulateSpeaksTheOtherCommandsNames()
    {
        const QStringList base{kExamples + "duffing.model", "--t-end", "2", "--dt", "0.05"};
        const Run current = runSysid(QStringList{"simulate"} + base +
                                     QStringList{"--integrator", "rosenbrock4", "--noise", "5", "--seed", "3",
                                                 "--distribution", "gaussian", "-o", "-"});
        const Run older = runSysid(QStringList{"simulate"} + base +
                                   QStringList{"--method", "rosenbrock4", "--noise-rms", "5", "--seed", "3",
                                               "--noise-dist=gaussian", "-o", "-"});
        QVERIFY2(current.exitCode == 0, describeText(current).toUtf8());
        QCOMPARE(older.rawOut, current.rawOut);
        const Run help = runSysid({"simulate", "--help"});
        QVERIFY(help.out.contains("--integrator") && help.out.contains("--noise ") &&
                !help.out.contains("--noise-rms"));
    }

    // --intersample: u sampled 1 at t = 0 and 0 at t = 1 drives x' = -x + u. Held, u = 1 on [0, 1):
    // x(1) = 1 - 1/e; linear, u = 1 - t: x = 2 - t - 2 e^-t, x(1) = 1 - 2/e.
    void simulateTakesTheInputsIntersampleBehaviour()
    {
        const QString model = writeModel("driven.model", "input u\nstate x = 0\nx' = -x + u\noutput x\n");
        const QStringList base = sampledStepArguments(model, "u.csv");
        QVERIFY(!base.isEmpty());
        const Csv held = simulateToCsv(base + QStringList{"--intersample", "u=hold"});
        const Csv linear = simulateToCsv(base);
        QVERIFY2(held.problem.isEmpty(), qPrintable(held.problem));
        QVERIFY2(linear.problem.isEmpty(), qPrintable(linear.problem));
        QVERIFY(std::abs(held.rows[1][1] - (1 - std::exp(-1.0))) < 1e-9);
        QVERIFY(std::abs(linear.rows[1][1] - (1 - 2 * std::exp(-1.0))) < 1e-9);
        Run r;
        simulateToCsv(base + QStringList{"--intersample", "u=cubic"}, &r);
        QVERIFY2(r.exitCode == 2 && r.err.contains("--intersample u") && r.err.contains("spline"),
                 describeText(r).toUtf8());
        simulateToCsv(base + QStringList{"--intersample", "w=hold"}, &r);
        QVERIFY2(r.exitCode == 2 && r.err.contains("the model has no input 'w'"), describeText(r).toUtf8());
    }

    // `input u hold` in the model is the default; --intersample u=linear overrides it.
    void simulateTakesTheModelsIntersampleDeclaration()
    {
        const QString model = writeModel("declared.model", "input u hold\nstate x = 0\nx' = -x + u\noutput x\n");
        const QStringList base = sampledStepArguments(model, "u_declared.csv");
        QVERIFY(!base.isEmpty());
        const Csv held = simulateToCsv(base);
        const Csv linear = simulateToCsv(base + QStringList{"--intersample", "u=linear"});
        QVERIFY2(held.problem.isEmpty(), qPrintable(held.problem));
        QVERIFY2(linear.problem.isEmpty(), qPrintable(linear.problem));
        QVERIFY(std::abs(held.rows[1][1] - (1 - std::exp(-1.0))) < 1e-9);
        QVERIFY(std::abs(linear.rows[1][1] - (1 - 2 * std::exp(-1.0))) < 1e-9);
    }

    // output EXPR is the output y1: a column of the simulation and of `sysid check`'s outputs.
    void anonymousOutputsAreNamedY1()
    {
        const QString model =
            writeModel("anonymous.model", "param nu = 0.5\nstate x = 1\nx' = -x\noutput x + nu\noutput x\n");
        const Run check = runSysid({"check", model});
        QVERIFY2(check.exitCode == 0 && check.out.contains("outputs (2): y1 x"), describeText(check).toUtf8());
        QVERIFY2(check.out.contains("y1 = "), describeText(check).toUtf8());
        const Csv csv = simulateToCsv({model, "--t-end", "1", "--dt", "1", "--rtol", "1e-12", "--atol", "1e-14"});
        QVERIFY2(csv.problem.isEmpty(), qPrintable(csv.problem));
        QCOMPARE(csv.header, (QStringList{"t", "y1", "x"}));
        QVERIFY(std::abs(csv.rows[1][1] - (std::exp(-1.0) + 0.5)) < 1e-9);
    }

    void noiseFollowsTheSeed()
    {
        const QStringList base{kExamples + "duffing.model", "--t-end", "5", "--dt", "0.05"};
        const Csv clean = simulateToCsv(base);
        const Csv s1 = simulateToCsv(base + QStringList{"--noise-rms", "5", "--seed", "1"});
        const Csv s1again = simulateToCsv(base + QStringList{"--noise-rms", "5", "--seed", "1"});
        const Csv s2 = simulateToCsv(base + QStringList{"--noise-rms", "5", "--seed", "2"});
        const Csv g1 = simulateToCsv(base + QStringList{"--noise-rms", "5", "--seed", "1", "--noise-dist", "gaussian"});
        for (const Csv* c : {&clean, &s1, &s1again, &s2, &g1}) {
            QVERIFY2(c->problem.isEmpty(), qPrintable(c->problem));
            QCOMPARE(c->rows.size(), std::size_t(101));
        }
        double rms = 0;
        for (const auto& row : clean.rows)
            rms += row[1] * row[1];
        rms = std::sqrt(rms / static_cast<double>(clean.rows.size()));
        std::size_t differentSeeds = 0, differentFromClean = 0, differentDistributions = 0;
        for (std::size_t k = 0; k < clean.rows.size(); ++k) {
            QCOMPARE(s1.rows[k][0], clean.rows[k][0]);  // time is never noisy
            QCOMPARE(s2.rows[k][0], clean.rows[k][0]);
            QVERIFY(std::abs(s1.rows[k][1] - s1again.rows[k][1]) <= 1e-12);  // same seed, same noise
            if (std::abs(s1.rows[k][1] - s2.rows[k][1]) > 1e-12)
                ++differentSeeds;
            if (std::abs(s1.rows[k][1] - clean.rows[k][1]) > 1e-12)
                ++differentFromClean;
            if (std::abs(s1.rows[k][1] - g1.rows[k][1]) > 1e-12)
                ++differentDistributions;
            // uniform noise of 5 % of the RMS stays within +-5 % of the RMS
            QVERIFY2(std::abs(s1.rows[k][1] - clean.rows[k][1]) <= 0.05 * rms * (1 + 1e-9),
                     qPrintable(QString("noise %1 > 5 %% of rms %2").arg(s1.rows[k][1] - clean.rows[k][1]).arg(rms)));
        }
        QVERIFY2(differentSeeds > 90, qPrintable(QString::number(differentSeeds)));
        QVERIFY2(differentFromClean > 90, qPrintable(QString::number(differentFromClean)));
        QVERIFY2(differentDistributions > 90, qPrintable(QString::number(differentDistributions)));
        // without --noise-rms the seed changes nothing
        const Csv seeded = simulateToCsv(base + QStringList{"--seed", "7"});
        QVERIFY(seeded.problem.isEmpty());
        for (std::size_t k = 0; k < clean.rows.size(); ++k)
            QCOMPARE(seeded.rows[k][1], clean.rows[k][1]);
    }

    void dashWritesToStandardOutput()
    {
        const QStringList args{"simulate", kExamples + "duffing.model", "--t-end", "2", "--dt", "0.1"};
        const QString file = path("duffing.csv");
        const Run toFile = runSysid(args + QStringList{"-o", file});
        QVERIFY2(toFile.exitCode == 0, qPrintable(describeText(toFile)));
        QVERIFY(toFile.out.isEmpty());
        const Run toStdout = runSysid(args + QStringList{"-o", "-"});
        QVERIFY2(toStdout.exitCode == 0, qPrintable(describeText(toStdout)));
        QVERIFY(toStdout.out.startsWith("t,x\n"));
        QCOMPARE(toStdout.out, QString::fromUtf8(readFile(file)));
        QVERIFY(!QFile::exists("-"));
        QVERIFY(!QFile::exists(path("-")));
    }

    void unwritableOutputIsAUserError()
    {
        const QString out = path("no/such/dir/out.csv");
        const Run r = runSysid({"simulate", kExamples + "duffing.model", "--t-end", "1", "--dt", "0.1", "-o", out});
        QVERIFY2(r.exitCode == 1, qPrintable(describeText(r)));
        QVERIFY2(r.err.contains(out), qPrintable(describeText(r)));
    }

    // ---- inputs -------------------------------------------------------------------------

    void modelWithInputNeedsInputData()
    {
        const Run r =
            runSysid({"simulate", kExamples + "forced_input_sdof.model", "--t-end", "1", "--dt", "0.1", "-o", "-"});
        QVERIFY2(r.exitCode == 1, qPrintable(describeText(r)));
        QVERIFY2(r.err.contains("input(s) f"), qPrintable(describeText(r)));
        QVERIFY2(r.err.contains("--input"), qPrintable(describeText(r)));
        QVERIFY(r.out.isEmpty());
    }

    void forcedInputExampleRuns()
    {
        const QString model = kExamples + "forced_input_sdof.model";
        const QString force = kExamples + "forced_input_sdof_force.csv";
        const Csv csv = simulateToCsv({model, "--t-end", "10", "--dt", "0.01", "--input", force});
        QVERIFY2(csv.problem.isEmpty(), qPrintable(csv.problem));
        QCOMPARE(csv.header, (QStringList{"t", "x", "a"}));
        QCOMPARE(csv.rows.size(), std::size_t(1001));
        double largest = 0, largestA = 0;
        for (const auto& row : csv.rows) {
            QVERIFY(std::isfinite(row[1]) && std::isfinite(row[2]));
            largest = std::max(largest, std::abs(row[1]));
            largestA = std::max(largestA, std::abs(row[2]));
        }
        QVERIFY2(largest > 1e-3 && largest < 10, qPrintable(QString::number(largest)));  // the force moves the mass
        // a = x'': compare with the second difference of x
        for (std::size_t k = 1; k + 1 < csv.rows.size(); ++k) {
            const double dd = (csv.rows[k + 1][1] - 2 * csv.rows[k][1] + csv.rows[k - 1][1]) / (0.01 * 0.01);
            QVERIFY2(
                std::abs(dd - csv.rows[k][2]) < 1e-2 * largestA,
                qPrintable(
                    QString("t = %1: a = %2, second difference %3").arg(csv.rows[k][0]).arg(csv.rows[k][2]).arg(dd)));
        }

        // With zero force the mass stays at rest: the input is really read.
        const QString zero = path("zero_force.csv");
        QVERIFY(writeFile(zero, "t,f\n0,0\n5,0\n10,0\n"));
        const Csv rest = simulateToCsv({model, "--t-end", "10", "--dt", "0.5", "--input", zero});
        QVERIFY2(rest.problem.isEmpty(), qPrintable(rest.problem));
        for (const auto& row : rest.rows)
            QCOMPARE(row[1], 0.0);

        // Another column name with --map and a time column that is not first with --time.
        QString renamed = "force;time_s\n";
        const QStringList lines = QString::fromUtf8(readFile(force)).split('\n');
        for (const QString& line : lines) {
            if (line.startsWith('#') || line.startsWith("t,") || line.isEmpty())
                continue;
            const QStringList cells = line.split(',');
            renamed += cells[1] + ";" + cells[0] + "\n";
        }
        const QString mapped = path("mapped.csv");
        QVERIFY(writeFile(mapped, renamed.toUtf8()));
        const Csv viaMap = simulateToCsv(
            {model, "--t-end", "10", "--dt", "0.01", "--input", mapped, "--map", "f=force", "--time", "time_s"});
        QVERIFY2(viaMap.problem.isEmpty(), qPrintable(viaMap.problem));
        QCOMPARE(viaMap.rows.size(), csv.rows.size());
        // Same data, so the same trajectory up to the integrator's accuracy (about 2e-6 here: the
        // piecewise-linear input has a kink every 0.01 s); bitwise equality of repeated runs is
        // identicalRunsGiveIdenticalValues' business.
        for (std::size_t k = 0; k < csv.rows.size(); ++k)
            QVERIFY2(std::abs(viaMap.rows[k][1] - csv.rows[k][1]) <= 2e-5 * largest,
                     qPrintable(QString("t = %1: x = %2 with --map, %3 without")
                                    .arg(csv.rows[k][0])
                                    .arg(viaMap.rows[k][1], 0, 'g', 17)
                                    .arg(csv.rows[k][1], 0, 'g', 17)));
        // without --map, the column f is missing
        Run noMap;
        const Csv missing =
            simulateToCsv({model, "--t-end", "10", "--dt", "0.01", "--input", mapped, "--time", "time_s"}, &noMap);
        QVERIFY2(noMap.exitCode == 1, qPrintable(describeText(noMap)));
        QVERIFY2(noMap.err.contains("f"), qPrintable(describeText(noMap)));
    }

    void badCellInInputNamesFileAndLine()
    {
        const QString bad = path("bad_force.csv");
        QVERIFY(writeFile(bad, "t,f\n0,1\n0.5,abc\n1,2\n"));
        const Run r = runSysid({"simulate", kExamples + "forced_input_sdof.model", "--t-end", "1", "--dt", "0.1",
                                "--input", bad, "-o", "-"});
        QVERIFY2(r.exitCode == 1, qPrintable(describeText(r)));
        QVERIFY2(r.err.contains(bad + ":3:"), qPrintable(describeText(r)));
        QVERIFY2(r.err.contains("abc"), qPrintable(describeText(r)));
        QVERIFY(r.out.isEmpty());
    }

    void inputDataTooShortIsAUserError()
    {
        const QString shortCsv = path("short_force.csv");
        QVERIFY(writeFile(shortCsv, "t,f\n0,1\n0.5,1\n"));
        const Run r = runSysid({"simulate", kExamples + "forced_input_sdof.model", "--t-end", "1", "--dt", "0.1",
                                "--input", shortCsv, "-o", "-"});
        QVERIFY2(r.exitCode == 1, qPrintable(describeText(r)));
        QVERIFY2(r.err.contains(shortCsv), qPrintable(describeText(r)));
        const Run missing = runSysid({"simulate", kExamples + "forced_input_sdof.model", "--t-end", "1", "--dt", "0.1",
                                      "--input", path("nope.csv"), "-o", "-"});
        QVERIFY2(missing.exitCode == 1, qPrintable(describeText(missing)));
        QVERIFY2(missing.err.contains(path("nope.csv")), qPrintable(describeText(missing)));
    }

    // ---- integration failures ----------------------------------------------------------

    void blowUpReportsTheTimeReached_data()
    {
        QTest::addColumn<QString>("method");
        QTest::newRow("dopri5") << "dopri5";
        QTest::newRow("rosenbrock4") << "rosenbrock4";
    }

    void blowUpReportsTheTimeReached()
    {
        QFETCH(QString, method);
        // y' = y^2, y(0) = 1 has the solution 1/(1 - t), which blows up at t = 1.
        const QString model = writeModel("blowup.model", "state y = 1\ny' = y^2\n");
        const Run r =
            runSysid({"simulate", model, "--t-end", "2", "--dt", "0.1", "--method", method, "-o", path("blowup.csv")});
        QVERIFY2(r.exitCode == 1, qPrintable(describeText(r)));
        const auto t = timeIn(r.err);
        QVERIFY2(t.has_value(), qPrintable(describeText(r)));
        QVERIFY2(*t > 0.9 && *t <= 1.0 + 1e-6, qPrintable(describeText(r)));
        QVERIFY(!QFile::exists(path("blowup.csv")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
