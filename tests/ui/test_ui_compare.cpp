// The Compare models window: the project's result and a result file side by side on a data set of
// the project, computed on the worker thread by the engine, shown as a table, the outputs over the
// data and the residuals.
#include "UiTestSupport.h"

#include "engine/job/FitJob.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"
#include "engine/project/ResultJson.h"

#include "ui/main/MainWindow.h"
#include "ui/plots/CurvePlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ModelComparisonWindow.h"
#include "ui/run/FitRunner.h"
#include "ui/run/ModelComparisonRunner.h"

#include <QComboBox>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace sysid;

namespace {

// The example's model with the cubic term dropped (k3 = 0 fixed): one parameter fewer, and it
// cannot follow the cubic data.
std::string linearModel(const std::string& cubic)
{
    std::string text = cubic;
    const auto at = text.find("param k3 = 2.5 [-20, 20]");
    if (at == std::string::npos)
        qFatal("sdof_cubic.model changed");
    text.replace(at, std::string("param k3 = 2.5 [-20, 20]").size(), "param k3 = 0 fixed");
    return text;
}

}  // namespace

class TestUiCompare : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(QStringLiteral("sysid-compare-test")); }

    void twoModelsSideBySide()
    {
        QTemporaryDir dir;
        // A result file of the linear model on the project's data, as sysid fit writes it.
        const project::Project project = project::loadProject(test::examplePath("sdof_cubic.sysid").toStdString());
        job::FitJob fit = project::makeFitJob(project);
        fit.modelText = linearModel(project.modelText);
        fit.parameterValues.erase("k3");
        job::NullProgressSink sink;
        const estimate::FitResult linear = fit.run(sink);
        QVERIFY(linear.converged());
        nlohmann::json json = project::resultToJson(linear);
        json["model"] = {{"file", "sdof_linear.model"}, {"text", fit.modelText}};
        const QString resultFile = dir.filePath("linear.json");
        QVERIFY(test::writeFile(resultFile, QByteArray::fromStdString(json.dump(2))));

        ui::MainWindow w(test::examplePath("sdof_cubic.sysid"));
        w.runFit();
        QTRY_VERIFY_WITH_TIMEOUT(!w.runner()->isRunning() && w.document()->result().has_value(), 60000);
        ui::ModelComparisonWindow* c = w.showModelComparison();
        QCOMPARE(c->modelCount(), 1);  // the project's result, added when the window opens
        QString error;
        QVERIFY(!c->addFile(dir.filePath("nothing.json"), &error));
        QVERIFY2(error.contains(QStringLiteral("nothing.json")), qPrintable(error));
        QVERIFY2(c->addFile(resultFile, &error), qPrintable(error));
        QCOMPARE(c->modelCount(), 2);
        QCOMPARE(c->recordCombo()->count(), w.document()->dataSetCount());

        QSignalSpy compared(c, &ui::ModelComparisonWindow::compared);
        c->compareButton()->click();
        QVERIFY(!c->compareButton()->isEnabled());  // on the worker thread
        QTRY_VERIFY_WITH_TIMEOUT(compared.count() == 1, 60000);
        QVERIFY(c->compareButton()->isEnabled());
        const auto& result = *c->comparison();
        QCOMPARE(result.models.size(), std::size_t(2));
        QVERIFY2(result.models[0].comparison && result.models[1].comparison, qPrintable(c->statusText()));
        QCOMPARE(result.models[0].parameters, w.document()->result()->parameters.size());
        QCOMPARE(result.models[1].parameters, linear.parameters.size());
        // The cubic model fits the cubic data: the lowest cost and AIC, marked in the table.
        QCOMPARE(result.best(), std::optional<std::size_t>(0));
        QVERIFY(result.models[0].cost < result.models[1].cost);
        QCOMPARE(c->table()->rowCount(), 2);
        QCOMPARE(c->table()->horizontalHeaderItem(5)->text(), QStringLiteral("AIC"));
        QVERIFY(c->table()->item(0, 0)->font().bold());
        QVERIFY(!c->table()->item(1, 0)->font().bold());
        QCOMPARE(c->table()->item(1, 2)->text(), QString::number(linear.parameters.size()));
        QVERIFY(c->statusText().contains(QStringLiteral("Lowest AIC")));
        // The outputs over the data, the residuals of each model.
        QCOMPARE(c->outputCombo()->currentText(), QStringLiteral("u"));
        QCOMPARE(c->outputPlot()->curveNames().size(), 3);
        QVERIFY(c->outputPlot()->curveNames().contains(QStringLiteral("measured")));
        QCOMPARE(c->residualPlot()->curveNames().size(), 3);  // the zero line and each model's residuals
        QCOMPARE(c->residualPlot()->curvePointCount(QStringLiteral("linear.json")),
                 static_cast<int>(result.models[1].comparison->simulation.times.size()));

        // Removing a model, and comparing nothing, say so instead of running.
        c->removeModel(1);
        c->removeModel(0);
        QCOMPARE(c->modelCount(), 0);
        c->compare();
        QVERIFY(!c->runner()->isRunning());
        QVERIFY(c->statusText().contains(QStringLiteral("Add the fitted models")));
    }
};

QTEST_MAIN(TestUiCompare)
#include "test_ui_compare.moc"
