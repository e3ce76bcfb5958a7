// sysid compare and the validation block of sysid fit PROJECT: a decay y' = -a y fitted on one
// record and compared with another that starts elsewhere, where every number is known in closed form.

#include "SysidProcess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <numbers>

using sysid::test::describe;
using sysid::test::kSysid;
using sysid::test::parseObject;
using sysid::test::readFile;
using sysid::test::Run;
using sysid::test::runSysid;
using sysid::test::writeFile;

namespace {

const QByteArray kModel = "param a = 0.8 [0.01, 10]\n"
                          "state y = 2 estimate\n"
                          "y' = -a*y\n"
                          "output y\n";

// y = y0 exp(-t) on t = 0, 0.05, ..., 5 in a column named `column`.
QByteArray decayCsv(double y0, const QByteArray& column = "y")
{
    QByteArray csv = "t," + column + "\n";
    for (int i = 0; i <= 100; ++i)
        csv +=
            QByteArray::number(0.05 * i, 'g', 17) + "," + QByteArray::number(y0 * std::exp(-0.05 * i), 'g', 17) + "\n";
    return csv;
}

// The measures of sim = s0 exp(-t) against y = y0 exp(-t) on the grid above.
struct Measures {
    double rmse, fitPercent;
};
Measures decayMeasures(double y0, double s0)
{
    double squares = 0, mean = 0, spread = 0;
    for (int i = 0; i <= 100; ++i) {
        squares += std::pow((y0 - s0) * std::exp(-0.05 * i), 2);
        mean += y0 * std::exp(-0.05 * i) / 101;
    }
    for (int i = 0; i <= 100; ++i)
        spread += std::pow(y0 * std::exp(-0.05 * i) - mean, 2);
    return {std::sqrt(squares / 101), 100 * (1 - std::sqrt(squares / spread))};
}

bool near(double a, double b, double tolerance)
{
    return std::abs(a - b) <= tolerance;
}

// A project fitting est.csv and keeping val.csv for validation.
QJsonObject decayProject(const QTemporaryDir& tmp)
{
    QJsonObject model{{"source", "decay.model"}, {"text", QString::fromUtf8(kModel)}};
    QJsonObject estimation{{"name", "est"}, {"path", tmp.filePath("est.csv")}};
    QJsonObject validation{{"name", "val"}, {"path", tmp.filePath("val.csv")}, {"role", "validation"}};
    return QJsonObject{{"version", 1}, {"model", model}, {"data", QJsonArray{estimation, validation}}};
}

}  // namespace

class TestCliCompare : public QObject {
    Q_OBJECT

private:
    QTemporaryDir tmp_;
    QString result_;  // RESULT.json of the fit on est.csv (y0 = 3, a = 1)

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(kSysid), qPrintable(kSysid + " is not built"));
        QVERIFY(writeFile(tmp_.filePath("decay.model"), kModel));
        QVERIFY(writeFile(tmp_.filePath("est.csv"), decayCsv(3.0)));
        QVERIFY(writeFile(tmp_.filePath("val.csv"), decayCsv(1.5)));
        result_ = tmp_.filePath("fit.json");
        const Run fit = runSysid({"fit", tmp_.filePath("decay.model"), "--data", tmp_.filePath("est.csv"), "--rtol",
                                  "1e-10", "--atol", "1e-12", "-o", result_, "-q"});
        QVERIFY2(fit.exitCode == 0, describe(fit));
        const QJsonObject r = parseObject(readFile(result_));
        QCOMPARE(r["model"].toObject()["text"].toString(), QString::fromUtf8(kModel));
        QVERIFY(near(r["parameters"].toObject()["a"].toObject()["value"].toDouble(), 1.0, 1e-5));
        QVERIFY(near(r["parameters"].toObject()["y(0)"].toObject()["value"].toDouble(), 3.0, 1e-5));
    }

    void resultJsonThreeInitialValueSources()
    {
        // result (default): y(0) = 3 of the fit against a record from 1.5.
        const QString out = tmp_.filePath("c.json");
        const Run r = runSysid({"compare", result_, "--data", tmp_.filePath("val.csv"), "-o", out});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.out.contains("fit %") && r.out.contains("initial values: result"), describe(r));
        QJsonObject c = parseObject(readFile(out));
        QJsonObject y = c["outputs"].toObject()["y"].toObject();
        const Measures wrong = decayMeasures(1.5, 3.0);
        QVERIFY2(near(y["rmse"].toDouble(), wrong.rmse, 1e-4), describe(r));
        QVERIFY2(near(y["fit_percent"].toDouble(), wrong.fitPercent, 1e-2), describe(r));
        QVERIFY(y.contains("nrmse"));
        QVERIFY(near(c["initial"].toObject()["y"].toDouble(), 3.0, 1e-5));
        QCOMPARE(c["initial_values"].toString(), QStringLiteral("result"));

        // model: the model text's y = 2.
        const Run m =
            runSysid({"compare", result_, "--data", tmp_.filePath("val.csv"), "--initial", "model", "-o", out});
        QVERIFY2(m.exitCode == 0, describe(m));
        c = parseObject(readFile(out));
        QCOMPARE(c["initial"].toObject()["y"].toDouble(), 2.0);
        QVERIFY(near(c["outputs"].toObject()["y"].toObject()["rmse"].toDouble(), decayMeasures(1.5, 2.0).rmse, 1e-4));

        // estimate:1: y(0) estimated on the first second with a held at the fit's 1: the record itself.
        const Run e =
            runSysid({"compare", result_, "--data", tmp_.filePath("val.csv"), "--initial", "estimate:1", "-o", out});
        QVERIFY2(e.exitCode == 0, describe(e));
        c = parseObject(readFile(out));
        QVERIFY2(near(c["initial"].toObject()["y"].toDouble(), 1.5, 1e-4), describe(e));
        QVERIFY2(c["outputs"].toObject()["y"].toObject()["fit_percent"].toDouble() > 99.9, describe(e));
        QCOMPARE(c["initial_values"].toString(), QStringLiteral("estimate"));
    }

    void csvOutput()
    {
        const QString out = tmp_.filePath("c.csv");
        const Run r = runSysid({"compare", result_, "--data", tmp_.filePath("val.csv"), "-o", out});
        QVERIFY2(r.exitCode == 0, describe(r));
        const QList<QByteArray> lines = readFile(out).trimmed().split('\n');
        QCOMPARE(lines.size(), 102);
        QCOMPARE(lines[0], QByteArray("t,y measured,y simulated"));
        const QList<QByteArray> first = lines[1].split(',');
        QCOMPARE(first.size(), 3);
        QCOMPARE(first[0].toDouble(), 0.0);
        QCOMPARE(first[1].toDouble(), 1.5);
        QVERIFY(near(first[2].toDouble(), 3.0, 1e-5));
    }

    void mappedColumn()
    {
        QVERIFY(writeFile(tmp_.filePath("renamed.csv"), decayCsv(1.5, "height")));
        const QString out = tmp_.filePath("m.json");
        const Run r = runSysid({"compare", result_, "--data", tmp_.filePath("renamed.csv"), "--map", "y=height",
                                "--initial", "estimate", "-o", out});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY(parseObject(readFile(out))["outputs"].toObject()["y"].toObject()["fit_percent"].toDouble() > 99.9);
    }

    void projectFitWritesTheValidationBlock()
    {
        const QString project = tmp_.filePath("decay.sysid");
        QVERIFY(writeFile(project, QJsonDocument(decayProject(tmp_)).toJson()));
        const QString out = tmp_.filePath("p.json");
        const Run fit = runSysid({"fit", project, "-o", out});
        QVERIFY2(fit.exitCode == 0, describe(fit));
        QVERIFY2(fit.err.contains("validation on val: y rmse"), describe(fit));
        const QJsonObject r = parseObject(readFile(out));
        // The fit's estimated initial value (y0 = 3), as compare takes it by default, on the record
        // from 1.5 (the fit's a is 1 to 1e-5).
        const QJsonObject y = r["validation"].toObject()["val"].toObject()["outputs"].toObject()["y"].toObject();
        const Measures expected = decayMeasures(1.5, 3.0);
        QVERIFY2(near(y["rmse"].toDouble(), expected.rmse, 1e-3), describe(fit));
        QVERIFY2(near(y["fit_percent"].toDouble(), expected.fitPercent, 0.1), describe(fit));
        QVERIFY(y.contains("nrmse"));
        QVERIFY(!r["validation"].toObject().contains("est"));

        // No result stored in the project yet: refused, naming the project.
        const Run none = runSysid({"compare", project});
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains(project) && none.err.contains("no result"), describe(none));

        // With its last result: its validation data sets, or --data.
        QJsonObject withResult = decayProject(tmp_);
        withResult["last_result"] = r;
        QVERIFY(writeFile(project, QJsonDocument(withResult).toJson()));
        const QString compared = tmp_.filePath("pc.json");
        const Run c = runSysid({"compare", project, "--initial", "estimate:2", "-o", compared});
        QVERIFY2(c.exitCode == 0, describe(c));
        QVERIFY2(c.out.contains("compared with val"), describe(c));
        const QJsonObject val = parseObject(readFile(compared))["validation"].toObject()["val"].toObject();
        QVERIFY2(near(val["initial"].toObject()["y"].toDouble(), 1.5, 1e-3), describe(c));
        const Run d = runSysid({"compare", project, "--data", tmp_.filePath("est.csv"), "-o", "-"});
        QVERIFY2(d.exitCode == 0, describe(d));
        QVERIFY2(parseObject(d.rawOut)["outputs"].toObject()["y"].toObject()["fit_percent"].toDouble() > 99.9,
                 describe(d));
        QVERIFY2(d.err.contains("fit %"), describe(d));  // the table moves to stderr when JSON is on stdout
    }

    void theFitsIntersampleBehaviourIsKept()
    {
        // x' = -x + u with u held between samples 0.5 s apart: x_{k+1} = x_k e^-0.5 + u_k (1 - e^-0.5)
        // exactly. Fitted with --intersample u=hold, the comparison holds u too and follows the record;
        // read linearly between the samples (--intersample u=linear) the model misses it.
        QVERIFY(writeFile(tmp_.filePath("held.model"),
                          "param a = 0.5 [0.01, 10]\ninput u\nstate x = 0\n"
                          "x' = -a*x + u\noutput x\n"));
        QByteArray csv = "t,u,x\n";
        double x = 0;
        for (int k = 0; k <= 40; ++k) {
            const double u = (k / 5) % 2 == 0 ? 1.0 : -1.0;
            csv +=
                QByteArray::number(0.5 * k) + "," + QByteArray::number(u) + "," + QByteArray::number(x, 'g', 17) + "\n";
            x = x * std::exp(-0.5) + u * (1 - std::exp(-0.5));
        }
        QVERIFY(writeFile(tmp_.filePath("held.csv"), csv));
        const QString result = tmp_.filePath("held.json");
        const Run fit = runSysid({"fit", tmp_.filePath("held.model"), "--data", tmp_.filePath("held.csv"),
                                  "--intersample", "u=hold", "--rtol", "1e-10", "--atol", "1e-12", "-o", result, "-q"});
        QVERIFY2(fit.exitCode == 0, describe(fit));
        const QString out = tmp_.filePath("held_compare.json");
        const Run held = runSysid({"compare", result, "--data", tmp_.filePath("held.csv"), "-o", out});
        QVERIFY2(held.exitCode == 0, describe(held));
        const double heldFit =
            parseObject(readFile(out))["outputs"].toObject()["x"].toObject()["fit_percent"].toDouble();
        QVERIFY2(heldFit > 99.99, describe(held));
        const Run linear =
            runSysid({"compare", result, "--data", tmp_.filePath("held.csv"), "--intersample", "u=linear", "-o", out});
        QVERIFY2(linear.exitCode == 0, describe(linear));
        const double linearFit =
            parseObject(readFile(out))["outputs"].toObject()["x"].toObject()["fit_percent"].toDouble();
        QVERIFY2(linearFit < 99, qPrintable(QString::number(linearFit)));
    }

    // Two models fitted to est.csv (y0 and a estimated; a alone with y0 fixed at 2.5) side by side on
    // val.csv: per model k, N, and cost, AIC, AICc, BIC by their formulas from the reported rmse and
    // weight; the model that fits best has the lowest AIC.
    void severalModelsSideBySide()
    {
        QVERIFY(writeFile(tmp_.filePath("fixed.model"),
                          "param a = 0.8 [0.01, 10]\nstate y = 2.5\ny' = -a*y\n"
                          "output y\n"));
        const QString second = tmp_.filePath("fixed.json");
        const Run fit =
            runSysid({"fit", tmp_.filePath("fixed.model"), "--data", tmp_.filePath("est.csv"), "-o", second, "-q"});
        QVERIFY2(fit.exitCode == 0, describe(fit));
        const QString out = tmp_.filePath("models.json");
        const Run r = runSysid({"compare", result_, second, "--data", tmp_.filePath("est.csv"), "-o", out});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.out.contains("models compared on") && r.out.contains("lowest AIC: " + result_), describe(r));
        const QJsonObject c = parseObject(readFile(out));
        QCOMPARE(c["best"].toString(), result_);
        QVERIFY(c["criteria"].toString().contains("AIC = 2 J + 2 k"));
        const double w = c["weights"].toObject()["y"].toDouble();
        QVERIFY(w > 0);
        const QJsonArray models = c["models"].toArray();
        QCOMPARE(models.size(), 2);
        const int expectedK[] = {2, 1};
        for (int m = 0; m < 2; ++m) {
            const QJsonObject model = models[m].toObject();
            const int k = model["parameters"].toInt();
            const int n = model["residuals"].toInt();
            QCOMPARE(k, expectedK[m]);
            QCOMPARE(n, 101);
            const double rmse = model["outputs"].toObject()["y"].toObject()["rmse"].toDouble();
            const double cost = model["cost"].toDouble();
            QVERIFY2(near(cost, 0.5 * w * n * rmse * rmse, 1e-9 * std::max(1.0, cost)), describe(r));
            QVERIFY(near(model["aic"].toDouble(), 2 * cost + 2 * k, 1e-9 * std::max(1.0, cost)));
            QVERIFY(near(model["aicc"].toDouble(), 2 * cost + 2 * k + 2.0 * k * (k + 1) / (n - k - 1),
                         1e-9 * std::max(1.0, cost)));
            QVERIFY(near(model["bic"].toDouble(), 2 * cost + k * std::log(n), 1e-9 * std::max(1.0, cost)));
            QCOMPARE(model["method"].toString(), QStringLiteral("output-error"));
        }
        QCOMPARE(models[0].toObject()["delta_aic"].toDouble(), 0.0);
        QVERIFY(models[1].toObject()["delta_aic"].toDouble() > 0);
        // The fit of y0 and a reproduces est.csv; y0 held at 2.5 cannot.
        QVERIFY(models[0].toObject()["outputs"].toObject()["y"].toObject()["fit_percent"].toDouble() > 99.9);
        QVERIFY(models[1].toObject()["outputs"].toObject()["y"].toObject()["fit_percent"].toDouble() < 99);

        // CSV: one row per model.
        const QString csv = tmp_.filePath("models.csv");
        const Run rc = runSysid({"compare", result_, second, "--data", tmp_.filePath("est.csv"), "-o", csv});
        QVERIFY2(rc.exitCode == 0, describe(rc));
        const QList<QByteArray> lines = readFile(csv).trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0],
                 QByteArray("model,method,parameters,residuals,cost,aic,aicc,bic,delta_aic,y rmse,y nrmse,"
                            "y fit_percent,error"));
        QVERIFY(lines[2].startsWith(second.toUtf8() + ",output-error,1,101,"));

        // One result per model; --model and --initial are for one; several need a record.
        const Run model = runSysid(
            {"compare", result_, second, "--data", tmp_.filePath("est.csv"), "--model", tmp_.filePath("decay.model")});
        QCOMPARE(model.exitCode, 2);
        QVERIFY2(model.err.contains("--model"), describe(model));
        const Run noData = runSysid({"compare", result_, second});
        QCOMPARE(noData.exitCode, 2);
        QVERIFY2(noData.err.contains("--data"), describe(noData));
        // A result that cannot be read is named.
        const Run missing =
            runSysid({"compare", result_, tmp_.filePath("nothing.json"), "--data", tmp_.filePath("est.csv")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("nothing.json"), describe(missing));
    }

    // A model driven by a measured input u = cos(1.3 t), fitted by periodic response from the record of
    // its steady state (t, u, x over two periods): from the command line and from a project, and
    // compared on the record as its periodic steady state.
    void periodicResponseFitWithMeasuredInput()
    {
        QVERIFY(writeFile(tmp_.filePath("driven.model"),
                          "param c = 0.3 [0, 10]\nparam k = 1.3 [0.01, 10]\ninput u\n"
                          "x'' = -c*x' - k*x + u\nx(0) = 0, 0\noutput x\n"));
        const double w = 1.3, T = 2 * std::numbers::pi / w;
        const double X = 1 / std::hypot(1 - w * w, 0.2 * w), phi = std::atan2(0.2 * w, 1 - w * w);
        QByteArray csv = "t,u,x\n";
        for (int i = 0; i < 200; ++i) {
            const double t = T * i / 100.0;
            csv += QByteArray::number(t, 'g', 17) + "," + QByteArray::number(std::cos(w * t), 'g', 17) + "," +
                QByteArray::number(X * std::cos(w * t - phi), 'g', 17) + "\n";
        }
        QVERIFY(writeFile(tmp_.filePath("driven.csv"), csv));
        const QString period = QString::number(T, 'g', 17);
        const QString result = tmp_.filePath("driven.json");
        const Run fit = runSysid({"fit", tmp_.filePath("driven.model"), "--data", tmp_.filePath("driven.csv"),
                                  "--method", "periodic-response", "--period", period, "--intersample", "u=spline",
                                  "--rtol", "1e-10", "--atol", "1e-12", "-o", result, "-q"});
        QVERIFY2(fit.exitCode == 0, describe(fit));
        QJsonObject parameters = parseObject(readFile(result))["parameters"].toObject();
        QVERIFY2(near(parameters["c"].toObject()["value"].toDouble(), 0.2, 1e-4), describe(fit));
        QVERIFY2(near(parameters["k"].toObject()["value"].toDouble(), 1.0, 1e-4), describe(fit));

        // The project says the same: its data set holds the force column as the model's input.
        QJsonObject settings{{"periodic", QJsonObject{{"period", T}}},
                             {"intersample", QJsonObject{{"u", "spline"}}},
                             {"integrator", QJsonObject{{"rtol", 1e-10}, {"atol", 1e-12}}}};
        QJsonObject project{
            {"version", 1},
            {"model",
             QJsonObject{{"source", "driven.model"},
                         {"text", QString::fromUtf8(readFile(tmp_.filePath("driven.model")))}}},
            {"data", QJsonArray{QJsonObject{{"name", "steady"}, {"path", tmp_.filePath("driven.csv")}}}},
            {"method", "periodic-response"},
            {"settings", settings}};
        QVERIFY(writeFile(tmp_.filePath("driven.sysid"), QJsonDocument(project).toJson()));
        const Run projectFit = runSysid({"fit", tmp_.filePath("driven.sysid"), "-o", tmp_.filePath("dp.json"), "-q"});
        QVERIFY2(projectFit.exitCode == 0, describe(projectFit));
        parameters = parseObject(readFile(tmp_.filePath("dp.json")))["parameters"].toObject();
        QVERIFY2(near(parameters["c"].toObject()["value"].toDouble(), 0.2, 1e-4), describe(projectFit));

        // Compared on the record: the periodic steady state, not a transient from x(0) = 0.
        const Run compared = runSysid({"compare", result, "--data", tmp_.filePath("driven.csv"), "-o", "-"});
        QVERIFY2(compared.exitCode == 0, describe(compared));
        QVERIFY2(compared.err.contains("periodic steady state"), describe(compared));
        QVERIFY2(parseObject(compared.rawOut)["outputs"].toObject()["x"].toObject()["fit_percent"].toDouble() > 99.9,
                 describe(compared));
    }

    void badInput()
    {
        // A missing result file, named.
        const Run missing = runSysid({"compare", tmp_.filePath("nothing.json"), "--data", tmp_.filePath("val.csv")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("nothing.json") && missing.err.contains("file not found"), describe(missing));

        // A missing data file, named.
        const Run noData = runSysid({"compare", result_, "--data", tmp_.filePath("absent.csv")});
        QCOMPARE(noData.exitCode, 1);
        QVERIFY2(noData.err.contains("absent.csv"), describe(noData));

        // A result without its model: the message says to give --model, which then works.
        QJsonObject bare = parseObject(readFile(result_));
        bare.remove("model");
        const QString bareFile = tmp_.filePath("bare.json");
        QVERIFY(writeFile(bareFile, QJsonDocument(bare).toJson()));
        const Run noModel = runSysid({"compare", bareFile, "--data", tmp_.filePath("val.csv")});
        QCOMPARE(noModel.exitCode, 1);
        QVERIFY2(noModel.err.contains("bare.json") && noModel.err.contains("--model MODEL"), describe(noModel));
        const Run withModel = runSysid(
            {"compare", bareFile, "--data", tmp_.filePath("val.csv"), "--model", tmp_.filePath("decay.model")});
        QVERIFY2(withModel.exitCode == 0, describe(withModel));

        // An output the model does not have in --map, named.
        const Run unknown = runSysid({"compare", result_, "--data", tmp_.filePath("val.csv"), "--map", "z=y"});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("'z'") && unknown.err.contains("val.csv"), describe(unknown));

        // Bad arguments: exit 2, naming the option.
        for (const QStringList& args :
             {QStringList{"--initial", "fit"}, QStringList{"--initial", "model:3"},
              QStringList{"--initial", "estimate:-1"}, QStringList{"-o", tmp_.filePath("out.txt")}}) {
            const Run r = runSysid(QStringList{"compare", result_, "--data", tmp_.filePath("val.csv")} + args);
            QVERIFY2(r.exitCode == 2, describe(r));
            QVERIFY2(r.err.contains(args[0]), describe(r));
        }
        const Run noRecord = runSysid({"compare", result_});
        QCOMPARE(noRecord.exitCode, 2);
        QVERIFY2(noRecord.err.contains("--data"), describe(noRecord));
    }
};

QTEST_GUILESS_MAIN(TestCliCompare)
#include "test_cli_compare.moc"
