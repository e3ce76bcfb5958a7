// The data manager (ui/data/DataManagerDialog): rename, remap (an invalid mapping refused with a
// message), exclude and keep for validation, each one undo step of the document; a fit ignores
// excluded and validation data sets and shows the model at the estimate on the validation one with
// its residual RMS; the Outputs page plots the record's inputs on the outputs' time axis.
#include "UiTestSupport.h"

#include <QAction>
#include <QComboBox>
#include <QMenu>
#include <QSignalSpy>
#include <QLabel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include "engine/data/CsvReader.h"
#include "engine/project/ProjectJob.h"
#include "ui/data/DataManagerDialog.h"
#include "ui/data/ExperimentList.h"
#include "ui/main/FitController.h"
#include "ui/main/MainWindow.h"
#include "ui/plots/CurvePlot.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ResultsPanel.h"
#include "ui/run/FitRunner.h"
#include "ui/run/ValidationRunner.h"

#include <cmath>
#include <memory>

using namespace sysid;
using sysid::test::examplePath;
using sysid::test::writeFile;

namespace {

// The mass-spring-damper record with its force column called "force" (the model's input is u).
QString writeRenamedRecord(const QTemporaryDir& tmp)
{
    const QStringList lines =
        QString::fromUtf8(test::readFile(examplePath(QStringLiteral("data/mass_spring_damper_measured.csv"))))
            .split(QLatin1Char('\n'));
    QByteArray csv;
    for (const QString& line : lines) {
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        csv += (line.startsWith(QStringLiteral("t,")) ? QStringLiteral("t,force,s") : line).toUtf8() + "\n";
    }
    const QString path = tmp.filePath(QStringLiteral("renamed.csv"));
    return writeFile(path, csv) ? path : QString();
}

// A record at rest with the output far from any the model gives: a fit that used it would be spoilt.
QString writeStillRecord(const QTemporaryDir& tmp)
{
    QByteArray csv = "t,u,s\n";
    for (int i = 0; i <= 100; ++i)
        csv += QByteArray::number(0.1 * i) + ",0,5\n";
    const QString path = tmp.filePath(QStringLiteral("still.csv"));
    return writeFile(path, csv) ? path : QString();
}

void addRecord(ui::ProjectDocument& document, const QString& path, const std::string& name = {})
{
    project::Project::DataSet set;
    set.path = path.toStdString();
    set.name = name;
    document.addDataSet(set, data::readCsv(set.path));
}

QComboBox* mappingCombo(ui::DataManagerDialog& dialog, const QString& name)
{
    return dialog.findChild<QComboBox*>(QStringLiteral("mapping_") + name);
}

}  // namespace

class TestUiDataManager : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(); }

    void renameRemapExcludeAndUndo()
    {
        QTemporaryDir tmp;
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(examplePath(QStringLiteral("mass_spring_damper.sysid")), &error), qPrintable(error));
        const project::Project::DataSet original = document.dataSet(0);
        addRecord(document, writeRenamedRecord(tmp));
        QCOMPARE(document.dataSetCount(), 2);
        document.setResult(estimate::FitResult{});
        QVERIFY(document.resultOutOfDate().isEmpty());

        ui::DataManagerDialog dialog(&document);
        auto* table = dialog.findChild<QTableWidget*>(QStringLiteral("dataSetTable"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 2);
        QUndoStack* undo = document.undoStack();
        QCOMPARE(undo->count(), 0);

        // Rename: one step; the fit's problem is the same, so the result stays current.
        table->item(0, 0)->setText(QStringLiteral("bench run"));
        QCOMPARE(document.dataSet(0).name, std::string("bench run"));
        QCOMPARE(undo->count(), 1);
        QVERIFY(document.resultOutOfDate().isEmpty());

        // The renamed record's input has no column of its name: applying is refused with a message.
        dialog.selectDataSet(1);
        QCOMPARE(dialog.selectedDataSet(), 1);
        QComboBox* input = mappingCombo(dialog, QStringLiteral("u"));
        QVERIFY(input);
        QCOMPARE(input->currentText(), QStringLiteral("(choose a column)"));
        QVERIFY(!dialog.applyMapping());
        QVERIFY2(dialog.message().contains(QStringLiteral("input u has no column")), qPrintable(dialog.message()));
        QVERIFY2(dialog.message().contains(QStringLiteral("force")), qPrintable(dialog.message()));
        QVERIFY(document.dataSet(1).mapping.empty());
        QCOMPARE(undo->count(), 1);
        // Mapped to the file's column: applied as one step, and the result is out of date.
        input->setCurrentIndex(input->findText(QStringLiteral("force")));
        QVERIFY(dialog.message().isEmpty());
        QVERIFY(dialog.applyMapping());
        QCOMPARE(document.dataSet(1).mapping, (std::map<std::string, std::string>{{"u", "force"}}));
        QCOMPARE(undo->count(), 2);
        QVERIFY(!document.resultOutOfDate().isEmpty());
        QCOMPARE(project::makeFitJob(document.project()).experiments.size(), std::size_t(2));

        // A mapping naming a column the file lacks is shown as such and refused.
        document.setMapping(1, {{"u", "forse"}});
        input = mappingCombo(dialog, QStringLiteral("u"));
        QCOMPARE(input->currentText(), QStringLiteral("forse (not in the file)"));
        QVERIFY(!dialog.applyMapping());
        QVERIFY2(dialog.message().contains(QStringLiteral("column 'forse' is not a signal of renamed.csv")),
                 qPrintable(dialog.message()));
        undo->undo();
        QCOMPARE(document.dataSet(1).mapping, (std::map<std::string, std::string>{{"u", "force"}}));

        // Exclude the first, keep the second for validation: nothing is left to fit, and the fit says so.
        table->item(0, 1)->setCheckState(Qt::Unchecked);
        QVERIFY(!document.dataSet(0).included);
        QCOMPARE(document.makeFitJob().experiments.size(), std::size_t(1));
        auto* role = dialog.findChild<QComboBox*>(QStringLiteral("roleCombo1"));
        QVERIFY(role);
        role->setCurrentIndex(role->findData(static_cast<int>(project::DataRole::Validation)));
        QVERIFY(document.dataSet(1).role == project::DataRole::Validation);
        QVERIFY_THROWS_EXCEPTION(job::JobError, (void)document.makeFitJob());
        QCOMPARE(undo->count(), 4);

        // Undo restores each step in turn, back to the data sets as they were loaded.
        undo->undo();
        QVERIFY(document.dataSet(1).role == project::DataRole::Estimation);
        undo->undo();
        QVERIFY(document.dataSet(0).included);
        QCOMPARE(table->item(0, 1)->checkState(), Qt::Checked);
        undo->undo();
        QVERIFY(document.dataSet(1).mapping.empty());
        undo->undo();
        QCOMPARE(document.dataSet(0).name, original.name);
        QCOMPARE(table->item(0, 0)->text(), QString::fromStdString(original.name));
        QCOMPARE(document.dataSet(0).mapping, original.mapping);
        QVERIFY(!undo->canUndo());
        undo->redo();
        QCOMPARE(document.dataSet(0).name, std::string("bench run"));
    }

    void dataListShowsRoleAndInclusion()
    {
        QTemporaryDir tmp;
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(examplePath(QStringLiteral("mass_spring_damper.sysid")), &error), qPrintable(error));
        addRecord(document, writeStillRecord(tmp));
        addRecord(document, writeRenamedRecord(tmp), "bench");
        document.setDataSetIncluded(1, false);
        document.setDataSetRole(2, project::DataRole::Validation);
        ui::ExperimentList list;
        QSignalSpy manage(&list, &ui::ExperimentList::manageRequested);
        list.showDataSets(document);
        QCOMPARE(list.count(), 3);
        QCOMPARE(list.item(0)->text(), QStringLiteral("sum-of-sines actuator force, 2 % noise"));
        QCOMPARE(list.item(1)->text(), QStringLiteral("still.csv (excluded)"));
        QCOMPARE(list.item(2)->text(), QStringLiteral("bench (validation)"));
        QVERIFY(list.item(1)->foreground() != list.item(0)->foreground());
        // The context menu and a double click open the data manager on that data set.
        std::unique_ptr<QMenu> menu(list.createContextMenu(list.visualItemRect(list.item(2)).center()));
        QVERIFY(menu);
        auto* action = menu->findChild<QAction*>(QStringLiteral("manageDataSetsAction"));
        QVERIFY(action);
        action->trigger();
        emit list.itemDoubleClicked(list.item(1));
        QCOMPARE(manage.count(), 2);
        QCOMPARE(manage.at(0).at(0).toInt(), 2);
        QCOMPARE(manage.at(1).at(0).toInt(), 1);
    }

    void fitIgnoresExcludedDataAndValidatesOnTheValidationSet()
    {
        QTemporaryDir tmp;
        ui::MainWindow w(examplePath(QStringLiteral("mass_spring_damper.sysid")));
        ui::ProjectDocument* document = w.document();
        QCOMPARE(document->dataSetCount(), 1);
        const std::string measured = document->dataSet(0).path;
        addRecord(*document, writeStillRecord(tmp), "at rest");
        addRecord(*document, QString::fromStdString(measured), "same record, for validation");
        document->setDataSetIncluded(1, false);
        document->setDataSetRole(2, project::DataRole::Validation);
        QCOMPARE(document->makeFitJob().experiments.size(), std::size_t(1));

        auto* controller = w.findChild<ui::FitController*>();
        QVERIFY(controller);
        w.runFit();
        QTRY_VERIFY_WITH_TIMEOUT(!w.runner()->isRunning() && document->result().has_value(), 60000);
        // The estimate of the example alone (the record at rest would pull it far from m = b = k = 1).
        for (const auto& p : document->result()->parameters)
            QVERIFY2(std::abs(p.value - 1) < 0.01, p.name.c_str());
        const double fitRms = document->result()->residualRms.at(0);

        // The validation set (the same record) gets the model at the estimate, and the same residual RMS.
        QTRY_VERIFY_WITH_TIMEOUT(!controller->validationRunner()->isRunning(), 30000);
        document->setCurrentDataSet(2);
        ui::TimeSeriesPlot* plot = w.outputPlot(0);
        QVERIFY(plot->modelCount() > 0);
        QVERIFY2(plot->notice().startsWith(QStringLiteral("Validation data: fit ")), qPrintable(plot->notice()));
        QVERIFY2(plot->notice().contains(QStringLiteral("residual RMS")), qPrintable(plot->notice()));
        const double shown = plot->notice().section(QLatin1Char(' '), -1).toDouble();
        QVERIFY2(std::abs(shown / fitRms - 1) < 1e-3, qPrintable(plot->notice() + QString::number(fitRms)));
        // Its fit percentage, and the same in the results' summary (the record fits as well as the fitted one).
        const double percent =
            plot->notice().section(QStringLiteral("fit "), 1).section(QLatin1Char(' '), 0, 0).toDouble();
        QVERIFY2(percent > 95 && percent < 100, qPrintable(plot->notice()));
        const QString summary = w.findChild<ui::ResultsPanel*>()->summaryLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral("Validation")) &&
                     summary.contains(QStringLiteral("same record, for validation: s rmse")),
                 qPrintable(summary));
        // The excluded record has no model response.
        document->setCurrentDataSet(1);
        QCOMPARE(plot->modelCount(), 0);
    }

    void inputsArePlottedUnderTheOutputs()
    {
        ui::MainWindow w(examplePath(QStringLiteral("mass_spring_damper.sysid")));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* inputs = w.findChild<ui::CurvePlot*>(QStringLiteral("inputsPlot"));
        QVERIFY(inputs);
        QCOMPARE(inputs->curveNames(), QStringList{QStringLiteral("u")});
        const data::DataTable* table = w.document()->fittedTable(0);
        QVERIFY(table);
        QCOMPARE(inputs->curvePointCount(QStringLiteral("u")), static_cast<int>(table->rowCount()));
        QCOMPARE(inputs->valueNear(QStringLiteral("u"), table->time()[10]), table->column("u")[10]);
        QCOMPARE(inputs->xAxisLabel(), w.outputPlot(0)->xAxisLabel());
        // One time axis: the outputs' range is the inputs'.
        QTRY_COMPARE(inputs->horizontalRange(), w.outputPlot(0)->horizontalRange());
        // A model without inputs has no inputs plot.
        w.document()->newFromModel(QStringLiteral("param c = 0.1\nx'' = -c*x' - x\nx(0) = 1, 0\noutput x\n"),
                                   QStringLiteral("osc.model"));
        QVERIFY(!w.findChild<ui::CurvePlot*>(QStringLiteral("inputsPlot")));
    }
};

QTEST_MAIN(TestUiDataManager)
#include "test_ui_datamanager.moc"
