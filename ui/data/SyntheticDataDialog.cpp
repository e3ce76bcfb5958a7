// Engine headers first: integrate/InputSignals.h names a parameter `signals`, which Qt's
// keyword macro would rewrite.
#include "engine/data/CsvWriter.h"
#include "engine/integrate/Simulator.h"
#include "engine/job/ProgressSink.h"
#include "engine/job/SimulationJob.h"

#include "ui/data/SyntheticDataDialog.h"

#include "ui/data/DialogParts.h"
#include "ui/settings/EnumCombo.h"
#include "ui/settings/NumberField.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <cstdint>
#include <new>
#include <string>
#include <utility>

namespace sysid::ui {

struct SyntheticDataDialog::Outcome {
    QString error;
    QString path;
    QString summary;
};

namespace {

constexpr int kOriginalValueRole = Qt::UserRole;
constexpr int kOriginalTextRole = Qt::UserRole + 1;

QString valueText(double value)
{
    return QString::number(value, 'g', 15);
}

NumberField* numberField(QWidget* parent, double value, const QString& name, const QString& label,
                         const core::NumberRule& rule, const QString& help)
{
    auto* field = new NumberField(value, parent);
    field->setObjectName(name);
    field->setLabel(label);
    field->setRule(rule);
    field->setHelp(help);
    return field;
}

}  // namespace

SyntheticDataDialog::SyntheticDataDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Synthetic data"));
    setObjectName(QStringLiteral("syntheticDataDialog"));

    tEndField_ = numberField(this, 10.0, QStringLiteral("tEndField"), tr("t end"), core::kPositive,
                             tr("The record runs from t = 0 to this time."));
    stepField_ = numberField(this, 0.1, QStringLiteral("stepField"), tr("step"), core::kPositive,
                             tr("Time between samples; smaller than t end."));

    parameterTable_ = new QTableWidget(0, 2, this);
    parameterTable_->setObjectName(QStringLiteral("parameterTable"));
    parameterTable_->setHorizontalHeaderLabels({tr("Parameter"), tr("Value")});
    parameterTable_->horizontalHeader()->setStretchLastSection(true);
    parameterTable_->verticalHeader()->setVisible(false);

    noiseField_ = numberField(this, 0.0, QStringLiteral("noiseField"), tr("noise"), core::kNonNegative,
                              tr("Noise amplitude in percent of each output's RMS value; 0 for none."));
    distributionCombo_ = new QComboBox(this);
    distributionCombo_->setObjectName(QStringLiteral("distributionCombo"));
    fillCombo(distributionCombo_, data::kNoiseDistributions);
    seedSpin_ = new QSpinBox(this);
    seedSpin_->setObjectName(QStringLiteral("seedSpin"));
    seedSpin_->setRange(0, std::numeric_limits<int>::max());

    const PathRow pathRow = makePathRow(this, QStringLiteral("targetPathEdit"), tr("file to write (.csv)"));
    pathEdit_ = pathRow.edit;
    browseButton_ = pathRow.browse;

    auto* form = new QFormLayout;
    form->addRow(tr("t end:"), tEndField_);
    form->addRow(tr("Step:"), stepField_);
    form->addRow(tr("Parameters:"), parameterTable_);
    form->addRow(tr("Noise [% RMS]:"), noiseField_);
    form->addRow(tr("Distribution:"), distributionCombo_);
    form->addRow(tr("Seed:"), seedSpin_);
    form->addRow(tr("Write to:"), pathRow.layout);

    errorLabel_ = makeErrorLabel(this);
    statusLabel_ = new QLabel(this);
    statusLabel_->setObjectName(QStringLiteral("statusLabel"));

    generateButton_ = new QPushButton(tr("Generate"), this);
    generateButton_->setObjectName(QStringLiteral("generateButton"));
    generateButton_->setDefault(true);
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(statusLabel_, 1);
    buttons->addWidget(generateButton_);
    buttons->addWidget(cancelButton_);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form, 1);
    layout->addWidget(errorLabel_);
    layout->addLayout(buttons);
    resize(480, 520);

    connect(generateButton_, &QPushButton::clicked, this, &SyntheticDataDialog::generate);
    connect(cancelButton_, &QPushButton::clicked, this, &SyntheticDataDialog::reject);
    connect(browseButton_, &QPushButton::clicked, this, &SyntheticDataDialog::browse);
}

SyntheticDataDialog::~SyntheticDataDialog()
{
    // The simulation stops within a step; its queued result dies with this object.
    worker_.request_stop();
    if (worker_.joinable())
        worker_.join();
}

void SyntheticDataDialog::setModel(const QString& text, const QString& source)
{
    modelText_ = text;
    modelSource_ = source.isEmpty() ? QStringLiteral("<model>") : source;
}

void SyntheticDataDialog::setParameters(const std::vector<model::Parameter>& parameters)
{
    parameterTable_->setRowCount(static_cast<int>(parameters.size()));
    for (int r = 0; r < static_cast<int>(parameters.size()); ++r) {
        const auto& p = parameters[static_cast<std::size_t>(r)];
        auto* name = new QTableWidgetItem(QString::fromStdString(p.name));
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        if (p.fixed)
            name->setToolTip(tr("fixed in the model"));
        auto* value = new QTableWidgetItem(valueText(p.value));
        value->setData(kOriginalValueRole, p.value);
        value->setData(kOriginalTextRole, valueText(p.value));
        parameterTable_->setItem(r, 0, name);
        parameterTable_->setItem(r, 1, value);
    }
    parameterTable_->resizeColumnToContents(0);
}

void SyntheticDataDialog::setTimeSpan(double tEnd, double step)
{
    tEndField_->setValue(tEnd);
    stepField_->setValue(step);
}

void SyntheticDataDialog::setNoise(double percentRms, data::NoiseDistribution distribution, int seed)
{
    noiseField_->setValue(percentRms);
    distributionCombo_->setCurrentIndex(std::max(0, distributionCombo_->findData(static_cast<int>(distribution))));
    seedSpin_->setValue(seed);
}

void SyntheticDataDialog::setTargetPath(const QString& path)
{
    pathEdit_->setText(path);
}

void SyntheticDataDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Write synthetic data"), pathEdit_->text(),
                                                        tr("CSV files (*.csv);;All files (*)"));
    if (!chosen.isEmpty())
        pathEdit_->setText(QDir::toNativeSeparators(chosen));
}

void SyntheticDataDialog::showError(const QString& message)
{
    errorText_ = message;
    errorLabel_->setText(message);
    errorLabel_->setVisible(!message.isEmpty());
}

void SyntheticDataDialog::generate()
{
    if (generating_)
        return;
    showError(QString());
    if (modelText_.trimmed().isEmpty()) {
        showError(tr("There is no model to simulate."));
        return;
    }
    const QString target = pathEdit_->text().trimmed();
    if (target.isEmpty()) {
        showError(tr("Choose the file to write."));
        return;
    }
    job::SimulationJob simulation;
    simulation.modelText = modelText_.toStdString();
    simulation.modelSource = modelSource_.toStdString();
    for (int r = 0; r < parameterTable_->rowCount(); ++r) {
        const QTableWidgetItem* name = parameterTable_->item(r, 0);
        const QTableWidgetItem* value = parameterTable_->item(r, 1);
        if (name == nullptr || value == nullptr)
            continue;
        const QString text = value->text().trimmed();
        double v = value->data(kOriginalValueRole).toDouble();
        if (text != value->data(kOriginalTextRole).toString()) {
            const QString problem = NumberField::problemOf(tr("parameter %1").arg(name->text()), text, {}, &v);
            if (!problem.isEmpty()) {
                showError(problem + QLatin1Char('.'));
                return;
            }
        }
        simulation.parameterValues[name->text().toStdString()] = v;
    }
    for (const NumberField* field : {tEndField_, stepField_, noiseField_}) {
        if (!field->isValid()) {
            showError(field->problem() + QLatin1Char('.'));
            return;
        }
    }
    const double tEnd = tEndField_->value();
    const double step = stepField_->value();
    if (!(step < tEnd)) {
        showError(tr("The step must be smaller than t end."));
        return;
    }
    if (noiseField_->value() > 0)
        simulation.noise = job::OutputNoise{
            noiseField_->value(), static_cast<data::NoiseDistribution>(distributionCombo_->currentData().toInt()),
            static_cast<std::uint64_t>(seedSpin_->value())};
    const std::string path = QDir::fromNativeSeparators(target).toStdString();

    trueValues_ = simulation.parameterValues;
    generating_ = true;
    cancelled_ = false;
    generateButton_->setEnabled(false);
    statusLabel_->setText(tr("Simulating…"));
    worker_ = std::jthread([this, simulation = std::move(simulation), tEnd, step, path](std::stop_token stop) mutable {
        auto outcome = std::make_shared<Outcome>();
        try {
            simulation.times = integrate::uniformGrid(0.0, tEnd, step);
            job::NullProgressSink sink;
            const job::SyntheticData record = simulation.runSynthetic(sink, stop);
            if (!stop.stop_requested()) {
                data::writeCsvFile(path, record.header, record.columns);
                outcome->path = QString::fromStdString(path);
                outcome->summary = QString::number(record.columns.front().size());
            }
        } catch (const std::bad_alloc&) {
            outcome->error = QStringLiteral("out of memory; choose a larger step");
        } catch (const std::exception& e) {
            outcome->error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(
            this, [this, outcome] { finish(outcome); }, Qt::QueuedConnection);
    });
}

void SyntheticDataDialog::finish(const std::shared_ptr<const Outcome>& outcome)
{
    generating_ = false;
    generateButton_->setEnabled(true);
    statusLabel_->clear();
    if (cancelled_)
        return;
    if (!outcome->error.isEmpty()) {
        showError(outcome->error);
        return;
    }
    if (outcome->path.isEmpty())
        return;
    writtenPath_ = outcome->path;
    statusLabel_->setText(tr("Wrote %1 samples.").arg(outcome->summary));
    emit generated(writtenPath_);
    accept();
}

void SyntheticDataDialog::reject()
{
    if (generating_) {
        cancelled_ = true;
        worker_.request_stop();
    }
    QDialog::reject();
}

}  // namespace sysid::ui
