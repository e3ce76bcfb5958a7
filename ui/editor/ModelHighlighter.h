#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <vector>

class QTextDocument;

namespace sysid::ui {

// Colours the model language (DESIGN.md, "The model language"): keywords, functions, numbers,
// primed names (x', x''), file names ("bar.model") and comments (# to the end of the line).
// Purely lexical.
class ModelHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    enum class Kind { Keyword, Function, Number, Prime, Comment, String };

    explicit ModelHighlighter(QTextDocument* document);

    QTextCharFormat format(Kind kind) const;  // the format used for one kind of token

protected:
    void highlightBlock(const QString& text) override;

private:
    struct Rule {
        QRegularExpression pattern;
        Kind kind;
    };
    std::vector<Rule> rules_;
    QTextCharFormat keyword_, function_, number_, prime_, comment_, string_;
};

}  // namespace sysid::ui
