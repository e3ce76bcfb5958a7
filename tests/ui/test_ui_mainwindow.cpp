// MainWindow: loads and shows model text, title, menus, and errors that keep it open.
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

#include "ui/main/MainWindow.h"

using sysid::ui::MainWindow;

namespace {

QString readAll(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    return {};
  }
  return QString::fromUtf8(f.readAll());
}

bool writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QPlainTextEdit* modelView(MainWindow& w) {
  return w.findChild<QPlainTextEdit*>(QStringLiteral("modelView"));
}

QString statusText(MainWindow& w) { return w.statusBar()->currentMessage(); }

QString titleFor(const QString& fileName) {
  return QStringLiteral("sysid \u2014 ") + fileName;
}

const QByteArray kModel =
    "# two-mass test model, Dämpfer\n"
    "param k = 2 [0, 10]\n"
    "state y = 1\n"
    "y' = -k*y\n"
    "output y\n";

}  // namespace

class TestMainWindow : public QObject {
  Q_OBJECT

private slots:
  void constructsWithDefaultExample() {
    const QString path = MainWindow::defaultModelPath();
    QVERIFY2(QFileInfo::exists(path), qPrintable(path));
    const QString expected = readAll(path);
    QVERIFY(!expected.isEmpty());

    MainWindow w;
    QCOMPARE(w.currentFile(), QFileInfo(path).absoluteFilePath());
    QVERIFY(modelView(w) != nullptr);
    QCOMPARE(modelView(w)->toPlainText(), expected);
    QCOMPARE(w.windowTitle(), titleFor(QStringLiteral("duffing.model")));
    QVERIFY2(statusText(w).startsWith(QStringLiteral("Loaded")), qPrintable(statusText(w)));
  }

  void constructsWithGivenPath() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("my_system.model"));
    QVERIFY(writeFile(path, kModel));

    MainWindow w(path);
    QCOMPARE(modelView(w)->toPlainText(), QString::fromUtf8(kModel));
    QCOMPARE(w.windowTitle(), titleFor(QStringLiteral("my_system.model")));
    QCOMPARE(w.currentFile(), QFileInfo(path).absoluteFilePath());
    QVERIFY2(statusText(w).contains(QStringLiteral("my_system.model")), qPrintable(statusText(w)));
  }

  void missingFileShowsErrorAndStaysOpen() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("does_not_exist.model"));

    bool threw = false;
    MainWindow* w = nullptr;
    try {
      w = new MainWindow(path);
    } catch (...) {
      threw = true;
    }
    QVERIFY(!threw);
    QVERIFY(w != nullptr);
    std::unique_ptr<MainWindow> owner(w);

    QVERIFY2(statusText(*w).startsWith(QStringLiteral("Cannot open")), qPrintable(statusText(*w)));
    QVERIFY2(statusText(*w).contains(QStringLiteral("does_not_exist.model")),
             qPrintable(statusText(*w)));
    QCOMPARE(w->windowTitle(), QStringLiteral("sysid"));
    QVERIFY(w->currentFile().isEmpty());
    QVERIFY(modelView(*w)->toPlainText().isEmpty());

    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w));
    QVERIFY(w->isVisible());
  }

  void failedLoadKeepsShownModel() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString good = dir.filePath(QStringLiteral("good.model"));
    QVERIFY(writeFile(good, kModel));
    const QString notUtf8 = dir.filePath(QStringLiteral("binary.model"));
    QVERIFY(writeFile(notUtf8, QByteArray("\xff\xfe\x00\x01 not text", 14)));

    MainWindow w(good);
    QCOMPARE(modelView(w)->toPlainText(), QString::fromUtf8(kModel));

    QVERIFY(!w.loadModelFile(dir.filePath(QStringLiteral("gone.model"))));
    QVERIFY2(statusText(w).contains(QStringLiteral("gone.model")), qPrintable(statusText(w)));

    QVERIFY(!w.loadModelFile(dir.path()));
    QVERIFY2(statusText(w).contains(QStringLiteral("folder")), qPrintable(statusText(w)));

    QVERIFY(!w.loadModelFile(notUtf8));
    QVERIFY2(statusText(w).contains(QStringLiteral("UTF-8")), qPrintable(statusText(w)));

    QCOMPARE(modelView(w)->toPlainText(), QString::fromUtf8(kModel));
    QCOMPARE(w.windowTitle(), titleFor(QStringLiteral("good.model")));
    QCOMPARE(w.currentFile(), QFileInfo(good).absoluteFilePath());
  }

  void viewIsReadOnlyAndMonospace() {
    MainWindow w;
    QPlainTextEdit* view = modelView(w);
    QCOMPARE(w.centralWidget(), view);
    QVERIFY(view->isReadOnly());
    QVERIFY(QFontInfo(view->font()).fixedPitch());
  }

  void menusHaveWorkingActions() {
    MainWindow w;
    auto* open = w.findChild<QAction*>(QStringLiteral("openAction"));
    auto* quit = w.findChild<QAction*>(QStringLiteral("quitAction"));
    auto* about = w.findChild<QAction*>(QStringLiteral("aboutAction"));
    QVERIFY(open && quit && about);
    auto* fileMenu = w.findChild<QMenu*>(QStringLiteral("fileMenu"));
    auto* helpMenu = w.findChild<QMenu*>(QStringLiteral("helpMenu"));
    QVERIFY(fileMenu && helpMenu);
    QVERIFY(fileMenu->actions().contains(open));
    QVERIFY(fileMenu->actions().contains(quit));
    QVERIFY(helpMenu->actions().contains(about));
    QCOMPARE(open->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_O));
    QCOMPARE(quit->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Q));

    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    quit->trigger();
    QVERIFY(!w.isVisible());
  }

  void openActionLoadsChosenFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("chosen.model"));
    QVERIFY(writeFile(path, kModel));

    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.findChild<QAction*>(QStringLiteral("openAction"))->trigger();
    QPointer<QFileDialog> dialog = w.findChild<QFileDialog*>(QStringLiteral("openDialog"));
    QVERIFY(dialog != nullptr);
    QVERIFY(dialog->isVisible());
    QVERIFY2(dialog->nameFilters().join(QLatin1Char(';')).contains(QStringLiteral("*.model")),
             qPrintable(dialog->nameFilters().join(QLatin1Char(';'))));
    QCOMPARE(dialog->directory().canonicalPath(),
             QFileInfo(MainWindow::defaultModelPath()).absoluteDir().canonicalPath());

    dialog->selectFile(path);
    QVERIFY(QMetaObject::invokeMethod(dialog, "accept"));
    QCOMPARE(w.currentFile(), QFileInfo(path).absoluteFilePath());
    QCOMPARE(modelView(w)->toPlainText(), QString::fromUtf8(kModel));
    QCOMPARE(w.windowTitle(), titleFor(QStringLiteral("chosen.model")));
    QTRY_VERIFY(dialog.isNull());  // deleted on close
  }

  void cancelledOpenChangesNothing() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QString before = modelView(w)->toPlainText();
    w.findChild<QAction*>(QStringLiteral("openAction"))->trigger();
    QPointer<QFileDialog> dialog = w.findChild<QFileDialog*>(QStringLiteral("openDialog"));
    QVERIFY(dialog != nullptr);
    dialog->reject();
    QCOMPARE(modelView(w)->toPlainText(), before);
    QCOMPARE(w.windowTitle(), titleFor(QStringLiteral("duffing.model")));
    QTRY_VERIFY(dialog.isNull());
  }

  void aboutListsVersions() {
    const QString text = MainWindow::aboutText();
    QVERIFY2(text.contains(QString::fromLatin1(qVersion())), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("sysid " SYSID_VERSION)), qPrintable(text));

    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.findChild<QAction*>(QStringLiteral("aboutAction"))->trigger();
    QPointer<QMessageBox> box = w.findChild<QMessageBox*>(QStringLiteral("aboutBox"));
    QVERIFY(box != nullptr);
    QVERIFY(box->isVisible());
    QCOMPARE(box->text(), text);
    box->accept();
    QTRY_VERIFY(box.isNull());
  }
};

QTEST_MAIN(TestMainWindow)
#include "test_ui_mainwindow.moc"
