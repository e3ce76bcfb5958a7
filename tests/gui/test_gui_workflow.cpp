// A user's first fit in sysid-gui, in a real X server (1366x768) under a window manager, with
// clicks and keystrokes sent through the X server: numbers typed into the estimator's fields stay
// as typed, the plotted residuals are those of the reported residual RMS, the Results panel's
// "Update model with estimates" makes the next fit start from the estimates, the report is one
// document in the folder typed into its dialog, and File ▸ New
// (Ctrl+N) leaves no plot of the previous project behind.
#include "UserActions.h"
#include "XSession.h"

#include "../ui/UiTestSupport.h"

#include "ui/editor/ModelEditor.h"
#include "ui/main/ExportActions.h"
#include "ui/main/MainWindow.h"
#include "ui/main/RunToolBar.h"
#include "ui/plots/CostPlot.h"
#include "ui/plots/ParameterHistoryPlot.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ResultsPanel.h"
#include "ui/run/FitRunner.h"
#include "ui/settings/EstimatorPanel.h"
#include "ui/settings/NumberField.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QTableWidget>
#include <QToolButton>
#include <QtTest>

#include <cmath>
#include <functional>
#include <memory>

using namespace sysid;

namespace {

double rms(const std::vector<double>& values)
{
    double sum = 0.0;
    for (double v : values)
        sum += v * v;
    return std::sqrt(sum / static_cast<double>(values.size()));
}

}  // namespace

class TestGuiWorkflow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        test::XSession* session = test::XSession::current();
        if (!session || !session->installed())
            QSKIP("Xvfb is not installed: the tests in a real X server need it (install-deps.sh installs it)");
        QVERIFY2(session->error().isEmpty(), qPrintable(session->error()));
        test::useTestSettings(QStringLiteral("sysid-gui-workflow-test"));
        window_ = std::make_unique<ui::MainWindow>(test::examplePath(QStringLiteral("sdof_cubic.sysid")));
        connect(window_->runner(), &ui::FitRunner::finished, this, [this] { ++fitsFinished_; });
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get(), 10000));
        QTRY_VERIFY_WITH_TIMEOUT(window_->isMaximized(), 5000);
        window_->activateWindow();
        QTRY_VERIFY_WITH_TIMEOUT(window_->isActiveWindow(), 5000);
        QTest::qWait(300);  // the maximised layout settles
    }

    void cleanupTestCase() { window_.reset(); }  // no close(): it would ask to save

    // "1e-9" once became 19 and "7e-6" 76, as every keystroke was rewritten by the document.
    void typedNumbersStayAsTyped()
    {
        ui::EstimatorPanel* panel = window_->estimatorPanel();
        struct Case {
            ui::NumberField* field;
            QString typed;
            double value;
            std::function<double(const estimate::FitSettings&)> setting;
        };
        const std::vector<Case> cases = {
            {panel->costToleranceEdit(), QStringLiteral("1e-9"), 1e-9,
             [](const estimate::FitSettings& s) { return s.costTolerance; }},
            {panel->maxStepEdit(), QStringLiteral("7e-6"), 7e-6,
             [](const estimate::FitSettings& s) { return s.integrator.maxStep; }},
            {panel->maxStepEdit(), QStringLiteral("0.000007"), 7e-6,
             [](const estimate::FitSettings& s) { return s.integrator.maxStep; }},
        };
        const QString maxStepBefore = panel->maxStepEdit()->text();
        for (const Case& c : cases) {
            test::scrollIntoView(c.field);
            QTest::qWait(50);
            const QString hidden = test::notSeen(c.field, window_->screen()->geometry());
            QVERIFY2(hidden.isEmpty(), qPrintable(c.field->objectName() + QLatin1Char(' ') + hidden));
            QString message;
            QVERIFY2(test::typeInto(c.field, c.typed, &message), qPrintable(message));
            QTRY_COMPARE_WITH_TIMEOUT(c.field->text(), c.typed, 5000);
            QVERIFY(c.field->isValid());
            QCOMPARE(c.setting(window_->document()->settings()), c.value);
        }
        // Back to no limit on the step, which the fits below need to be quick.
        QString message;
        QVERIFY2(test::typeInto(panel->maxStepEdit(), maxStepBefore, &message), qPrintable(message));
        QTRY_COMPARE_WITH_TIMEOUT(panel->maxStepEdit()->text(), maxStepBefore, 5000);
    }

    // What the outputs plot shows as residuals is what the fit reports as the residual RMS.
    void plottedResidualsAreTheReportedOnes()
    {
        clickRunAndWait();
        const estimate::FitResult& result = *window_->document()->result();
        QVERIFY2(result.converged(), result.termination.message.c_str());
        for (std::size_t k = 0; k < result.residualRms.size(); ++k) {
            const ui::TimeSeriesPlot* plot = window_->outputPlot(static_cast<int>(k));
            QVERIFY(plot);
            const double plotted = rms(plot->residualValues());
            const double reported = result.residualRms[k];
            QVERIFY2(std::abs(plotted - reported) <= 1e-12 * reported,
                     qPrintable(QStringLiteral("output %1: plotted residual RMS %2, reported %3")
                                    .arg(k)
                                    .arg(plotted, 0, 'g', 17)
                                    .arg(reported, 0, 'g', 17)));
        }
    }

    // The Results panel's button writes the estimates into the model; the next fit starts there.
    void theNextFitStartsFromTheEstimates()
    {
        const estimate::FitResult first = *window_->document()->result();
        auto* button = window_->resultsPanel()->findChild<QPushButton*>(QStringLiteral("updateModelActionButton"));
        QVERIFY(button);
        const QString hidden = test::notSeen(button, window_->screen()->geometry());
        QVERIFY2(hidden.isEmpty(), qPrintable(QStringLiteral("Update model button ") + hidden));
        QVERIFY(button->isEnabled());
        const QString before = window_->modelEditor()->toPlainText();
        QString message;
        QVERIFY2(test::clickOn(button, &message), qPrintable(message));
        QTRY_VERIFY_WITH_TIMEOUT(window_->modelEditor()->toPlainText() != before, 5000);
        clickRunAndWait();
        const estimate::FitResult& second = *window_->document()->result();
        QCOMPARE(second.parameters.size(), first.parameters.size());
        for (std::size_t i = 0; i < first.parameters.size(); ++i) {
            QCOMPARE(second.parameters[i].name, first.parameters[i].name);
            QCOMPARE(second.parameters[i].initial, first.parameters[i].value);
        }
    }

    // File ▸ Export ▸ Report: the folder named in the dialog by typing holds one HTML document,
    // its figures and the PDF.
    void theReportIsOneDocument()
    {
        QTemporaryDir tmp;
        const QString folder = tmp.filePath(QStringLiteral("first report"));
        auto* exports = window_->findChild<ui::ExportActions*>();
        QVERIFY(exports);
        QString typed;
        test::onNextModal([&typed, folder](QWidget* modal) {
            auto* name = modal->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
            if (!name) {
                modal->close();
                return;
            }
            name->setFocus();
            QString message;
            if (!test::pressKeys(QStringLiteral("ctrl+a"), &message) ||
                !test::XSession::current()->xdotool(
                    {QStringLiteral("type"), QStringLiteral("--delay"), QStringLiteral("20"), folder}, &message) ||
                !test::pressKeys(QStringLiteral("Return"), &message))
                modal->close();
            typed = name->text();
        });
        exports->exportReport();
        const QDir dir(folder);
        QTRY_VERIFY2_WITH_TIMEOUT(dir.exists(QStringLiteral("report.pdf")), qPrintable(typed), 20000);
        const QString html = QString::fromUtf8(test::readFile(dir.filePath(QStringLiteral("report.html"))));
        QCOMPARE(html.count(QStringLiteral("<html")), 1);
        QCOMPARE(html.count(QStringLiteral("</html>")), 1);
        QVERIFY(test::readFile(dir.filePath(QStringLiteral("report.pdf"))).startsWith("%PDF-"));
        const QRegularExpression image(QStringLiteral("<img src=\"([^\"]+)\""));
        int images = 0;
        for (auto it = image.globalMatch(html); it.hasNext(); ++images) {
            const QString file = it.next().captured(1);
            QVERIFY2(QFileInfo(file).isRelative() && dir.exists(file), qPrintable(file));
        }
        QVERIFY(images >= 3);  // the output, the parameters and the cost at least
    }

    // File ▸ New by its shortcut: after "Discard", nothing of the fitted project is drawn.
    void newLeavesNoPlotBehind()
    {
        QVERIFY(window_->outputPlot(0)->measuredCount() > 0);
        QVERIFY(window_->parameterPlot()->iterationCount() > 0);
        bool asked = false;
        test::onNextModal([&asked](QWidget* modal) {
            auto* box = qobject_cast<QMessageBox*>(modal);
            if (!box)
                return;
            asked = true;
            QString message;
            if (QAbstractButton* discard = box->button(QMessageBox::Discard))
                test::clickOn(discard, &message);
        });
        QString message;
        QVERIFY2(test::pressKeys(QStringLiteral("ctrl+n"), &message), qPrintable(message));
        QTRY_VERIFY_WITH_TIMEOUT(window_->document()->filePath().isEmpty() && !window_->document()->result(), 10000);
        QVERIFY(asked);  // the fitted project had unsaved changes
        QTest::qWait(100);
        for (int k = 0; window_->outputPlot(k); ++k) {
            QCOMPARE(window_->outputPlot(k)->measuredCount(), 0);
            QCOMPARE(window_->outputPlot(k)->modelCount(), 0);
            QCOMPARE(window_->outputPlot(k)->residualCount(), 0);
        }
        QCOMPARE(window_->parameterPlot()->iterationCount(), 0);
        QCOMPARE(window_->costPlot()->iterationCount(), 0);
        QCOMPARE(window_->resultsPanel()->parameterTable()->rowCount(), 0);
    }

private:
    void clickRunAndWait()
    {
        ui::RunToolBar* bar = window_->runToolBar();
        QWidget* run = bar->widgetForAction(bar->runAction());
        QVERIFY(run->isEnabled());
        const int finished = fitsFinished_;
        QString message;
        QVERIFY2(test::clickOn(run, &message), qPrintable(message));
        QTRY_VERIFY2_WITH_TIMEOUT(fitsFinished_ == finished + 1, "the fit did not finish within 60 s", 60000);
        QVERIFY(window_->document()->result().has_value());
        QTest::qWait(100);
    }

    std::unique_ptr<ui::MainWindow> window_;
    int fitsFinished_ = 0;
};

SYSID_X_TEST_MAIN(TestGuiWorkflow)
#include "test_gui_workflow.moc"
