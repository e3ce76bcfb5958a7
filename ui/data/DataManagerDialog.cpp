#include "ui/data/DataManagerDialog.h"

#include "ui/data/ExperimentList.h"
#include "ui/project/ProjectDocument.h"
#include "ui/settings/EnumCombo.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace sysid::ui {

namespace {

enum Column { NameColumn, FitColumn, RoleColumn, FileColumn, SamplesColumn, ColumnCount };

// The file's columns a model name can be mapped to: all but the time.
QStringList signalColumns(const data::DataTable& table)
{
    QStringList columns;
    for (std::size_t c = 0; c < table.columnNames.size(); ++c)
        if (c != table.timeColumn)
            columns << QString::fromStdString(table.columnNames[c]);
    return columns;
}

}  // namespace

DataManagerDialog::DataManagerDialog(ProjectDocument* document, QWidget* parent) :
    QDialog(parent), document_(document), table_(new QTableWidget(0, ColumnCount, this)),
    mappingBox_(new QGroupBox(this)), mappingForm_(new QFormLayout), applyButton_(new QPushButton(tr("Apply mapping"))),
    message_(new QLabel(this))
{
    setObjectName(QStringLiteral("dataManager"));
    setWindowTitle(tr("Data sets"));

    table_->setObjectName(QStringLiteral("dataSetTable"));
    table_->setHorizontalHeaderLabels({tr("Name"), tr("Use in fit"), tr("Role"), tr("File"), tr("Samples")});
    table_->horizontalHeaderItem(FitColumn)->setToolTip(
        tr("Unticked: the data set is set aside; neither fitted nor used for validation"));
    table_->horizontalHeaderItem(RoleColumn)
        ->setToolTip(tr("Estimation: the parameters are fitted to it. Validation: not fitted; after a fit the "
                        "model at the estimate is simulated on it and compared with its outputs"));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(FileColumn, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(SamplesColumn, QHeaderView::ResizeToContents);

    auto* mappingLayout = new QVBoxLayout(mappingBox_);
    auto* mappingHelp = new QLabel(tr("Which column of the file holds each model output and input. Every input "
                                      "needs a column; an output without one is not measured."),
                                   mappingBox_);
    mappingHelp->setWordWrap(true);
    mappingLayout->addWidget(mappingHelp);
    mappingLayout->addLayout(mappingForm_);
    applyButton_->setObjectName(QStringLiteral("applyMappingButton"));
    applyButton_->setAutoDefault(false);  // Return ends a rename in the table; it applies nothing else
    auto* applyRow = new QHBoxLayout;
    applyRow->addStretch(1);
    applyRow->addWidget(applyButton_);
    mappingLayout->addLayout(applyRow);

    message_->setObjectName(QStringLiteral("dataManagerMessage"));
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    QUndoStack* undo = document_->undoStack();
    QAction* undoAction = undo->createUndoAction(this, tr("Undo"));
    undoAction->setObjectName(QStringLiteral("dataUndoAction"));
    undoAction->setShortcut(QKeySequence::Undo);
    QAction* redoAction = undo->createRedoAction(this, tr("Redo"));
    redoAction->setObjectName(QStringLiteral("dataRedoAction"));
    redoAction->setShortcut(QKeySequence::Redo);
    addAction(undoAction);
    addAction(redoAction);
    auto* undoButton = new QToolButton(this);
    undoButton->setDefaultAction(undoAction);
    undoButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* redoButton = new QToolButton(this);
    redoButton->setDefaultAction(redoAction);
    redoButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(undoButton);
    bottom->addWidget(redoButton);
    bottom->addStretch(1);
    bottom->addWidget(buttons);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table_, 3);
    layout->addWidget(mappingBox_, 2);
    layout->addWidget(message_);
    layout->addLayout(bottom);
    resize(760, 520);

    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (refreshing_)
            return;
        if (item->column() == NameColumn)
            document_->setDataSetName(item->row(), item->text());
        else if (item->column() == FitColumn)
            document_->setDataSetIncluded(item->row(), item->checkState() == Qt::Checked);
    });
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (refreshing_)
            return;
        showMessage(QString(), false);
        refreshMapping();
        document_->setCurrentDataSet(row);
    });
    connect(applyButton_, &QPushButton::clicked, this, &DataManagerDialog::applyMapping);
    connect(document_, &ProjectDocument::dataChanged, this, [this] {
        refreshTable();
        refreshMapping();
    });
    connect(document_, &ProjectDocument::modelTextChanged, this, &DataManagerDialog::refreshMapping);
    connect(document_, &ProjectDocument::currentDataSetChanged, this, [this](int index) {
        if (index >= 0 && index != selectedDataSet())
            selectDataSet(index);
    });
    refreshTable();
    selectDataSet(document_->currentDataSet());
}

void DataManagerDialog::selectDataSet(int index)
{
    if (index >= 0 && index < table_->rowCount())
        table_->setCurrentCell(index, NameColumn);
    refreshMapping();
}

int DataManagerDialog::selectedDataSet() const
{
    const int row = table_->currentRow();
    return row >= 0 && row < document_->dataSetCount() ? row : -1;
}

void DataManagerDialog::refreshTable()
{
    const int selected = std::max(table_->currentRow(), document_->currentDataSet());
    refreshing_ = true;
    table_->setRowCount(document_->dataSetCount());
    for (int i = 0; i < document_->dataSetCount(); ++i) {
        const auto& set = document_->dataSet(i);
        auto* name = new QTableWidgetItem(ExperimentList::displayName(set.name, set.path));
        name->setToolTip(tr("Double-click to rename"));
        table_->setItem(i, NameColumn, name);
        auto* fit = new QTableWidgetItem;
        fit->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        fit->setCheckState(set.included ? Qt::Checked : Qt::Unchecked);
        table_->setItem(i, FitColumn, fit);
        auto* role = new QComboBox(table_);
        role->setObjectName(QStringLiteral("roleCombo%1").arg(i));
        fillCombo(role, project::kDataRoles);
        showComboValue(role, set.role);
        connect(role, &QComboBox::currentIndexChanged, this, [this, role, i] {
            if (!refreshing_)
                document_->setDataSetRole(i, comboValue<project::DataRole>(role));
        });
        table_->setCellWidget(i, RoleColumn, role);
        auto* file = new QTableWidgetItem(QFileInfo(QString::fromStdString(set.path)).fileName());
        file->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        file->setToolTip(QString::fromStdString(set.path));
        table_->setItem(i, FileColumn, file);
        const data::DataTable* data = document_->table(i);
        auto* samples = new QTableWidgetItem(data ? QString::number(data->rowCount()) : tr("unreadable"));
        samples->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        samples->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (!data)
            samples->setToolTip(document_->tableError(i));
        table_->setItem(i, SamplesColumn, samples);
    }
    table_->resizeColumnToContents(FitColumn);
    table_->resizeColumnToContents(RoleColumn);
    if (selected >= 0 && selected < table_->rowCount())
        table_->setCurrentCell(selected, NameColumn);
    refreshing_ = false;
}

void DataManagerDialog::refreshMapping()
{
    while (mappingForm_->rowCount() > 0)
        mappingForm_->removeRow(0);
    combos_.clear();
    isInput_.clear();
    const int index = selectedDataSet();
    const ModelSummary& summary = document_->modelSummary();
    const data::DataTable* data = index >= 0 ? document_->table(index) : nullptr;
    mappingBox_->setTitle(index >= 0 ? tr("Column mapping of %1")
                                           .arg(ExperimentList::displayName(document_->dataSet(index).name,
                                                                            document_->dataSet(index).path))
                                     : tr("Column mapping"));
    QString why;
    if (index < 0)
        why = tr("Select a data set above.");
    else if (!data)
        why = tr("The file cannot be read: %1").arg(document_->tableError(index));
    else if (!summary.valid)
        why = tr("The model has errors: correct it to map its outputs and inputs.");
    applyButton_->setEnabled(why.isEmpty());
    if (!why.isEmpty()) {
        mappingForm_->addRow(new QLabel(why, mappingBox_));
        return;
    }
    const QStringList columns = signalColumns(*data);
    const auto& mapping = document_->dataSet(index).mapping;
    const auto addRow = [&](const std::string& name, bool input) {
        auto* combo = new QComboBox(mappingBox_);
        const QString qname = QString::fromStdString(name);
        combo->setObjectName(QStringLiteral("mapping_%1").arg(qname));
        if (!columns.contains(qname))
            combo->addItem(input ? tr("(choose a column)") : tr("(not measured)"), QString());
        for (const QString& c : columns)
            combo->addItem(c, c);
        const auto mapped = mapping.find(name);
        const QString wanted = mapped != mapping.end() ? QString::fromStdString(mapped->second) : qname;
        int at = combo->findData(wanted);
        if (at < 0 && mapped != mapping.end()) {  // the project names a column the file does not have
            combo->addItem(tr("%1 (not in the file)").arg(wanted), wanted);
            at = combo->count() - 1;
        }
        combo->setCurrentIndex(std::max(at, 0));
        connect(combo, &QComboBox::currentIndexChanged, this, [this] { showMessage(QString(), false); });
        mappingForm_->addRow((input ? tr("input %1") : tr("output %1")).arg(qname), combo);
        combos_[name] = combo;
        isInput_[name] = input;
    };
    for (const auto& output : summary.outputs)
        addRow(output, false);
    for (const auto& input : summary.inputs)
        addRow(input, true);
}

std::map<std::string, std::string> DataManagerDialog::shownMapping() const
{
    std::map<std::string, std::string> mapping;
    for (const auto& [name, combo] : combos_)
        if (const QString column = combo->currentData().toString(); !column.isEmpty())
            mapping[name] = column.toStdString();
    return mapping;
}

QString DataManagerDialog::mappingProblem() const
{
    const int index = selectedDataSet();
    const data::DataTable* data = index >= 0 ? document_->table(index) : nullptr;
    if (!data || combos_.empty())
        return tr("There is no mapping to apply.");
    const QString file = QFileInfo(QString::fromStdString(document_->dataSet(index).path)).fileName();
    const QString columns = signalColumns(*data).join(QStringLiteral(", "));
    const auto mapping = shownMapping();
    bool measured = false;
    for (const auto& [name, input] : isInput_) {
        const auto mapped = mapping.find(name);
        const QString what = (input ? tr("input %1") : tr("output %1")).arg(QString::fromStdString(name));
        if (mapped == mapping.end()) {
            if (input)
                return tr("%1 has no column: choose the column of %2 that holds it (columns: %3).")
                    .arg(what, file, columns);
            continue;
        }
        if (!data->findColumn(mapped->second) || mapped->second == data->columnNames[data->timeColumn])
            return tr("%1: column '%2' is not a signal of %3 (columns: %4).")
                .arg(what, QString::fromStdString(mapped->second), file, columns);
        measured = measured || !input;
    }
    if (!measured)
        return tr("No model output has a column of %1: map at least one output (columns: %2).").arg(file, columns);
    return {};
}

bool DataManagerDialog::applyMapping()
{
    const QString problem = mappingProblem();
    if (!problem.isEmpty()) {
        showMessage(tr("Mapping not applied. %1").arg(problem), true);
        return false;
    }
    const int index = selectedDataSet();
    const auto& before = document_->dataSet(index).mapping;
    // A model name without an entry reads the column of its own name: entries that say only
    // that are left out, and entries for names the model no longer has are kept.
    std::map<std::string, std::string> mapping = before;
    bool changed = false;
    const auto shown = shownMapping();
    for (const auto& [name, combo] : combos_) {
        const auto old = before.find(name);
        const std::string was = old == before.end() ? name : old->second;
        const auto now = shown.find(name);
        const std::string is = now == shown.end() ? std::string() : now->second;
        changed = changed ||
            (was != is && !(is.empty() && !document_->table(index)->findColumn(name) && old == before.end()));
        if (is == name || is.empty())
            mapping.erase(name);
        else
            mapping[name] = is;
    }
    if (!changed) {
        showMessage(tr("The mapping is unchanged."), false);
        return true;
    }
    document_->setMapping(index, mapping);
    showMessage(tr("Mapping applied: results from before are out of date."), false);
    return true;
}

QString DataManagerDialog::message() const
{
    return message_->text();
}

void DataManagerDialog::showMessage(const QString& text, bool error)
{
    message_->setText(text);
    message_->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

}  // namespace sysid::ui
