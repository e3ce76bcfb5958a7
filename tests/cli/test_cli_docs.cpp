// The model examples of the documentation, run through `sysid check`: every fenced block
// tagged `model` in docs/model-language.md and in the README must be accepted, and every block
// tagged `model-error` refused with a file:line:column message, so the reference cannot drift
// from what the parser accepts. A block tagged `model FILE` is saved as FILE beside the others (and
// checked), so that a later example can include it as a sub-model.

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "SysidProcess.h"

namespace {

using namespace sysid::test;

struct Block {
    QString tag;  // model or model-error
    QString text;
    int line = 0;  // of the opening fence, for the message
    QString file;  // ```model bar.model: saved under this name, which later blocks may include
};

std::vector<Block> modelBlocks(const QString& markdown)
{
    std::vector<Block> blocks;
    const QStringList lines = markdown.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString fence = lines[i].trimmed();
        const QString file = fence.startsWith(QLatin1String("```model ")) ? fence.mid(9).trimmed() : QString();
        if (fence != QLatin1String("```model") && fence != QLatin1String("```model-error") && file.isEmpty())
            continue;
        Block b{file.isEmpty() ? fence.mid(3) : QStringLiteral("model"), {}, i + 1, file};
        for (++i; i < lines.size() && lines[i].trimmed() != QLatin1String("```"); ++i)
            b.text += lines[i] + QLatin1Char('\n');
        blocks.push_back(b);
    }
    return blocks;
}

class TestCliDocs : public QObject {
    Q_OBJECT

    void checkBlocks(const QString& document, const std::vector<Block>& blocks)
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const Block& b : blocks) {
            const QString where = QStringLiteral("%1:%2").arg(document).arg(b.line);
            const QString path =
                dir.filePath(b.file.isEmpty() ? QStringLiteral("example%1.model").arg(b.line) : b.file);
            QVERIFY(writeFile(path, b.text.toUtf8()));
            const Run r = runSysid({QStringLiteral("check"), path});
            if (b.tag == QLatin1String("model")) {
                QVERIFY2(r.exitCode == 0,
                         qPrintable(where + QStringLiteral(" is refused:\n") + QString::fromUtf8(describe(r))));
            } else {
                QVERIFY2(r.exitCode == 1,
                         qPrintable(where + QStringLiteral(" is accepted:\n") + QString::fromUtf8(describe(r))));
                const QRegularExpression place(QRegularExpression::escape(path) + QStringLiteral(":\\d+:\\d+: "));
                QVERIFY2(place.match(r.err).hasMatch(),
                         qPrintable(where + QStringLiteral(":\n") + QString::fromUtf8(describe(r))));
            }
        }
    }

private slots:
    void referenceExamplesPassCheck()
    {
        const QString reference =
            QString::fromUtf8(readFile(QStringLiteral(SYSID_SOURCE_DIR "/docs/model-language.md")));
        QVERIFY(!reference.isEmpty());
        const std::vector<Block> blocks = modelBlocks(reference);
        // Every statement of the language has an example that is checked here.
        QString accepted;
        int errors = 0;
        for (const Block& b : blocks) {
            if (b.tag == QLatin1String("model"))
                accepted += b.text;
            else
                ++errors;
        }
        for (const char* word :
             {"param ",       "state ", "input ", "let ",  "output ", "coord ", "kinetic ", "potential ",
              "dissipation ", "force ", "field ", "_t = ", "prior ",  "fixed",  "estimate", "order 4",
              "s_x(",         "x'' = ", "(0) = ", ";",     "#",       "when ",   "Se ",    "Sf ",
              "\nC ",        "\nI ",   "\nR ",   " : e = ", " : f = ", "TF ",   "GY ",    "\n0 ",   "\n1 ",
              "constraint ",  "algebraic ", "include ", "guess"})
            QVERIFY2(accepted.contains(QLatin1String(word)), word);
        QVERIFY(errors >= 3);
        checkBlocks(QStringLiteral("docs/model-language.md"), blocks);
    }

    void readmeExamplesPassCheck()
    {
        const QString readme = QString::fromUtf8(readFile(QStringLiteral(SYSID_SOURCE_DIR "/README.md")));
        const std::vector<Block> blocks = modelBlocks(readme);
        QVERIFY(!blocks.empty());
        checkBlocks(QStringLiteral("README.md"), blocks);
    }
};

}  // namespace

QTEST_GUILESS_MAIN(TestCliDocs)
#include "test_cli_docs.moc"
