#include "ui/data/ImportDialog.h"

#include "ui/data/DialogParts.h"
#include "ui/plots/CurvePlot.h"

#include "engine/core/InputFile.h"
#include "engine/data/CsvReader.h"
#include "engine/data/DataError.h"
#include "ui/settings/Utf8.h"

#include <QBrush>
#include <QColor>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>
#include <new>
#include <string_view>

namespace sysid::ui {

namespace {

constexpr int kPreviewRows = 200;
constexpr int kMaxPreviewColumns = 200;
const QColor kErrorBackground(255, 205, 205);
const QColor kSkippedText(140, 140, 140);

QStringList toQStringList(const std::vector<std::string>& items)
{
    QStringList list;
    for (const auto& item : items)
        list.push_back(QString::fromStdString(item));
    return list;
}

// The engine's rule (data::defaultTimeColumn), applied to the header as previewed.
QString guessTimeColumn(const QStringList& names)
{
    if (names.isEmpty())
        return {};
    std::vector<std::string> columns;
    for (const QString& n : names)
        columns.push_back(n.toStdString());
    return names.at(static_cast<int>(data::defaultTimeColumn(columns)));
}

QTableWidgetItem* readOnlyItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

}  // namespace

ImportDialog::ImportDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Import data"));
    setObjectName(QStringLiteral("importDialog"));

    const PathRow fileRow = makePathRow(this, QStringLiteral("pathEdit"), tr("CSV file"));
    pathEdit_ = fileRow.edit;
    browseButton_ = fileRow.browse;
    browseButton_->setObjectName(QStringLiteral("browseButton"));

    separatorCombo_ = new QComboBox(this);
    separatorCombo_->setObjectName(QStringLiteral("separatorCombo"));
    separatorCombo_->addItem(tr("auto"), 0);
    for (const data::CsvSymbol& separator : data::csvSeparators)
        separatorCombo_->addItem(toQString(separator.label), int(separator.symbol));
    decimalCombo_ = new QComboBox(this);
    decimalCombo_->setObjectName(QStringLiteral("decimalCombo"));
    for (const data::CsvSymbol& point : data::csvDecimalPoints)
        decimalCombo_->addItem(toQString(point.label), int(point.symbol));
    timeCombo_ = new QComboBox(this);
    timeCombo_->setObjectName(QStringLiteral("timeCombo"));
    timeCombo_->addItem(tr("(automatic)"), QString());
    timeCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    headerLineSpin_ = new QSpinBox(this);
    headerLineSpin_->setObjectName(QStringLiteral("headerLineSpin"));
    headerLineSpin_->setRange(0, 1'000'000);
    headerLineSpin_->setSpecialValueText(tr("first"));
    headerLineSpin_->setToolTip(tr("The line holding the column names; the lines above it are not read"));
    skipRowsSpin_ = new QSpinBox(this);
    skipRowsSpin_->setObjectName(QStringLiteral("skipRowsSpin"));
    skipRowsSpin_->setRange(0, 1'000'000);
    skipRowsSpin_->setToolTip(tr("Rows under the header that hold no numbers, such as units"));
    auto* options = new QHBoxLayout;
    options->addWidget(new QLabel(tr("Separator:"), this));
    options->addWidget(separatorCombo_);
    options->addSpacing(12);
    options->addWidget(new QLabel(tr("Decimal point:"), this));
    options->addWidget(decimalCombo_);
    options->addSpacing(12);
    options->addWidget(new QLabel(tr("Header on line:"), this));
    options->addWidget(headerLineSpin_);
    options->addSpacing(12);
    options->addWidget(new QLabel(tr("Skip rows after it:"), this));
    options->addWidget(skipRowsSpin_);
    options->addSpacing(12);
    options->addWidget(new QLabel(tr("Time column:"), this));
    options->addWidget(timeCombo_);
    options->addStretch(1);

    headerLabel_ = new QLabel(this);
    headerLabel_->setObjectName(QStringLiteral("headerLabel"));
    headerLabel_->setTextFormat(Qt::PlainText);
    headerLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    preview_ = new QTableWidget(this);
    preview_->setObjectName(QStringLiteral("previewTable"));
    preview_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    preview_->setSelectionBehavior(QAbstractItemView::SelectRows);
    preview_->verticalHeader()->setDefaultSectionSize(preview_->fontMetrics().height() + 6);
    // Numbers are shown whole; a wide file scrolls sideways.
    preview_->setTextElideMode(Qt::ElideNone);
    preview_->setWordWrap(false);
    preview_->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);

    errorLabel_ = makeErrorLabel(this);

    mappingTable_ = new QTableWidget(0, 3, this);
    mappingTable_->setObjectName(QStringLiteral("mappingTable"));
    mappingTable_->setHorizontalHeaderLabels({tr("Model"), tr("Kind"), tr("Data column")});
    mappingTable_->horizontalHeader()->setStretchLastSection(true);
    mappingTable_->verticalHeader()->setVisible(false);
    mappingTable_->setSelectionMode(QAbstractItemView::NoSelection);

    plot_ = new CurvePlot(this);
    plot_->setAxisLabels(tr("t"), QString());
    plot_->setMinimumSize(240, 160);
    plot_->setObjectName(QStringLiteral("dataQuickPlot"));

    auto* lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(mappingTable_);
    lower->addWidget(plot_);
    lower->setStretchFactor(0, 1);
    lower->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(preview_);
    split->addWidget(lower);

    hintLabel_ = new QLabel(this);
    hintLabel_->setObjectName(QStringLiteral("hintLabel"));
    hintLabel_->setTextFormat(Qt::PlainText);
    hintLabel_->setWordWrap(true);

    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(fileRow.layout);
    layout->addLayout(options);
    layout->addWidget(headerLabel_);
    layout->addWidget(split, 1);
    layout->addWidget(errorLabel_);
    layout->addWidget(hintLabel_);
    layout->addWidget(buttons_);
    resize(820, 640);

    connect(browseButton_, &QPushButton::clicked, this, &ImportDialog::browse);
    connect(pathEdit_, &QLineEdit::editingFinished, this, [this] {
        const QString text = pathEdit_->text().trimmed();
        if (!text.isEmpty() && QFileInfo(text).absoluteFilePath() != path_)
            loadFile(text);
    });
    const auto reparseOnChange = [this] {
        if (!updating_)
            reparse();
    };
    connect(separatorCombo_, &QComboBox::currentIndexChanged, this, reparseOnChange);
    connect(decimalCombo_, &QComboBox::currentIndexChanged, this, reparseOnChange);
    connect(timeCombo_, &QComboBox::currentIndexChanged, this, reparseOnChange);
    connect(headerLineSpin_, &QSpinBox::valueChanged, this, reparseOnChange);
    connect(skipRowsSpin_, &QSpinBox::valueChanged, this, reparseOnChange);
    connect(buttons_, &QDialogButtonBox::accepted, this, [this] {
        if (isAcceptable())
            accept();
    });
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

    updateAcceptance();
}

void ImportDialog::setModelNames(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs)
{
    outputs_ = outputs;
    inputs_ = inputs;
    rebuildMapping();
    updatePlot();
    updateAcceptance();
}

void ImportDialog::browse()
{
    const QString start = path_.isEmpty() ? QString() : QFileInfo(path_).absolutePath();
    const QString chosen = QFileDialog::getOpenFileName(this, tr("Import data"), start,
                                                        tr("Data files (*.csv *.txt *.dat *.tsv);;All files (*)"));
    if (!chosen.isEmpty())
        loadFile(chosen);
}

void ImportDialog::loadFile(const QString& path)
{
    path_ = QFileInfo(path).absoluteFilePath();
    {
        const QSignalBlocker block(pathEdit_);
        pathEdit_->setText(QDir::toNativeSeparators(path_));
    }
    bytes_.clear();
    fileRead_ = false;
    // The reader's own check: a device, FIFO or folder, or a file beyond the data size limit, is
    // refused before a byte is read (a FIFO would block, /dev/zero never end).
    const std::string problem = core::inputFileProblem(path_.toStdString(), core::kMaxDataFileBytes, "a CSV file");
    QFile file(path_);
    if (!problem.empty() || !file.open(QIODevice::ReadOnly)) {
        layout_ = {};
        headerFields_.clear();
        headerLine_ = 0;
        table_ = {};
        parsed_ = false;
        errorText_ = QFileInfo(path_).fileName() + QStringLiteral(": ") +
            (problem.empty() ? tr("cannot open the file: %1").arg(file.errorString())
                             : QString::fromStdString(problem));
        errorLine_ = 0;
        buildPreview();
        rebuildTimeCombo({});
        errorLabel_->setText(errorText_);
        errorLabel_->setVisible(true);
        rebuildMapping();
        updatePlot();
        updateAcceptance();
        emit fileParsed(false);
        return;
    }
    bytes_ = file.readAll();
    fileRead_ = true;
    proposeFormat();
    reparse();
}

void ImportDialog::proposeFormat()
{
    const data::CsvFormat proposed =
        data::detectCsvFormat(std::string_view(bytes_.constData(), static_cast<std::size_t>(bytes_.size())));
    updating_ = true;
    setSeparator(proposed.separator);
    setDecimalPoint(proposed.decimalPoint);
    setHeaderLine(proposed.headerLine);
    setSkipRows(proposed.skipRows);
    updating_ = false;
}

void ImportDialog::setHeaderLine(int line)
{
    headerLineSpin_->setValue(line);
}

int ImportDialog::headerLine() const
{
    return headerLineSpin_->value();
}

void ImportDialog::setSkipRows(int rows)
{
    skipRowsSpin_->setValue(rows);
}

int ImportDialog::skipRows() const
{
    return skipRowsSpin_->value();
}

data::CsvFormat ImportDialog::format() const
{
    data::CsvFormat format;
    format.separator = separator();
    format.decimalPoint = decimalPoint();
    format.headerLine = headerLine();
    format.skipRows = skipRows();
    return format;
}

data::CsvOptions ImportDialog::options() const
{
    data::CsvOptions options;
    static_cast<data::CsvFormat&>(options) = format();
    options.timeColumn = timeColumn();
    return options;
}

void ImportDialog::setSeparator(char separator)
{
    const int index = separatorCombo_->findData(int(separator));
    if (index >= 0)
        separatorCombo_->setCurrentIndex(index);
}

char ImportDialog::separator() const
{
    return static_cast<char>(separatorCombo_->currentData().toInt());
}

void ImportDialog::setDecimalPoint(char decimalPoint)
{
    const int index = decimalCombo_->findData(int(decimalPoint));
    if (index >= 0)
        decimalCombo_->setCurrentIndex(index);
}

char ImportDialog::decimalPoint() const
{
    return static_cast<char>(decimalCombo_->currentData().toInt());
}

std::optional<std::string> ImportDialog::timeColumn() const
{
    const QString name = timeCombo_->currentData().toString();
    if (name.isEmpty())
        return std::nullopt;
    return name.toStdString();
}

void ImportDialog::reparse()
{
    if (!fileRead_)
        return;
    buildPreview();
    rebuildTimeCombo(headerFields_);

    table_ = {};
    parsed_ = false;
    errorText_.clear();
    errorLine_ = 0;
    try {
        table_ = data::parseCsv(std::string_view(bytes_.constData(), static_cast<std::size_t>(bytes_.size())),
                                QFileInfo(path_).fileName().toStdString(), options());
        parsed_ = true;
    } catch (const data::DataError& e) {
        errorText_ = QString::fromStdString(e.what());
        errorLine_ = e.line;
    } catch (const std::bad_alloc&) {
        errorText_ = QFileInfo(path_).fileName() + QStringLiteral(": ") + tr("the file is too large to load");
    } catch (const std::exception& e) {
        errorText_ = QFileInfo(path_).fileName() + QStringLiteral(": ") + QString::fromStdString(e.what());
    }

    if (parsed_ && table_.timeColumn < table_.columnNames.size()) {
        const QSignalBlocker block(timeCombo_);
        timeCombo_->setItemText(
            0, tr("(automatic: %1)").arg(QString::fromStdString(table_.columnNames[table_.timeColumn])));
    }
    errorLabel_->setText(errorText_);
    errorLabel_->setVisible(!errorText_.isEmpty());
    highlightErrorRow();
    rebuildMapping();
    updatePlot();
    updateAcceptance();
    emit fileParsed(parsed_);
}

void ImportDialog::buildPreview()
{
    preview_->clear();
    preview_->setRowCount(0);
    preview_->setColumnCount(0);
    headerFields_.clear();
    headerLine_ = 0;
    if (!fileRead_) {
        headerLabel_->clear();
        return;
    }

    layout_ = data::csvLayout(std::string_view(bytes_.constData(), static_cast<std::size_t>(bytes_.size())), options());
    previewSeparator_ = layout_.separator;
    if (layout_.headerLine == 0) {
        headerLabel_->setText(tr("No header line: the file has no data."));
        return;
    }
    headerLine_ = layout_.headerLine;
    headerFields_ = lineFields(headerLine_);
    const QString separatorText = previewSeparator_ == '\t'
        ? tr("tab")
        : QStringLiteral("'") + QLatin1Char(previewSeparator_) + QStringLiteral("'");
    QString header = tr("Header (line %1, separated by %2): %3")
                         .arg(headerLine_)
                         .arg(separatorText, headerFields_.join(QStringLiteral(" | ")));
    if (!layout_.skippedLines.empty())
        header += QStringLiteral("\n") +
            tr("Not read (greyed below): %n row(s) after the header", nullptr,
               static_cast<int>(layout_.skippedLines.size()));
    headerLabel_->setText(header);

    // The lines left out (before the header, skipped after it) are shown too, greyed and struck out.
    std::vector<std::pair<int, QStringList>> rows;
    std::vector<bool> leftOut;
    const auto add = [&](int line, bool skipped) {
        rows.emplace_back(line, lineFields(line));
        leftOut.push_back(skipped);
    };
    for (int line = 1; line < headerLine_ && static_cast<int>(rows.size()) < kPreviewRows; ++line)
        if (const auto fields =
                data::previewFields(layout_.lines[static_cast<std::size_t>(line - 1)], previewSeparator_);
            fields.size() > 1 || !fields.front().empty())  // not blank or a comment
            add(line, true);
    for (const int line : layout_.skippedLines)
        if (static_cast<int>(rows.size()) < kPreviewRows)
            add(line, true);
    for (const int line : layout_.dataLines) {
        if (static_cast<int>(rows.size()) >= kPreviewRows)
            break;
        add(line, false);
    }
    qsizetype columns = headerFields_.size();
    for (const auto& row : rows)
        columns = std::max(columns, row.second.size());
    columns = std::min<qsizetype>(columns, kMaxPreviewColumns);
    preview_->setColumnCount(static_cast<int>(columns));
    QStringList labels = headerFields_.mid(0, columns);
    while (labels.size() < columns)
        labels.push_back(QString());
    preview_->setHorizontalHeaderLabels(labels);
    preview_->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        auto* lineItem = new QTableWidgetItem(QString::number(rows[static_cast<std::size_t>(r)].first));
        lineItem->setData(Qt::UserRole, rows[static_cast<std::size_t>(r)].first);
        preview_->setVerticalHeaderItem(r, lineItem);
        const QStringList& fields = rows[static_cast<std::size_t>(r)].second;
        const bool skipped = leftOut[static_cast<std::size_t>(r)];
        for (int c = 0; c < static_cast<int>(std::min<qsizetype>(fields.size(), columns)); ++c) {
            QTableWidgetItem* item = readOnlyItem(fields[c]);
            if (skipped) {
                QFont font = item->font();
                font.setStrikeOut(true);
                item->setFont(font);
                item->setForeground(kSkippedText);
                item->setToolTip(tr("Not read: before the header or among the rows skipped after it"));
            }
            preview_->setItem(r, c, item);
        }
    }
    preview_->resizeColumnsToContents();
}

QStringList ImportDialog::lineFields(int line) const
{
    return toQStringList(data::previewFields(layout_.lines[static_cast<std::size_t>(line - 1)], previewSeparator_));
}

void ImportDialog::highlightErrorRow()
{
    if (errorLine_ <= 0 || errorLine_ > static_cast<int>(layout_.lines.size()))
        return;
    if (errorLine_ == headerLine_) {
        preview_->scrollToTop();
        return;
    }
    int row = -1;
    for (int r = 0; r < preview_->rowCount(); ++r) {
        const QTableWidgetItem* header = preview_->verticalHeaderItem(r);
        if (header != nullptr && header->data(Qt::UserRole).toInt() == errorLine_) {
            row = r;
            break;
        }
    }
    if (row < 0) {
        // Beyond the preview: show the offending line after a gap row.
        const int lastShown =
            preview_->rowCount() > 0 && preview_->verticalHeaderItem(preview_->rowCount() - 1) != nullptr
            ? preview_->verticalHeaderItem(preview_->rowCount() - 1)->data(Qt::UserRole).toInt()
            : headerLine_;
        if (errorLine_ > lastShown + 1) {
            const int gap = preview_->rowCount();
            preview_->insertRow(gap);
            preview_->setVerticalHeaderItem(gap, new QTableWidgetItem(QStringLiteral("…")));
        }
        row = preview_->rowCount();
        preview_->insertRow(row);
        auto* lineItem = new QTableWidgetItem(QString::number(errorLine_));
        lineItem->setData(Qt::UserRole, errorLine_);
        preview_->setVerticalHeaderItem(row, lineItem);
        const QStringList fields = lineFields(errorLine_);
        if (fields.size() > preview_->columnCount())
            preview_->setColumnCount(static_cast<int>(std::min<qsizetype>(fields.size(), kMaxPreviewColumns)));
        for (int c = 0; c < static_cast<int>(std::min<qsizetype>(fields.size(), preview_->columnCount())); ++c)
            preview_->setItem(row, c, readOnlyItem(fields[c]));
    }
    for (int c = 0; c < preview_->columnCount(); ++c) {
        QTableWidgetItem* item = preview_->item(row, c);
        if (item == nullptr) {
            item = readOnlyItem(QString());
            preview_->setItem(row, c, item);
        }
        item->setBackground(kErrorBackground);
    }
    preview_->resizeColumnsToContents();
    preview_->scrollToItem(preview_->item(row, 0), QAbstractItemView::PositionAtCenter);
}

void ImportDialog::rebuildTimeCombo(const QStringList& names)
{
    const QSignalBlocker block(timeCombo_);
    const QString current = timeCombo_->currentData().toString();
    timeCombo_->clear();
    timeCombo_->addItem(tr("(automatic)"), QString());
    for (const QString& n : names)
        if (!n.isEmpty())
            timeCombo_->addItem(n, n);
    const int index = current.isEmpty() ? 0 : timeCombo_->findData(current);
    if (index >= 0) {
        timeCombo_->setCurrentIndex(index);
    } else {
        // The chosen column is gone (other file or separator): keep it so the engine names the problem.
        timeCombo_->addItem(tr("%1 (missing)").arg(current), current);
        timeCombo_->setCurrentIndex(timeCombo_->count() - 1);
    }
}

QString ImportDialog::timeColumnName() const
{
    if (parsed_ && table_.timeColumn < table_.columnNames.size())
        return QString::fromStdString(table_.columnNames[table_.timeColumn]);
    const QString chosen = timeCombo_->currentData().toString();
    return chosen.isEmpty() ? guessTimeColumn(headerFields_) : chosen;
}

QStringList ImportDialog::dataColumnNames() const
{
    QStringList names;
    if (parsed_) {
        for (const auto& n : table_.columnNames)
            names.push_back(QString::fromStdString(n));
    } else {
        names = headerFields_;
    }
    names.removeAll(timeColumnName());
    names.removeAll(QString());
    names.removeDuplicates();
    return names;
}

void ImportDialog::rebuildMapping()
{
    updating_ = true;
    const QStringList columns = dataColumnNames();
    // The view deletes replaced cell widgets later: unname and detach them now.
    for (int r = 0; r < mappingTable_->rowCount(); ++r) {
        if (QWidget* old = mappingTable_->cellWidget(r, 2)) {
            old->setObjectName(QString());
            old->disconnect(this);
        }
    }
    mappingTable_->setRowCount(0);
    const int outputCount = static_cast<int>(outputs_.size());
    mappingTable_->setRowCount(outputCount + static_cast<int>(inputs_.size()));
    for (int r = 0; r < mappingTable_->rowCount(); ++r) {
        const bool isOutput = r < outputCount;
        const QString name = QString::fromStdString(isOutput ? outputs_[static_cast<std::size_t>(r)]
                                                             : inputs_[static_cast<std::size_t>(r - outputCount)]);
        mappingTable_->setItem(r, 0, readOnlyItem(name));
        mappingTable_->setItem(r, 1, readOnlyItem(isOutput ? tr("output") : tr("input")));
        auto* combo = new QComboBox(mappingTable_);
        combo->setObjectName(QStringLiteral("mapping_") + name);
        combo->addItem(isOutput ? tr("(not measured)") : tr("(choose a column)"), QString());
        for (const QString& c : columns)
            combo->addItem(c, c);
        QString selected;
        const auto choice = choices_.find(name);
        if (choice != choices_.end() && (choice->second.isEmpty() ? isOutput : columns.contains(choice->second)))
            selected = choice->second;
        else if (columns.contains(name))
            selected = name;
        combo->setCurrentIndex(std::max(0, combo->findData(selected)));
        connect(combo, &QComboBox::currentIndexChanged, this, [this, combo, name] {
            if (updating_)
                return;
            choices_[name] = combo->currentData().toString();
            updatePlot();
            updateAcceptance();
        });
        mappingTable_->setCellWidget(r, 2, combo);
    }
    mappingTable_->resizeColumnToContents(0);
    mappingTable_->resizeColumnToContents(1);
    updating_ = false;
}

void ImportDialog::setColumnFor(const QString& modelName, const QString& column)
{
    for (int r = 0; r < mappingTable_->rowCount(); ++r) {
        if (mappingTable_->item(r, 0)->text() != modelName)
            continue;
        auto* combo = qobject_cast<QComboBox*>(mappingTable_->cellWidget(r, 2));
        const int index = combo != nullptr ? combo->findData(column) : -1;
        if (index >= 0) {
            combo->setCurrentIndex(index);
            choices_[modelName] = column;
            updatePlot();
            updateAcceptance();
        }
        return;
    }
}

QString ImportDialog::columnFor(const QString& modelName) const
{
    for (int r = 0; r < mappingTable_->rowCount(); ++r) {
        if (mappingTable_->item(r, 0)->text() != modelName)
            continue;
        const auto* combo = qobject_cast<QComboBox*>(mappingTable_->cellWidget(r, 2));
        return combo != nullptr ? combo->currentData().toString() : QString();
    }
    return {};
}

std::map<std::string, std::string> ImportDialog::mapping() const
{
    std::map<std::string, std::string> result;
    for (const auto& output : outputs_) {
        const std::string column = columnFor(QString::fromStdString(output)).toStdString();
        if (column.empty()) {
            const auto same = table_.findColumn(output);
            if (parsed_ && same && *same != table_.timeColumn)
                result[output] = table_.columnNames[table_.timeColumn];  // read as "not measured"
        } else if (column != output) {
            result[output] = column;
        }
    }
    for (const auto& input : inputs_) {
        const std::string column = columnFor(QString::fromStdString(input)).toStdString();
        if (!column.empty())
            result[input] = column;
    }
    return result;
}

bool ImportDialog::isAcceptable() const
{
    if (!parsed_ || !errorText_.isEmpty())
        return false;
    bool anyOutput = false;
    for (const auto& output : outputs_)
        anyOutput = anyOutput || !columnFor(QString::fromStdString(output)).isEmpty();
    if (!anyOutput)
        return false;
    for (const auto& input : inputs_)
        if (columnFor(QString::fromStdString(input)).isEmpty())
            return false;
    return true;
}

void ImportDialog::updatePlot()
{
    plot_->clear();
    if (!parsed_)
        return;
    const auto& time = table_.time();
    for (int r = 0; r < mappingTable_->rowCount(); ++r) {
        const QString name = mappingTable_->item(r, 0)->text();
        const QString column = columnFor(name);
        const auto index = table_.findColumn(column.toStdString());
        if (column.isEmpty() || !index)
            continue;
        plot_->setCurve(column == name ? name : name + QStringLiteral(" \u2190 ") + column, time,
                        table_.columns[*index]);
    }
}

void ImportDialog::updateAcceptance()
{
    const bool ok = isAcceptable();
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(ok);
    QString hint;
    if (path_.isEmpty()) {
        hint = tr("Choose a data file.");
    } else if (!errorText_.isEmpty()) {
        hint = tr("Fix the file or the options above; OK stays disabled while there is an error.");
    } else if (outputs_.empty()) {
        hint = tr("The model has no outputs to map.");
    } else if (!ok) {
        QString missingInput;
        for (const auto& input : inputs_)
            if (missingInput.isEmpty() && columnFor(QString::fromStdString(input)).isEmpty())
                missingInput = QString::fromStdString(input);
        bool anyOutput = false;
        for (const auto& output : outputs_)
            anyOutput = anyOutput || !columnFor(QString::fromStdString(output)).isEmpty();
        hint = !anyOutput ? tr("Map at least one model output to a data column.")
                          : tr("Choose a data column for the input '%1'.").arg(missingInput);
    } else {
        hint = tr("%n row(s); time column '%1'.", nullptr, static_cast<int>(table_.rowCount())).arg(timeColumnName());
    }
    hintLabel_->setText(hint);
}

}  // namespace sysid::ui
