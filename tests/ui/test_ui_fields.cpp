// Number fields as a user types into them: scientific notation is kept as typed and reaches the
// project, an invalid entry is marked, explained and refused by Run; the filter panel offers a
// valid cutoff and readable plots; every estimator option explains itself.
#include "UiTestSupport.h"

#include "engine/data/CutoffSuggestion.h"
#include "engine/data/DataTable.h"
#include "ui/editor/ModelEditor.h"
#include "ui/editor/ProblemList.h"
#include "ui/main/MainWindow.h"
#include "ui/plots/CurvePlot.h"
#include "ui/plots/SpectrumPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/run/FitRunner.h"
#include "ui/settings/EstimatorPanel.h"
#include "ui/settings/FilterPanel.h"
#include "ui/settings/NumberField.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QMessageBox>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTextDocumentFragment>
#include <QtTest>

#include <cmath>
#include <functional>
#include <numbers>

using namespace sysid;
using ui::NumberField;

namespace {

// A tooltip as the user reads it (tooltips are rich text, so that they wrap).
QString plainToolTip(const QWidget* w)
{
    return QTextDocumentFragment::fromHtml(w->toolTip()).toPlainText();
}

// Replaces the field's text by typing, key by key, as a user does after selecting it.
void typeInto(QLineEdit* field, const QString& text)
{
    field->setFocus();
    field->selectAll();
    QTest::keyClicks(field, text);
}

// A record of 1 Hz and 30 Hz sines sampled at 100 Hz.
data::DataTable sineTable()
{
    data::DataTable t;
    t.source = "sine";
    t.columnNames = {"t", "y"};
    t.columns.resize(2);
    for (int i = 0; i < 1000; ++i) {
        const double time = i / 100.0;
        t.columns[0].push_back(time);
        t.columns[1].push_back(std::sin(2 * std::numbers::pi * time) +
                               0.3 * std::sin(2 * std::numbers::pi * 30.0 * time));
    }
    return t;
}

}  // namespace

class TestUiFields : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(QStringLiteral("sysid-fields-test")); }

    void numberFieldReadsWhatIsTyped()
    {
        QCOMPARE(NumberField::parse(QStringLiteral("1e-9")).value(), 1e-9);
        QCOMPARE(NumberField::parse(QStringLiteral("7e-6")).value(), 7e-6);
        QCOMPARE(NumberField::parse(QStringLiteral(" 0.000007 ")).value(), 7e-6);
        QCOMPARE(NumberField::parse(QStringLiteral("2.5E3")).value(), 2500.0);
        QCOMPARE(NumberField::parse(QStringLiteral("-.5")).value(), -0.5);
        for (const char* bad : {"", "1e-", "1e", "abc", "1,000", "1.2.3", "--1"})
            QVERIFY2(!NumberField::parse(QString::fromLatin1(bad)), bad);
        QCOMPARE(NumberField::format(1e-9), QStringLiteral("1e-09"));
        QCOMPARE(NumberField::parse(NumberField::format(0.1 + 0.2)).value(), 0.1 + 0.2);

        NumberField field(1e-6);
        field.setLabel(QStringLiteral("tolerance"));
        field.setRule(core::kPositive);
        QSignalSpy values(&field, &NumberField::valueChanged);
        QSignalSpy validity(&field, &NumberField::validityChanged);
        typeInto(&field, QStringLiteral("1e-"));
        QVERIFY(!field.isValid());
        QVERIFY(field.problem().contains(QStringLiteral("tolerance")));
        QVERIFY(field.styleSheet().contains(QStringLiteral("border")));
        QVERIFY(plainToolTip(&field).contains(QStringLiteral("\"1e-\" is not a number")));
        QCOMPARE(field.value(), 1.0);  // "1" was a complete number on the way
        // The value coming back (as the project echoes it) leaves the entry alone.
        field.setValue(1.0);
        QCOMPARE(field.text(), QStringLiteral("1e-"));
        QVERIFY(!field.isValid());
        QTest::keyClicks(&field, QStringLiteral("9"));
        QVERIFY(field.isValid());
        QCOMPARE(field.text(), QStringLiteral("1e-9"));
        QCOMPARE(field.value(), 1e-9);
        QVERIFY(field.styleSheet().isEmpty());
        QCOMPARE(values.count(), 2);  // 1, then 1e-9
        QCOMPARE(validity.count(), 2);
        field.setValue(1e-9);
        QCOMPARE(field.text(), QStringLiteral("1e-9"));  // not rewritten as "1e-09"
        // A rule broken: named with the rule.
        typeInto(&field, QStringLiteral("-3"));
        QCOMPARE(field.problem(), QStringLiteral("tolerance: -3 is not allowed; expected a number > 0"));
        QCOMPARE(field.value(), 1e-9);
        // A new value from outside replaces the text and clears the mark.
        field.setValue(0.25);
        QCOMPARE(field.text(), QStringLiteral("0.25"));
        QVERIFY(field.isValid());
    }

    // The estimator panel's real fields in the real window: what is typed is what the field shows
    // afterwards and what the project holds (and so what a fit runs with).
    void typedNumbersReachTheProjectAsTyped()
    {
        ui::MainWindow w;
        w.show();
        auto* panel = w.findChild<ui::EstimatorPanel*>();
        QVERIFY(panel);
        struct Case {
            NumberField* field;
            QString typed;
            double value;
            std::function<double(const estimate::FitSettings&)> stored;
        };
        const std::vector<Case> cases = {
            {panel->costToleranceEdit(), "1e-9", 1e-9, [](const auto& s) { return s.costTolerance; }},
            {panel->relativeToleranceEdit(), "1e-9", 1e-9,
             [](const auto& s) { return s.integrator.relativeTolerance; }},
            {panel->maxStepEdit(), "7e-6", 7e-6, [](const auto& s) { return s.integrator.maxStep; }},
            {panel->absoluteToleranceEdit(), "0.000007", 7e-6,
             [](const auto& s) { return s.integrator.absoluteTolerance; }},
            {panel->maxStepEdit(), "0.000007", 7e-6, [](const auto& s) { return s.integrator.maxStep; }},
            {panel->gradientToleranceEdit(), "2.5E-11", 2.5e-11, [](const auto& s) { return s.gradientTolerance; }},
        };
        for (const Case& c : cases) {
            typeInto(c.field, c.typed);
            QCOMPARE(c.field->text(), c.typed);
            QCOMPARE(c.stored(w.document()->settings()), c.value);
            QTest::keyClick(c.field, Qt::Key_Return);  // Enter, then another field takes the focus
            panel->stepToleranceEdit()->setFocus();
            QCOMPARE(c.field->text(), c.typed);
            QCOMPARE(c.stored(w.document()->settings()), c.value);
            QCOMPARE(c.stored(w.document()->makeFitJob().settings), c.value);
            QVERIFY(c.field->isValid());
        }
        QVERIFY(panel->isValid());
        w.document()->newFromModel(w.document()->modelText(), QStringLiteral("x.model"));  // nothing to save
    }

    // An invalid entry is marked and explained, the project keeps the last valid value, and Run
    // says what to correct instead of fitting.
    void invalidEntryBlocksRun()
    {
        ui::MainWindow w;
        w.show();
        auto* panel = w.findChild<ui::EstimatorPanel*>();
        QVERIFY(panel);
        NumberField* rtol = panel->relativeToleranceEdit();
        const double before = w.document()->settings().integrator.relativeTolerance;
        typeInto(rtol, QStringLiteral("1e-"));
        QVERIFY(!rtol->isValid());
        QVERIFY(rtol->styleSheet().contains(QStringLiteral("border")));
        QVERIFY2(plainToolTip(rtol).contains(QStringLiteral("relative tolerance")), qPrintable(plainToolTip(rtol)));
        QCOMPARE(rtol->text(), QStringLiteral("1e-"));
        QCOMPARE(w.document()->settings().integrator.relativeTolerance, 1.0);  // the complete "1" on the way
        QVERIFY(!panel->isValid());
        QCOMPARE(panel->inputProblems().size(), 1);

        QString shown;
        test::onNextModal([&shown](QWidget* modal) {
            auto* box = qobject_cast<QMessageBox*>(modal);
            QVERIFY(box);
            shown = box->text();
            box->accept();
        });
        w.runFit();
        QVERIFY(!w.runner()->isRunning());
        QVERIFY2(shown.contains(QStringLiteral("relative tolerance")) && shown.contains(QStringLiteral("1e-")),
                 qPrintable(shown));
        // Also a weight cell that is not a number, in the same table the project echoes into.
        QTableWidget* weights = panel->weightTable();
        QVERIFY(weights->rowCount() >= 1);
        weights->item(0, 1)->setText(QStringLiteral("heavy"));
        QCOMPARE(weights->item(0, 1)->text(), QStringLiteral("heavy"));  // kept through the round trip
        QCOMPARE(panel->inputProblems().size(), 2);
        weights->item(0, 1)->setText(QString());

        // Corrected: the fit starts.
        QTest::keyClicks(rtol, QStringLiteral("7"));
        QVERIFY(panel->isValid());
        QCOMPARE(w.document()->settings().integrator.relativeTolerance, 1e-7);
        QVERIFY(before != 1e-7);
        w.runFit();
        QVERIFY(w.runner()->isRunning());
        w.cancelFit();
        QTRY_VERIFY_WITH_TIMEOUT(!w.runner()->isRunning(), 5000);
        w.document()->newFromModel(w.document()->modelText(), QStringLiteral("x.model"));
    }

    // Switching the low-pass on gives a working filter at once: the cutoff offered comes from the
    // data (engine), below Nyquist; the plots keep a readable height in a narrow dock.
    void filterOffersAValidCutoffAndReadablePlots()
    {
        const data::DataTable table = sineTable();
        ui::FilterPanel panel;
        panel.setTable(&table);
        NumberField* cutoff = panel.cutoffField();
        QVERIFY(cutoff->isValid());
        QCOMPARE(cutoff->value(), data::suggestedLowPassCutoff(table).value());
        QVERIFY(cutoff->value() > 1.0 && cutoff->value() < 50.0);
        QVERIFY(plainToolTip(cutoff).contains(QStringLiteral("dominant")));
        QSignalSpy changed(&panel, &ui::FilterPanel::preprocessingChanged);
        panel.lowPassBox()->setChecked(true);
        QVERIFY(changed.count() >= 1);
        QVERIFY2(panel.errorText().isEmpty(), qPrintable(panel.errorText()));
        QVERIFY(panel.processedTable() != nullptr);
        QVERIFY(panel.preprocessing().lowPass.has_value());
        QCOMPARE(panel.preprocessing().lowPass->cutoffHz, cutoff->value());
        QVERIFY(panel.inputProblems().isEmpty());

        // A cutoff typed in scientific notation; an invalid one is named with the engine's rule.
        typeInto(cutoff, QStringLiteral("2e1"));
        QCOMPARE(panel.preprocessing().lowPass->cutoffHz, 20.0);
        typeInto(cutoff, QStringLiteral("0"));
        QVERIFY(!cutoff->isValid());
        QCOMPARE(panel.inputProblems().size(), 1);
        QVERIFY2(panel.inputProblems().front().contains(QStringLiteral("a finite frequency > 0")),
                 qPrintable(panel.inputProblems().front()));
        panel.lowPassBox()->setChecked(false);  // not used: not a problem
        QVERIFY(panel.inputProblems().isEmpty());

        // A project without a low-pass keeps the offered cutoff in the field.
        panel.setPreprocessing(data::Preprocessing{});
        QVERIFY(cutoff->isValid() && cutoff->value() > 0);

        // At a dock's width, each plot keeps its minimum height and the whole width.
        panel.resize(320, panel.minimumSizeHint().height());
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY2(panel.signalPlot()->height() >= ui::FilterPanel::kPlotMinimumHeight,
                 qPrintable(QString::number(panel.signalPlot()->height())));
        QVERIFY(panel.spectrumPlot()->height() >= ui::FilterPanel::kPlotMinimumHeight);
        QVERIFY2(panel.signalPlot()->width() >= 280, qPrintable(QString::number(panel.signalPlot()->width())));
    }

    // Every estimator option says what it does (the engine's help, or the choice's description),
    // in the product's words.
    void everyEstimatorOptionHasATooltip()
    {
        ui::EstimatorPanel panel;
        for (int m = 0; m < panel.methodCombo()->count(); ++m) {
            panel.methodCombo()->setCurrentIndex(m);
            const QString method = panel.methodCombo()->currentText();
            QList<QWidget*> controls;
            for (auto* w : panel.findChildren<QComboBox*>())
                controls << w;
            for (auto* w : panel.findChildren<QAbstractSpinBox*>())
                controls << w;
            for (auto* w : panel.findChildren<QLineEdit*>())
                if (!qobject_cast<QAbstractSpinBox*>(w->parentWidget()) && !qobject_cast<QComboBox*>(w->parentWidget()))
                    controls << w;
            for (auto* w : panel.findChildren<QCheckBox*>())
                controls << w;
            for (auto* w : panel.findChildren<QTableWidget*>())
                controls << w;
            for (QWidget* w : controls) {
                if (!w->isVisibleTo(&panel) || w->objectName() == QStringLiteral("qt_spinbox_lineedit"))
                    continue;
                QVERIFY2(!plainToolTip(w).isEmpty(),
                         qPrintable(QStringLiteral("%1: %2 (%3) has no tooltip")
                                        .arg(method, w->objectName(), w->metaObject()->className())));
                QVERIFY2(!plainToolTip(w).contains(QStringLiteral("seed 0")), qPrintable(plainToolTip(w)));
            }
        }
        // The help comes from the engine's table, the rule with it.
        QVERIFY2(plainToolTip(panel.relativeToleranceEdit()).contains(QStringLiteral("a number > 0")),
                 qPrintable(plainToolTip(panel.relativeToleranceEdit())));
        QVERIFY(plainToolTip(panel.relativeToleranceEdit()).contains(QStringLiteral("--rtol")));
        // A combo shows what its current choice does.
        panel.methodCombo()->setCurrentIndex(
            panel.methodCombo()->findData(static_cast<int>(estimate::EstimationMethod::MultipleShooting)));
        QVERIFY2(plainToolTip(panel.methodCombo()).contains(QStringLiteral("Bock 1983")),
                 qPrintable(plainToolTip(panel.methodCombo())));
    }

    // The model's first problem is in the status bar and every problem in the list under the editor.
    void modelProblemsInTheWindow()
    {
        ui::MainWindow w;
        w.show();
        auto* editor = w.findChild<ui::ModelEditor*>();
        auto* problems = w.findChild<ui::ProblemList*>();
        QVERIFY(editor && problems);
        const QString valid = editor->toPlainText();
        QVERIFY(problems->isHidden());
        editor->setPlainText(QStringLiteral("param a = 0.1\nstate y = 1\ny' = a*foo + 1\noutput y\n"));
        QTRY_VERIFY2(w.statusBar()->currentMessage().startsWith(QStringLiteral("Model: line 3, column 8: ")),
                     qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(problems->isVisible());
        QCOMPARE(problems->count(), 1);
        editor->setPlainText(valid);
        QTRY_VERIFY(!w.statusBar()->currentMessage().startsWith(QStringLiteral("Model: ")));
        QVERIFY(problems->isHidden());
        w.document()->newFromModel(valid, QStringLiteral("x.model"));
    }
};

QTEST_MAIN(TestUiFields)
#include "test_ui_fields.moc"
