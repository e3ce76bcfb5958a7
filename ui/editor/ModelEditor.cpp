#include "ui/editor/ModelEditor.h"

#include "ui/editor/ModelHighlighter.h"
#include "ui/editor/ModelTextPositions.h"

#include <QColor>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QPalette>
#include <QResizeEvent>
#include <QTextBlock>
#include <QTextCursor>
#include <QToolTip>

#include <algorithm>

namespace sysid::ui {

class LineNumberArea : public QWidget {
public:
    explicit LineNumberArea(ModelEditor* editor) : QWidget(editor), editor_(editor) {}
    QSize sizeHint() const override { return {editor_->lineNumberAreaWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* event) override { editor_->lineNumberAreaPaintEvent(event); }

private:
    ModelEditor* editor_;
};

namespace {

bool isNameChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

// End of the token starting at offset: a name with its primes, a number, or one character.
int tokenEnd(const QString& text, int offset)
{
    const int n = static_cast<int>(text.size());
    if (offset >= n)
        return offset;
    const QChar c = text.at(offset);
    int j = offset;
    if (c.isLetter() || c == QLatin1Char('_')) {
        while (j < n && isNameChar(text.at(j)))
            ++j;
        while (j < n && text.at(j) == QLatin1Char('\''))
            ++j;
        return j;
    }
    if (c.isDigit() || (c == QLatin1Char('.') && j + 1 < n && text.at(j + 1).isDigit())) {
        while (j < n && (text.at(j).isDigit() || text.at(j) == QLatin1Char('.')))
            ++j;
        if (j < n && (text.at(j) == QLatin1Char('e') || text.at(j) == QLatin1Char('E'))) {
            int k = j + 1;
            if (k < n && (text.at(k) == QLatin1Char('+') || text.at(k) == QLatin1Char('-')))
                ++k;
            if (k < n && text.at(k).isDigit()) {
                while (k < n && text.at(k).isDigit())
                    ++k;
                j = k;
            }
        }
        return j;
    }
    return offset + ((c.isHighSurrogate() && offset + 1 < n) ? 2 : 1);
}

}  // namespace

ModelEditor::ModelEditor(QWidget* parent) : QPlainTextEdit(parent)
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(4 * fontMetrics().horizontalAdvance(QLatin1Char(' ')));
    highlighter_ = new ModelHighlighter(document());
    lineNumberArea_ = new LineNumberArea(this);

    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateLineNumberAreaWidth(); });
    connect(this, &QPlainTextEdit::updateRequest, this, &ModelEditor::updateLineNumberArea);
    updateLineNumberAreaWidth();

    checkTimer_.setSingleShot(true);
    checkTimer_.setInterval(kCheckDelayMs);
    connect(&checkTimer_, &QTimer::timeout, this, &ModelEditor::checkNow);
    connect(this, &QPlainTextEdit::textChanged, this, [this] { checkTimer_.start(); });
}

void ModelEditor::setSource(const QString& source)
{
    source_ = source;
}

void ModelEditor::checkNow()
{
    checkTimer_.stop();
    summary_ = summarizeModel(toPlainText().toStdString(), source_.toStdString());
    applyDiagnostics();
    emit summaryChanged(summary_);
    const QString first = summary_.errors.empty() ? QString() : problemText(summary_.errors.front());
    if (first != firstProblem_) {
        firstProblem_ = first;
        emit firstProblemChanged(first);
    }
}

QString ModelEditor::problemText(const model::ModelDiagnostic& d)
{
    const QString message = QString::fromStdString(d.message);
    if (d.where.line <= 0)
        return message;
    if (d.where.column <= 0)
        return tr("line %1: %2").arg(d.where.line).arg(message);
    return tr("line %1, column %2: %3").arg(d.where.line).arg(d.where.column).arg(message);
}

void ModelEditor::goTo(const model::ModelDiagnostic& d)
{
    if (d.where.line <= 0)
        return;
    const QTextBlock block = document()->findBlockByNumber(d.where.line - 1);
    if (!block.isValid())
        return;
    QTextCursor cursor(document());
    cursor.setPosition(block.position() + columnToOffset(block.text(), d.where.column));
    setTextCursor(cursor);
    ensureCursorVisible();
    setFocus(Qt::OtherFocusReason);
}

std::pair<int, int> ModelEditor::diagnosticRange(const model::ModelDiagnostic& d) const
{
    if (d.where.line <= 0)
        return {0, 0};
    const QTextBlock block = document()->findBlockByNumber(d.where.line - 1);
    if (!block.isValid())
        return {0, 0};
    const QString text = block.text();
    if (d.where.column <= 0)  // the whole line
        return {block.position(), block.position() + static_cast<int>(text.size())};
    int start = columnToOffset(text, d.where.column);
    int end = tokenEnd(text, start);
    if (start == end && start > 0) {  // at the end of the line: mark the last character
        --start;
        end = start + 1;
    }
    return {block.position() + start, block.position() + end};
}

QString ModelEditor::diagnosticMessageAt(int position) const
{
    // The selections' cursors follow edits made since the last check.
    QStringList messages;
    for (const QTextEdit::ExtraSelection& s : extraSelections())
        if (position >= s.cursor.selectionStart() && position < s.cursor.selectionEnd())
            messages << s.format.toolTip();
    return messages.join(QLatin1Char('\n'));
}

void ModelEditor::applyDiagnostics()
{
    QList<QTextEdit::ExtraSelection> selections;
    QTextCharFormat format;
    format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    format.setUnderlineColor(Qt::red);
    for (const model::ModelDiagnostic& d : summary_.errors) {
        const auto [start, end] = diagnosticRange(d);
        if (start == end)
            continue;
        QTextEdit::ExtraSelection selection;
        selection.cursor = QTextCursor(document());
        selection.cursor.setPosition(start);
        selection.cursor.setPosition(end, QTextCursor::KeepAnchor);
        selection.format = format;
        selection.format.setToolTip(QString::fromStdString(d.message));
        selections.append(selection);
    }
    setExtraSelections(selections);
    lineNumberArea_->update();  // error lines have red numbers
}

bool ModelEditor::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QTextCursor cursor = cursorForPosition(help->pos());
        // cursorForPosition rounds to the nearest gap; look at the character on either side.
        QString message = diagnosticMessageAt(cursor.position());
        if (message.isEmpty() && cursor.position() > 0)
            message = diagnosticMessageAt(cursor.position() - 1);
        if (message.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), message, viewport());
        return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

int ModelEditor::lineNumberAreaWidth() const
{
    int digits = 1;
    for (int max = std::max(1, blockCount()); max >= 10; max /= 10)
        ++digits;
    return 6 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(digits, 2);
}

void ModelEditor::updateLineNumberAreaWidth()
{
    setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
}

void ModelEditor::updateLineNumberArea(const QRect& rect, int dy)
{
    if (dy != 0)
        lineNumberArea_->scroll(0, dy);
    else
        lineNumberArea_->update(0, rect.y(), lineNumberArea_->width(), rect.height());
    if (rect.contains(viewport()->rect()))
        updateLineNumberAreaWidth();
}

void ModelEditor::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect cr = contentsRect();
    lineNumberArea_->setGeometry(QRect(cr.left(), cr.top(), lineNumberAreaWidth(), cr.height()));
}

void ModelEditor::lineNumberAreaPaintEvent(QPaintEvent* event)
{
    QPainter painter(lineNumberArea_);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    std::vector<bool> errorLines(static_cast<std::size_t>(blockCount()) + 1, false);
    for (const model::ModelDiagnostic& d : summary_.errors)
        if (d.where.line > 0 && d.where.line <= blockCount())
            errorLines[static_cast<std::size_t>(d.where.line)] = true;

    QTextBlock block = firstVisibleBlock();
    int number = block.blockNumber();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + qRound(blockBoundingRect(block).height());
    const int height = fontMetrics().height();
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            const bool error = errorLines[static_cast<std::size_t>(number) + 1];
            painter.setPen(error ? QColor(Qt::red) : palette().color(QPalette::PlaceholderText));
            painter.drawText(0, top, lineNumberArea_->width() - 3, height, Qt::AlignRight, QString::number(number + 1));
        }
        block = block.next();
        top = bottom;
        bottom = top + qRound(blockBoundingRect(block).height());
        ++number;
    }
}

}  // namespace sysid::ui
