#include "ui/editor/ModelHighlighter.h"

#include "engine/model/BondGraphSyntax.h"

#include <QColor>
#include <QFont>
#include <QTextDocument>

namespace sysid::ui {

ModelHighlighter::ModelHighlighter(QTextDocument* document) : QSyntaxHighlighter(document)
{
    keyword_.setForeground(QColor(0x00, 0x33, 0x99));
    keyword_.setFontWeight(QFont::Bold);
    function_.setForeground(QColor(0x80, 0x00, 0x80));
    number_.setForeground(QColor(0x00, 0x80, 0x80));
    prime_.setForeground(QColor(0xa0, 0x50, 0x00));
    prime_.setFontItalic(true);
    comment_.setForeground(QColor(0x70, 0x70, 0x70));
    comment_.setFontItalic(true);

    // Keywords are keywords only in their place (the parser's rule), so a state called field or a
    // parameter called prior is not coloured as one: a statement's first word followed by more than
    // '=', and a slot word after the value that no operator follows.
    const QString statements = QStringLiteral(
        "param|state|input|let|output|coord|kinetic|potential|dissipation|force|field|constraint|algebraic");
    const QString slotWords = QStringLiteral("fixed|estimate|guess|prior|unit|hold|linear|spline");
    string_.setForeground(QColor(0x00, 0x70, 0x20));
    const QString functions =
        QStringLiteral("sin|cos|tan|asin|acos|atan2|atan|sinh|cosh|tanh|exp|log|sqrt|abs|sign|min|max");
    // Later rules win where they overlap; comments come last so nothing is coloured inside them.
    // (constraint (0) = 1, 0 is an initial value, spaced or not.)
    rules_.push_back({QRegularExpression(QStringLiteral("(?:^|;)\\s*\\K(?:%1)\\b(?=\\s+[^=\\s])(?!\\s*\\(\\s*0\\s*\\)\\s*=)")
                                             .arg(statements)),
                      Kind::Keyword});
    // include "FILE" as NAME: include before a string, as after it.
    rules_.push_back({QRegularExpression(QStringLiteral("(?:^|;)\\s*\\Kinclude\\b(?=\\s*\")")), Kind::Keyword});
    rules_.push_back({QRegularExpression(QStringLiteral("(?<=\")\\s+\\Kas\\b")), Kind::Keyword});
    // when starts an event only with a ':' after its condition (when(0) = 1 is an initial value).
    rules_.push_back(
        {QRegularExpression(QStringLiteral("(?:^|;)\\s*\\Kwhen\\b(?=\\s*[^\\s=':][^;#]*:)")), Kind::Keyword});
    rules_.push_back(
        {QRegularExpression(QStringLiteral("(?<=\\s)(?:%1)\\b(?!\\s*[-+*/^)=,'(])").arg(slotWords)), Kind::Keyword});
    rules_.push_back({QRegularExpression(QStringLiteral("\\b(?:%1)\\b").arg(functions)), Kind::Function});
    rules_.push_back(
        {QRegularExpression(QStringLiteral("(?<![A-Za-z0-9_.])(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?")),
         Kind::Number});
    // A bond-graph element or junction starts a statement with its spelling (Se, C, TF, 0, 1, ...)
    // followed by its name: after the number rule, so the junctions' 0 and 1 are keywords there.
    QStringList bondNodes;
    for (const auto& e : model::bondNodeTable.entries())
        bondNodes << QString::fromLatin1(e.name.data(), static_cast<qsizetype>(e.name.size()));
    rules_.push_back({QRegularExpression(QStringLiteral("(?:^|;)\\s*\\K(?:%1)(?=\\s+[A-Za-z_])")
                                             .arg(bondNodes.join(QLatin1Char('|')))),
                      Kind::Keyword});
    // x', spring.q', crank.x'' (a bond-graph variable or a sub-model's name is one name).
    rules_.push_back(
        {QRegularExpression(QStringLiteral("(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*'{1,2}")),
         Kind::Prime});
    rules_.push_back({QRegularExpression(QStringLiteral("\"[^\"]*\"")), Kind::String});
    rules_.push_back({QRegularExpression(QStringLiteral("#.*$")), Kind::Comment});
}

QTextCharFormat ModelHighlighter::format(Kind kind) const
{
    switch (kind) {
    case Kind::Keyword: return keyword_;
    case Kind::Function: return function_;
    case Kind::Number: return number_;
    case Kind::Prime: return prime_;
    case Kind::Comment: return comment_;
    case Kind::String: return string_;
    }
    return {};
}

void ModelHighlighter::highlightBlock(const QString& text)
{
    for (const Rule& rule : rules_) {
        auto it = rule.pattern.globalMatch(text);
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), format(rule.kind));
        }
    }
}

}  // namespace sysid::ui
