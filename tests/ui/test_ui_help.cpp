// Help inside the application: the model language reference and the quick start in their own
// windows, and the example browser that describes each bundled example and opens it as an
// untitled copy.
#include "UiTestSupport.h"

#include "ui/help/ExampleBrowser.h"
#include "ui/help/HelpWindow.h"
#include "ui/main/MainWindow.h"
#include "ui/project/ProjectDocument.h"
#include "ui/settings/EstimatorPanel.h"

#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextBrowser>
#include <QtTest>

using namespace sysid;

namespace {

const QString examples = QStringLiteral(SYSID_SOURCE_DIR "/resources/examples");

QAction* menuAction(QMainWindow& w, const QString& menu, const QString& text)
{
    for (QAction* top : w.menuBar()->actions())
        if (top->text().remove(QLatin1Char('&')) == menu)
            for (QAction* a : top->menu()->actions())
                if (a->text().remove(QLatin1Char('&')) == text)
                    return a;
    return nullptr;
}

QStringList headings(const ui::HelpWindow& window)
{
    QStringList list;
    for (int row = 0; row < window.contents()->count(); ++row)
        list << window.contents()->item(row)->text().trimmed();
    return list;
}

}  // namespace

class TestUiHelp : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(QStringLiteral("sysid-help-test")); }

    void helpMenuOpensBothDocuments()
    {
        ui::MainWindow w(examples + QStringLiteral("/sdof_cubic.sysid"));
        QAction* reference = menuAction(w, QStringLiteral("Help"), QStringLiteral("Model language reference"));
        QAction* quickStart = menuAction(w, QStringLiteral("Help"), QStringLiteral("Quick start"));
        QVERIFY(reference);
        QVERIFY(quickStart);

        reference->trigger();
        auto* language = w.findChild<ui::HelpWindow*>(QStringLiteral("helpModelLanguage"));
        QVERIFY(language);
        QVERIFY(language->isVisible());
        QVERIFY(language->isWindow());
        QVERIFY(!language->isModal());
        const QStringList languageHeadings = headings(*language);
        for (const char* h :
             {"Model language reference", "Parameters", "First-order states", "Second-order equations", "Inputs",
              "Outputs", "Lagrangian models", "Fields (partial differential equations)", "Expressions", "Errors"})
            QVERIFY2(languageHeadings.contains(QLatin1String(h)), h);
        QVERIFY(language->browser()->toPlainText().contains(QStringLiteral("dissipation D = 1/2*c*q'^2")));
        QVERIFY(!language->browser()->toPlainText().contains(QStringLiteral("<!--")));

        // Triggered again, the same window comes back rather than a second one.
        reference->trigger();
        QCOMPARE(w.findChildren<ui::HelpWindow*>(QStringLiteral("helpModelLanguage")).size(), 1);

        quickStart->trigger();
        auto* quick = w.findChild<ui::HelpWindow*>(QStringLiteral("helpQuickStart"));
        QVERIFY(quick);
        QVERIFY(quick->isVisible());
        const QStringList quickHeadings = headings(*quick);
        QVERIFY2(quickHeadings.size() >= 6, qPrintable(quickHeadings.join(QLatin1Char('|'))));
        QCOMPARE(quickHeadings.first(), QStringLiteral("Quick start"));
        for (const QString& h : quickHeadings)
            QVERIFY(!h.isEmpty());
        QVERIFY(quick->browser()->toPlainText().size() > 2000);
        QVERIFY(language->isVisible());
    }

    void contentsAndSearchMoveThroughTheDocument()
    {
        ui::HelpWindow window(ui::HelpTopic::ModelLanguage);
        const QStringList list = headings(window);
        const int fields = static_cast<int>(list.indexOf(QStringLiteral("Fields (partial differential equations)")));
        QVERIFY(fields > 0);
        window.contents()->setCurrentRow(fields);
        QCOMPARE(window.browser()->textCursor().block().text(),
                 QStringLiteral("Fields (partial differential equations)"));

        window.browser()->moveCursor(QTextCursor::Start);
        QVERIFY(window.findNext(QStringLiteral("atan2")));
        QCOMPARE(window.browser()->textCursor().selectedText(), QStringLiteral("atan2"));
        const int first = window.browser()->textCursor().position();
        QVERIFY(window.findNext(QStringLiteral("atan2")));
        QVERIFY(window.browser()->textCursor().position() != first);
        QVERIFY(!window.findNext(QStringLiteral("no such words in the reference")));
    }

    void browserDescribesEveryBundledExample()
    {
        ui::ExampleBrowser browser(examples);
        const QStringList files =
            QDir(examples).entryList({QStringLiteral("*.sysid"), QStringLiteral("*.model")}, QDir::Files);
        QCOMPARE(browser.examples().size(), static_cast<std::size_t>(files.size()));
        int listed = 0;
        for (int row = 0; row < browser.list()->count(); ++row) {
            QListWidgetItem* item = browser.list()->item(row);
            if (!(item->flags() & Qt::ItemIsSelectable))
                continue;  // a section heading
            ++listed;
            browser.list()->setCurrentRow(row);
            QVERIFY2(!files.contains(item->text()), qPrintable(item->text()));
            QVERIFY2(browser.description()->toPlainText().size() > 80, qPrintable(item->text()));
            QVERIFY2(browser.description()->toPlainText().contains(QStringLiteral("Try:")), qPrintable(item->text()));
            QVERIFY2(!browser.preview()->toPlainText().isEmpty(), qPrintable(item->text()));
            QVERIFY(QFileInfo(browser.chosenPath()).isFile());
        }
        QCOMPARE(listed, files.size());
    }

    // Every option of the estimator explains itself when the mouse rests on it (the text comes
    // from the settings table, so the command line's help says the same).
    void everyEstimatorOptionHasATooltip()
    {
        ui::MainWindow w(examples + QStringLiteral("/sdof_cubic.sysid"));
        auto* panel = w.findChild<ui::EstimatorPanel*>();
        QVERIFY(panel);
        QStringList missing;
        int inputs = 0;
        for (QWidget* input : panel->findChildren<QWidget*>()) {
            const bool isInput = qobject_cast<QComboBox*>(input) || qobject_cast<QLineEdit*>(input) ||
                qobject_cast<QAbstractSpinBox*>(input) || qobject_cast<QCheckBox*>(input) ||
                qobject_cast<QAbstractItemView*>(input);
            if (!isInput)
                continue;
            bool part = false;  // the line edit inside a spin box, the list inside a combo box
            for (QWidget* p = input->parentWidget(); p && p != panel; p = p->parentWidget())
                part = part || qobject_cast<QComboBox*>(p) || qobject_cast<QAbstractSpinBox*>(p) ||
                    qobject_cast<QAbstractItemView*>(p);
            if (part)
                continue;
            ++inputs;
            if (input->toolTip().trimmed().isEmpty())
                missing << QStringLiteral("%1 %2").arg(QString::fromLatin1(input->metaObject()->className()),
                                                       input->objectName());
        }
        QVERIFY(inputs >= 15);
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QStringLiteral(", "))));
    }

    void openingAnExampleLoadsAnUntitledCopy()
    {
        ui::MainWindow w(examples + QStringLiteral("/sdof_cubic.sysid"));
        QAction* action = menuAction(w, QStringLiteral("File"), QStringLiteral("Examples…"));
        QVERIFY(action);
        QString chosen;
        test::onNextModal([&chosen](QWidget* modal) {
            auto* browser = qobject_cast<ui::ExampleBrowser*>(modal);
            QVERIFY(browser);
            for (int row = 0; row < browser->list()->count(); ++row)
                if (browser->list()->item(row)->text().startsWith(QStringLiteral("Mass-spring-damper driven"))) {
                    browser->list()->setCurrentRow(row);
                    break;
                }
            chosen = browser->chosenPath();
            browser->accept();
        });
        action->trigger();
        QCOMPARE(QFileInfo(chosen).fileName(), QStringLiteral("mass_spring_damper.sysid"));
        QCOMPARE(w.document()->modelSource(), QStringLiteral("mass_spring_damper.model"));
        QCOMPARE(w.document()->dataSetCount(), 1);
        QVERIFY(w.document()->filePath().isEmpty());

        test::onNextModal([](QWidget* modal) {
            auto* browser = qobject_cast<ui::ExampleBrowser*>(modal);
            QVERIFY(browser);
            for (int row = 0; row < browser->list()->count(); ++row)
                if (browser->list()->item(row)->text().startsWith(QStringLiteral("Van der Pol")))
                    browser->list()->setCurrentRow(row);
            browser->accept();
        });
        action->trigger();
        QVERIFY(w.document()->modelText().contains(QStringLiteral("mu*(1 - x^2)*x'")));
        QVERIFY(w.document()->filePath().isEmpty());
        QCOMPARE(w.document()->dataSetCount(), 0);
    }
};

QTEST_MAIN(TestUiHelp)
#include "test_ui_help.moc"
