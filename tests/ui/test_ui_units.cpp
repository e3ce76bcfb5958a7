// Units written in the model (`param m = 1 unit kg`, `output s unit m`) show where a user reads
// values: the parameter table (and editing a unit rewrites the param line), the output and phase
// portrait axes, the results table and the parameter history legend.
#include "UiTestSupport.h"

#include "ui/editor/ModelEditor.h"
#include "ui/editor/ParameterTable.h"
#include "ui/main/MainWindow.h"
#include "ui/plots/ParameterHistoryPlot.h"
#include "ui/plots/PhasePortraitPlot.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ResultsPanel.h"
#include "ui/run/FitRunner.h"

#include <QTabWidget>
#include <QtTest>

using namespace sysid;
using sysid::test::examplePath;

namespace {

ui::PhasePortraitPlot* phasePlot(ui::MainWindow& w)
{
    auto* tabs = w.findChild<QTabWidget*>();
    for (int i = 0; tabs && i < tabs->count(); ++i)
        if (tabs->tabText(i) == QStringLiteral("Phase portrait"))
            return qobject_cast<ui::PhasePortraitPlot*>(tabs->widget(i));
    return nullptr;
}

QString unitCell(const ui::ParameterTable& table, const std::string& name)
{
    const QTableWidgetItem* item = table.item(table.rowOf(name), ui::ParameterTable::UnitColumn);
    return item ? item->text() : QStringLiteral("<no cell>");
}

// The line of the editor's text that starts with `start`.
QString lineStarting(const ui::MainWindow& w, const QString& start)
{
    for (const QString& line : w.modelEditor()->toPlainText().split(QLatin1Char('\n')))
        if (line.startsWith(start))
            return line;
    return QStringLiteral("<no line starting with %1>").arg(start);
}

}  // namespace

class TestUiUnits : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(); }

    void tableAndAxesShowTheModelsUnits()
    {
        ui::MainWindow w(examplePath(QStringLiteral("mass_spring_damper.sysid")));
        auto* table = w.findChild<ui::ParameterTable*>();
        QVERIFY(table);
        QCOMPARE(table->horizontalHeaderItem(ui::ParameterTable::UnitColumn)->text(), QStringLiteral("Unit"));
        QCOMPARE(unitCell(*table, "m"), QStringLiteral("kg"));
        QCOMPARE(unitCell(*table, "b"), QStringLiteral("N*s/m"));
        QCOMPARE(unitCell(*table, "k"), QStringLiteral("N/m"));

        QCOMPARE(w.outputPlot(0)->yAxisLabel(), QStringLiteral("s [m]"));
        auto* phase = phasePlot(w);
        QVERIFY(phase);
        QCOMPARE(phase->xAxisLabel(), QStringLiteral("s [m]"));
        QCOMPARE(phase->yAxisLabel(), QStringLiteral("s'"));  // no unit algebra for the velocity
    }

    void editingTheUnitCellRewritesTheParamLine()
    {
        ui::MainWindow w(examplePath(QStringLiteral("mass_spring_damper.sysid")));
        auto* table = w.findChild<ui::ParameterTable*>();
        QVERIFY(table);
        table->item(table->rowOf("k"), ui::ParameterTable::UnitColumn)->setText(QStringLiteral(" kN/m "));
        const QString k = lineStarting(w, QStringLiteral("param k = "));
        QVERIFY2(k.endsWith(QStringLiteral(" [0, 100] unit kN/m")), qPrintable(k));
        QVERIFY(QTest::qWaitFor([&] { return unitCell(*table, "k") == QStringLiteral("kN/m"); }, 5000));
        // Clearing it drops the clause; a comment in the cell is refused (the line keeps its unit).
        table->item(table->rowOf("m"), ui::ParameterTable::UnitColumn)->setText(QStringLiteral("kg # mass"));
        QVERIFY2(lineStarting(w, QStringLiteral("param m = ")).endsWith(QStringLiteral(" [0.01, 100] unit kg")),
                 qPrintable(lineStarting(w, QStringLiteral("param m = "))));
        QCOMPARE(unitCell(*table, "m"), QStringLiteral("kg"));
        table->item(table->rowOf("m"), ui::ParameterTable::UnitColumn)->setText(QString());
        QVERIFY2(lineStarting(w, QStringLiteral("param m = ")).endsWith(QStringLiteral(" [0.01, 100]")),
                 qPrintable(lineStarting(w, QStringLiteral("param m = "))));
        // The output's unit follows the model text.
        QVERIFY(QTest::qWaitFor([&] { return unitCell(*table, "m").isEmpty(); }, 5000));
        QString text = w.modelEditor()->toPlainText();
        text.replace(QStringLiteral("output s unit m"), QStringLiteral("output s unit mm"));
        table->replaceEditorText(text);
        QVERIFY(QTest::qWaitFor([&] { return w.outputPlot(0)->yAxisLabel() == QStringLiteral("s [mm]"); }, 5000));
        QCOMPARE(w.outputPlot(0)->yAxisLabel(), QStringLiteral("s [mm]"));
    }

    void rewritingAParameterKeepsItsUnit()
    {
        model::Parameter p;
        p.name = "M";
        p.value = 90;
        p.lower = 10;
        p.upper = 500;
        p.unit = "kg*m^2";
        QCOMPARE(ui::ParameterTable::rewriteParameterLine(
                     QStringLiteral("param M = 80 [10, 500] unit kg*m^2   # inertia\nstate y\n"), p),
                 QStringLiteral("param M = 90 [10, 500] unit kg*m^2   # inertia\nstate y\n"));
    }

    void fitResultsCarryTheUnits()
    {
        ui::MainWindow w(examplePath(QStringLiteral("mass_spring_damper.sysid")));
        w.runFit();
        QVERIFY(QTest::qWaitFor([&] { return !w.runner()->isRunning(); }, 120000));
        QVERIFY(w.document()->result().has_value());
        const QTableWidget* results = w.resultsPanel()->parameterTable();
        QStringList units;
        for (int r = 0; r < results->rowCount(); ++r)
            units << results->item(r, ui::ResultsPanel::ColName)->text() + QLatin1Char('=') +
                    results->item(r, ui::ResultsPanel::ColUnit)->text();
        units.sort();
        QCOMPARE(units, (QStringList{QStringLiteral("b=N*s/m"), QStringLiteral("k=N/m"), QStringLiteral("m=kg")}));
        const ui::ParameterHistoryPlot* history = w.parameterPlot();
        const int m = static_cast<int>(history->parameterNames().indexOf(QStringLiteral("m")));
        QVERIFY(m >= 0);
        QVERIFY2(history->legendName(m).contains(QStringLiteral("kg")), qPrintable(history->legendName(m)));
    }
};

QTEST_MAIN(TestUiUnits)
#include "test_ui_units.moc"
