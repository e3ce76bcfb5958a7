#pragma once

#include "ui/project/ModelSummary.h"

#include <QPointer>
#include <QString>
#include <QTableWidget>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sysid::ui {

class ModelEditor;

// The model's parameters (and estimated initial values) as a table. The model text stays the
// single source of truth: editing a value, a bound or "fixed" rewrites the parameter's `param`
// line in the editor, and the table is refilled from the editor's next check. Priors are part
// of that line too (`prior MEAN, SD`), and so is the unit (`unit kg`).
class ParameterTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        ValueColumn,
        UnitColumn,
        LowerColumn,
        UpperColumn,
        FixedColumn,
        PriorMeanColumn,
        PriorSdColumn,
        ColumnCount
    };

    explicit ParameterTable(QWidget* parent = nullptr);

    // The editor whose text the edits rewrite; also follows its summaryChanged (and takes its
    // current summary). nullptr detaches: the table then shows values read-only.
    void setEditor(ModelEditor* editor);
    // Fills the rows from a valid summary; an invalid one keeps the rows shown.
    void setSummary(const ModelSummary& summary);

    int rowOf(const std::string& name) const;  // -1 when the name has no row
    // Replaces the editor's text by newText as one undoable edit of the differing part.
    void replaceEditorText(const QString& newText);

    // Shortest text that reads back as exactly v ("0.1", "1e-07", "-2.5").
    static QString formatNumber(double v);
    // The model text with the statement `param NAME = ...` replaced by
    // `param NAME = VALUE [LOW, HIGH] prior MEAN, SD fixed unit UNIT` written from `parameter`
    // (bounds only when both are finite, prior, "fixed" and the unit only when set), keeping what else is on the line
    // (a trailing comment stays at its column when it fits). Unchanged text when there is no such statement.
    static QString rewriteParameterLine(const QString& modelText, const model::Parameter& parameter);
    // The model text with the estimated initial value at `where` (a parameter's location with
    // isInitialValue) replaced by value, when that place holds a plain number followed by
    // `estimate`; nullopt otherwise (e.g. an expression).
    static std::optional<QString> rewriteInitialValue(const QString& modelText, model::SourceLocation where,
                                                      double value);

private:
    void onItemChanged(QTableWidgetItem* item);
    void fillRow(int row);
    void fillPriorCells(int row);
    void setToolTipQuietly(QTableWidgetItem* item, const QString& tip);  // without itemChanged
    QString editorText() const;

    QPointer<ModelEditor> editor_;
    QMetaObject::Connection summaryConnection_;
    std::vector<model::Parameter> parameters_;  // one per row
    bool filling_ = false;
};

}  // namespace sysid::ui
