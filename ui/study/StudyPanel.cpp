#include "ui/study/StudyPanel.h"

#include "ui/settings/EnumCombo.h"
#include "ui/settings/NumberField.h"
#include "ui/settings/ToolTip.h"

#include "engine/project/AtomicFile.h"
#include "engine/project/StudyJson.h"
#include "ui/plots/BoxPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/run/StudyRunner.h"
#include "ui/settings/Utf8.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <climits>
#include <cmath>

namespace sysid::ui {

namespace {

// Values given exactly (true values) to six significant digits; spreads and biases, known to a
// few per cent from a sample, to three.
QString number(double v, int digits = 6)
{
    return std::isfinite(v) ? QString::number(v, 'g', digits) : QStringLiteral("–");
}

// A value known to about `sd`: fixed point to the decimal of the sd's second significant digit (a
// sample sd is itself uncertain by ~1/sqrt(2N)), so a column is as wide as the information it
// holds (24.90 with sd 0.553, not 24.9045).
QString withinSpread(double v, double sd)
{
    if (!std::isfinite(v) || !std::isfinite(sd) || sd <= 0 || std::abs(v) >= 1e7)
        return number(v);
    const int decimals = 1 - static_cast<int>(std::floor(std::log10(sd)));
    if (decimals < 0 || decimals > 10)
        return number(v);
    return QString::number(v, 'f', decimals);
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
    kind_ = new QComboBox(this);
    kind_->setObjectName(QStringLiteral("studyKindCombo"));
    fillComboByName(kind_, job::kStudyKinds);
    kind_->setToolTip(studyHelp("kind"));
    kind_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    kind_->setMinimumContentsLength(12);
    kindNote_ = new QLabel(this);
    kindNote_->setWordWrap(true);
    kindLabel_ = new QLabel(this);
    kindLabel_->setObjectName(QStringLiteral("studyKindLabel"));
    kindLabel_->setWordWrap(true);
    QFont bold = kindLabel_->font();
    bold.setBold(true);
    kindLabel_->setFont(bold);
    realisations_ = new QSpinBox(this);
    realisations_->setRange(1, 1000000);
    realisations_->setToolTip(studyHelp("realisations"));
    noise_ = new NumberField(this);
    noise_->setObjectName(QStringLiteral("studyNoiseField"));
    noise_->describe(job::noiseStudyFields(), "noise_percent");
    distribution_ = new QComboBox(this);
    fillComboByName(distribution_, data::kNoiseDistributions);
    distribution_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    distribution_->setMinimumContentsLength(6);
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
    table_->verticalHeader()->setVisible(false);
    // Compact rows and a slightly smaller font: twelve parameters and six numeric columns fit the
    // dock at 1366x768.
    QFont dense = table_->font();
    dense.setPointSizeF(dense.pointSizeF() * 0.9);
    table_->setFont(dense);
    table_->horizontalHeader()->setFont(dense);
    table_->verticalHeader()->setMinimumSectionSize(QFontMetrics(dense).height() + 4);
    table_->verticalHeader()->setDefaultSectionSize(QFontMetrics(dense).height() + 4);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Every row and every digit: columns as wide as their numbers, the table as tall as its rows
    // (the dock scrolls, not the table).
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setTextElideMode(Qt::ElideNone);
    table_->setWordWrap(false);
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    table_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    plot_ = new BoxPlot(this);
    plot_->setMinimumHeight(220);

    // Two fields a row, so the table and the box plot get the dock's height.
    auto* form = new QGridLayout;
    form->addWidget(new QLabel(tr("Study"), this), 0, 0);
    form->addWidget(kind_, 0, 1, 1, 3);
    form->addWidget(kindNote_, 1, 0, 1, 4);
    form->addWidget(new QLabel(tr("Realisations"), this), 2, 0);
    form->addWidget(realisations_, 2, 1);
    form->addWidget(new QLabel(tr("Seed"), this), 2, 2);
    form->addWidget(seed_, 2, 3);
    form->addWidget(new QLabel(tr("Noise [% RMS]"), this), 3, 0);
    form->addWidget(noise_, 3, 1);
    form->addWidget(new QLabel(tr("Distribution"), this), 3, 2);
    form->addWidget(distribution_, 3, 3);
    form->addWidget(new QLabel(tr("Threads"), this), 4, 0);
    form->addWidget(threads_, 4, 1);
    form->setColumnStretch(1, 1);
    form->setColumnStretch(3, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    buttons->addWidget(export_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    layout->addWidget(kindLabel_);
    layout->addWidget(table_);
    layout->addWidget(plot_, 1);

    loadSettings();
    connect(document_, &ProjectDocument::settingsChanged, this, &StudyPanel::loadSettings);
    connect(kind_, &QComboBox::currentIndexChanged, this, &StudyPanel::storeSettings);
    connect(kind_, &QComboBox::currentIndexChanged, this, &StudyPanel::showKindToRun);
    connect(document_, &ProjectDocument::dataChanged, this, &StudyPanel::showKindToRun);
    connect(document_, &ProjectDocument::projectReplaced, this, &StudyPanel::showKindToRun);
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

job::StudyKind StudyPanel::kindToRun() const
{
    return job::resolvedStudyKind(settings().kind, !document_->trueValues().empty());
}

void StudyPanel::showKindToRun()
{
    const job::StudyKind kind = kindToRun();
    const bool monteCarlo = kind == job::StudyKind::MonteCarlo;
    noise_->setEnabled(monteCarlo);
    distribution_->setEnabled(monteCarlo);
    // What "automatic" decided, in one line; what the study does in the tooltip.
    const bool automatic = settings().kind == job::StudyKind::Automatic;
    kindNote_->setVisible(automatic);
    kindNote_->setText(monteCarlo ? tr("→ Monte Carlo: the data sets carry their true values")
                                  : tr("→ Parametric bootstrap: measured data, no true values"));
    kindNote_->setToolTip(wrappedToolTip(toQString(job::kStudyKinds.description(kind))));
    if (!result_)  // the empty table has the columns of the study Run would make
        setTableColumns(kind);
}

job::NoiseStudySettings StudyPanel::settings() const
{
    job::NoiseStudySettings s;
    s.kind = job::kStudyKinds.parse(kind_->currentData().toString().toStdString()).value_or(job::StudyKind::Automatic);
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
    kind_->setCurrentIndex(std::max(0, kind_->findData(toQString(job::kStudyKinds.name(s.kind)))));
    realisations_->setValue(static_cast<int>(std::min<std::size_t>(s.realisations, 1000000)));
    noise_->setValue(s.noisePercent);
    distribution_->setCurrentIndex(std::max(0,
                                            distribution_->findData(QString::fromUtf8(
                                                std::string(data::kNoiseDistributions.name(s.distribution)).c_str()))));
    // Seeds above the spin box's range (only from an edited file) are shown clamped.
    seed_->setValue(static_cast<int>(std::min<std::uint64_t>(s.seed, INT_MAX)));
    loading_ = false;
    showKindToRun();
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
    if (kindToRun() == job::StudyKind::MonteCarlo && !noise_->isValid()) {
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
    status_->setText(tr("running %1 realisations (%2)…")
                         .arg(study.settings.realisations)
                         .arg(toQString(job::kStudyKinds.label(kindToRun()))));
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    runner_->start(std::move(study));
}

void StudyPanel::cancel()
{
    runner_->cancel();
}

void StudyPanel::setTableColumns(job::StudyKind kind)
{
    if (kind == job::StudyKind::ParametricBootstrap)
        table_->setHorizontalHeaderLabels(
            {tr("parameter"), tr("estimate"), tr("mean"), tr("sd"), tr("2.5 %"), tr("97.5 %")});
    else
        table_->setHorizontalHeaderLabels(
            {tr("parameter"), tr("true"), tr("mean"), tr("sd"), tr("bias"), tr("bias %")});
}

void StudyPanel::showResult()
{
    table_->setRowCount(0);
    export_->setEnabled(result_ != nullptr);
    if (!result_) {
        kindLabel_->clear();
        plot_->clear();
        return;
    }
    const bool bootstrap = result_->kind == job::StudyKind::ParametricBootstrap;
    kindLabel_->setText(toQString(job::kStudyKinds.label(result_->kind)));
    setTableColumns(result_->kind);
    for (const auto& s : result_->summary) {
        const int row = table_->rowCount();
        table_->insertRow(row);
        const QString name = QString::fromStdString(s.name);
        const QStringList cells = bootstrap ? QStringList{name,
                                                          withinSpread(s.estimate, s.sd),
                                                          withinSpread(s.mean, s.sd),
                                                          number(s.sd, 3),
                                                          withinSpread(s.percentile2_5, s.sd),
                                                          withinSpread(s.percentile97_5, s.sd)}
                                            : QStringList{name,
                                                          number(s.trueValue),
                                                          withinSpread(s.mean, s.sd),
                                                          number(s.sd, 3),
                                                          number(s.bias, 3),
                                                          number(s.biasPercent, 3)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(row, c, item);
        }
    }
    table_->updateGeometry();
    plot_->setResult(*result_);
    // Bring the whole table into the dock's view once the layout has its new height.
    QTimer::singleShot(0, this, [this] {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        for (QWidget* w = parentWidget(); w != nullptr; w = w->parentWidget())
            if (auto* area = qobject_cast<QScrollArea*>(w)) {
                area->ensureWidgetVisible(table_, 0, 0);
                return;
            }
    });
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
