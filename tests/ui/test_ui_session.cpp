// What protects and moves a user's work between sessions: files dropped on the window, and
// the autosave copy offered back after a crash.
#include "UiTestSupport.h"

#include "ui/data/ImportDialog.h"
#include "ui/main/MainWindow.h"
#include "ui/main/Session.h"
#include "ui/project/ProjectDocument.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QTimer>
#include <QUrl>
#include <QAction>
#include <QFileDialog>
#include <QtTest>

#include <functional>

using namespace sysid;

namespace {

const QString examples = QStringLiteral(SYSID_SOURCE_DIR "/resources/examples");

void clickButton(QWidget* modal, QMessageBox::StandardButton which)
{
    auto* box = qobject_cast<QMessageBox*>(modal);
    QVERIFY(box);
    box->button(which)->click();
}

void drop(QWidget& window, const QString& path)
{
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent event(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &event);
}

}  // namespace

class TestUiSession : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        test::useTestSettings(QStringLiteral("sysid-session-test"));
        QDir(ui::Session::autosaveFolder()).removeRecursively();
    }

    void droppedModelStartsAProject()
    {
        ui::MainWindow w(examples + QStringLiteral("/sdof_cubic.sysid"));
        drop(w, examples + QStringLiteral("/duffing.model"));
        QVERIFY(w.document()->modelSource().contains(QStringLiteral("duffing")));
        QCOMPARE(w.document()->dataSetCount(), 0);
        QVERIFY(w.document()->modelSummary().valid);
    }

    void droppedProjectOpensIt()
    {
        ui::MainWindow w(examples + QStringLiteral("/sdof_cubic.sysid"));
        drop(w, examples + QStringLiteral("/mass_spring_damper.sysid"));
        QCOMPARE(w.document()->modelSource(), QStringLiteral("mass_spring_damper.model"));
        QCOMPARE(w.document()->dataSetCount(), 1);
    }

    // A bundled example opens as an untitled copy: Save asks where, the example stays as it was,
    // and its data (given relative to the example) are still found.
    void bundledExampleOpensAsAnUntitledCopy()
    {
        const QString example = examples + QStringLiteral("/mass_spring_damper.sysid");
        QFile original(example);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QByteArray before = original.readAll();
        original.close();

        ui::MainWindow w(example);
        QVERIFY(w.document()->filePath().isEmpty());
        QVERIFY(w.windowTitle().contains(QStringLiteral("mass_spring_damper")));
        QCOMPARE(w.document()->dataSetCount(), 1);
        QVERIFY2(w.document()->table(0) != nullptr, qPrintable(w.document()->tableError(0)));
        w.document()->setModelText(w.document()->modelText() + QStringLiteral("\n# my edit\n"));

        QAction* save = nullptr;
        for (QAction* action : w.findChildren<QAction*>())
            if (action->shortcut() == QKeySequence(QKeySequence::Save))
                save = action;
        QVERIFY(save);
        bool askedForAPath = false;
        test::onNextModal([&](QWidget* modal) {
            askedForAPath = qobject_cast<QFileDialog*>(modal) != nullptr;
            modal->close();
        });
        save->trigger();
        QVERIFY(askedForAPath);
        QVERIFY(w.document()->isModified());
        QVERIFY(original.open(QIODevice::ReadOnly));
        QCOMPARE(original.readAll(), before);
    }

    // A dropped CSV goes through the import dialog and becomes another experiment.
    void droppedCsvIsImported()
    {
        ui::MainWindow w(examples + QStringLiteral("/sdof_cubic.sysid"));
        QCOMPARE(w.document()->dataSetCount(), 1);
        bool sawDialog = false;
        test::onNextModal([&](QWidget* modal) {
            auto* dialog = qobject_cast<ui::ImportDialog*>(modal);
            sawDialog = dialog != nullptr;
            if (dialog)
                dialog->accept();
            else
                modal->close();
        });
        drop(w, examples + QStringLiteral("/data/sdof_cubic_5pct.csv"));
        QVERIFY(sawDialog);
        QCOMPARE(w.document()->dataSetCount(), 2);
        QVERIFY(w.document()->isModified());
    }

    // Dropping a project over unsaved work asks first; Cancel keeps the work.
    void dropOverUnsavedWorkAsks()
    {
        ui::MainWindow w(examples + QStringLiteral("/sdof_cubic.sysid"));
        const QString edited = w.document()->modelText() + QStringLiteral("\n# my edit\n");
        w.document()->setModelText(edited);
        QVERIFY(w.document()->isModified());
        test::onNextModal([](QWidget* modal) { clickButton(modal, QMessageBox::Cancel); });
        drop(w, examples + QStringLiteral("/mass_spring_damper.sysid"));
        QCOMPARE(w.document()->modelText(), edited);
        QCOMPARE(w.document()->modelSource(), QStringLiteral("sdof_cubic.model"));
    }

    // A window that dies without closing (a crash) leaves its autosave; the next one offers it.
    void autosaveIsOfferedBackAfterACrash()
    {
        QString edited, autosave;
        {
            ui::MainWindow crashed(examples + QStringLiteral("/sdof_cubic.sysid"));
            edited = crashed.document()->modelText() + QStringLiteral("\n# unsaved work\n");
            crashed.document()->setModelText(edited);
            crashed.writeAutosave();
            autosave = crashed.autosavePath();
        }  // destroyed without closeEvent, as a crash would leave it
        QVERIFY(QFile::exists(autosave));

        ui::MainWindow next;
        test::onNextModal([](QWidget* modal) { clickButton(modal, QMessageBox::Yes); });
        next.offerAutosaveRestore();
        QCOMPARE(next.document()->modelText(), edited);
        QVERIFY(next.document()->isModified());  // restored work is not saved yet
        QCOMPARE(next.document()->modelSource(), QStringLiteral("sdof_cubic.model"));
        // The restored work is in the new window's own autosave; the crashed window's is gone.
        QVERIFY(!QFile::exists(autosave));
        QVERIFY(QFile::exists(next.autosavePath()));
    }

    void declinedAutosaveIsRemoved()
    {
        QDir(ui::Session::autosaveFolder()).removeRecursively();
        QString autosave;
        {
            ui::MainWindow crashed(examples + QStringLiteral("/sdof_cubic.sysid"));
            crashed.document()->setModelText(crashed.document()->modelText() + QStringLiteral("\n# lost\n"));
            crashed.writeAutosave();
            autosave = crashed.autosavePath();
        }
        QVERIFY(QFile::exists(autosave));
        ui::MainWindow next;
        test::onNextModal([](QWidget* modal) { clickButton(modal, QMessageBox::No); });
        next.offerAutosaveRestore();
        QVERIFY(!QFile::exists(autosave));
        QVERIFY(!next.document()->modelText().contains(QStringLiteral("# lost")));

        // A saved project leaves no autosave behind.
        ui::MainWindow clean(examples + QStringLiteral("/sdof_cubic.sysid"));
        clean.writeAutosave();
        QVERIFY(!QFile::exists(clean.autosavePath()));
    }

    // Two windows keep an autosave each: neither overwrites the other's, closing one leaves the
    // other's, and an open window's autosave is never offered for restoring.
    void eachWindowHasItsOwnAutosave()
    {
        QDir(ui::Session::autosaveFolder()).removeRecursively();
        ui::MainWindow a(examples + QStringLiteral("/sdof_cubic.sysid"));
        ui::MainWindow b(examples + QStringLiteral("/mass_spring_damper.sysid"));
        a.document()->setModelText(a.document()->modelText() + QStringLiteral("\n# window a\n"));
        b.document()->setModelText(b.document()->modelText() + QStringLiteral("\n# window b\n"));
        a.writeAutosave();
        b.writeAutosave();
        QVERIFY(a.autosavePath() != b.autosavePath());
        auto read = [](const QString& path) {
            QFile file(path);
            return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
        };
        QVERIFY(read(a.autosavePath()).contains(QStringLiteral("# window a")));
        QVERIFY(read(b.autosavePath()).contains(QStringLiteral("# window b")));
        QVERIFY(!read(a.autosavePath()).contains(QStringLiteral("# window b")));

        QVERIFY(ui::Session::orphanedAutosaves().isEmpty());  // both belong to open windows

        test::onNextModal([](QWidget* modal) { clickButton(modal, QMessageBox::Discard); });
        a.close();
        QVERIFY(!QFile::exists(a.autosavePath()));
        QVERIFY(read(b.autosavePath()).contains(QStringLiteral("# window b")));
        QVERIFY(ui::Session::orphanedAutosaves().isEmpty());
    }
};

QTEST_MAIN(TestUiSession)
#include "test_ui_session.moc"
