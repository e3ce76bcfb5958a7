#pragma once

#include "ui/project/ModelSummary.h"

#include <QPlainTextEdit>
#include <QString>
#include <QTimer>

#include <vector>

class QPaintEvent;
class QResizeEvent;

namespace sysid::ui {

class ModelHighlighter;

// The model text editor: monospace, line numbers, syntax colouring, and the parser's errors
// underlined in red at their line and column, re-checked 300 ms after the last edit. Hovering
// over an underlined place shows the message; ProblemList lists them, and firstProblemChanged
// carries the first for a status bar. Undo/redo are QPlainTextEdit's own.
class ModelEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    static constexpr int kCheckDelayMs = 300;

    explicit ModelEditor(QWidget* parent = nullptr);

    // The name the parser puts into messages (file name or "<model>").
    void setSource(const QString& source);
    QString source() const { return source_; }

    // The diagnostics of the last check (empty when the model is valid or not yet checked).
    const std::vector<model::ModelDiagnostic>& diagnostics() const { return summary_.errors; }
    // The summary of the last check.
    const ModelSummary& summary() const { return summary_; }
    // Checks now instead of after the debounce delay (cancels a pending check).
    void checkNow();
    bool checkPending() const { return checkTimer_.isActive(); }

    // Text position range [start, end) underlined for a diagnostic; start == end when it has no place.
    std::pair<int, int> diagnosticRange(const model::ModelDiagnostic& d) const;
    // The messages of the diagnostics underlined at a text position, one per line; empty if none.
    QString diagnosticMessageAt(int position) const;
    // Puts the cursor at the start of a diagnostic's place, shows it and takes the focus.
    void goTo(const model::ModelDiagnostic& d);
    // A diagnostic as a line of text: "line 3, column 5: MESSAGE" (only what it has of a place).
    static QString problemText(const model::ModelDiagnostic& d);

    ModelHighlighter* highlighter() const { return highlighter_; }
    int lineNumberAreaWidth() const;

signals:
    void summaryChanged(const sysid::ui::ModelSummary& summary);
    // The first problem of the last check as problemText gives it; empty once the model is valid.
    // Emitted when it changes.
    void firstProblemChanged(const QString& text);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    friend class LineNumberArea;
    void lineNumberAreaPaintEvent(QPaintEvent* event);
    void updateLineNumberAreaWidth();
    void updateLineNumberArea(const QRect& rect, int dy);
    void applyDiagnostics();

    QWidget* lineNumberArea_ = nullptr;
    ModelHighlighter* highlighter_ = nullptr;
    QTimer checkTimer_;
    QString source_ = QStringLiteral("<model>");
    ModelSummary summary_;
    QString firstProblem_;
};

}  // namespace sysid::ui
