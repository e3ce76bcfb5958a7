#include "ui/results/ProfilePanel.h"

#include "engine/project/ProfileJson.h"
#include "ui/plots/ProfilePlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/run/ProfileRunner.h"
#include "ui/settings/NumberField.h"
#include "ui/settings/Utf8.h"

#include <QAction>
#include <QCheckBox>
#include <QGridLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string_view>

namespace sysid::ui {

namespace {

constexpr int kPlotColumns = 2;
constexpr int kPlotHeight = 230;

QString profileHelp(std::string_view key)
{
    const std::string_view help = core::findField(job::profileFields(), key)->names.help;
    return toQString(help);
}

}  // namespace

ProfilePanel::ProfilePanel(ProjectDocument* document, QWidget* parent) :
    QWidget(parent), document_(document), runner_(new ProfileRunner(this))
{
    const job::ProfileSettings defaults;
    choose_ = new QToolButton(this);
    choose_->setPopupMode(QToolButton::InstantPopup);
    choose_->setToolTip(tr("The estimated parameters to profile (none ticked: all of them)"));
    chooseMenu_ = new QMenu(choose_);
    choose_->setMenu(chooseMenu_);
    points_ = new QSpinBox(this);
    points_->setRange(2, 200);
    points_->setValue(static_cast<int>(defaults.points));
    points_->setToolTip(profileHelp("points"));
    confidence_ = new NumberField(defaults.confidence, this);
    confidence_->describe(job::profileFields(), "confidence");
    confidence_->setCheck(
        [](double c) { return c > 0 && c < 1 ? QString() : tr("a number between 0 and 1 (0.95 for 95 %)"); });
    confidence_->setMaximumWidth(70);
    simultaneous_ = new QCheckBox(tr("simultaneous"), this);
    simultaneous_->setToolTip(profileHelp("simultaneous"));
    run_ = new QPushButton(tr("Run"), this);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setEnabled(false);
    status_ = new QLabel(this);
    status_->setMinimumWidth(1);  // no word wrap: see ContourPanel

    // Two short rows, so the tab does not widen the window the other plots share (as ContourPanel).
    auto* controls = new QGridLayout;
    controls->addWidget(new QLabel(tr("parameters:"), this), 0, 0);
    controls->addWidget(choose_, 0, 1);
    controls->addWidget(new QLabel(tr("points per side:"), this), 0, 2);
    controls->addWidget(points_, 0, 3);
    controls->addWidget(new QLabel(tr("confidence:"), this), 1, 0);
    controls->addWidget(confidence_, 1, 1);
    controls->addWidget(simultaneous_, 1, 2);
    controls->addWidget(run_, 1, 3);
    controls->addWidget(cancel_, 1, 4);
    controls->setColumnStretch(5, 1);
    // What the lines are, once for all plots (a legend in each would cover the small plots).
    // Two fixed lines, no word wrap (see the status line); the quadratic is the covariance's.
    auto* key = new QLabel(tr("circles: profile · dashed red: threshold · grey dashes: quadratic\n"
                              "solid bars: profile interval · dotted bars: Wald interval"),
                           this);
    key->setMinimumWidth(1);

    plotArea_ = new QWidget(this);
    grid_ = new QGridLayout(plotArea_);
    grid_->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(plotArea_);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(status_);
    layout->addWidget(key);
    layout->addWidget(scroll, 1);

    connect(run_, &QPushButton::clicked, this, &ProfilePanel::run);
    connect(cancel_, &QPushButton::clicked, this, &ProfilePanel::cancel);
    connect(document_, &ProjectDocument::modelTextChanged, this, &ProfilePanel::refreshParameters);
    connect(document_, &ProjectDocument::resultChanged, this, &ProfilePanel::refreshParameters);
    connect(document_, &ProjectDocument::problemChanged, this, &ProfilePanel::markOutOfDate);
    connect(document_, &ProjectDocument::projectReplaced, this, [this] {
        runner_->cancel();
        result_.reset();
        clearPlots();
        status_->clear();
        refreshParameters();
        loadSettings();
    });
    connect(points_, &QSpinBox::valueChanged, this, &ProfilePanel::storeSettings);
    connect(confidence_, &NumberField::valueChanged, this, &ProfilePanel::storeSettings);
    connect(simultaneous_, &QCheckBox::toggled, this, &ProfilePanel::storeSettings);
    connect(runner_, &ProfileRunner::optimumFound, this, [this](double optimum, double threshold, int sides) {
        optimum_ = optimum;
        QStringList names = chosenParameters();
        if (names.isEmpty())
            names = parameters_;
        for (const QString& name : names)
            plotFor(name)->start(name, threshold);
        status_->setText(tr("optimum fitted; profiling %1 parameter(s) both ways").arg(sides / 2));
    });
    connect(runner_, &ProfileRunner::pointComputed, this,
            [this](const QString& parameter, double value, double objective, int sidesDone, int sides, int points) {
                plotFor(parameter)->addPoint(value, objective - optimum_);
                status_->setText(
                    tr("profiling: %1 of %2 sides done, %3 re-fits").arg(sidesDone).arg(sides).arg(points));
            });
    connect(runner_, &ProfileRunner::finished, this,
            [this](bool cancelled, const QString& text, std::shared_ptr<const job::ProfileResult> result) {
                run_->setEnabled(true);
                cancel_->setEnabled(false);
                if (document_->revision().project != runRevision_.project) {
                    emit runEnded();  // computed for the project open before: not shown
                    return;
                }
                if (result && !result->profiles.empty()) {
                    result_ = std::move(result);
                    resultRevision_ = runRevision_;
                    clearPlots();
                    for (const job::ParameterProfile& p : result_->profiles)
                        plotFor(QString::fromStdString(p.name))->setProfile(p, *result_);
                    markOutOfDate();
                    document_->setLastProfileResult(project::profileResultToJson(*result_));
                    emit profilesFinished(result_);
                }
                const QString shown = cancelled ? tr("cancelled: %1").arg(text) : text;
                status_->setText(shown);
                emit message(tr("profile likelihood: %1").arg(shown));
                emit runEnded();
            });
    setMinimumSize(240, 180);
    refreshParameters();
    loadSettings();
}

void ProfilePanel::loadSettings()
{
    const auto setup = document_->project().profile.value_or(project::Project::ProfileSetup{});
    loading_ = true;
    // Counts above the spin box's range (only from an edited file) are shown clamped.
    points_->setValue(static_cast<int>(std::min<std::size_t>(setup.settings.points, 200)));
    confidence_->setValue(setup.settings.confidence);
    simultaneous_->setChecked(setup.settings.simultaneous);
    QStringList names;
    for (const std::string& name : setup.parameters)
        names << QString::fromStdString(name);
    setChosenParameters(names);
    loading_ = false;
}

void ProfilePanel::storeSettings()
{
    if (loading_ || !confidence_->isValid())
        return;
    project::Project::ProfileSetup setup;
    setup.settings.points = static_cast<std::size_t>(points_->value());
    setup.settings.confidence = confidence_->value();
    setup.settings.simultaneous = simultaneous_->isChecked();
    for (const QString& name : chosenParameters())
        setup.parameters.push_back(name.toStdString());
    // An untouched panel leaves a project without "profile".
    if (!document_->project().profile && setup == project::Project::ProfileSetup{})
        return;
    document_->setProfileSetup(setup);
}

QStringList ProfilePanel::chosenParameters() const
{
    QStringList names;
    for (const QAction* action : chooseMenu_->actions())
        if (action->isChecked())
            names << action->text();
    return names;
}

void ProfilePanel::setChosenParameters(const QStringList& names)
{
    for (QAction* action : chooseMenu_->actions())
        action->setChecked(names.contains(action->text()));
    updateChoiceText();
}

void ProfilePanel::updateChoiceText()
{
    const QStringList chosen = chosenParameters();
    QString text = chosen.isEmpty() ? tr("all") : chosen.join(QStringLiteral(", "));
    if (text.size() > 28)
        text = tr("%1 of %2").arg(chosen.size()).arg(parameters_.size());
    choose_->setText(text);
}

void ProfilePanel::refreshParameters()
{
    const QStringList chosen = chosenParameters();
    parameters_.clear();
    // The last fit's unknowns (with each data set's own initial values), else the model's.
    if (const auto& result = document_->result(); result && !result->parameters.empty()) {
        for (const auto& p : result->parameters)
            parameters_ << QString::fromStdString(p.name);
    } else {
        for (const auto& p : document_->modelSummary().parameters)
            if (!p.fixed)
                parameters_ << QString::fromStdString(p.name);
    }
    chooseMenu_->clear();
    for (const QString& name : parameters_) {
        QAction* action = chooseMenu_->addAction(name);
        action->setCheckable(true);
        action->setChecked(chosen.contains(name));
        connect(action, &QAction::toggled, this, &ProfilePanel::updateChoiceText);
        connect(action, &QAction::toggled, this, &ProfilePanel::storeSettings);
    }
    updateChoiceText();
    run_->setEnabled(!parameters_.isEmpty() && !runner_->isRunning());
}

job::ProfileLikelihood ProfilePanel::makeProfile() const
{
    job::ProfileLikelihood profile;
    profile.fit = document_->makeFitJob();
    // Start from the last fit's estimates: the optimum is then found in a few iterations.
    if (const auto& result = document_->result())
        for (const auto& p : result->parameters)
            if (p.name.find('#') == std::string::npos && std::isfinite(p.value))
                profile.fit.parameterValues[p.name] = p.value;
    if (!confidence_->isValid())
        throw std::invalid_argument(confidence_->problem().toStdString());
    profile.settings.points = static_cast<std::size_t>(points_->value());
    profile.settings.confidence = confidence_->value();
    profile.settings.simultaneous = simultaneous_->isChecked();
    for (const QString& name : chosenParameters())
        profile.parameters.push_back(name.toStdString());
    return profile;
}

void ProfilePanel::run()
{
    if (runner_->isRunning())
        return;
    job::ProfileLikelihood profile;
    try {
        profile = makeProfile();
    } catch (const std::exception& e) {
        const QString text = tr("the profiles cannot start: %1").arg(QString::fromStdString(e.what()));
        status_->setText(text);
        emit message(text);
        emit runEnded();
        return;
    }
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    runRevision_ = document_->revision();
    clearPlots();
    status_->setText(tr("fitting the optimum…"));
    runner_->start(std::move(profile));
}

void ProfilePanel::cancel()
{
    runner_->cancel();
}

QList<ProfilePlot*> ProfilePanel::plots() const
{
    QList<ProfilePlot*> list;
    for (int k = 0; k < grid_->count(); ++k)
        if (auto* plot = qobject_cast<ProfilePlot*>(grid_->itemAt(k)->widget()))
            list << plot;
    return list;
}

ProfilePlot* ProfilePanel::plotOf(const QString& parameter) const
{
    const auto it = plots_.find(parameter);
    return it == plots_.end() ? nullptr : it->second;
}

ProfilePlot* ProfilePanel::plotFor(const QString& parameter)
{
    if (ProfilePlot* plot = plotOf(parameter))
        return plot;
    auto* plot = new ProfilePlot(plotArea_);
    plot->setMinimumHeight(kPlotHeight);
    plot->setLegendVisible(false);  // the key above the plots says what the lines are
    const int index = static_cast<int>(plots_.size());
    grid_->addWidget(plot, index / kPlotColumns, index % kPlotColumns);
    plots_[parameter] = plot;
    plot->setAxisLabels(parameter, tr("Δ(−2 log L)"));
    return plot;
}

void ProfilePanel::clearPlots()
{
    for (auto& [name, plot] : plots_) {
        grid_->removeWidget(plot);
        plot->deleteLater();
    }
    plots_.clear();
}

void ProfilePanel::markOutOfDate()
{
    const QString reason = result_ ? document_->changesSince(resultRevision_) : QString();
    const QString notice =
        reason.isEmpty() ? QString() : tr("Out of date — %1 these profiles were computed").arg(reason);
    for (auto& [name, plot] : plots_)
        plot->setNotice(notice);
}

}  // namespace sysid::ui
