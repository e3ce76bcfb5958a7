// File ▸ Export ▸ Report: after a fit, one HTML document with its figures beside it and the same
// as PDF in the folder the user names; a folder that holds files is written into only when the
// user agrees to replace what is listed.
#include "UiTestSupport.h"

#include "engine/data/CsvReader.h"
#include "engine/project/DataRole.h"
#include "ui/main/ExportActions.h"
#include "ui/main/FitController.h"
#include "ui/main/MainWindow.h"
#include "ui/project/ProjectDocument.h"
#include "ui/run/FitRunner.h"
#include "ui/run/ValidationRunner.h"

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

    // A data set kept for validation: the report's validation section has its outputs with the
    // model simulated at the estimate, and the fit's figures show the fitted data set whichever
    // one the window shows; the window's choice is left as it was.
    void validationDataSetsHaveTheirSection()
    {
        ui::MainWindow w(test::examplePath(QStringLiteral("mass_spring_damper.sysid")));
        ui::ProjectDocument* document = w.document();
        project::Project::DataSet validation = document->dataSet(0);
        validation.name = "repeat";
        document->addDataSet(validation, data::readCsv(validation.path));
        document->setDataSetRole(1, project::DataRole::Validation);
        auto* controller = w.findChild<ui::FitController*>();
        QVERIFY(controller);
        w.runFit();
        QTRY_VERIFY_WITH_TIMEOUT(!w.runner()->isRunning() && document->result().has_value(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!controller->validationRunner()->isRunning(), 30000);
        document->setCurrentDataSet(1);

        QTemporaryDir tmp;
        const QString folder = tmp.filePath(QStringLiteral("report"));
        auto* exports = w.findChild<ui::ExportActions*>();
        QVERIFY(exports->exportReportTo(folder));
        QCOMPARE(document->currentDataSet(), 1);
        const QString html = QString::fromUtf8(test::readFile(QDir(folder).filePath(QStringLiteral("report.html"))));
        const qsizetype section = html.indexOf(QStringLiteral("8. Validation"));
        QVERIFY2(section > 0, "no validation section");
        const qsizetype figure = html.indexOf(QStringLiteral("<img src=\"validation_2_output_1.png\""));
        QVERIFY2(figure > section, "the validation data set's output is not in the validation section");
        QVERIFY(html.contains(QStringLiteral("Validation data set repeat, output s")));
        QVERIFY(html.indexOf(QStringLiteral("<img src=\"output_1.png\"")) < section);
        QVERIFY(
            test::readFile(QDir(folder).filePath(QStringLiteral("validation_2_output_1.png"))).startsWith("\x89PNG"));
    }
};

QTEST_MAIN(TestUiReportFolder)
#include "test_ui_report_folder.moc"
