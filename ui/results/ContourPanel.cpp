#include "ui/results/ContourPanel.h"

#include "ui/plots/ContourPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/run/ContourRunner.h"
#include "ui/settings/NumberField.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace sysid::ui {

namespace {

NumberField* rangeField(QWidget* parent, const QString& label)
{
    auto* field = new NumberField(parent);
    field->setLabel(label);
    field->setRule(core::kAnyNumber);
    field->setHelp(QObject::tr("The parameter's range in the contour plot."));
    return field;
}

// Value of a model parameter in the document's current state (start or last estimate).
double currentValue(const ProjectDocument& document, const std::string& name)
{
    if (const auto& result = document.result())
        for (const auto& p : result->parameters)
            if (p.name == name && std::isfinite(p.value))
                return p.value;
    const auto given = document.parameterValues().find(name);
    if (given != document.parameterValues().end())
        return given->second;
    for (const auto& p : document.modelSummary().parameters)
        if (p.name == name)
            return p.value;
    return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

ContourPanel::ContourPanel(ProjectDocument* document, QWidget* parent) :
    QWidget(parent), document_(document), runner_(new ContourRunner(this))
{
    xName_ = new QComboBox(this);
    yName_ = new QComboBox(this);
    xFrom_ = rangeField(this, tr("x from"));
    xTo_ = rangeField(this, tr("x to"));
    yFrom_ = rangeField(this, tr("y from"));
    yTo_ = rangeField(this, tr("y to"));
    grid_ = new QSpinBox(this);
    grid_->setRange(2, 401);
    grid_->setValue(41);
    grid_->setToolTip(tr("grid points per axis"));
    run_ = new QPushButton(tr("Run"), this);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setEnabled(false);
    status_ = new QLabel(this);
    // No word wrap: a wrapping label gives the tab a height-for-width that stretches the main window.
    status_->setMinimumWidth(1);
    plot_ = new ContourPlot(this);

    // Two short rows, so the tab does not widen the window the other plots share.
    auto* controls = new QGridLayout;
    controls->addWidget(new QLabel(tr("x:"), this), 0, 0);
    controls->addWidget(xName_, 0, 1);
    controls->addWidget(xFrom_, 0, 2);
    controls->addWidget(xTo_, 0, 3);
    controls->addWidget(new QLabel(tr("grid:"), this), 0, 4);
    controls->addWidget(grid_, 0, 5);
    controls->addWidget(new QLabel(tr("y:"), this), 1, 0);
    controls->addWidget(yName_, 1, 1);
    controls->addWidget(yFrom_, 1, 2);
    controls->addWidget(yTo_, 1, 3);
    controls->addWidget(run_, 1, 4);
    controls->addWidget(cancel_, 1, 5);
    controls->setColumnStretch(6, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(status_);
    layout->addWidget(plot_, 1);

    connect(run_, &QPushButton::clicked, this, &ContourPanel::run);
    connect(cancel_, &QPushButton::clicked, this, &ContourPanel::cancel);
    connect(xName_, &QComboBox::currentTextChanged, this, [this] {
        suggestRange(xName_, xFrom_, xTo_);
        showPath();
    });
    connect(yName_, &QComboBox::currentTextChanged, this, [this] {
        suggestRange(yName_, yFrom_, yTo_);
        showPath();
    });
    connect(document_, &ProjectDocument::modelTextChanged, this, &ContourPanel::refreshParameters);
    connect(document_, &ProjectDocument::resultChanged, this, &ContourPanel::showPath);
    connect(document_, &ProjectDocument::problemChanged, this, &ContourPanel::markOutOfDate);
    connect(document_, &ProjectDocument::projectReplaced, this, [this] {
        runner_->cancel();
        result_.reset();
        plot_->clear();
        status_->clear();
        markOutOfDate();
    });
    connect(runner_, &ContourRunner::progress, this, [this](int done, int total) {
        status_->setText(tr("computing the cost: %1 of %2 points").arg(done).arg(total));
    });
    connect(runner_, &ContourRunner::finished, this,
            [this](bool cancelled, const QString& text, std::shared_ptr<const job::CostSurfaceResult> result) {
                run_->setEnabled(true);
                cancel_->setEnabled(false);
                if (document_->revision().project != runRevision_.project) {
                    emit surfaceFinished();  // computed for the project open before: not shown
                    return;
                }
                if (result) {
                    result_ = std::move(result);
                    surfaceRevision_ = runRevision_;
                    plot_->setSurface(*result_);
                    showPath();
                    markOutOfDate();
                }
                const QString shown = cancelled ? tr("cancelled: %1").arg(text) : text;
                status_->setText(shown);
                emit message(tr("cost contour: %1").arg(shown));
                emit surfaceFinished();
            });
    // The controls' natural width (wide spin boxes) must not widen the window all plot tabs share:
    // a wider window repaints the output plots, with all their samples, for longer.
    setMinimumSize(240, 180);
    refreshParameters();
}

void ContourPanel::refreshParameters()
{
    const QString x = xName_->currentText(), y = yName_->currentText();
    QStringList names;
    for (const auto& p : document_->modelSummary().parameters)
        names << QString::fromStdString(p.name);
    const QSignalBlocker bx(xName_), by(yName_);
    xName_->clear();
    yName_->clear();
    xName_->addItems(names);
    yName_->addItems(names);
    // Keep the choice across edits of the model; else the first two parameters.
    xName_->setCurrentIndex(names.contains(x) ? static_cast<int>(names.indexOf(x)) : 0);
    yName_->setCurrentIndex(names.contains(y) && y != xName_->currentText()
                                ? static_cast<int>(names.indexOf(y))
                                : std::min<int>(1, static_cast<int>(names.size()) - 1));
    if (xName_->currentText() != x)
        suggestRange(xName_, xFrom_, xTo_);
    if (yName_->currentText() != y)
        suggestRange(yName_, yFrom_, yTo_);
    run_->setEnabled(names.size() >= 2 && !runner_->isRunning());
}

void ContourPanel::suggestRange(QComboBox* combo, NumberField* from, NumberField* to)
{
    const double v = currentValue(*document_, combo->currentText().toStdString());
    if (!std::isfinite(v))
        return;
    // Half to one and a half times the value shows the valley around it; zero gets [-1, 1].
    const double half = v != 0 ? 0.5 * std::abs(v) : 1.0;
    from->setValue(v - half);
    to->setValue(v + half);
}

void ContourPanel::showPath()
{
    const auto& result = document_->result();
    if (!result) {
        plot_->setPath({});
        return;
    }
    try {
        plot_->setPath(
            job::iterationPath(*result, xName_->currentText().toStdString(), yName_->currentText().toStdString()));
    } catch (const job::JobError&) {
        plot_->setPath({});  // the last fit did not estimate both: no path in this plane
    }
}

job::CostSurface ContourPanel::makeSurface() const
{
    job::CostSurface surface;
    surface.fit = document_->makeFitJob();
    if (const auto& result = document_->result())
        for (const auto& p : result->parameters)
            if (p.name.find('#') == std::string::npos && std::isfinite(p.value))
                surface.fit.parameterValues[p.name] = p.value;
    for (const NumberField* field : {xFrom_, xTo_, yFrom_, yTo_})
        if (!field->isValid())
            throw std::invalid_argument(field->problem().toStdString());
    const auto points = static_cast<std::size_t>(grid_->value());
    surface.x = {xName_->currentText().toStdString(), xFrom_->value(), xTo_->value(), points};
    surface.y = {yName_->currentText().toStdString(), yFrom_->value(), yTo_->value(), points};
    surface.validate();
    return surface;
}

void ContourPanel::run()
{
    if (runner_->isRunning())
        return;
    job::CostSurface surface;
    try {
        surface = makeSurface();
    } catch (const std::exception& e) {
        const QString text = tr("the cost contour cannot start: %1").arg(QString::fromStdString(e.what()));
        status_->setText(text);
        emit message(text);
        emit surfaceFinished();
        return;
    }
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    runRevision_ = document_->revision();
    status_->setText(tr("computing the cost on %1 x %1 points…").arg(grid_->value()));
    runner_->start(std::move(surface));
}

void ContourPanel::markOutOfDate()
{
    const QString reason = result_ ? document_->changesSince(surfaceRevision_) : QString();
    plot_->setNotice(reason.isEmpty() ? QString() : tr("Out of date — %1 this surface was computed").arg(reason));
}

void ContourPanel::cancel()
{
    runner_->cancel();
}

}  // namespace sysid::ui
