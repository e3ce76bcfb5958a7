// The model editor panel: highlighting, debounced error underlines, symbol list, parameter
// table (rewriting the model text) and the derived-equations dialog.
#include <QApplication>
#include <QFontInfo>
#include <QHelpEvent>
#include <QToolTip>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextLayout>
#include <QVBoxLayout>
#include <QtTest>

#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "engine/model/ModelBuilder.h"
#include "engine/model/SymbolicLock.h"
#include "ui/editor/EquationsDialog.h"
#include "ui/editor/ModelEditor.h"
#include "ui/editor/ModelHighlighter.h"
#include "ui/editor/ParameterTable.h"
#include "ui/editor/ProblemList.h"
#include "ui/editor/SymbolList.h"

using sysid::ui::EquationsDialog;
using sysid::ui::ModelEditor;
using sysid::ui::ModelHighlighter;
using sysid::ui::ModelSummary;
using sysid::ui::ParameterTable;
using sysid::ui::ProblemList;
using sysid::ui::SymbolList;

namespace {

const char* const kDuffing = "# Duffing oscillator\n"
                             "param c = 0.1 [0, 10]      # initial guess, optional bounds; estimated\n"
                             "param k3 = 1.0             # estimated\n"
                             "param B = 12 fixed         # known, not estimated\n"
                             "input u                    # a data column of this name, interpolated in time\n"
                             "let  fs = k3*x^3           # intermediate expression\n"
                             "x'' = -c*x' - fs + B*cos(t) + u     # second-order: makes states x and x'\n"
                             "x(0) = 1 estimate, 0       # initial position and velocity of x\n"
                             "output x                   # measured output\n";

// Parses with the engine (under the symbolic lock) and returns the parameters.
std::vector<sysid::model::Parameter> parseParameters(const QString& text)
{
    const std::lock_guard lock(sysid::model::symbolicMutex());
    const sysid::model::Model m = sysid::model::parseModel(text.toStdString(), "<test>");
    return m.parameters;
}

// A parameter as the table would write it: bounds only when given.
sysid::model::Parameter param(const std::string& name, double value, std::optional<std::pair<double, double>> bounds,
                              bool fixed, std::optional<sysid::model::Prior> prior = std::nullopt)
{
    sysid::model::Parameter p;
    p.name = name;
    p.value = value;
    if (bounds) {
        p.lower = bounds->first;
        p.upper = bounds->second;
    }
    p.fixed = fixed;
    p.prior = prior;
    return p;
}

const sysid::model::Parameter* find(const std::vector<sysid::model::Parameter>& ps, const std::string& name)
{
    for (const auto& p : ps)
        if (p.name == name)
            return &p;
    return nullptr;
}

QString lineOf(const QString& text, int index)
{
    return text.split(QLatin1Char('\n')).value(index);
}

void typeLines(QWidget* w, const QStringList& lines)
{
    for (int i = 0; i < lines.size(); ++i) {
        QTest::keyClicks(w, lines[i]);
        if (i + 1 < lines.size())
            QTest::keyClick(w, Qt::Key_Return);
    }
}

std::vector<QTextEdit::ExtraSelection> wavy(const ModelEditor& e)
{
    std::vector<QTextEdit::ExtraSelection> out;
    for (const auto& s : e.extraSelections())
        if (s.format.underlineStyle() == QTextCharFormat::WaveUnderline)
            out.push_back(s);
    return out;
}

bool hasFormatAt(const QTextBlock& block, int offset, const QTextCharFormat& f)
{
    for (const QTextLayout::FormatRange& r : block.layout()->formats())
        if (offset >= r.start && offset < r.start + r.length && r.format.foreground() == f.foreground())
            return true;
    return false;
}

}  // namespace

class TestUiEditor : public QObject {
    Q_OBJECT
private slots:
    void highlighterColoursTokens();
    void typedErrorIsUnderlinedAtItsPlaceAndCleared();
    void typedPoleIsAProblemNotACrash();
    void symbolListShowsNamesAndKeepsThemOnErrors();
    void rewriteParameterLineRoundTrips();
    void rewriteParameterLineKeepsOtherStatements();
    void rewriteInitialValueOnlyForPlainNumbers();
    void parameterTableEditsRewriteTheText();
    void parameterTablePriorsEditTheText();
    void equationsDialogShowsDerivedEquations();
    void problemListShowsPlacesAndJumpsThere();
    void bondGraphIsColouredListedAndDerived();
    void constraintsAreHighlightedCheckedAndDerived();
};

void TestUiEditor::highlighterColoursTokens()
{
    ModelEditor editor;
    editor.setPlainText(QStringLiteral("param k = 2.5e3 fixed  # note\nx'' = -k*sin(x)"));
    QVERIFY(QFontInfo(editor.font()).fixedPitch());
    const ModelHighlighter* h = editor.highlighter();
    QVERIFY(h);
    const QTextBlock first = editor.document()->firstBlock();
    const QTextBlock second = first.next();
    QVERIFY(hasFormatAt(first, 0, h->format(ModelHighlighter::Kind::Keyword)));  // param
    QVERIFY(hasFormatAt(first, 10, h->format(ModelHighlighter::Kind::Number)));  // 2.5e3
    QVERIFY(hasFormatAt(first, 16, h->format(ModelHighlighter::Kind::Keyword)));  // fixed
    QVERIFY(hasFormatAt(first, 25, h->format(ModelHighlighter::Kind::Comment)));  // # note
    QVERIFY(hasFormatAt(second, 1, h->format(ModelHighlighter::Kind::Prime)));  // x''
    QVERIFY(hasFormatAt(second, 9, h->format(ModelHighlighter::Kind::Function)));  // sin
    QVERIFY(!hasFormatAt(first, 6, h->format(ModelHighlighter::Kind::Number)));  // k

    // A keyword is coloured only in its place: here force and prior are also names.
    editor.setPlainText(QStringLiteral("input force hold\nparam prior = 1 prior 1, 0.5\nforce q = force - prior*q'"));
    const QTextBlock input = editor.document()->firstBlock();
    const QTextBlock param = input.next();
    const QTextBlock force = param.next();
    const QTextCharFormat keyword = h->format(ModelHighlighter::Kind::Keyword);
    QVERIFY(hasFormatAt(input, 0, keyword));  // input
    QVERIFY(!hasFormatAt(input, 6, keyword));  // force, the name
    QVERIFY(hasFormatAt(input, 12, keyword));  // hold
    QVERIFY(!hasFormatAt(param, 6, keyword));  // prior, the name
    QVERIFY(hasFormatAt(param, 16, keyword));  // prior, the keyword
    QVERIFY(hasFormatAt(force, 0, keyword));  // force, the statement
    QVERIFY(!hasFormatAt(force, 10, keyword));  // force, the input
    QVERIFY(!hasFormatAt(force, 18, keyword));  // prior, the parameter

    // when starts an event only where its condition and ':' follow.
    editor.setPlainText(QStringLiteral("param when = 0.8\nwhen x < 0 : x' = -when*x'\nwhen(0) = 1, 0\nwhen = 1"));
    const QTextBlock named = editor.document()->firstBlock();
    const QTextBlock event = named.next();
    const QTextBlock initial = event.next();
    QVERIFY(!hasFormatAt(named, 6, keyword));  // when, the parameter
    QVERIFY(hasFormatAt(event, 0, keyword));  // when, the event
    QVERIFY(!hasFormatAt(event, 19, keyword));  // when, the parameter in the reset
    QVERIFY(!hasFormatAt(initial, 0, keyword));  // when(0) = ..., an initial value
    QVERIFY(!hasFormatAt(initial.next(), 0, keyword));  // when = 1
}

void TestUiEditor::typedErrorIsUnderlinedAtItsPlaceAndCleared()
{
    ModelEditor editor;
    editor.resize(500, 300);
    editor.show();
    int checks = 0;
    connect(&editor, &ModelEditor::summaryChanged, this, [&](const ModelSummary&) { ++checks; });
    // line 3: "y' = a*foo + 1": the unknown symbol foo is at column 8
    typeLines(&editor,
              {QStringLiteral("param a = 0.1"), QStringLiteral("state y = 1"), QStringLiteral("y' = a*foo + 1"),
               QStringLiteral("output y")});
    QCOMPARE(checks, 0);  // debounced: nothing checked while typing
    QVERIFY(editor.checkPending());
    QTRY_VERIFY(!editor.diagnostics().empty());
    QCOMPARE(checks, 1);
    QCOMPARE(editor.diagnostics().size(), std::size_t{1});
    const auto& d = editor.diagnostics().front();
    QCOMPARE(d.where.line, 3);
    QCOMPARE(d.where.column, 8);
    QVERIFY2(d.message.find("foo") != std::string::npos, d.message.c_str());
    QVERIFY(!editor.summary().valid);

    const int blockStart = editor.document()->findBlockByNumber(2).position();
    const auto marks = wavy(editor);
    QCOMPARE(marks.size(), std::size_t{1});
    QCOMPARE(marks.front().cursor.selectionStart(), blockStart + 7);
    QCOMPARE(marks.front().cursor.selectionEnd(), blockStart + 10);  // the whole name
    QCOMPARE(marks.front().format.underlineColor(), QColor(Qt::red));
    QCOMPARE(editor.diagnosticMessageAt(blockStart + 8), QString::fromStdString(d.message));
    QVERIFY(editor.diagnosticMessageAt(blockStart + 3).isEmpty());

    // Hovering over the underlined name shows the message as a tooltip.
    QTextCursor hover(editor.document());
    hover.setPosition(blockStart + 8);
    const QPoint at = editor.cursorRect(hover).center();
    QHelpEvent help(QEvent::ToolTip, at, editor.viewport()->mapToGlobal(at));
    QApplication::sendEvent(editor.viewport(), &help);
    QTRY_COMPARE(QToolTip::text(), QString::fromStdString(d.message));

    // Fix it by typing: replace foo with y.
    QTextCursor c = editor.textCursor();
    c.setPosition(blockStart + 7);
    c.setPosition(blockStart + 10, QTextCursor::KeepAnchor);
    editor.setTextCursor(c);
    QTest::keyClicks(&editor, QStringLiteral("y"));
    QTRY_VERIFY(editor.diagnostics().empty());
    QVERIFY(editor.summary().valid);
    QVERIFY(wavy(editor).empty());
    QCOMPARE(lineOf(editor.toPlainText(), 2), QStringLiteral("y' = a*y + 1"));

    // A syntax error at the end of a line still gets a visible mark, and undo brings the text back.
    QTest::keyClick(&editor, Qt::Key_End);
    QTest::keyClicks(&editor, QStringLiteral(" +"));
    QTRY_VERIFY(!editor.diagnostics().empty());
    QCOMPARE(wavy(editor).size(), std::size_t{1});
    editor.undo();
    QTRY_VERIFY(editor.diagnostics().empty());
}

// log(0) and tan(pi/2) made GiNaC throw while the editor checked the model as it was typed, and
// the application ended, losing the unsaved work. They are problems at their place now.
void TestUiEditor::typedPoleIsAProblemNotACrash()
{
    ModelEditor editor;
    editor.resize(500, 300);
    editor.show();
    typeLines(&editor,
              {QStringLiteral("param a = 0.1"), QStringLiteral("state y = 1"), QStringLiteral("y' = -a*y + log(0)"),
               QStringLiteral("output y")});
    QTRY_VERIFY(!editor.diagnostics().empty());
    QCOMPARE(editor.diagnostics().size(), std::size_t{1});
    const auto& d = editor.diagnostics().front();
    QCOMPARE(d.where.line, 3);
    QCOMPARE(d.where.column, 13);
    QVERIFY2(d.message.find("infinite") != std::string::npos, d.message.c_str());
    QVERIFY(!editor.summary().valid);
    QCOMPARE(wavy(editor).size(), std::size_t{1});

    // The same through the summary the project keeps, for tan(pi/2) and a constant overflow.
    for (const char* rhs : {"tan(pi/2)", "exp(exp(exp(10)))", "1/(a - a)"}) {
        const ModelSummary summary =
            sysid::ui::summarizeModel(std::string("param a = 1\nstate y = 1\ny' = -a*y + ") + rhs + "\n", "m.model");
        QVERIFY(!summary.valid);
        QCOMPARE(summary.errors.size(), std::size_t{1});
        QCOMPARE(summary.errors.front().where.line, 3);
    }
}

void TestUiEditor::symbolListShowsNamesAndKeepsThemOnErrors()
{
    ModelEditor editor;
    SymbolList list;
    connect(&editor, &ModelEditor::summaryChanged, &list, &SymbolList::setSummary);
    editor.setPlainText(QString::fromUtf8(kDuffing));
    QTRY_VERIFY(editor.summary().valid);
    QCOMPARE(list.names(SymbolList::Group::States), (QStringList{"x", "x'"}));
    QCOMPARE(list.names(SymbolList::Group::Parameters), (QStringList{"c", "k3", "B", "x(0)"}));
    QCOMPARE(list.names(SymbolList::Group::Inputs), QStringList{"u"});
    QCOMPARE(list.names(SymbolList::Group::Outputs), QStringList{"x"});
    QVERIFY(list.names(SymbolList::Group::Events).isEmpty());
    QVERIFY(list.findItems(QStringLiteral("Events (0)"), Qt::MatchExactly).value(0)->isHidden());
    QVERIFY(!list.showsErrors());

    editor.appendPlainText(QStringLiteral("output nonsense"));
    QTRY_VERIFY(!editor.summary().valid);
    QVERIFY(list.showsErrors());
    QCOMPARE(list.topLevelItem(0)->text(0), QStringLiteral("model has errors"));
    QCOMPARE(list.names(SymbolList::Group::States), (QStringList{"x", "x'"}));  // last good lists

    editor.undo();
    QTRY_VERIFY(editor.summary().valid);
    QVERIFY(!list.showsErrors());

    // A model's resets as written, in a group of their own.
    editor.appendPlainText(QStringLiteral("when x < -1 : x' = -0.5*x'\nwhen t>2:x=0, x'=0"));
    QTRY_COMPARE(editor.summary().events.size(), std::size_t(2));
    QCOMPARE(list.names(SymbolList::Group::Events),
             (QStringList{"when x < -1 : x' = -0.5*x'", "when t>2 : x=0, x'=0"}));
    QVERIFY(!list.findItems(QStringLiteral("Events (2)"), Qt::MatchExactly).value(0)->isHidden());
}

void TestUiEditor::rewriteParameterLineRoundTrips()
{
    const QString text = QString::fromUtf8(kDuffing);
    const auto original = parseParameters(text);

    // c: new value and bounds, fixed; longer code than fits before the comment keeps the gap.
    QString t = ParameterTable::rewriteParameterLine(text, param("c", 0.25, std::pair{0.1, 5.0}, true));
    QCOMPARE(lineOf(t, 1),
             QStringLiteral("param c = 0.25 [0.1, 5] fixed      # initial guess, optional bounds; estimated"));
    auto ps = parseParameters(t);
    QCOMPARE(ps.size(), original.size());
    const auto* c = find(ps, "c");
    QVERIFY(c);
    QCOMPARE(c->value, 0.25);
    QCOMPARE(c->lower, 0.1);
    QCOMPARE(c->upper, 5.0);
    QVERIFY(c->fixed);
    QCOMPARE(find(ps, "k3")->value, 1.0);
    QVERIFY(find(ps, "B")->fixed);

    // k3: values that need all their digits read back exactly; comment column kept.
    const double third = 1.0 / 3.0;
    t = ParameterTable::rewriteParameterLine(
        t, param("k3", third, std::pair{-1e-7, 1e6}, false, sysid::model::Prior{third, 0.5}));
    ps = parseParameters(t);
    QVERIFY(find(ps, "k3")->prior);
    QCOMPARE(find(ps, "k3")->prior->mean, third);
    QCOMPARE(find(ps, "k3")->prior->sd, 0.5);
    QCOMPARE(find(ps, "k3")->value, third);
    QCOMPARE(find(ps, "k3")->lower, -1e-7);
    QCOMPARE(find(ps, "k3")->upper, 1e6);
    QVERIFY(!find(ps, "k3")->fixed);
    QVERIFY(lineOf(t, 2).endsWith(QStringLiteral(" # estimated")));

    // B: no longer fixed, no bounds; short code keeps the comment where it was.
    t = ParameterTable::rewriteParameterLine(t, param("B", -12.5, std::nullopt, false));
    QCOMPARE(lineOf(t, 3), QStringLiteral("param B = -12.5            # known, not estimated"));
    ps = parseParameters(t);
    QCOMPARE(find(ps, "B")->value, -12.5);
    QVERIFY(!find(ps, "B")->fixed);
    QVERIFY(std::isinf(find(ps, "B")->lower));
    QVERIFY(std::isinf(find(ps, "B")->upper));

    // Infinite bounds are left out; everything else in the text is untouched.
    t = ParameterTable::rewriteParameterLine(
        t, param("c", 0.1, std::pair{0.0, std::numeric_limits<double>::infinity()}, false));
    QVERIFY(lineOf(t, 1).startsWith(QStringLiteral("param c = 0.1 ")));
    QVERIFY(!lineOf(t, 1).contains(QLatin1Char('[')));
    for (int i : {0, 4, 5, 6, 7, 8})
        QCOMPARE(lineOf(t, i), lineOf(text, i));

    // Unknown names (and x(0), which has no param line) leave the text alone.
    QCOMPARE(ParameterTable::rewriteParameterLine(text, param("nope", 1.0, std::nullopt, false)), text);
    QCOMPARE(ParameterTable::rewriteParameterLine(text, param("x(0)", 1.0, std::nullopt, false)), text);
}

void TestUiEditor::rewriteParameterLineKeepsOtherStatements()
{
    const QString text = QStringLiteral("param k = 1\nparam k3 = 2\n  param a = 1; param b = 2 # two\nstate y = 1\n"
                                        "y' = -k*k3*a*b*y\n");
    QString t = ParameterTable::rewriteParameterLine(text, param("k3", 4, std::nullopt, true));
    QCOMPARE(lineOf(t, 0), QStringLiteral("param k = 1"));  // k is not a prefix match of k3
    QCOMPARE(lineOf(t, 1), QStringLiteral("param k3 = 4 fixed"));
    t = ParameterTable::rewriteParameterLine(t, param("a", 3, std::pair{0.0, 5.0}, false));
    QCOMPARE(lineOf(t, 2), QStringLiteral("  param a = 3 [0, 5]; param b = 2 # two"));
    t = ParameterTable::rewriteParameterLine(t, param("b", 0.5, std::nullopt, false));
    QCOMPARE(lineOf(t, 2), QStringLiteral("  param a = 3 [0, 5]; param b = 0.5 # two"));
    const auto ps = parseParameters(t);
    QCOMPARE(find(ps, "k")->value, 1.0);
    QCOMPARE(find(ps, "k3")->value, 4.0);
    QVERIFY(find(ps, "k3")->fixed);
    QCOMPARE(find(ps, "a")->upper, 5.0);
    QCOMPARE(find(ps, "b")->value, 0.5);

    // Windows line ends survive.
    const QString crlf = QStringLiteral("param a = 1  # x\r\nstate y = 1\r\ny' = -a*y\r\n");
    QCOMPARE(ParameterTable::rewriteParameterLine(crlf, param("a", 2, std::nullopt, false)),
             QStringLiteral("param a = 2  # x\r\nstate y = 1\r\ny' = -a*y\r\n"));
}

void TestUiEditor::rewriteInitialValueOnlyForPlainNumbers()
{
    const QString text = QString::fromUtf8(kDuffing);
    const auto ps = parseParameters(text);
    const auto* x0 = find(ps, "x(0)");
    QVERIFY(x0);
    QVERIFY(x0->isInitialValue);
    const auto t = ParameterTable::rewriteInitialValue(text, x0->where, -0.75);
    QVERIFY(t);
    QCOMPARE(lineOf(*t, 7), QStringLiteral("x(0) = -0.75 estimate, 0       # initial position and velocity of x"));
    QCOMPARE(find(parseParameters(*t), "x(0)")->value, -0.75);

    const QString first = QStringLiteral("state z = -1.5e-3 estimate # z\nz' = -z\n");
    const auto firstParameters = parseParameters(first);  // z0 points into it
    const auto* z0 = find(firstParameters, "z(0)");
    QVERIFY(z0);
    const auto t2 = ParameterTable::rewriteInitialValue(first, z0->where, 2);
    QVERIFY(t2);
    QCOMPARE(*t2, QStringLiteral("state z = 2 estimate # z\nz' = -z\n"));

    const QString expression = QStringLiteral("state z = 2*0.5 estimate\nz' = -z\n");
    const auto expressionParameters = parseParameters(expression);
    QVERIFY(!ParameterTable::rewriteInitialValue(expression, find(expressionParameters, "z(0)")->where, 1));
}

void TestUiEditor::parameterTableEditsRewriteTheText()
{
    ModelEditor editor;
    editor.setPlainText(QString::fromUtf8(kDuffing));
    editor.checkNow();
    ParameterTable table;
    table.setEditor(&editor);
    QCOMPARE(table.rowCount(), 4);
    QCOMPARE(table.columnCount(), int{ParameterTable::ColumnCount});
    const int c = table.rowOf("c");
    const int k3 = table.rowOf("k3");
    const int x0 = table.rowOf("x(0)");
    QCOMPARE(table.item(c, ParameterTable::ValueColumn)->text(), QStringLiteral("0.1"));
    QCOMPARE(table.item(c, ParameterTable::UpperColumn)->text(), QStringLiteral("10"));
    QCOMPARE(table.item(table.rowOf("B"), ParameterTable::FixedColumn)->checkState(), Qt::Checked);
    QVERIFY(table.item(c, ParameterTable::ValueColumn)->flags() & Qt::ItemIsEditable);

    // value
    table.item(c, ParameterTable::ValueColumn)->setText(QStringLiteral("0.5"));
    QCOMPARE(lineOf(editor.toPlainText(), 1),
             QStringLiteral("param c = 0.5 [0, 10]      # initial guess, optional bounds; estimated"));
    QTRY_COMPARE(find(editor.summary().parameters, "c")->value, 0.5);
    QCOMPARE(table.item(c, ParameterTable::ValueColumn)->text(), QStringLiteral("0.5"));

    // fixed
    table.item(k3, ParameterTable::FixedColumn)->setCheckState(Qt::Checked);
    QCOMPARE(lineOf(editor.toPlainText(), 2), QStringLiteral("param k3 = 1 fixed         # estimated"));

    // bounds: one bound alone waits for the other; then both are written
    const QString before = editor.toPlainText();
    table.item(k3, ParameterTable::LowerColumn)->setText(QStringLiteral("0"));
    QCOMPARE(editor.toPlainText(), before);
    table.item(k3, ParameterTable::UpperColumn)->setText(QStringLiteral("5"));
    QCOMPARE(lineOf(editor.toPlainText(), 2), QStringLiteral("param k3 = 1 [0, 5] fixed  # estimated"));
    QTRY_VERIFY(editor.summary().valid && find(editor.summary().parameters, "k3")->upper == 5.0);
    QVERIFY(find(editor.summary().parameters, "k3")->fixed);

    // not a number: the cell goes back, the text stays
    const QString good = editor.toPlainText();
    table.item(k3, ParameterTable::ValueColumn)->setText(QStringLiteral("abc"));
    QCOMPARE(editor.toPlainText(), good);
    QCOMPARE(table.item(k3, ParameterTable::ValueColumn)->text(), QStringLiteral("1"));

    // estimated initial value: a plain number is rewritten in x(0) = ...; its bounds are read-only
    QVERIFY(table.item(x0, ParameterTable::ValueColumn)->flags() & Qt::ItemIsEditable);
    QVERIFY(!(table.item(x0, ParameterTable::LowerColumn)->flags() & Qt::ItemIsEditable));
    table.item(x0, ParameterTable::ValueColumn)->setText(QStringLiteral("2"));
    QVERIFY(lineOf(editor.toPlainText(), 7).startsWith(QStringLiteral("x(0) = 2 estimate, 0")));
    QTRY_COMPARE(find(editor.summary().parameters, "x(0)")->value, 2.0);

    // each edit is one undo step of the editor
    editor.undo();
    QVERIFY(lineOf(editor.toPlainText(), 7).startsWith(QStringLiteral("x(0) = 1 estimate, 0")));

    // an initial value given by an expression is read-only in the table
    editor.setPlainText(QStringLiteral("state z = 2*0.5 estimate\nz' = -z\n"));
    editor.checkNow();
    QCOMPARE(table.rowCount(), 1);
    QVERIFY(!(table.item(0, ParameterTable::ValueColumn)->flags() & Qt::ItemIsEditable));
}

void TestUiEditor::parameterTablePriorsEditTheText()
{
    ModelEditor editor;
    editor.setPlainText(QString::fromUtf8(kDuffing));
    editor.checkNow();
    ParameterTable table;
    table.setEditor(&editor);
    const QString text = editor.toPlainText();
    const int c = table.rowOf("c");
    table.item(c, ParameterTable::PriorMeanColumn)->setText(QStringLiteral("0.2"));
    QCOMPARE(editor.toPlainText(), text);  // waits for the sd
    table.item(c, ParameterTable::PriorSdColumn)->setText(QStringLiteral("0.05"));
    QVERIFY(lineOf(editor.toPlainText(), 1).startsWith(QStringLiteral("param c = 0.1 [0, 10] prior 0.2, 0.05")));
    editor.checkNow();
    const auto parameters = parseParameters(editor.toPlainText());  // cp points into it
    const auto* cp = find(parameters, "c");
    QVERIFY(cp && cp->prior);
    QCOMPARE(cp->prior->mean, 0.2);
    QCOMPARE(cp->prior->sd, 0.05);
    QCOMPARE(table.item(table.rowOf("c"), ParameterTable::PriorSdColumn)->text(), QStringLiteral("0.05"));

    const QString withPrior = editor.toPlainText();
    table.item(table.rowOf("c"), ParameterTable::PriorSdColumn)->setText(QStringLiteral("-1"));  // rejected
    QCOMPARE(editor.toPlainText(), withPrior);
    QCOMPARE(table.item(table.rowOf("c"), ParameterTable::PriorSdColumn)->text(), QStringLiteral("0.05"));

    table.item(table.rowOf("c"), ParameterTable::PriorMeanColumn)->setText(QString());
    table.item(table.rowOf("c"), ParameterTable::PriorSdColumn)->setText(QString());
    editor.checkNow();
    QVERIFY(!find(parseParameters(editor.toPlainText()), "c")->prior);
    QVERIFY(!editor.toPlainText().contains(QStringLiteral("prior")));

    // An estimated initial value has no param line, so its prior cells are read-only.
    const int x0 = table.rowOf("x(0)");
    QVERIFY(x0 >= 0);
    QVERIFY(!(table.item(x0, ParameterTable::PriorMeanColumn)->flags() & Qt::ItemIsEditable));
}

void TestUiEditor::equationsDialogShowsDerivedEquations()
{
    ModelEditor editor;
    editor.setPlainText(QString::fromUtf8(kDuffing));
    editor.checkNow();
    QVERIFY(editor.summary().valid);
    QVERIFY(!editor.summary().equations.empty());
    EquationsDialog dialog(editor.summary());
    QCOMPARE(dialog.text(), QString::fromStdString(editor.summary().equations));
    auto* view = dialog.findChild<QPlainTextEdit*>(QStringLiteral("equationsView"));
    QVERIFY(view);
    QVERIFY(view->isReadOnly());
    QVERIFY(QFontInfo(view->font()).fixedPitch());

    ModelSummary invalid;
    dialog.setSummary(invalid);
    QVERIFY(dialog.text().contains(QStringLiteral("errors")));
}

// A syntax error and an unknown name: listed in text order as line:column and message, the first
// one signalled for the status bar; a click on a row puts the cursor at that place.
void TestUiEditor::problemListShowsPlacesAndJumpsThere()
{
    QWidget pane;
    auto* layout = new QVBoxLayout(&pane);
    auto* editor = new ModelEditor(&pane);
    auto* problems = new ProblemList(editor, &pane);
    layout->addWidget(editor);
    layout->addWidget(problems);
    pane.resize(600, 400);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QVERIFY(problems->isHidden());
    QSignalSpy first(editor, &ModelEditor::firstProblemChanged);

    editor->setPlainText(QStringLiteral("param a = 0.1\nstate y = 1\ny' = a*foo + 1\noutput y\n"));
    editor->checkNow();
    QCOMPARE(problems->count(), 1);
    QVERIFY(!problems->isHidden());
    QVERIFY2(problems->item(0)->text().startsWith(QStringLiteral("3:8  ")), qPrintable(problems->item(0)->text()));
    QVERIFY(problems->item(0)->text().contains(QStringLiteral("foo")));
    QCOMPARE(first.count(), 1);
    QVERIFY2(first.last().at(0).toString().startsWith(QStringLiteral("line 3, column 8: ")),
             qPrintable(first.last().at(0).toString()));

    // A syntax error on line 2 as well: both listed, the first in the text first.
    editor->setPlainText(QStringLiteral("param a = 0.1\nstate y = = 1\ny' = a*foo + 1\noutput y\n"));
    editor->checkNow();
    QVERIFY(problems->count() >= 1);
    const auto& d = editor->diagnostics().front();
    QCOMPARE(d.where.line, 2);
    QVERIFY(d.where.column > 0);
    QCOMPARE(problems->item(0)->text(), ProblemList::rowText(d));
    QVERIFY(problems->item(0)->text().startsWith(QStringLiteral("2:%1  ").arg(d.where.column)));
    QCOMPARE(first.count(), 2);
    QVERIFY(first.last().at(0).toString().startsWith(QStringLiteral("line 2, column ")));

    QTextCursor start(editor->document());
    editor->setTextCursor(start);
    QTest::mouseClick(problems->viewport(), Qt::LeftButton, {}, problems->visualItemRect(problems->item(0)).center());
    QCOMPARE(editor->textCursor().blockNumber(), d.where.line - 1);
    QCOMPARE(editor->textCursor().positionInBlock(), d.where.column - 1);
    const int last = problems->count() - 1;
    const auto& lastProblem = editor->diagnostics().back();
    QTest::mouseClick(problems->viewport(), Qt::LeftButton, {},
                      problems->visualItemRect(problems->item(last)).center());
    QCOMPARE(editor->textCursor().blockNumber(), lastProblem.where.line - 1);

    // Fixed: the list hides and the status line is cleared.
    editor->setPlainText(QStringLiteral("param a = 0.1\nstate y = 1\ny' = a*y + 1\noutput y\n"));
    editor->checkNow();
    QCOMPARE(problems->count(), 0);
    QVERIFY(problems->isHidden());
    QCOMPARE(first.count(), 3);
    QVERIFY(first.last().at(0).toString().isEmpty());
}

QTEST_MAIN(TestUiEditor)
#include "test_ui_editor.moc"

// A bond graph in the editor: its element and junction keywords coloured only where they start a
// statement (R is also a parameter here), its elements in a group of their own, its causality and
// state equations in the derived-equations dialog, and a causal conflict listed at its place.
void TestUiEditor::bondGraphIsColouredListedAndDerived()
{
    ModelEditor editor;
    SymbolList list;
    connect(&editor, &ModelEditor::summaryChanged, &list, &SymbolList::setSummary);
    editor.setPlainText(QStringLiteral("param m = 1\nparam R = 0.5\ninput u\nSe push = u\nI mass = m\nR drag = R\n"
                                       "1 v : push, mass, drag\noutput x = mass.p'\n"));
    editor.checkNow();
    QVERIFY(editor.summary().valid);
    const ModelHighlighter* h = editor.highlighter();
    const QTextCharFormat keyword = h->format(ModelHighlighter::Kind::Keyword);
    const QTextBlock rParam = editor.document()->findBlockByNumber(1);
    const QTextBlock se = editor.document()->findBlockByNumber(3);
    const QTextBlock r = editor.document()->findBlockByNumber(5);
    const QTextBlock junction = editor.document()->findBlockByNumber(6);
    const QTextBlock out = editor.document()->findBlockByNumber(7);
    QVERIFY(hasFormatAt(se, 0, keyword));  // Se
    QVERIFY(!hasFormatAt(se, 3, keyword));  // push, the name
    QVERIFY(hasFormatAt(r, 0, keyword));  // R, the element
    QVERIFY(!hasFormatAt(r, 9, keyword));  // R, the parameter
    QVERIFY(!hasFormatAt(rParam, 6, keyword));  // R, declared as a parameter
    QVERIFY(hasFormatAt(junction, 0, keyword));  // 1, the junction
    QVERIFY(!hasFormatAt(junction, 0, h->format(ModelHighlighter::Kind::Number)));
    QVERIFY(hasFormatAt(out, 11, h->format(ModelHighlighter::Kind::Prime)));  // mass.p'

    QTRY_COMPARE(list.names(SymbolList::Group::BondGraph),
                 (QStringList{"Se push", "I mass", "R drag", "1-junction v"}));
    QCOMPARE(list.names(SymbolList::Group::States), QStringList{"mass.p"});
    EquationsDialog dialog(editor.summary());
    QVERIFY(dialog.text().contains(QStringLiteral("bond 1: Se push -> 1-junction v (source)")));
    QVERIFY(dialog.text().contains(QStringLiteral("(integral causality)")));
    QVERIFY(dialog.text().contains(QStringLiteral("d/dt mass.p = ")));

    // Two flow sources on one 1-junction: a causal conflict, listed at the second source's name.
    ProblemList problems(&editor);
    editor.setPlainText(editor.toPlainText() + QStringLiteral("Sf other = 2*u\nSf third = u\n1 w : other, third, v\n"));
    editor.checkNow();
    QVERIFY(!editor.summary().valid);
    QCOMPARE(problems.count(), 1);
    QVERIFY2(problems.item(0)->text().startsWith(QStringLiteral("10:4  causal conflict: the Sf third")),
             qPrintable(problems.item(0)->text()));
    QVERIFY(problems.item(0)->text().contains(QStringLiteral("the Sf other already sets it")));
    QVERIFY(list.showsErrors());
}

// Issue 20: constraint, algebraic, include and guess are coloured where they are statements (and
// constraint(0) = ... stays an initial value), their problems are found as typed, and the derived
// equations show the descriptor system, the index and the hidden constraints.
void TestUiEditor::constraintsAreHighlightedCheckedAndDerived()
{
    ModelEditor editor;
    const ModelHighlighter* h = editor.highlighter();
    const QTextCharFormat keyword = h->format(ModelHighlighter::Kind::Keyword);
    editor.setPlainText(QStringLiteral("constraint rod: x^2 + y^2 = l^2\nconstraint(0) = 1, 0\nalgebraic z = 1\n"
                                       "include \"bar.model\" as crank (m = m1)\ny(0) = -0.5 guess"));
    const QTextBlock constraint = editor.document()->firstBlock();
    const QTextBlock initial = constraint.next();
    const QTextBlock algebraic = initial.next();
    const QTextBlock include = algebraic.next();
    const QTextBlock guess = include.next();
    QVERIFY(hasFormatAt(constraint, 0, keyword));
    QVERIFY(!hasFormatAt(initial, 0, keyword));
    QVERIFY(hasFormatAt(algebraic, 0, keyword));
    QVERIFY(hasFormatAt(include, 0, keyword));
    QVERIFY(hasFormatAt(include, 9, h->format(ModelHighlighter::Kind::String)));  // "bar.model"
    QVERIFY(hasFormatAt(include, 20, keyword));  // as
    QVERIFY(!hasFormatAt(include, 23, keyword));  // crank
    QVERIFY(hasFormatAt(guess, 12, keyword));  // guess

    // An algebraic equation cannot name a multiplier: reported at its place.
    editor.setPlainText(QStringLiteral("state x = 1\nalgebraic z\nx' = -z\nconstraint named: z = x\n"));
    editor.checkNow();
    QVERIFY(!editor.summary().valid);
    QCOMPARE(editor.diagnostics().front().where.line, 4);
    QVERIFY(editor.diagnostics().front().message.find("multiplier") != std::string::npos);

    editor.setPlainText(QStringLiteral("param l = 1\nparam g = 9.81\ncoord x, y\nkinetic T = 1/2*(x'^2 + y'^2)\n"
                                       "potential V = g*y\nconstraint rod: x^2 + y^2 = l^2\nx(0) = 0.6, 0\n"
                                       "y(0) = -0.5 guess\noutput tension = 2*l*rod\n"));
    editor.checkNow();
    QVERIFY(editor.summary().valid);
    EquationsDialog dialog(editor.summary());
    const QString text = dialog.text();
    QVERIFY(text.contains(QStringLiteral("descriptor system")));
    QVERIFY(text.contains(QStringLiteral("M q'' + Phi_q^T lambda = Q")));
    QVERIFY(text.contains(QStringLiteral("differentiation index 3")));
    QVERIFY(text.contains(QStringLiteral("hidden constraint (first time derivative)")));
    QVERIFY(text.contains(QStringLiteral("index-1 equation (second time derivative)")));
    SymbolList list;
    list.setSummary(editor.summary());
    QCOMPARE(list.names(SymbolList::Group::Constraints),
             (QStringList{QStringLiteral("x^2 + y^2 = l^2 (multiplier rod)")}));
}
