// sysid-gui on a laptop's screen, as a user sees it: the window opened on a bundled example in a
// real X server (1366x768) under a window manager fits the screen, can be made as small as
// 1024x700, shows Run, runs a fit when Run is clicked (a real click through the X server), shows
// every parameter's row and the whole correlation matrix, and does not grow after a fit.
#include "UserActions.h"
#include "XSession.h"

#include "../ui/UiTestSupport.h"

#include "engine/estimate/EstimationMethod.h"
#include "ui/main/MainWindow.h"
#include "ui/main/RunToolBar.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ResultsPanel.h"
#include "ui/run/FitRunner.h"
#include "ui/settings/EstimatorPanel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QScreen>
#include <QScrollBar>
#include <QTableWidget>
#include <QToolButton>
#include <QWindow>
#include <QtTest>

#include <memory>

using namespace sysid;
using sysid::test::notSeen;

namespace {

// Every cell of the table's shown columns inside its viewport: no scrolling needed to read it.
QString cellsNotShown(const QTableWidget* table)
{
    const QRect view = table->viewport()->rect();
    for (int r = 0; r < table->rowCount(); ++r)
        for (int c = 0; c < table->columnCount(); ++c) {
            if (table->isColumnHidden(c))
                continue;
            const QRect cell = table->visualRect(table->model()->index(r, c));
            if (!view.contains(cell))
                return QStringLiteral("%1: cell (%2, %3) at y %4..%5, x %6..%7 is outside the %8x%9 view")
                    .arg(table->objectName())
                    .arg(r)
                    .arg(c)
                    .arg(cell.top())
                    .arg(cell.bottom())
                    .arg(cell.left())
                    .arg(cell.right())
                    .arg(view.width())
                    .arg(view.height());
        }
    return {};
}

QString sizeText(QSize size)
{
    return QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
}

}  // namespace

class TestGuiScreen : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        test::XSession* session = test::XSession::current();
        if (!session || !session->installed())
            QSKIP("Xvfb is not installed: the tests in a real X server need it (install-deps.sh installs it)");
        QVERIFY2(session->error().isEmpty(), qPrintable(session->error()));
        QCOMPARE(QGuiApplication::platformName(), QStringLiteral("xcb"));
        test::useTestSettings(QStringLiteral("sysid-gui-test"));

        // As sysid-gui starts: the window on a project, shown.
        window_ = std::make_unique<ui::MainWindow>(test::examplePath(QStringLiteral("mass_spring_damper.sysid")));
        connect(window_->runner(), &ui::FitRunner::finished, this, [this] { ++fitsFinished_; });
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get(), 10000));
        // The window manager has framed it (the frame is bigger than the window).
        QTRY_VERIFY2_WITH_TIMEOUT(window_->frameGeometry().size() != window_->geometry().size(),
                                  "no window manager framed the window", 10000);
        QTRY_VERIFY_WITH_TIMEOUT(window_->isMaximized(), 5000);
        QTest::qWait(300);  // the maximised layout settles
    }

    void cleanupTestCase() { window_.reset(); }  // no close(): it would ask to save the fitted project

    void theWindowFitsTheScreen()
    {
        const QRect screen = window_->screen()->geometry();
        QCOMPARE(screen.size(), test::XSession::screenSize());
        const QRect frame = window_->frameGeometry();
        QVERIFY2(screen.contains(frame),
                 qPrintable(QStringLiteral("the window's frame at (%1, %2) %3 leaves the screen")
                                .arg(frame.x())
                                .arg(frame.y())
                                .arg(sizeText(frame.size()))));
        checkMinimumSize();
    }

    void runIsShownAndEnabled()
    {
        ui::RunToolBar* bar = window_->runToolBar();
        QVERIFY(bar);
        QWidget* run = bar->widgetForAction(bar->runAction());
        QVERIFY(run);
        const QString why = notSeen(run, window_->screen()->geometry());
        QVERIFY2(why.isEmpty(), qPrintable(QStringLiteral("Run ") + why));
        QVERIFY(run->isEnabled());
        QVERIFY(!bar->cancelAction()->isEnabled());  // nothing to cancel yet
        // The Run menu holds the same actions.
        QVERIFY(bar->runAction()->associatedObjects().size() >= 2);
    }

    void runFromTheToolbarFitsAndShowsTheResults()
    {
        const QSize before = window_->size();
        clickRunAndWait();
        QCOMPARE(window_->document()->result()->parameters.size(), std::size_t(3));
        checkResultsShown(3);
        const QString progress = window_->runToolBar()->progressLabel()->text();
        QVERIFY2(
            QRegularExpression(QStringLiteral("^iteration \\d+ of 100 · best cost \\S+$")).match(progress).hasMatch(),
            qPrintable(progress));
        QCOMPARE(sizeText(window_->size()), sizeText(before));
        checkMinimumSize();
    }

    void multistepAndOutputErrorFitsDoNotGrowTheWindow()
    {
        const QSize before = window_->size();
        const QSize minimum = window_->minimumSize();
        for (const auto method : {estimate::EstimationMethod::Multistep, estimate::EstimationMethod::OutputError}) {
            selectMethod(method);
            clickRunAndWait();
            QVERIFY(window_->document()->result().has_value());
            QCOMPARE(sizeText(window_->size()), sizeText(before));
            QCOMPARE(sizeText(window_->minimumSize()), sizeText(minimum));
            checkResultsShown(3);
        }
    }

    // Two coupled Duffing oscillators with 12 parameters (Nayfeh's example): a large typical model.
    void twelveParametersShowWhole()
    {
        QVERIFY(window_->openPath(test::examplePath(QStringLiteral("two_dof_cubic.sysid"))));
        QTest::qWait(100);
        const QSize before = window_->size();
        clickRunAndWait();
        QCOMPARE(window_->document()->result()->parameters.size(), std::size_t(12));
        checkResultsShown(12);
        QCOMPARE(sizeText(window_->size()), sizeText(before));
        checkMinimumSize();
    }

    // Made as small as a small screen's window by the window manager, Run and the results stay in
    // reach, and a fit leaves the size alone.
    void theSmallestWindowKeepsEverythingInReach()
    {
        window_->showNormal();
        QTRY_VERIFY_WITH_TIMEOUT(!window_->isMaximized(), 5000);
        QString message;
        QVERIFY2(test::XSession::current()->xdotool({QStringLiteral("windowsize"), QStringLiteral("--sync"),
                                                     QString::number(window_->winId()), QStringLiteral("1024"),
                                                     QStringLiteral("700")},
                                                    &message),
                 qPrintable(message));
        QTRY_COMPARE_WITH_TIMEOUT(sizeText(window_->size()), QStringLiteral("1024x700"), 5000);
        QTest::qWait(200);
        const QString why = notSeen(window_->runToolBar()->widgetForAction(window_->runToolBar()->runAction()),
                                    window_->screen()->geometry());
        QVERIFY2(why.isEmpty(), qPrintable(QStringLiteral("Run ") + why));
        selectMethod(estimate::EstimationMethod::OutputError);
        clickRunAndWait();
        QCOMPARE(sizeText(window_->size()), QStringLiteral("1024x700"));
        ui::ResultsPanel* results = window_->resultsPanel();
        for (const QWidget* table :
             std::initializer_list<const QWidget*>{results->parameterTable(), results->summaryLabel()}) {
            const QString hidden = notSeen(table, window_->screen()->geometry());
            QVERIFY2(hidden.isEmpty(), qPrintable(table->objectName() + QLatin1Char(' ') + hidden));
        }
    }

private:
    void checkMinimumSize()
    {
        // What the window manager is told (WM_NORMAL_HINTS) and what the layout allows.
        const QSize hinted = window_->windowHandle()->minimumSize();
        const QSize layout = window_->minimumSizeHint();
        for (const QSize minimum : {hinted, layout})
            QVERIFY2(minimum.width() <= 1024 && minimum.height() <= 700,
                     qPrintable(QStringLiteral("minimum size %1 exceeds 1024x700").arg(sizeText(minimum))));
    }

    void selectMethod(estimate::EstimationMethod method)
    {
        QComboBox* combo = window_->estimatorPanel()->methodCombo();
        combo->setCurrentIndex(combo->findData(static_cast<int>(method)));
        QVERIFY(window_->document()->settings().method == method);
    }

    void clickRunAndWait()
    {
        ui::RunToolBar* bar = window_->runToolBar();
        QWidget* run = bar->widgetForAction(bar->runAction());
        QVERIFY(run->isEnabled());
        const int finished = fitsFinished_;
        QString message;
        QVERIFY2(test::clickOn(run, &message), qPrintable(message));
        QTRY_VERIFY2_WITH_TIMEOUT(fitsFinished_ == finished + 1,
                                  "the fit started from the toolbar did not finish within 30 s", 30000);
        QVERIFY(window_->document()->result().has_value());
        QVERIFY(bar->runAction()->isEnabled());
        QVERIFY(!bar->cancelAction()->isEnabled());
        QTest::qWait(100);  // the result is laid out
    }

    void checkResultsShown(int parameters)
    {
        ui::ResultsPanel* results = window_->resultsPanel();
        QCOMPARE(results->parameterTable()->rowCount(), parameters);
        QCOMPARE(results->correlationTable()->rowCount(), parameters);
        QCOMPARE(results->correlationTable()->columnCount(), parameters);
        const QRect screen = window_->screen()->geometry();
        for (const QTableWidget* table : {results->parameterTable(), results->correlationTable()}) {
            const QString hidden = notSeen(table, screen);
            QVERIFY2(hidden.isEmpty(), qPrintable(table->objectName() + QLatin1Char(' ') + hidden));
            const QString cut = cellsNotShown(table);
            QVERIFY2(cut.isEmpty(), qPrintable(cut));
        }
    }

    std::unique_ptr<ui::MainWindow> window_;
    int fitsFinished_ = 0;
};

SYSID_X_TEST_MAIN(TestGuiScreen)
#include "test_gui_screen.moc"
