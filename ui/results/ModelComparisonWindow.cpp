#include "ui/results/ModelComparisonWindow.h"

#include "engine/data/Text.h"
#include "engine/job/JobError.h"
#include "engine/project/ModelCandidateJson.h"
#include "engine/project/ModelComparisonJson.h"
#include "engine/project/ProjectError.h"

#include "ui/plots/CurvePlot.h"
#include "ui/plots/PlotWidget.h"
#include "ui/project/ProjectDocument.h"
#include "ui/run/ModelComparisonRunner.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace sysid::ui {

namespace {

QString number(double value, int digits = 6)
{
    return std::isfinite(value) ? QString::fromStdString(data::formatNumber(value, digits)) : QStringLiteral("–");
}

// The agreement of `output` in a model's comparison, or nothing when it does not measure it.
const job::OutputAgreement* agreementOf(const job::ModelScore& score, const std::string& output)
{
    if (!score.comparison)
        return nullptr;
    const auto& s = score.comparison->simulation;
    for (std::size_t j = 0; j < s.outputNames.size() && j < score.comparison->agreement.size(); ++j)
        if (s.outputNames[j] == output && j < s.outputMeasured.size() && s.outputMeasured[j])
            return &score.comparison->agreement[j];
    return nullptr;
}

}  // namespace

ModelComparisonWindow::ModelComparisonWindow(ProjectDocument* document, QWidget* parent) :
    QDialog(parent), document_(document), runner_(new ModelComparisonRunner(this))
{
    setWindowTitle(tr("Compare models"));
    setObjectName(QStringLiteral("modelComparisonWindow"));

    models_ = new QListWidget;
    models_->setMaximumHeight(64);
    models_->setToolTip(tr("The fitted models to compare, each at its estimate"));
    auto* addProject = new QPushButton(tr("Add project's result"));
    auto* addFile = new QPushButton(tr("Add result file…"));
    addFile->setToolTip(tr("A RESULT.json written by sysid fit or Export, or a .sysid project with a result"));
    auto* remove = new QPushButton(tr("Remove"));
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(addProject);
    buttons->addWidget(addFile);
    buttons->addWidget(remove);
    buttons->addStretch();
    auto* top = new QHBoxLayout;
    top->addWidget(models_, 1);
    top->addLayout(buttons);

    record_ = new QComboBox;
    record_->setToolTip(tr("The data set of the project every model is compared on"));
    compare_ = new QPushButton(tr("Compare"));
    compare_->setDefault(true);
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setEnabled(false);
    output_ = new QComboBox;
    output_->setToolTip(tr("The output drawn below"));
    auto* recordRow = new QHBoxLayout;
    recordRow->addWidget(new QLabel(tr("Data set")));
    recordRow->addWidget(record_, 1);
    recordRow->addWidget(compare_);
    recordRow->addWidget(cancel_);
    recordRow->addSpacing(16);
    recordRow->addWidget(new QLabel(tr("Output")));
    recordRow->addWidget(output_);

    table_ = new QTableWidget;
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    formulas_ = new QLabel(QString::fromStdString(project::informationCriteriaFormulas()));
    formulas_->setWordWrap(true);
    formulas_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont small = formulas_->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    formulas_->setFont(small);
    status_ = new QLabel;
    status_->setWordWrap(true);

    outputs_ = new CurvePlot;
    outputs_->setObjectName(QStringLiteral("comparisonOutputPlot"));
    outputs_->setAxisLabels(tr("t"), tr("output"));
    outputs_->setLegendVisible(true);
    residuals_ = new CurvePlot;
    residuals_->setObjectName(QStringLiteral("comparisonResidualPlot"));
    residuals_->setAxisLabels(tr("t"), tr("measured − model"));
    // Its colours follow the output plot's (a zero line in the measured data's place), whose legend names them.
    residuals_->setLegendVisible(false);
    PlotWidget::shareHorizontalAxis(outputs_, residuals_);

    auto* tablePart = new QWidget;
    auto* tableLayout = new QVBoxLayout(tablePart);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(table_);
    tableLayout->addWidget(formulas_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(tablePart);
    split->addWidget(outputs_);
    split->addWidget(residuals_);
    split->setChildrenCollapsible(false);
    outputs_->setMinimumHeight(160);
    residuals_->setMinimumHeight(120);
    split->setSizes({170, 270, 170});

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(recordRow);
    layout->addWidget(split, 1);
    layout->addWidget(status_);
    resize(1100, 700);

    connect(addProject, &QPushButton::clicked, this, [this] {
        QString error;
        if (!addProjectResult(&error))
            status_->setText(error);
    });
    connect(addFile, &QPushButton::clicked, this, &ModelComparisonWindow::addFileDialog);
    connect(remove, &QPushButton::clicked, this, [this] { removeModel(models_->currentRow()); });
    connect(compare_, &QPushButton::clicked, this, &ModelComparisonWindow::compare);
    connect(cancel_, &QPushButton::clicked, runner_, &ModelComparisonRunner::cancel);
    connect(output_, &QComboBox::currentIndexChanged, this, &ModelComparisonWindow::showCurves);
    connect(runner_, &ModelComparisonRunner::finished, this, &ModelComparisonWindow::finish);
    connect(document_, &ProjectDocument::dataChanged, this, &ModelComparisonWindow::offerDataSets);
    connect(document_, &ProjectDocument::projectReplaced, this, [this] {
        runner_->cancel();
        offerDataSets();
    });
    offerDataSets();
}

void ModelComparisonWindow::offerDataSets()
{
    const int keep = record_->currentIndex();
    record_->clear();
    for (int i = 0; i < document_->dataSetCount(); ++i) {
        const auto& set = document_->dataSet(i);
        record_->addItem(QString::fromStdString(set.name.empty() ? set.path : set.name), i);
    }
    record_->setCurrentIndex(keep >= 0 && keep < record_->count() ? keep : 0);
}

bool ModelComparisonWindow::addProjectResult(QString* error)
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (!document_->result())
        return fail(tr("The project has no result yet: run a fit first."));
    job::ModelCandidate candidate;
    try {
        candidate.fit = document_->makeFitJob();
    } catch (const job::JobError& e) {
        return fail(QString::fromStdString(e.what()));
    }
    candidate.fit.experiments.clear();
    candidate.result = *document_->result();
    const QString file = QFileInfo(document_->filePath()).fileName();
    candidate.name = (file.isEmpty() ? document_->modelSource() : file).toStdString() + " (current result)";
    models_->addItem(QString::fromStdString(candidate.name + " — " +
                                            estimate::methodName(candidate.fit.settings.method) + ", " +
                                            std::to_string(candidate.result.parameters.size()) + " estimated"));
    candidates_.push_back(std::move(candidate));
    return true;
}

bool ModelComparisonWindow::addFile(const QString& path, QString* error)
{
    job::ModelCandidate candidate;
    try {
        if (path.endsWith(QStringLiteral(".sysid"), Qt::CaseInsensitive))
            candidate = project::candidateFromProject(project::loadProject(path.toStdString()), path.toStdString());
        else
            candidate = project::candidateFromResultFile(path.toStdString());
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    candidate.name = QFileInfo(path).fileName().toStdString();
    models_->addItem(QString::fromStdString(candidate.name + " — " +
                                            estimate::methodName(candidate.fit.settings.method) + ", " +
                                            std::to_string(candidate.result.parameters.size()) + " estimated"));
    candidates_.push_back(std::move(candidate));
    return true;
}

void ModelComparisonWindow::addFileDialog()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Add a fitted model"), QFileInfo(document_->filePath()).absolutePath(),
                                     tr("Fit results and projects (*.json *.sysid);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!addFile(path, &error))
        status_->setText(error);
}

void ModelComparisonWindow::removeModel(int index)
{
    if (index < 0 || index >= modelCount() || runner_->isRunning())
        return;
    candidates_.erase(candidates_.begin() + index);
    delete models_->takeItem(index);
}

void ModelComparisonWindow::compare()
{
    if (runner_->isRunning())
        return;
    if (candidates_.empty()) {
        status_->setText(tr("Add the fitted models to compare first."));
        return;
    }
    const int index = record_->currentData().isValid() ? record_->currentData().toInt() : -1;
    if (index < 0 || index >= document_->dataSetCount()) {
        status_->setText(tr("The project has no data set to compare the models on: import one first."));
        return;
    }
    const data::DataTable* table = document_->table(index);
    if (!table) {
        status_->setText(document_->tableError(index));
        return;
    }
    job::ExperimentData record;
    const auto& set = document_->dataSet(index);
    record.name = set.name.empty() ? set.path : set.name;
    record.table = *table;
    record.mapping = set.mapping;
    record.fixedValues = set.fixedValues;
    setRunning(true);
    status_->setText(
        tr("Comparing %n model(s) on %1…", nullptr, modelCount()).arg(QString::fromStdString(record.name)));
    runner_->start(candidates_, std::move(record));
}

void ModelComparisonWindow::setRunning(bool running)
{
    compare_->setEnabled(!running);
    cancel_->setEnabled(running);
}

void ModelComparisonWindow::finish(const std::shared_ptr<const job::ModelComparison>& comparison)
{
    setRunning(false);
    if (!comparison) {
        status_->setText(tr("Cancelled."));
        return;
    }
    comparison_ = comparison;
    showTable();
    const QString keep = output_->currentText();
    {
        const QSignalBlocker block(output_);
        output_->clear();
        for (const auto& o : comparison_->outputs)
            output_->addItem(QString::fromStdString(o));
        output_->setCurrentIndex(std::max(0, output_->findText(keep)));
    }
    showCurves();
    QStringList lines;
    if (const auto best = comparison_->best())
        lines << tr("Lowest AIC: %1.").arg(QString::fromStdString(comparison_->models[*best].name));
    for (const auto& m : comparison_->models)
        if (!m.comparison)
            lines << tr("%1: %2").arg(QString::fromStdString(m.name), QString::fromStdString(m.error));
    if (!comparison_->note.empty())
        lines << QString::fromStdString(comparison_->note);
    status_->setText(lines.join(QLatin1Char('\n')));
    emit compared();
}

void ModelComparisonWindow::showTable()
{
    QStringList headers{tr("Model"), tr("Method"), tr("k"),   tr("N"),   tr("Cost J"),
                        tr("AIC"),   tr("AICc"),   tr("BIC"), tr("ΔAIC")};
    for (const auto& o : comparison_->outputs)
        headers << tr("%1 rms").arg(QString::fromStdString(o)) << tr("%1 fit %").arg(QString::fromStdString(o));
    table_->clear();
    table_->setColumnCount(static_cast<int>(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    table_->setRowCount(static_cast<int>(comparison_->models.size()));
    const auto best = comparison_->best();
    for (int row = 0; row < table_->rowCount(); ++row) {
        const auto& m = comparison_->models[static_cast<std::size_t>(row)];
        QStringList cells{QString::fromStdString(m.name), QString::fromStdString(m.method),
                          QString::number(m.parameters)};
        if (m.comparison) {
            cells << QString::number(m.residuals) << number(m.cost) << number(m.criteria.aic) << number(m.criteria.aicc)
                  << number(m.criteria.bic)
                  << number(best ? m.criteria.aic - comparison_->models[*best].criteria.aic : NAN, 4);
            for (const auto& o : comparison_->outputs) {
                const job::OutputAgreement* a = agreementOf(m, o);
                cells << (a ? number(a->rmse, 4) : QStringLiteral("–"))
                      << (a ? number(a->fitPercent, 4) : QStringLiteral("–"));
            }
        } else {
            cells << tr("failed");
        }
        for (int column = 0; column < cells.size(); ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            if (column >= 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (best && static_cast<std::size_t>(row) == *best) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            if (!m.comparison && column == 3)
                item->setToolTip(QString::fromStdString(m.error));
            table_->setItem(row, column, item);
        }
    }
}

void ModelComparisonWindow::showCurves()
{
    outputs_->clear();
    residuals_->clear();
    if (!comparison_ || output_->currentIndex() < 0)
        return;
    const std::string output = output_->currentText().toStdString();
    bool measuredShown = false;
    for (const auto& m : comparison_->models) {
        if (!m.comparison)
            continue;
        const auto& s = m.comparison->simulation;
        for (std::size_t j = 0; j < s.outputNames.size(); ++j) {
            if (s.outputNames[j] != output || j >= s.outputMeasured.size() || !s.outputMeasured[j])
                continue;
            const auto column = static_cast<Eigen::Index>(j);
            const Eigen::VectorXd measured = s.measured.col(column), model = s.outputs.col(column);
            const Eigen::VectorXd residual = measured - model;
            if (!measuredShown) {
                outputs_->setCurve(tr("measured"), s.times,
                                   std::vector<double>(measured.data(), measured.data() + measured.size()));
                residuals_->setCurve(tr("measured"), s.times, std::vector<double>(s.times.size(), 0.0));
                measuredShown = true;
            }
            const QString name = QString::fromStdString(m.name);
            outputs_->setCurve(name, s.times, std::vector<double>(model.data(), model.data() + model.size()));
            residuals_->setCurve(name, s.times,
                                 std::vector<double>(residual.data(), residual.data() + residual.size()));
        }
    }
    outputs_->setAxisLabels(tr("t"), output_->currentText());
    outputs_->resetView();
    residuals_->resetView();
}

QString ModelComparisonWindow::statusText() const
{
    return status_->text();
}

}  // namespace sysid::ui
