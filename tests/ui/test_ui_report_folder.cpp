// File ▸ Export ▸ Report: after a fit, one HTML document with its figures beside it and the same
// as PDF in the folder the user names; a folder that holds files is written into only when the
// user agrees to replace what is listed.
#include "UiTestSupport.h"

#include "ui/main/ExportActions.h"
#include "ui/main/MainWindow.h"
#include "ui/project/ProjectDocument.h"
#include "ui/run/FitRunner.h"

#include <QAbstractButton>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace sysid;

namespace {

// Presses the button of a question box with this text (a role's own button or an added one).
void press(QWidget* modal, const QString& text)
{
    auto* box = qobject_cast<QMessageBox*>(modal);
    if (!box) {
        modal->close();
        return;
    }
    for (QAbstractButton* button : box->buttons())
        if (button->text().remove(QLatin1Char('&')) == text) {
            button->click();
            return;
        }
    box->reject();
}

}  // namespace

class TestUiReportFolder : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(); }

    void reportAfterAFit()
    {
        ui::MainWindow w(test::examplePath(QStringLiteral("mass_spring_damper.sysid")));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.runFit();
        QTRY_VERIFY_WITH_TIMEOUT(!w.runner()->isRunning() && w.document()->result().has_value(), 60000);
        auto* exports = w.findChild<ui::ExportActions*>();
        QVERIFY(exports);

        // The menu's action asks for the folder's name first.
        bool askedForAName = false;
        test::onNextModal([&](QWidget* modal) {
            askedForAName = qobject_cast<QFileDialog*>(modal) != nullptr;
            modal->close();
        });
        exports->exportReport();
        QVERIFY(askedForAName);

        QTemporaryDir tmp;
        QString error;
        QVERIFY2(w.document()->save(tmp.filePath(QStringLiteral("msd.sysid")), &error), qPrintable(error));
        const QString folder = tmp.filePath(QStringLiteral("msd report"));
        QVERIFY(exports->exportReportTo(folder));
        const QDir dir(folder);
        const QString html = QString::fromUtf8(test::readFile(dir.filePath(QStringLiteral("report.html"))));
        QCOMPARE(html.count(QStringLiteral("<html")), 1);
        QVERIFY(html.contains(QStringLiteral("<title>sysid report: msd.sysid</title>")));
        QVERIFY(html.contains(QStringLiteral("class=\"correlation\"")));
        const estimate::FitResult& result = *w.document()->result();
        for (const auto& p : result.parameters)
            QVERIFY2(html.contains(QStringLiteral("<td><b>%1</b></td>").arg(QString::fromStdString(p.name))),
                     p.name.c_str());
        // Its figures are files beside it, by relative paths, with the outputs among them.
        QStringList images;
        const QRegularExpression source(QStringLiteral("<img src=\"([^\"]+)\""));
        for (auto it = source.globalMatch(html); it.hasNext();)
            images << it.next().captured(1);
        QVERIFY2(images.contains(QStringLiteral("output_1.png")), qPrintable(images.join(' ')));
        QVERIFY2(images.contains(QStringLiteral("cost.png")), qPrintable(images.join(' ')));
        for (const QString& image : images) {
            QVERIFY2(QFileInfo(image).isRelative(), qPrintable(image));
            QVERIFY2(test::readFile(dir.filePath(image)).startsWith("\x89PNG"), qPrintable(image));
        }
        QVERIFY(test::readFile(dir.filePath(QStringLiteral("report.pdf"))).startsWith("%PDF-"));
        QVERIFY(dir.exists(QStringLiteral("parameters.json")));
        QVERIFY(dir.exists(QStringLiteral("parameters.csv")));

        // Again into the same folder: a question lists what would be replaced; declined, every
        // file stays as it was.
        QMap<QString, QByteArray> before;
        for (const QString& file : dir.entryList(QDir::Files))
            before[file] = test::readFile(dir.filePath(file));
        QString asked;
        test::onNextModal([&](QWidget* modal) {
            if (auto* box = qobject_cast<QMessageBox*>(modal))
                asked = box->text();
            press(modal, QStringLiteral("Cancel"));
        });
        QVERIFY(!exports->exportReportTo(folder));
        QVERIFY2(asked.contains(QStringLiteral("report.html")) && asked.contains(QStringLiteral("report.pdf")) &&
                     asked.contains(QStringLiteral("output_1.png")),
                 qPrintable(asked));
        QCOMPARE(dir.entryList(QDir::Files), QStringList(before.keys()));
        for (auto it = before.cbegin(); it != before.cend(); ++it)
            QVERIFY2(test::readFile(dir.filePath(it.key())) == it.value(), qPrintable(it.key()));

        // Agreed: written anew.
        QFile::remove(dir.filePath(QStringLiteral("report.pdf")));
        test::onNextModal([&](QWidget* modal) { press(modal, QStringLiteral("Replace")); });
        QVERIFY(exports->exportReportTo(folder));
        QVERIFY(test::readFile(dir.filePath(QStringLiteral("report.pdf"))).startsWith("%PDF-"));
    }
};

QTEST_MAIN(TestUiReportFolder)
#include "test_ui_report_folder.moc"
