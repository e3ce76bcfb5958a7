#include "ui/study/StudyPanel.h"

#include "ui/settings/EnumCombo.h"
#include "ui/settings/NumberField.h"
#include "ui/settings/ToolTip.h"

#include "engine/project/AtomicFile.h"
#include "engine/project/StudyJson.h"
#include "ui/plots/BoxPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/run/StudyRunner.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <climits>
#include <cmath>

namespace sysid::ui {

namespace {

QString number(double v)
{
    return std::isfinite(v) ? QString::number(v, 'g', 6) : QStringLiteral("–");
}

// The tooltip of a study setting from job::noiseStudyFields().
QString studyHelp(std::string_view key)
{
    const auto* field = core::findField(job::noiseStudyFields(), key);
    return field ? wrappedToolTip(fieldToolTip(field->names)) : QString();
}

}  // namespace

StudyPanel::StudyPanel(ProjectDocument* document, QWidget* parent) :
    QWidget(parent), document_(document), runner_(new StudyRunner(this))
{
    realisations_ = new QSpinBox(this);
    realisations_->setRange(1, 1000000);
    realisations_->setToolTip(studyHelp("realisations"));
    noise_ = new NumberField(this);
    noise_->setObjectName(QStringLiteral("studyNoiseField"));
    noise_->describe(job::noiseStudyFields(), "noise_percent");
    distribution_ = new QComboBox(this);
    fillComboByName(distribution_, data::kNoiseDistributions);
    seed_ = new QSpinBox(this);
    seed_->setRange(0, INT_MAX);
    seed_->setToolTip(studyHelp("seed"));
    threads_ = new QSpinBox(this);
    threads_->setRange(0, 1024);
    threads_->setSpecialValueText(tr("all cores"));
    run_ = new QPushButton(tr("Run study"), this);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setEnabled(false);
    export_ = new QPushButton(tr("Export…"), this);
    export_->setEnabled(false);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    table_ = new QTableWidget(0, 6, this);
    table_->setHorizontalHeaderLabels({tr("parameter"), tr("true"), tr("mean"), tr("sd"), tr("bias"), tr("bias %")});
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    plot_ = new BoxPlot(this);
    plot_->setMinimumHeight(200);

    auto* form = new QFormLayout;
    form->addRow(tr("Realisations"), realisations_);
    form->addRow(tr("Noise [% RMS]"), noise_);
    form->addRow(tr("Distribution"), distribution_);
    form->addRow(tr("Seed"), seed_);
    form->addRow(tr("Threads"), threads_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    buttons->addWidget(export_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    layout->addWidget(table_, 1);
    layout->addWidget(plot_, 2);

    loadSettings();
    connect(document_, &ProjectDocument::settingsChanged, this, &StudyPanel::loadSettings);
    connect(realisations_, &QSpinBox::valueChanged, this, &StudyPanel::storeSettings);
    connect(noise_, &NumberField::valueChanged, this, &StudyPanel::storeSettings);
    connect(distribution_, &QComboBox::currentIndexChanged, this, &StudyPanel::storeSettings);
    connect(seed_, &QSpinBox::valueChanged, this, &StudyPanel::storeSettings);
    connect(run_, &QPushButton::clicked, this, &StudyPanel::run);
    connect(cancel_, &QPushButton::clicked, this, &StudyPanel::cancel);
    connect(export_, &QPushButton::clicked, this, &StudyPanel::exportInteractively);
    connect(document_, &ProjectDocument::problemChanged, this, &StudyPanel::markOutOfDate);
    connect(document_, &ProjectDocument::projectReplaced, this, [this] {
        runner_->cancel();
        result_.reset();
        showResult();
        status_->clear();
        markOutOfDate();
    });
    connect(runner_, &StudyRunner::realisationFinished, this,
            [this](int finished, int total, bool failed, const QString& text) {
                progress_->setRange(0, total);
                progress_->setValue(finished);
                if (failed)
                    emit message(tr("study: realisation failed: %1").arg(text));
            });
    connect(runner_, &StudyRunner::finished, this,
            [this](bool cancelled, const QString& text, std::shared_ptr<const job::NoiseStudyResult> result) {
                run_->setEnabled(true);
                cancel_->setEnabled(false);
                if (document_->revision().project != runRevision_.project) {
                    emit finished();  // a study of the project open before: not shown
                    return;
                }
                result_ = std::move(result);
                showResult();
                markOutOfDate();
                status_->setText(cancelled ? tr("cancelled: %1").arg(text) : text);
                emit message(tr("study %1: %2").arg(cancelled ? tr("cancelled") : tr("finished"), text));
                emit finished();
            });
}

void StudyPanel::markOutOfDate()
{
    const QString reason = result_ ? document_->changesSince(runRevision_) : QString();
    plot_->setNotice(reason.isEmpty() ? QString() : tr("Out of date — %1 this study").arg(reason));
}

job::NoiseStudySettings StudyPanel::settings() const
{
    job::NoiseStudySettings s;
    s.realisations = static_cast<std::size_t>(realisations_->value());
    s.noisePercent = noise_->value();
    s.distribution = data::kNoiseDistributions.parse(distribution_->currentData().toString().toStdString())
                         .value_or(data::NoiseDistribution::Uniform);
    s.seed = static_cast<std::uint64_t>(seed_->value());
    return s;
}

unsigned StudyPanel::threads() const
{
    return static_cast<unsigned>(threads_->value());
}

void StudyPanel::loadSettings()
{
    const job::NoiseStudySettings s = document_->project().study.value_or(job::NoiseStudySettings{});
    loading_ = true;
    realisations_->setValue(static_cast<int>(std::min<std::size_t>(s.realisations, 1000000)));
    noise_->setValue(s.noisePercent);
    distribution_->setCurrentIndex(std::max(0,
                                            distribution_->findData(QString::fromUtf8(
                                                std::string(data::kNoiseDistributions.name(s.distribution)).c_str()))));
    // Seeds above the spin box's range (only from an edited file) are shown clamped.
    seed_->setValue(static_cast<int>(std::min<std::uint64_t>(s.seed, INT_MAX)));
    loading_ = false;
}

void StudyPanel::storeSettings()
{
    if (!loading_)
        document_->setStudySettings(settings());
}

void StudyPanel::run()
{
    if (runner_->isRunning())
        return;
    job::NoiseStudy study;
    try {
        study.fit = document_->makeFitJob();
    } catch (const std::exception& e) {
        const QString text = tr("study cannot start: %1").arg(QString::fromStdString(e.what()));
        status_->setText(text);
        emit message(text);
        return;
    }
    study.settings = settings();
    if (!noise_->isValid()) {
        const QString text = tr("study cannot start: %1").arg(noise_->problem());
        status_->setText(text);
        emit message(text);
        return;
    }
    try {
        study.settings.validate();
    } catch (const core::SettingError& e) {
        const QString text = tr("study cannot start: %1").arg(QString::fromStdString(e.what()));
        status_->setText(text);
        emit message(text);
        return;
    }
    study.trueValues = document_->trueValues();
    study.threads = threads();
    storeSettings();
    runRevision_ = document_->revision();
    result_.reset();
    showResult();
    markOutOfDate();
    progress_->setRange(0, static_cast<int>(study.settings.realisations));
    progress_->setValue(0);
    status_->setText(tr("running %1 realisations…").arg(study.settings.realisations));
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    runner_->start(std::move(study));
}

void StudyPanel::cancel()
{
    runner_->cancel();
}

void StudyPanel::showResult()
{
    table_->setRowCount(0);
    export_->setEnabled(result_ != nullptr);
    if (!result_) {
        plot_->clear();
        return;
    }
    for (const auto& s : result_->summary) {
        const int row = table_->rowCount();
        table_->insertRow(row);
        const QStringList cells{
            QString::fromStdString(s.name), number(s.trueValue), number(s.mean), number(s.sd), number(s.bias),
            number(s.biasPercent)};
        for (int c = 0; c < cells.size(); ++c)
            table_->setItem(row, c, new QTableWidgetItem(cells[c]));
    }
    plot_->setResult(*result_);
}

bool StudyPanel::exportResult(const QString& path, QString* error) const
{
    if (!result_) {
        if (error)
            *error = tr("no study result to export: run a study first");
        return false;
    }
    try {
        const bool csv = path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive);
        project::writeFileAtomically(path.toStdString(),
                                     csv ? project::studyResultToCsv(*result_)
                                         : project::studyResultToJson(*result_).dump(2) + "\n");
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

void StudyPanel::exportInteractively()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export study"), QString(),
                                                      tr("JSON (*.json);;CSV, one row per realisation (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportResult(path, &error))
        QMessageBox::warning(this, tr("Export study"), error);
}

}  // namespace sysid::ui
