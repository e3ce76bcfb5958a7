#include "ui/results/ResultsPanel.h"

#include "engine/core/AtomicFile.h"
#include "engine/estimate/UndeterminedDirections.h"
#include "engine/project/ParameterCsv.h"
#include "engine/project/ResultJson.h"

#include <QAction>
#include <QBrush>
#include <QColor>
#include <QDir>
#include <QFont>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QResizeEvent>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QStringList>
#include <QTableWidget>
#include <QTableWidgetItem>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>
#include <string>

namespace sysid::ui {

namespace {

bool writeAtomically(const QString& path, const std::string& bytes, QString* error)
{
    try {
        core::writeFileAtomically(path.toStdString(), bytes);
        return true;
    } catch (const core::FileWriteError& e) {
        if (error) {
            *error = QString::fromStdString(e.what());
        }
        return false;
    }
}

QTableWidgetItem* readOnlyItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

}  // namespace

ResultsPanel::ResultsPanel(QWidget* parent) : QWidget(parent)
{
    parameterTable_ = new QTableWidget(0, ColumnCount, this);
    parameterTable_->setObjectName(QStringLiteral("parameterTable"));
    parameterTable_->setHorizontalHeaderLabels(
        {tr("Parameter"), tr("Estimate"), tr("Unit"), tr("SD"), tr("95 % interval"), tr("Rel. error"), tr("Bound")});
    parameterTable_->verticalHeader()->setVisible(false);
    parameterTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    parameterTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);

    correlationTable_ = new QTableWidget(0, 0, this);
    correlationTable_->setObjectName(QStringLiteral("correlationTable"));
    correlationTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    correlationTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Rows one line of text high, so a dozen parameters fit a laptop screen. The parameter table
    // asks for the width of its columns, the correlation matrix takes the rest; both can shrink
    // (and scroll) in a small window.
    for (QTableWidget* table : {parameterTable_, correlationTable_}) {
        table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        table->verticalHeader()->setDefaultSectionSize(rowHeight());
        table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    }
    parameterTable_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);
    correlationTable_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);

    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("summaryLabel"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // One menu button for both formats leaves the summary the width to stay on one or two lines.
    exportButton_ = new QPushButton(tr("Export"), this);
    exportButton_->setObjectName(QStringLiteral("exportButton"));
    auto* exportMenu = new QMenu(exportButton_);
    exportJsonAction_ = exportMenu->addAction(tr("Parameters as &JSON…"), this, &ResultsPanel::exportJsonInteractive);
    exportCsvAction_ = exportMenu->addAction(tr("Parameters as &CSV…"), this, &ResultsPanel::exportCsvInteractive);
    exportButton_->setMenu(exportMenu);
    refineButton_ = new QPushButton(tr("Refine by output error"), this);
    refineButton_->setObjectName(QStringLiteral("refineButton"));
    refineButton_->setToolTip(tr("Use these equation-error estimates as the starting values of an output-error fit."));
    refineButton_->setVisible(false);
    connect(refineButton_, &QPushButton::clicked, this, &ResultsPanel::refineRequested);

    tables_ = new QBoxLayout(QBoxLayout::LeftToRight);
    const auto titled = [this](const QString& title, QTableWidget* table, int stretch) {
        auto* box = new QVBoxLayout;
        box->setSpacing(2);
        box->addWidget(new QLabel(title, this));
        box->addWidget(table, 1);
        tables_->addLayout(box, stretch);
    };
    titled(tr("Estimates"), parameterTable_, 0);
    titled(tr("Correlation"), correlationTable_, 1);

    // The summary and the buttons share a row: the height goes to the tables.
    top_ = new QHBoxLayout;
    top_->addWidget(summary_, 1);
    top_->addWidget(refineButton_);
    top_->addWidget(exportButton_);

    banner_ = new QLabel(this);
    banner_->setObjectName(QStringLiteral("outOfDateBanner"));
    banner_->setWordWrap(true);
    banner_->setStyleSheet(QStringLiteral("QLabel { background: #FFF3D6; color: #7A2E00; border: 1px solid #D55E00; "
                                          "padding: 3px; font-weight: bold; }"));
    banner_->setVisible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(banner_);
    layout->addLayout(top_);
    layout->addLayout(tables_, 1);

    clear();
}

int ResultsPanel::rowHeight() const
{
    return fontMetrics().height() + 6;
}

int ResultsPanel::heightForRows(int rows) const
{
    const QMargins margins = layout()->contentsMargins();
    const int spacing = layout()->spacing();
    const int top = std::max(
        {summary_->sizeHint().height(), exportButton_->sizeHint().height(), refineButton_->sizeHint().height()});
    const int title = fontMetrics().height() + 2;
    const int table = parameterTable_->horizontalHeader()->sizeHint().height() + rows * rowHeight() +
        2 * parameterTable_->frameWidth();
    return margins.top() + top + spacing + title + table + margins.bottom();
}

void ResultsPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Side by side in a wide panel (a bottom dock), one over the other in a tall one (a side dock).
    const auto wanted = width() >= height() ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (tables_->direction() != wanted)
        tables_->setDirection(wanted);
}

void ResultsPanel::addActionButton(QAction* action)
{
    // A push button (not a tool button) so that it has the height of the others in the row.
    auto* button = new QPushButton(action->text().remove(QLatin1Char('&')), this);
    button->setObjectName(action->objectName() + QStringLiteral("Button"));
    button->setToolTip(action->toolTip());
    button->setEnabled(action->isEnabled());
    connect(action, &QAction::changed, button, [button, action] { button->setEnabled(action->isEnabled()); });
    connect(button, &QPushButton::clicked, action, &QAction::trigger);
    top_->insertWidget(top_->indexOf(refineButton_), button);
}

void ResultsPanel::setRefineAvailable(bool available)
{
    refineButton_->setVisible(available);
}

QString ResultsPanel::formatNumber(double value)
{
    if (std::isnan(value)) {
        return QStringLiteral("—");
    }
    if (std::isinf(value)) {
        return value > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    }
    return QString::number(value, 'g', 6);
}

QColor ResultsPanel::correlationColor(double value)
{
    if (!std::isfinite(value)) {
        return QColor(200, 200, 200);
    }
    const double v = std::clamp(value, -1.0, 1.0);
    const int fade = static_cast<int>(std::lround(255.0 * (1.0 - std::abs(v))));
    if (v < 0) {
        return QColor(fade, fade, 255);  // blue at -1
    }
    return QColor(255, fade, fade);  // red at +1, white at 0
}

void ResultsPanel::setOutOfDate(const QString& reason)
{
    const QString shown = hasResult_ ? reason : QString();
    if (shown == outOfDate_)
        return;
    const bool wasOutOfDate = !outOfDate_.isEmpty();
    outOfDate_ = shown;
    banner_->setText(tr("Out of date — %1 this fit. Run the fit again for current results.").arg(shown));
    banner_->setVisible(!shown.isEmpty());
    summary_->setEnabled(shown.isEmpty());
    if (shown.isEmpty()) {
        if (wasOutOfDate)
            setResult(result_, trueValues_);  // the cells in their own colours again
        return;
    }
    // Greyed: grey text on faded cell colours.
    for (QTableWidget* table : {parameterTable_, correlationTable_})
        for (int r = 0; r < table->rowCount(); ++r)
            for (int c = 0; c < table->columnCount(); ++c)
                if (QTableWidgetItem* item = table->item(r, c)) {
                    item->setForeground(QBrush(QColor(150, 150, 150)));
                    const QBrush background = item->background();
                    if (background.style() != Qt::NoBrush) {
                        const QColor colour = background.color();
                        item->setBackground(QBrush(QColor((colour.red() + 3 * 255) / 4, (colour.green() + 3 * 255) / 4,
                                                          (colour.blue() + 3 * 255) / 4)));
                    }
                }
}

void ResultsPanel::clear()
{
    setOutOfDate(QString());
    result_ = estimate::FitResult{};
    trueValues_.clear();
    hasResult_ = false;
    parameterTable_->setRowCount(0);
    correlationTable_->setRowCount(0);
    correlationTable_->setColumnCount(0);
    resultSummary_.clear();
    summary_->setText(tr("No result."));
    exportButton_->setEnabled(false);
}

void ResultsPanel::setResult(const estimate::FitResult& result, const std::map<std::string, double>& trueValues)
{
    outOfDate_.clear();  // shown in its own colours
    banner_->setVisible(false);
    summary_->setEnabled(true);
    result_ = result;
    trueValues_ = trueValues;
    hasResult_ = true;

    const int n = static_cast<int>(result.parameters.size());
    parameterTable_->setRowCount(n);
    QStringList names;
    for (int i = 0; i < n; ++i) {
        const estimate::ParameterEstimate& p = result.parameters[static_cast<std::size_t>(i)];
        const QString name = QString::fromStdString(p.name);
        names << name;
        parameterTable_->setItem(i, ColName, readOnlyItem(name));
        parameterTable_->setItem(i, ColEstimate, readOnlyItem(formatNumber(p.value)));
        parameterTable_->setItem(i, ColUnit, readOnlyItem(QString::fromStdString(p.unit)));
        parameterTable_->setItem(i, ColSd, readOnlyItem(formatNumber(p.sd)));
        parameterTable_->setItem(
            i, ColInterval,
            readOnlyItem(QStringLiteral("[%1, %2]").arg(formatNumber(p.lower95), formatNumber(p.upper95))));
        QString relative;
        QString relativeTip;
        if (const auto it = trueValues.find(p.name); it != trueValues.end()) {
            const double truth = it->second;
            if (truth != 0.0 && std::isfinite(truth)) {
                relative = formatNumber(100.0 * (p.value - truth) / std::abs(truth)) + QStringLiteral(" %");
            } else {
                relative = QStringLiteral("Δ ") + formatNumber(p.value - truth);
            }
            relativeTip = tr("true value %1").arg(formatNumber(truth));
        }
        auto* relItem = readOnlyItem(relative);
        relItem->setToolTip(relativeTip);
        parameterTable_->setItem(i, ColRelError, relItem);
        auto* boundItem = readOnlyItem(p.atBound ? QStringLiteral("⚠ at bound") : QString());
        if (p.atBound) {
            boundItem->setToolTip(tr("The estimate ended on a bound; its SD assumes the bound is not active."));
            boundItem->setForeground(QBrush(QColor(180, 90, 0)));
        }
        parameterTable_->setItem(i, ColBound, boundItem);
    }
    // Maximum likelihood: each output's noise sd, estimated with the parameters, under them (not in
    // the correlation matrix: asymptotically uncorrelated with the parameters).
    parameterTable_->setRowCount(n + static_cast<int>(result.noise.size()));
    for (std::size_t k = 0; k < result.noise.size(); ++k) {
        const estimate::NoiseEstimate& noise = result.noise[k];
        const int row = n + static_cast<int>(k);
        const QString tip = tr("Noise standard deviation of output %1, estimated with the parameters (maximum "
                               "likelihood) from %2 samples; its SD is σ/√(2n).")
                                .arg(QString::fromStdString(noise.output))
                                .arg(noise.samples);
        auto* name = readOnlyItem(tr("noise sd %1").arg(QString::fromStdString(noise.output)));
        QFont italic = name->font();
        italic.setItalic(true);
        name->setFont(italic);
        parameterTable_->setItem(row, ColName, name);
        parameterTable_->setItem(row, ColEstimate, readOnlyItem(formatNumber(noise.value)));
        parameterTable_->setItem(row, ColUnit, readOnlyItem(QString::fromStdString(noise.unit)));
        parameterTable_->setItem(row, ColSd, readOnlyItem(formatNumber(noise.sd)));
        parameterTable_->setItem(row, ColInterval,
                                 readOnlyItem(QStringLiteral("[%1, %2]")
                                                  .arg(formatNumber(noise.value - 1.96 * noise.sd),
                                                       formatNumber(noise.value + 1.96 * noise.sd))));
        parameterTable_->setItem(row, ColRelError, readOnlyItem(QString()));
        parameterTable_->setItem(row, ColBound, readOnlyItem(QString()));
        for (int c = 0; c < ColumnCount; ++c)
            parameterTable_->item(row, c)->setToolTip(tip);
    }

    const Eigen::MatrixXd& c = result.correlation;
    const int m = (c.rows() == n && c.cols() == n) ? n : 0;
    correlationTable_->setRowCount(m);
    correlationTable_->setColumnCount(m);
    if (m > 0) {
        correlationTable_->setHorizontalHeaderLabels(names);
        correlationTable_->setVerticalHeaderLabels(names);
    }
    for (int r = 0; r < m; ++r) {
        for (int col = 0; col < m; ++col) {
            const double v = c(r, col);
            auto* item = readOnlyItem(std::isfinite(v) ? QString::number(v, 'f', 3) : formatNumber(v));
            item->setTextAlignment(Qt::AlignCenter);
            item->setBackground(QBrush(correlationColor(v)));
            item->setForeground(QBrush(std::isfinite(v) && std::abs(v) > 0.7 ? QColor(Qt::white) : QColor(Qt::black)));
            correlationTable_->setItem(r, col, item);
        }
    }

    QStringList rms;
    for (std::size_t k = 0; k < result.residualRms.size(); ++k) {
        const QString output = k < result.outputNames.size() ? QString::fromStdString(result.outputNames[k])
                                                             : QStringLiteral("output %1").arg(k + 1);
        rms << QStringLiteral("%1 %2").arg(output, formatNumber(result.residualRms[k]));
    }
    QString state = result.cancelled() ? tr("cancelled") : (result.converged() ? tr("converged") : tr("not converged"));
    QString text =
        tr("Cost %1 · residual RMS %2 · %3 iterations · %4 · %5")
            .arg(formatNumber(result.cost), rms.isEmpty() ? QStringLiteral("—") : rms.join(QStringLiteral(", ")))
            .arg(result.iterations)
            .arg(result.termination.message.empty() ? QStringLiteral("—")
                                                    : QString::fromStdString(result.termination.message),
                 state);
    // What the data cannot determine, in the engine's words (as the log and the CLI say it).
    for (const estimate::ParameterCombination& combination : result.undetermined)
        text += QLatin1Char('\n') + QString::fromStdString(estimate::describe(combination));
    resultSummary_ = text;
    summary_->setText(text);
    exportButton_->setEnabled(true);
}

void ResultsPanel::setValidationSummary(const QString& text)
{
    if (!hasResult_)
        return;
    summary_->setText(text.isEmpty() ? resultSummary_ : resultSummary_ + QLatin1Char('\n') + text);
}

bool ResultsPanel::exportJson(const estimate::FitResult& result, const QString& path, QString* error,
                              const std::map<std::string, double>& trueValues)
{
    std::string text;
    try {
        text = project::resultToJson(result, trueValues).dump(2);
    } catch (const std::exception& e) {
        if (error) {
            *error = QStringLiteral("%1: %2").arg(path, QString::fromUtf8(e.what()));
        }
        return false;
    }
    text += '\n';
    return writeAtomically(path, text, error);
}

bool ResultsPanel::exportCsv(const estimate::FitResult& result, const QString& path, QString* error)
{
    return writeAtomically(path, project::parameterCsv(result), error);
}

bool ResultsPanel::exportReport(const estimate::FitResult& result, const QString& folder,
                                const std::vector<std::pair<QString, FigureExporter>>& figures, QString* error,
                                const std::map<std::string, double>& trueValues)
{
    QDir dir(folder);
    if (!dir.mkpath(QStringLiteral("."))) {
        if (error) {
            *error = QStringLiteral("%1: cannot create the folder").arg(folder);
        }
        return false;
    }
    if (!exportJson(result, dir.filePath(QStringLiteral("parameters.json")), error, trueValues) ||
        !exportCsv(result, dir.filePath(QStringLiteral("parameters.csv")), error)) {
        return false;
    }
    for (const auto& [name, exporter] : figures) {
        const QString path = dir.filePath(name);
        QString message;
        bool ok = false;
        try {
            ok = exporter && exporter(path, &message);
        } catch (const std::exception& e) {
            message = QString::fromUtf8(e.what());
        }
        if (!ok) {
            if (error) {
                *error = message.isEmpty() ? QStringLiteral("%1: cannot write the figure").arg(path) : message;
            }
            return false;
        }
    }
    return true;
}

void ResultsPanel::exportJsonInteractive()
{
    if (!hasResult_) {
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export result as JSON"), QStringLiteral("result.json"),
                                                      tr("JSON files (*.json);;All files (*)"));
    if (path.isEmpty()) {
        return;
    }
    QString error;
    if (exportJson(result_, path, &error, trueValues_)) {
        emit exported(path);
    } else {
        QMessageBox::warning(this, tr("Export failed"), error);
        emit exportFailed(error);
    }
}

void ResultsPanel::exportCsvInteractive()
{
    if (!hasResult_) {
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export parameters as CSV"), QStringLiteral("parameters.csv"), tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty()) {
        return;
    }
    QString error;
    if (exportCsv(result_, path, &error)) {
        emit exported(path);
    } else {
        QMessageBox::warning(this, tr("Export failed"), error);
        emit exportFailed(error);
    }
}

}  // namespace sysid::ui
