#include "ui/results/MultistartPanel.h"

#include "ui/plots/WaterfallPlot.h"
#include "ui/results/ReadOnlyItem.h"
#include "ui/run/MultistartRunner.h"
#include "ui/settings/NumberField.h"
#include "ui/settings/Utf8.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <climits>
#include <cmath>
#include <stdexcept>
#include <string_view>

namespace sysid::ui {

namespace {

QString multistartHelp(std::string_view key)
{
    const std::string_view help = core::findField(job::multistartFields(), key)->names.help;
    return toQString(help);
}

}  // namespace

MultistartPanel::MultistartPanel(ProjectDocument* document, QWidget* parent) :
    QWidget(parent), document_(document), runner_(new MultistartRunner(this))
{
    starts_ = new QSpinBox(this);
    starts_->setRange(1, 1000000);
    starts_->setToolTip(multistartHelp("starts"));
    seed_ = new QSpinBox(this);
    seed_->setRange(0, INT_MAX);
    seed_->setToolTip(multistartHelp("seed"));
    tolerance_ = new NumberField(this);
    tolerance_->describe(job::multistartFields(), "tolerance");
    tolerance_->setMaximumWidth(80);
    tolerance_->setMinimumWidth(60);
    threads_ = new QSpinBox(this);
    threads_->setRange(0, 1024);
    threads_->setSpecialValueText(tr("all cores"));
    threads_->setToolTip(tr("Worker threads for the starts (the result does not depend on it)"));
    run_ = new QPushButton(tr("Run"), this);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setEnabled(false);
    status_ = new QLabel(this);
    status_->setMinimumWidth(1);  // no word wrap: see ContourPanel

    // Two short rows, so the tab does not widen the window the other plots share (as ProfilePanel).
    auto* controls = new QGridLayout;
    controls->addWidget(new QLabel(tr("starts:"), this), 0, 0);
    controls->addWidget(starts_, 0, 1);
    controls->addWidget(new QLabel(tr("seed:"), this), 0, 2);
    controls->addWidget(seed_, 0, 3);
    controls->addWidget(new QLabel(tr("threads:"), this), 0, 4);
    controls->addWidget(threads_, 0, 5);
    controls->addWidget(new QLabel(tr("same minimum:"), this), 1, 0, 1, 2);
    controls->addWidget(tolerance_, 1, 2);
    controls->addWidget(run_, 1, 3);
    controls->addWidget(cancel_, 1, 4);
    controls->setColumnStretch(6, 1);

    waterfall_ = new WaterfallPlot(this);
    minima_ = new QTableWidget(this);
    minima_->setSelectionBehavior(QAbstractItemView::SelectRows);
    minima_->setSelectionMode(QAbstractItemView::SingleSelection);
    minima_->verticalHeader()->setVisible(false);
    minima_->setToolTip(tr("The distinct minima the starts reached, lowest cost first"));
    use_ = new QPushButton(tr("Use this minimum"), this);
    use_->setToolTip(tr("Make the chosen minimum the project's result (its start is fitted again)"));
    use_->setEnabled(false);
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(new QLabel(tr("Distinct minima:"), right));
    rightLayout->addWidget(minima_, 1);
    rightLayout->addWidget(use_, 0, Qt::AlignLeft);
    // One above the other: the tab shares the window's middle with the other plots and is narrow.
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    waterfall_->setMinimumHeight(150);
    minima_->setMinimumHeight(80);
    splitter->addWidget(waterfall_);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(status_);
    layout->addWidget(splitter, 1);

    connect(run_, &QPushButton::clicked, this, &MultistartPanel::run);
    connect(cancel_, &QPushButton::clicked, this, &MultistartPanel::cancel);
    connect(use_, &QPushButton::clicked, this, [this] { useMinimum(minima_->currentRow()); });
    connect(minima_, &QTableWidget::itemSelectionChanged, this, &MultistartPanel::markChosen);
    for (QSpinBox* spin : {starts_, seed_})
        connect(spin, &QSpinBox::valueChanged, this, &MultistartPanel::storeSettings);
    connect(tolerance_, &NumberField::valueChanged, this, &MultistartPanel::storeSettings);
    connect(document_, &ProjectDocument::problemChanged, this, &MultistartPanel::markOutOfDate);
    connect(document_, &ProjectDocument::projectReplaced, this, [this] {
        runner_->cancel();
        result_.reset();
        liveCosts_.clear();
        waterfall_->clear();
        waterfall_->setNotice(QString());
        minima_->clear();
        minima_->setRowCount(0);
        minima_->setColumnCount(0);
        status_->clear();
        use_->setEnabled(false);
        loadSettings();
    });
    connect(runner_, &MultistartRunner::startFinished, this, [this](int, double cost, int done, int total) {
        liveCosts_.push_back(cost);
        // Sorting every start's cost again per start is quadratic: redraw ten times a second at most.
        if (!liveTimer_.isValid() || liveTimer_.elapsed() > 100 || done == total) {
            waterfall_->setCosts(liveCosts_);
            liveTimer_.restart();
        }
        status_->setText(tr("multistart: %1 of %2 starts done").arg(done).arg(total));
    });
    connect(runner_, &MultistartRunner::finished, this,
            [this](bool cancelled, const QString& text, std::shared_ptr<const job::MultistartResult> result) {
                run_->setEnabled(true);
                cancel_->setEnabled(false);
                if (document_->revision().project != runRevision_.project) {
                    emit runEnded();  // computed for the project open before: not shown
                    return;
                }
                if (result) {
                    result_ = std::move(result);
                    resultRevision_ = runRevision_;
                    showResult();
                    if (result_->best)
                        document_->setResult(result_->fit, runRevision_);  // the best is the result
                }
                const QString shown = cancelled ? tr("cancelled: %1").arg(text) : text;
                status_->setText(shown);
                emit message(tr("multistart: %1").arg(shown));
                emit runEnded();
            });
    connect(runner_, &MultistartRunner::refitted, this,
            [this](const QString& text, std::shared_ptr<const estimate::FitResult> fit) {
                run_->setEnabled(true);
                cancel_->setEnabled(false);
                markOutOfDate();
                if (fit && document_->setResult(*fit, runRevision_)) {
                    status_->setText(tr("the chosen minimum (cost %1) is the result").arg(fit->cost, 0, 'g', 8));
                } else {
                    status_->setText(tr("the chosen minimum could not be fitted again: %1").arg(text));
                }
                emit message(status_->text());
                emit runEnded();
            });
    setMinimumSize(240, 180);
    loadSettings();
}

void MultistartPanel::loadSettings()
{
    const job::MultistartSettings s = document_->project().multistart.value_or(job::MultistartSettings{});
    loading_ = true;
    // Values above the spin boxes' range (only from an edited file) are shown clamped.
    starts_->setValue(static_cast<int>(std::min<std::size_t>(s.starts, 1000000)));
    seed_->setValue(static_cast<int>(std::min<std::size_t>(s.seed, INT_MAX)));
    tolerance_->setValue(s.tolerance);
    loading_ = false;
}

job::MultistartSettings MultistartPanel::settings() const
{
    job::MultistartSettings s;
    s.starts = static_cast<std::size_t>(starts_->value());
    s.seed = static_cast<std::size_t>(seed_->value());
    s.tolerance = tolerance_->value();
    return s;
}

void MultistartPanel::storeSettings()
{
    if (!loading_ && tolerance_->isValid())
        document_->setMultistartSettings(settings());
}

job::Multistart MultistartPanel::makeMultistart() const
{
    if (!tolerance_->isValid())
        throw std::invalid_argument(tolerance_->problem().toStdString());
    job::Multistart multistart;
    multistart.fit = document_->makeFitJob();
    multistart.settings = settings();
    multistart.threads = static_cast<unsigned>(threads_->value());
    return multistart;
}

void MultistartPanel::run()
{
    if (runner_->isRunning())
        return;
    job::Multistart multistart;
    try {
        multistart = makeMultistart();
    } catch (const std::exception& e) {
        const QString text = tr("the multistart cannot start: %1").arg(QString::fromStdString(e.what()));
        status_->setText(text);
        emit message(text);
        emit runEnded();
        return;
    }
    storeSettings();
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    use_->setEnabled(false);
    runRevision_ = document_->revision();
    resultJob_ = multistart.fit;
    liveCosts_.clear();
    liveTimer_.invalidate();
    waterfall_->clear();
    waterfall_->setNotice(QString());
    status_->setText(tr("multistart: %1 starts…").arg(multistart.settings.starts));
    runner_->start(std::move(multistart));
}

void MultistartPanel::cancel()
{
    runner_->cancel();
}

void MultistartPanel::useMinimum(int row)
{
    if (!result_ || row < 0 || row >= static_cast<int>(result_->minima.size()) || runner_->isRunning())
        return;
    if (document_->revision().project != resultRevision_.project)
        return;
    const job::MultistartMinimum& minimum = result_->minima[static_cast<std::size_t>(row)];
    if (result_->best && minimum.start == *result_->best) {
        document_->setResult(result_->fit, resultRevision_);
        status_->setText(tr("the lowest minimum (cost %1) is the result").arg(result_->fit.cost, 0, 'g', 8));
        emit message(status_->text());
        emit runEnded();
        return;
    }
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    use_->setEnabled(false);
    runRevision_ = resultRevision_;
    status_->setText(tr("fitting start %1 again…").arg(minimum.start));
    runner_->refit(resultJob_, result_->settings, minimum.start);
}

void MultistartPanel::showResult()
{
    std::vector<double> costs;
    for (const job::MultistartStart& s : result_->starts)
        costs.push_back(s.cost);
    waterfall_->setCosts(costs);
    const auto total = static_cast<double>(result_->starts.size());
    QStringList headers{tr("cost"), tr("starts")};
    for (const std::string& name : result_->parameterNames)
        headers << QString::fromStdString(name);
    minima_->clear();
    minima_->setColumnCount(static_cast<int>(headers.size()));
    minima_->setHorizontalHeaderLabels(headers);
    minima_->setRowCount(static_cast<int>(result_->minima.size()));
    for (std::size_t m = 0; m < result_->minima.size(); ++m) {
        const job::MultistartMinimum& minimum = result_->minima[m];
        const int row = static_cast<int>(m);
        minima_->setItem(row, 0, readOnlyItem(QString::number(minimum.cost, 'g', 8)));
        minima_->setItem(row, 1,
                         readOnlyItem(tr("%1 (%2 %)")
                                          .arg(minimum.starts.size())
                                          .arg(100 * static_cast<double>(minimum.starts.size()) / total, 0, 'g', 3)));
        for (std::size_t k = 0; k < minimum.parameters.size(); ++k)
            minima_->setItem(row, static_cast<int>(k) + 2,
                             readOnlyItem(QString::number(minimum.parameters[k], 'g', 6)));
    }
    minima_->resizeColumnsToContents();
    if (!result_->minima.empty())
        minima_->selectRow(0);
    use_->setEnabled(!result_->minima.empty());
    markOutOfDate();
}

void MultistartPanel::markChosen()
{
    const int row = minima_->currentRow();
    if (!result_ || row < 0 || row >= static_cast<int>(result_->minima.size())) {
        waterfall_->setMarked({});
        return;
    }
    std::vector<double> costs;
    for (const std::size_t index : result_->minima[static_cast<std::size_t>(row)].starts)
        for (const job::MultistartStart& s : result_->starts)
            if (s.index == index)
                costs.push_back(s.cost);
    waterfall_->setMarked(costs);
}

void MultistartPanel::markOutOfDate()
{
    const QString reason = result_ ? document_->changesSince(resultRevision_) : QString();
    waterfall_->setNotice(reason.isEmpty() ? QString()
                                           : tr("Out of date — %1 this multistart was computed").arg(reason));
    use_->setEnabled(result_ && !result_->minima.empty() && reason.isEmpty() && !runner_->isRunning());
}

}  // namespace sysid::ui
