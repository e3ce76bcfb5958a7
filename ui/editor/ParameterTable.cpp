#include "ui/editor/ParameterTable.h"

#include "ui/editor/ModelEditor.h"
#include "ui/editor/ModelTextPositions.h"

#include <QBrush>
#include <QHeaderView>
#include <QLocale>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QTextCursor>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sysid::ui {

namespace {

QTableWidgetItem* readOnlyItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

QTableWidgetItem* editableItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable);
    return item;
}

// A finite number, or nullopt (empty or not a number).
std::optional<double> readNumber(const QTableWidgetItem* item)
{
    if (!item)
        return std::nullopt;
    bool ok = false;
    const double v = item->text().trimmed().toDouble(&ok);  // C locale: '.' as decimal point
    if (!ok || !std::isfinite(v))
        return std::nullopt;
    return v;
}

bool isBlank(const QTableWidgetItem* item)
{
    return !item || item->text().trimmed().isEmpty();
}

QString trailingSpace(const QString& s)
{
    qsizetype i = s.size();
    while (i > 0 && s.at(i - 1).isSpace())
        --i;
    return s.mid(i);
}

QString leadingSpace(const QString& s)
{
    qsizetype i = 0;
    while (i < s.size() && s.at(i).isSpace())
        ++i;
    return s.left(i);
}

}  // namespace

ParameterTable::ParameterTable(QWidget* parent) : QTableWidget(0, ColumnCount, parent)
{
    setHorizontalHeaderLabels({tr("Name"), tr("Initial guess"), tr("Unit"), tr("Lower"), tr("Upper"), tr("Fixed"),
                               tr("Prior mean"), tr("Prior sd")});
    horizontalHeaderItem(UnitColumn)->setToolTip(tr("As written after 'unit' in the model, e.g. kg or N*s/m"));
    horizontalHeaderItem(PriorMeanColumn)->setToolTip(tr("Gaussian prior, kept in the project settings"));
    horizontalHeaderItem(PriorSdColumn)->setToolTip(tr("Gaussian prior, kept in the project settings"));
    verticalHeader()->setVisible(false);
    horizontalHeader()->setStretchLastSection(true);
    setSelectionBehavior(QAbstractItemView::SelectItems);
    setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                    QAbstractItemView::AnyKeyPressed);
    connect(this, &QTableWidget::itemChanged, this, &ParameterTable::onItemChanged);
}

void ParameterTable::setEditor(ModelEditor* editor)
{
    disconnect(summaryConnection_);
    editor_ = editor;
    if (editor) {
        summaryConnection_ = connect(editor, &ModelEditor::summaryChanged, this, &ParameterTable::setSummary);
        setSummary(editor->summary());
    } else {
        for (int row = 0; row < rowCount(); ++row)
            fillRow(row);
    }
}

void ParameterTable::setSummary(const ModelSummary& summary)
{
    if (!summary.valid)
        return;
    parameters_ = summary.parameters;
    filling_ = true;
    setRowCount(static_cast<int>(parameters_.size()));
    filling_ = false;
    for (int row = 0; row < rowCount(); ++row)
        fillRow(row);
    resizeColumnToContents(NameColumn);
    resizeColumnToContents(UnitColumn);  // short texts: the columns after it stay in view
}

int ParameterTable::rowOf(const std::string& name) const
{
    for (std::size_t i = 0; i < parameters_.size(); ++i)
        if (parameters_[i].name == name)
            return static_cast<int>(i);
    return -1;
}

void ParameterTable::fillRow(int row)
{
    const model::Parameter& p = parameters_.at(static_cast<std::size_t>(row));
    filling_ = true;
    const bool attached = !editor_.isNull();
    auto* name = readOnlyItem(QString::fromStdString(p.name));
    if (p.isInitialValue)
        name->setToolTip(tr("estimated initial value"));
    setItem(row, NameColumn, name);

    const QString value = formatNumber(p.value);
    const bool valueEditable =
        attached && (!p.isInitialValue || rewriteInitialValue(editorText(), p.where, p.value).has_value());
    QTableWidgetItem* valueItem = valueEditable ? editableItem(value) : readOnlyItem(value);
    if (p.isInitialValue && !valueEditable)
        valueItem->setToolTip(tr("edit this initial value in the model text"));
    setItem(row, ValueColumn, valueItem);

    const QString unit = QString::fromStdString(p.unit);
    QTableWidgetItem* unitItem = attached && !p.isInitialValue ? editableItem(unit) : readOnlyItem(unit);
    if (p.isInitialValue)
        unitItem->setToolTip(tr("the unit of the state"));
    setItem(row, UnitColumn, unitItem);

    const QString lower = std::isfinite(p.lower) ? formatNumber(p.lower) : QString();
    const QString upper = std::isfinite(p.upper) ? formatNumber(p.upper) : QString();
    const bool boundsEditable = attached && !p.isInitialValue;
    setItem(row, LowerColumn, boundsEditable ? editableItem(lower) : readOnlyItem(lower));
    setItem(row, UpperColumn, boundsEditable ? editableItem(upper) : readOnlyItem(upper));

    auto* fixed = new QTableWidgetItem;
    if (p.isInitialValue) {
        fixed->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    } else {
        fixed->setFlags(attached ? Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable
                                 : Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        fixed->setCheckState(p.fixed ? Qt::Checked : Qt::Unchecked);
    }
    setItem(row, FixedColumn, fixed);
    filling_ = false;
    fillPriorCells(row);
}

void ParameterTable::fillPriorCells(int row)
{
    const model::Parameter& p = parameters_.at(static_cast<std::size_t>(row));
    const QString mean = p.prior ? formatNumber(p.prior->mean) : QString();
    const QString sd = p.prior ? formatNumber(p.prior->sd) : QString();
    const bool editable = !editor_.isNull() && !p.isInitialValue;  // `state x = 1 estimate` takes no prior
    filling_ = true;
    setItem(row, PriorMeanColumn, editable ? editableItem(mean) : readOnlyItem(mean));
    setItem(row, PriorSdColumn, editable ? editableItem(sd) : readOnlyItem(sd));
    filling_ = false;
}

void ParameterTable::onItemChanged(QTableWidgetItem* item)
{
    if (filling_ || !item)
        return;
    const int row = item->row();
    if (row < 0 || row >= static_cast<int>(parameters_.size()))
        return;
    model::Parameter p = parameters_[static_cast<std::size_t>(row)];
    const int column = item->column();
    if (editor_.isNull()) {
        fillRow(row);
        return;
    }

    if (column == PriorMeanColumn || column == PriorSdColumn) {
        if (p.isInitialValue)
            return;
        QTableWidgetItem* meanItem = this->item(row, PriorMeanColumn);
        QTableWidgetItem* sdItem = this->item(row, PriorSdColumn);
        if (isBlank(meanItem) && isBlank(sdItem)) {
            if (!p.prior)
                return;
            p.prior.reset();
            replaceEditorText(rewriteParameterLine(editorText(), p));
            return;
        }
        const std::optional<double> mean = readNumber(meanItem);
        const std::optional<double> sd = readNumber(sdItem);
        if (mean && sd && *sd > 0) {
            p.prior = model::Prior{*mean, *sd};
            replaceEditorText(rewriteParameterLine(editorText(), p));
        } else if ((!isBlank(meanItem) && !mean) || (!isBlank(sdItem) && (!sd || *sd <= 0))) {
            fillPriorCells(row);  // not a number, or sd <= 0: show the prior as it was
        } else {
            setToolTipQuietly(item, tr("give the prior's mean and standard deviation, or clear both"));
        }
        return;
    }

    if (column == UnitColumn) {
        const QString unit = item->text().simplified();
        // A comment or a second statement in the cell would change the meaning of the line.
        if (p.isInitialValue || unit.contains(QLatin1Char('#')) || unit.contains(QLatin1Char(';'))) {
            fillRow(row);
            return;
        }
        p.unit = unit.toStdString();
        replaceEditorText(rewriteParameterLine(editorText(), p));
        return;
    }

    if (column != ValueColumn && column != LowerColumn && column != UpperColumn && column != FixedColumn)
        return;
    const std::optional<double> value = readNumber(this->item(row, ValueColumn));
    if (!value) {
        fillRow(row);
        return;
    }
    if (p.isInitialValue) {
        const std::optional<QString> text = rewriteInitialValue(editorText(), p.where, *value);
        if (!text) {
            fillRow(row);
            return;
        }
        replaceEditorText(*text);
        return;
    }
    p.value = *value;
    p.lower = -std::numeric_limits<double>::infinity();
    p.upper = std::numeric_limits<double>::infinity();
    QTableWidgetItem* lowerItem = this->item(row, LowerColumn);
    QTableWidgetItem* upperItem = this->item(row, UpperColumn);
    if (!isBlank(lowerItem) || !isBlank(upperItem)) {
        const std::optional<double> lower = readNumber(lowerItem);
        const std::optional<double> upper = readNumber(upperItem);
        if (!lower || !upper) {
            // The language takes both bounds or none: wait until both are numbers.
            if ((!isBlank(lowerItem) && !lower) || (!isBlank(upperItem) && !upper))
                fillRow(row);
            else
                setToolTipQuietly(item, tr("give both bounds, or clear both"));
            return;
        }
        p.lower = *lower;
        p.upper = *upper;
    }
    setToolTipQuietly(this->item(row, LowerColumn), QString());
    setToolTipQuietly(this->item(row, UpperColumn), QString());
    const QTableWidgetItem* fixedItem = this->item(row, FixedColumn);
    p.fixed = fixedItem && fixedItem->checkState() == Qt::Checked;
    replaceEditorText(rewriteParameterLine(editorText(), p));
}

void ParameterTable::setToolTipQuietly(QTableWidgetItem* item, const QString& tip)
{
    if (!item || item->toolTip() == tip)
        return;
    filling_ = true;
    item->setToolTip(tip);
    filling_ = false;
}

QString ParameterTable::editorText() const
{
    return editor_.isNull() ? QString() : editor_->toPlainText();
}

void ParameterTable::replaceEditorText(const QString& newText)
{
    if (editor_.isNull())
        return;
    const QString old = editor_->toPlainText();
    if (old == newText)
        return;
    // Replace only the part that differs: one undo step, and the rest of the text keeps its place.
    qsizetype prefix = 0;
    const qsizetype shorter = std::min(old.size(), newText.size());
    while (prefix < shorter && old.at(prefix) == newText.at(prefix))
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < shorter - prefix && old.at(old.size() - 1 - suffix) == newText.at(newText.size() - 1 - suffix))
        ++suffix;
    QTextCursor cursor(editor_->document());
    cursor.beginEditBlock();
    cursor.setPosition(static_cast<int>(prefix));
    cursor.setPosition(static_cast<int>(old.size() - suffix), QTextCursor::KeepAnchor);
    cursor.insertText(newText.mid(prefix, newText.size() - suffix - prefix));
    cursor.endEditBlock();
}

QString ParameterTable::formatNumber(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

QString ParameterTable::rewriteParameterLine(const QString& modelText, const model::Parameter& parameter)
{
    static const QRegularExpression head(QStringLiteral("^\\s*param\\s+([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_'])"));
    const QString wanted = QString::fromStdString(parameter.name);
    QString statement = QStringLiteral("param %1 = %2").arg(wanted, formatNumber(parameter.value));
    if (std::isfinite(parameter.lower) && std::isfinite(parameter.upper))
        statement += QStringLiteral(" [%1, %2]").arg(formatNumber(parameter.lower), formatNumber(parameter.upper));
    if (parameter.prior)
        statement +=
            QStringLiteral(" prior %1, %2").arg(formatNumber(parameter.prior->mean), formatNumber(parameter.prior->sd));
    if (parameter.fixed)
        statement += QStringLiteral(" fixed");
    if (!parameter.unit.empty())
        statement += QStringLiteral(" unit ") + QString::fromStdString(parameter.unit);

    qsizetype lineStart = 0;
    while (lineStart <= modelText.size()) {
        qsizetype lineEnd = modelText.indexOf(QLatin1Char('\n'), lineStart);
        if (lineEnd < 0)
            lineEnd = modelText.size();
        QString line = modelText.mid(lineStart, lineEnd - lineStart);
        const bool cr = line.endsWith(QLatin1Char('\r'));
        if (cr)
            line.chop(1);
        const qsizetype hash = line.indexOf(QLatin1Char('#'));
        const qsizetype codeEnd = hash < 0 ? line.size() : hash;
        qsizetype segmentStart = 0;
        while (segmentStart <= codeEnd) {
            qsizetype semicolon = line.indexOf(QLatin1Char(';'), segmentStart);
            if (semicolon < 0 || semicolon > codeEnd)
                semicolon = codeEnd;
            const QString segment = line.mid(segmentStart, semicolon - segmentStart);
            const QRegularExpressionMatch m = head.match(segment);
            if (m.hasMatch() && m.captured(1) == wanted) {
                QString newLine = line.left(segmentStart) + leadingSpace(segment) + statement;
                if (semicolon < codeEnd) {  // more statements follow on this line
                    newLine += trailingSpace(segment) + line.mid(semicolon);
                } else if (hash >= 0) {  // keep the comment, at its column when the code fits
                    if (newLine.size() < hash) {
                        newLine += QString(hash - newLine.size(), QLatin1Char(' '));
                    } else {
                        const QString gap = trailingSpace(segment);
                        newLine += gap.isEmpty() ? QStringLiteral(" ") : gap;
                    }
                    newLine += line.mid(hash);
                }
                if (cr)
                    newLine += QLatin1Char('\r');
                return modelText.left(lineStart) + newLine + modelText.mid(lineEnd);
            }
            segmentStart = semicolon + 1;
        }
        lineStart = lineEnd + 1;
    }
    return modelText;
}

std::optional<QString> ParameterTable::rewriteInitialValue(const QString& modelText, model::SourceLocation where,
                                                           double value)
{
    if (where.line <= 0 || where.column <= 0 || !std::isfinite(value))
        return std::nullopt;
    qsizetype lineStart = 0;
    for (int l = 1; l < where.line; ++l) {
        lineStart = modelText.indexOf(QLatin1Char('\n'), lineStart);
        if (lineStart < 0)
            return std::nullopt;
        ++lineStart;
    }
    qsizetype lineEnd = modelText.indexOf(QLatin1Char('\n'), lineStart);
    if (lineEnd < 0)
        lineEnd = modelText.size();
    const QString line = modelText.mid(lineStart, lineEnd - lineStart);
    const int offset = columnToOffset(line, where.column);
    static const QRegularExpression number(
        QStringLiteral("[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?(?=\\s+estimate(?![A-Za-z0-9_]))"));
    const QRegularExpressionMatch m =
        number.match(line, offset, QRegularExpression::NormalMatch, QRegularExpression::AnchorAtOffsetMatchOption);
    if (!m.hasMatch())
        return std::nullopt;
    const qsizetype start = lineStart + m.capturedStart();
    return modelText.left(start) + formatNumber(value) + modelText.mid(start + m.capturedLength());
}

}  // namespace sysid::ui
