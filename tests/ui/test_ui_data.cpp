// ui/data: ImportDialog (engine errors inline, separators, mapping), SyntheticDataDialog
// (simulation on a worker thread, CSV written), ExperimentList (signals).
#include "UiTestSupport.h"

#include <QAction>
#include <QBrush>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

#include <memory>

#include "engine/data/Noise.h"
#include "engine/model/Model.h"
#include "engine/model/ModelBuilder.h"
#include "ui/data/ExperimentList.h"
#include "ui/data/ImportDialog.h"
#include "ui/data/SyntheticDataDialog.h"

using sysid::test::writeFile;
using sysid::ui::ExperimentList;
using sysid::ui::ImportDialog;
using sysid::ui::SyntheticDataDialog;

namespace {

QStringList readLines(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    while (!lines.isEmpty() && lines.back().isEmpty())
        lines.pop_back();
    return lines;
}

QPushButton* okButton(ImportDialog& d)
{
    auto* box = d.findChild<QDialogButtonBox*>();
    return box != nullptr ? box->button(QDialogButtonBox::Ok) : nullptr;
}

QTableWidget* preview(ImportDialog& d)
{
    return d.findChild<QTableWidget*>(QStringLiteral("previewTable"));
}

QLabel* errorLabel(QWidget& d)
{
    return d.findChild<QLabel*>(QStringLiteral("errorLabel"));
}

// Row of the preview showing the file's physical line, -1 if none.
int previewRowOfLine(ImportDialog& d, int line)
{
    QTableWidget* table = preview(d);
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->verticalHeaderItem(r) != nullptr && table->verticalHeaderItem(r)->text() == QString::number(line))
            return r;
    return -1;
}

bool rowHighlighted(ImportDialog& d, int row)
{
    const QTableWidgetItem* item = preview(d)->item(row, 0);
    return item != nullptr && item->background().style() != Qt::NoBrush &&
        item->background().color().red() > item->background().color().green();
}

sysid::model::Parameter parameter(const std::string& name, double value)
{
    sysid::model::Parameter p;
    p.name = name;
    p.value = value;
    return p;
}

const QByteArray kBadCsv = "t,x,y\n0,1,2\n0.1,abc,3\n0.2,1,2\n";
const QByteArray kGoodCsv = "t,x,y\n0,1,2\n0.1,1.5,3\n0.2,1,2\n";

}  // namespace

class TestUiData : public QObject {
    Q_OBJECT

private slots:
    void malformedCsvShowsLineAndDisablesOk()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString bad = dir.filePath(QStringLiteral("bad.csv"));
        const QString good = dir.filePath(QStringLiteral("good.csv"));
        QVERIFY(writeFile(bad, kBadCsv));
        QVERIFY(writeFile(good, kGoodCsv));

        ImportDialog d;
        d.setModelNames({"x", "y"}, {});
        d.show();
        d.loadFile(bad);
        QVERIFY2(d.errorText().startsWith(QStringLiteral("bad.csv:3:")), qPrintable(d.errorText()));
        QVERIFY2(d.errorText().contains(QStringLiteral("column 'x'")), qPrintable(d.errorText()));
        QVERIFY2(d.errorText().contains(QStringLiteral("abc")), qPrintable(d.errorText()));
        QCOMPARE(d.errorLine(), 3);
        QVERIFY(!d.isAcceptable());
        QVERIFY(okButton(d) != nullptr);
        QVERIFY(!okButton(d)->isEnabled());
        QVERIFY(errorLabel(d)->isVisible());
        QCOMPARE(errorLabel(d)->text(), d.errorText());
        const int row = previewRowOfLine(d, 3);
        QVERIFY(row >= 0);
        QVERIFY(rowHighlighted(d, row));
        QVERIFY(!rowHighlighted(d, previewRowOfLine(d, 2)));
        QVERIFY(d.isVisible());

        // The dialog stays usable: a good file clears the error and enables OK.
        d.loadFile(good);
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));
        QCOMPARE(d.errorLine(), 0);
        QVERIFY(d.isAcceptable());
        QVERIFY(okButton(d)->isEnabled());
        QVERIFY(!errorLabel(d)->isVisible());
        QVERIFY(!rowHighlighted(d, previewRowOfLine(d, 3)));
        QCOMPARE(d.table().rowCount(), std::size_t(3));
        QCOMPARE(d.table().column("x")[1], 1.5);
        QCOMPARE(d.filePath(), QFileInfo(good).absoluteFilePath());
        QVERIFY(!d.timeColumn().has_value());
        QVERIFY(d.mapping().empty());

        // OK is disabled when no output is mapped.
        d.setColumnFor(QStringLiteral("x"), QString());
        d.setColumnFor(QStringLiteral("y"), QString());
        QVERIFY(!d.isAcceptable());
        QVERIFY(!okButton(d)->isEnabled());
        d.setColumnFor(QStringLiteral("y"), QStringLiteral("y"));
        QVERIFY(okButton(d)->isEnabled());
    }

    void missingFileAndErrorBeyondPreview()
    {
        QTemporaryDir dir;
        ImportDialog d;
        d.setModelNames({"x"}, {});
        d.loadFile(dir.filePath(QStringLiteral("nope.csv")));
        QVERIFY(!d.errorText().isEmpty());
        QVERIFY(!d.isAcceptable());

        QByteArray text = "t,x\n";
        for (int i = 0; i < 400; ++i)
            text += QByteArray::number(i) + (i == 300 ? ",oops\n" : ",1\n");
        const QString path = dir.filePath(QStringLiteral("long.csv"));
        QVERIFY(writeFile(path, text));
        d.loadFile(path);
        QCOMPARE(d.errorLine(), 302);
        const int row = previewRowOfLine(d, 302);
        QVERIFY(row >= 0);
        QVERIFY(rowHighlighted(d, row));
        QCOMPARE(preview(d)->item(row, 1)->text(), QStringLiteral("oops"));

        // An empty file and a header-only file are errors, not crashes.
        QVERIFY(writeFile(path, ""));
        d.loadFile(path);
        QVERIFY(!d.errorText().isEmpty());
        QVERIFY(writeFile(path, "t,x\n"));
        d.loadFile(path);
        QVERIFY(!d.errorText().isEmpty());
        QVERIFY(!d.isAcceptable());
    }

    // A device, a FIFO or a folder chosen as data is named for what it is, at once: nothing is read
    // from /dev/zero (it never ends) or a FIFO (it would block the window).
    void importRefusesWhatIsNotAFile()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe.csv"));
        QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        ImportDialog d;
        d.setModelNames({"x"}, {});
        const QList<std::pair<QString, QString>> cases{{QStringLiteral("/dev/zero"), "is a device"},
                                                       {fifo, "is a named pipe (FIFO)"},
                                                       {dir.path(), "is a folder"}};
        for (const auto& [path, message] : cases) {
            d.loadFile(path);
            QVERIFY2(d.errorText().contains(message), qPrintable(d.errorText()));
            QVERIFY(!d.isAcceptable());
        }
    }

    void detectsSemicolonAndTab()
    {
        QTemporaryDir dir;
        const QString semi = dir.filePath(QStringLiteral("semi.csv"));
        const QString tab = dir.filePath(QStringLiteral("tab.txt"));
        const QString comma = dir.filePath(QStringLiteral("decimal.csv"));
        QVERIFY(writeFile(semi, "# comment line\ntime;x;y\n0;1;2\n1;2;3\n"));
        QVERIFY(writeFile(tab, "t\tx\ty\n0\t1\t2\n1\t2\t3\n2\t3\t4\n"));
        QVERIFY(writeFile(comma, "t;x\n0,5;1,25\n1,5;2\n"));

        ImportDialog d;
        d.setModelNames({"x", "y"}, {});
        d.loadFile(semi);
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));
        QCOMPARE(d.effectiveSeparator(), ';');
        QCOMPARE(preview(d)->columnCount(), 3);
        QCOMPARE(preview(d)->rowCount(), 2);
        QCOMPARE(preview(d)->item(1, 2)->text(), QStringLiteral("3"));
        QCOMPARE(d.table().columnNames[d.table().timeColumn], std::string("time"));
        QVERIFY(d.isAcceptable());

        d.loadFile(tab);
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));
        QCOMPARE(d.effectiveSeparator(), '\t');
        QCOMPARE(preview(d)->columnCount(), 3);
        QCOMPARE(d.table().rowCount(), std::size_t(3));

        // Forcing the wrong separator is an inline error; auto recovers.
        d.setSeparator(',');
        QVERIFY(!d.errorText().isEmpty());
        QVERIFY(!d.isAcceptable());
        d.setSeparator(0);
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));

        // Decimal comma with ';'.
        d.setModelNames({"x"}, {});
        d.loadFile(comma);
        QCOMPARE(d.decimalPoint(), ',');  // proposed from the numbers
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));
        d.setDecimalPoint('.');
        QVERIFY(!d.errorText().isEmpty());  // '.' decimal point: "0,5" is not a number here
        d.setDecimalPoint(',');
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));
        QCOMPARE(d.table().column("x")[0], 1.25);
        QCOMPARE(d.table().time()[1], 1.5);

        // An explicit time column.
        auto* timeCombo = d.findChild<QComboBox*>(QStringLiteral("timeCombo"));
        QVERIFY(timeCombo != nullptr);
        timeCombo->setCurrentIndex(timeCombo->findData(QStringLiteral("x")));
        QCOMPARE(d.timeColumn().value_or(""), std::string("x"));
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));
        QCOMPARE(d.table().columnNames[d.table().timeColumn], std::string("x"));
    }

    // A units row under the header is proposed as skipped, shown greyed and struck out, and the numbers import.
    void unitsRowProposedAsSkipped()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("units.csv"));
        QVERIFY(writeFile(path, "Bench 3, run 7\nt,x,y\ns,m,N\n0,1.5,2\n0.1,2.5,3\n0.2,3.5,x4\n"));
        ImportDialog d;
        d.setModelNames({"x", "y"}, {});
        d.show();
        d.loadFile(path);
        QCOMPARE(d.headerLine(), 2);
        QCOMPARE(d.skipRows(), 1);
        QCOMPARE(d.format().skipRows, 1);
        QCOMPARE(d.format().headerLine, 2);
        // The units row and the title are in the preview, left out visibly.
        for (const int line : {1, 3}) {
            const int row = previewRowOfLine(d, line);
            QVERIFY2(row >= 0, qPrintable(QString::number(line)));
            QVERIFY(preview(d)->item(row, 0)->font().strikeOut());
        }
        QCOMPARE(preview(d)->item(previewRowOfLine(d, 3), 1)->text(), QStringLiteral("m"));
        QVERIFY(!preview(d)->item(previewRowOfLine(d, 4), 0)->font().strikeOut());
        // The bad field's place counts every line, the skipped ones too.
        QVERIFY2(d.errorText().startsWith(QStringLiteral("units.csv:6: column 'y'")), qPrintable(d.errorText()));
        QCOMPARE(d.errorLine(), 6);

        QVERIFY(writeFile(path, "Bench 3, run 7\nt,x,y\ns,m,N\n0,1.5,2\n0.1,2.5,3\n0.2,3.5,4\n"));
        d.loadFile(path);
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));
        QVERIFY(d.isAcceptable());
        QCOMPARE(d.table().column("x"), (std::vector<double>{1.5, 2.5, 3.5}));
        QCOMPARE(d.table().column("y"), (std::vector<double>{2, 3, 4}));
        // Not skipping the row is the user's choice, and the engine names it.
        d.setSkipRows(0);
        QVERIFY2(d.errorText().startsWith(QStringLiteral("units.csv:3: column 't'")), qPrintable(d.errorText()));
    }

    // A decimal-comma file (';' or tab) imports correct values without touching an option.
    void decimalCommaImports()
    {
        QTemporaryDir dir;
        const QString semi = dir.filePath(QStringLiteral("semi.csv"));
        const QString tab = dir.filePath(QStringLiteral("tab.txt"));
        QVERIFY(writeFile(semi, "t;x\ns;m\n0;1,25\n0,5;-2,5e-1\n"));
        QVERIFY(writeFile(tab, "time\tx\n0\t3,125\n1\t4\n"));
        ImportDialog d;
        d.setModelNames({"x"}, {});
        d.loadFile(semi);
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));
        QCOMPARE(d.separator(), ';');
        QCOMPARE(d.decimalPoint(), ',');
        QCOMPARE(d.skipRows(), 1);
        QCOMPARE(d.table().column("x"), (std::vector<double>{1.25, -0.25}));
        QCOMPARE(d.table().time(), (std::vector<double>{0, 0.5}));
        d.loadFile(tab);
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));
        QCOMPARE(d.separator(), '\t');
        QCOMPARE(d.decimalPoint(), ',');
        QCOMPARE(d.skipRows(), 0);
        QCOMPARE(d.table().column("x"), (std::vector<double>{3.125, 4}));
    }

    // Long numbers are shown whole in the preview.
    void previewNumbersAreNotElided()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("long.csv"));
        const QString longNumber = QStringLiteral("-1.2345678901234567e-123");
        QVERIFY(writeFile(path, ("t,x\n0," + longNumber + "\n1,2\n").toUtf8()));
        ImportDialog d;
        d.setModelNames({"x"}, {});
        d.show();
        d.loadFile(path);
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));
        QTableWidget* table = preview(d);
        QCOMPARE(table->textElideMode(), Qt::ElideNone);
        QCOMPARE(table->item(0, 1)->text(), longNumber);
        const int needed = table->fontMetrics().horizontalAdvance(longNumber);
        QVERIFY2(table->columnWidth(1) > needed,
                 qPrintable(QStringLiteral("%1 <= %2").arg(table->columnWidth(1)).arg(needed)));
    }

    void mappingPreselectsEqualNames()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("data.csv"));
        QVERIFY(writeFile(path, "t,x,u,force\n0,1,0,5\n1,2,1,6\n2,3,2,7\n"));
        ImportDialog d;
        d.setModelNames({"x", "pos"}, {"u"});
        d.loadFile(path);
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));
        QCOMPARE(d.columnFor(QStringLiteral("x")), QStringLiteral("x"));
        QCOMPARE(d.columnFor(QStringLiteral("pos")), QString());
        QCOMPARE(d.columnFor(QStringLiteral("u")), QStringLiteral("u"));
        auto* combo = d.findChild<QComboBox*>(QStringLiteral("mapping_pos"));
        QVERIFY(combo != nullptr);
        QCOMPARE(combo->itemText(0), QStringLiteral("(not measured)"));
        QCOMPARE(combo->findData(QStringLiteral("t")), -1);  // the time column is not offered
        QVERIFY(d.isAcceptable());
        std::map<std::string, std::string> expected{{"u", "u"}};
        QCOMPARE(d.mapping(), expected);

        combo->setCurrentIndex(combo->findData(QStringLiteral("force")));
        expected["pos"] = "force";
        QCOMPARE(d.mapping(), expected);

        // x deliberately not measured although a column x exists: mapped to the time column.
        d.setColumnFor(QStringLiteral("x"), QString());
        expected["x"] = "t";
        QCOMPARE(d.mapping(), expected);

        // User choices survive a re-parse (here: another decimal point setting that still parses).
        d.setSeparator(',');
        QCOMPARE(d.columnFor(QStringLiteral("pos")), QStringLiteral("force"));
        QCOMPARE(d.columnFor(QStringLiteral("x")), QString());

        // An input without a column blocks OK; outputs have "(not measured)", inputs do not.
        ImportDialog e;
        e.setModelNames({"x"}, {"F"});
        e.loadFile(path);
        QVERIFY(e.errorText().isEmpty());
        QVERIFY(!e.isAcceptable());
        auto* inputCombo = e.findChild<QComboBox*>(QStringLiteral("mapping_F"));
        QVERIFY(inputCombo != nullptr);
        QVERIFY(inputCombo->itemText(0) != QStringLiteral("(not measured)"));
        e.setColumnFor(QStringLiteral("F"), QStringLiteral("force"));
        QVERIFY(e.isAcceptable());
        QCOMPARE(e.mapping().at("F"), std::string("force"));
    }

    void syntheticDataWritesCsv()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("synthetic.csv"));
        SyntheticDataDialog d;
        d.setModel(QStringLiteral("param a = 0.5\nparam b = 2\nstate y = 1\nstate z = 0\ny' = -a*y + z\nz' = -b*y\n"
                                  "output y\noutput z\n"),
                   QStringLiteral("small.model"));
        d.setParameters({parameter("a", 0.5), parameter("b", 2.0)});
        auto* table = d.findChild<QTableWidget*>(QStringLiteral("parameterTable"));
        QVERIFY(table != nullptr);
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("2"));
        table->item(0, 1)->setText(QStringLiteral("0.25"));
        d.setTimeSpan(2.0, 0.1);
        d.setNoise(1.0, sysid::data::NoiseDistribution::Gaussian, 7);
        d.setTargetPath(target);
        QSignalSpy generated(&d, &SyntheticDataDialog::generated);
        d.show();
        d.generate();
        QVERIFY(d.isGenerating() || !d.writtenPath().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!d.writtenPath().isEmpty() || !d.errorText().isEmpty(), 10000);
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));
        QCOMPARE(d.writtenPath(), target);
        QCOMPARE(generated.count(), 1);
        QCOMPARE(d.result(), int(QDialog::Accepted));
        const QStringList lines = readLines(target);
        QCOMPARE(lines.value(0), QStringLiteral("t,y,z"));
        QCOMPARE(lines.size(), 1 + 21);
        QVERIFY(lines.value(1).startsWith(QStringLiteral("0,")));
        QVERIFY(lines.back().startsWith(QStringLiteral("2,")));

        // The written file imports cleanly.
        ImportDialog import;
        import.setModelNames({"y", "z"}, {});
        import.loadFile(target);
        QVERIFY2(import.errorText().isEmpty(), qPrintable(import.errorText()));
        QVERIFY(import.isAcceptable());
    }

    // The dialog and `sysid simulate` share the engine's recipe: the same model, grid, noise and
    // seed give the file the command line wrote (tests/engine/data, made before they shared it).
    void syntheticDataMatchesTheCommandLine()
    {
        QFile modelFile(QStringLiteral(SYSID_SOURCE_DIR "/resources/examples/two_dof_cubic.model"));
        QVERIFY(modelFile.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(modelFile.readAll());
        QFile expected(
            QStringLiteral(SYSID_SOURCE_DIR "/tests/engine/data/synthetic_two_dof_cubic_uniform5_seed42.csv"));
        QVERIFY(expected.open(QIODevice::ReadOnly));

        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("two_dof.csv"));
        SyntheticDataDialog d;
        d.setModel(text, QStringLiteral("two_dof_cubic.model"));
        d.setParameters(sysid::model::parseModel(text.toStdString()).parameters);
        d.setTimeSpan(4.0, 0.05);
        d.setNoise(5.0, sysid::data::NoiseDistribution::Uniform, 42);
        d.setTargetPath(target);
        d.generate();
        QTRY_VERIFY_WITH_TIMEOUT(!d.writtenPath().isEmpty() || !d.errorText().isEmpty(), 10000);
        QVERIFY2(d.errorText().isEmpty(), qPrintable(d.errorText()));
        QFile written(target);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.readAll() == expected.readAll());
    }

    void syntheticDataShowsErrorsInline()
    {
        QTemporaryDir dir;
        SyntheticDataDialog d;
        d.setModel(QStringLiteral("param a = 1\nstate y = 1\ny' = -a*\noutput y\n"), QStringLiteral("broken.model"));
        d.setTargetPath(dir.filePath(QStringLiteral("out.csv")));
        d.show();
        d.generate();
        QTRY_VERIFY_WITH_TIMEOUT(!d.isGenerating(), 10000);
        QVERIFY(d.errorText().contains(QStringLiteral("broken.model")));
        QVERIFY(d.writtenPath().isEmpty());
        QVERIFY(d.isVisible());
        QVERIFY(errorLabel(d)->isVisible());

        // A parameter the model lacks and a bad number are errors too; the dialog stays open.
        d.setModel(QStringLiteral("param a = 1\nstate y = 1\ny' = -a*y\noutput y\n"), QStringLiteral("ok.model"));
        d.setParameters({parameter("a", 1.0)});
        d.findChild<QTableWidget*>(QStringLiteral("parameterTable"))->item(0, 1)->setText(QStringLiteral("abc"));
        d.generate();
        QVERIFY(!d.isGenerating());
        QVERIFY(d.errorText().contains(QStringLiteral("abc")));

        // Destroying the dialog while it simulates neither blocks long nor crashes.
        auto running = std::make_unique<SyntheticDataDialog>();
        running->setModel(QStringLiteral("param a = 1\nstate y = 1\ny' = -a*y\noutput y\n"),
                          QStringLiteral("ok.model"));
        running->setTimeSpan(1000.0, 0.001);
        running->setTargetPath(dir.filePath(QStringLiteral("never.csv")));
        running->generate();
        running.reset();
    }

    void experimentListSignals()
    {
        ExperimentList list;
        QSignalSpy current(&list, &ExperimentList::currentExperimentChanged);
        QSignalSpy remove(&list, &ExperimentList::removeRequested);
        list.setExperiments(
            {QStringLiteral("run 1"), QStringLiteral("run 2"), QStringLiteral("run 3")},
            {QStringLiteral("/data/a.csv"), QStringLiteral("/data/b.csv"), QStringLiteral("/data/c.csv")}, 1);
        QCOMPARE(list.count(), 3);
        QCOMPARE(list.currentRow(), 1);
        QCOMPARE(list.item(2)->text(), QStringLiteral("run 3"));
        QCOMPARE(list.item(2)->toolTip(), QStringLiteral("/data/c.csv"));
        QCOMPARE(current.count(), 0);  // setExperiments emits nothing

        list.show();
        QVERIFY(QTest::qWaitForWindowExposed(&list));
        QTest::mouseClick(list.viewport(), Qt::LeftButton, {}, list.visualItemRect(list.item(2)).center());
        QCOMPARE(current.count(), 1);
        QCOMPARE(current.at(0).at(0).toInt(), 2);

        std::unique_ptr<QMenu> menu(list.createContextMenu(list.visualItemRect(list.item(0)).center()));
        QVERIFY(menu != nullptr);
        QAction* removeAction = menu->findChild<QAction*>(QStringLiteral("removeExperimentAction"));
        QVERIFY(removeAction != nullptr);
        QCOMPARE(removeAction->text(), QStringLiteral("Remove"));
        removeAction->trigger();
        QCOMPARE(remove.count(), 1);
        QCOMPARE(remove.at(0).at(0).toInt(), 0);

        QTest::keyClick(&list, Qt::Key_Delete);
        QCOMPARE(remove.count(), 2);
        QCOMPARE(remove.at(1).at(0).toInt(), 2);

        QVERIFY(list.createContextMenu(QPoint(5, list.viewport()->height() - 2)) == nullptr ||
                list.count() * list.visualItemRect(list.item(0)).height() >= list.viewport()->height());

        list.setExperiments({QStringLiteral("only")}, {}, -1);
        QCOMPARE(list.count(), 1);
        QCOMPARE(list.currentRow(), -1);
        QVERIFY(list.item(0)->toolTip().isEmpty());
    }
};

QTEST_MAIN(TestUiData)
#include "test_ui_data.moc"
