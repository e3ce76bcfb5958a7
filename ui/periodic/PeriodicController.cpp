#include "ui/periodic/PeriodicController.h"

#include "engine/data/CsvReader.h"
#include "engine/data/DataError.h"
#include "engine/model/UnitLabel.h"

#include "ui/periodic/PeriodicPanel.h"
#include "ui/plots/BranchPlot.h"
#include "ui/plots/PhasePortraitPlot.h"
#include "ui/settings/NumberField.h"
#include "ui/project/ProjectDocument.h"

#include <QComboBox>

#include <cmath>

namespace sysid::ui {

PeriodicController::PeriodicController(ProjectDocument* document, PeriodicPanel* panel, PhasePortraitPlot* orbit,
                                       BranchPlot* branch, QObject* parent) :
    QObject(parent),
    document_(document), panel_(panel), orbit_(orbit), branch_(branch), runner_(new PeriodicRunner(this))
{
    connect(panel_, &PeriodicPanel::runRequested, this, &PeriodicController::run);
    connect(panel_, &PeriodicPanel::cancelRequested, this, &PeriodicController::cancel);
    connect(runner_, &PeriodicRunner::logLine, this, &PeriodicController::message);
    connect(runner_, &PeriodicRunner::iteration, this, [this](const estimate::IterationRecord& r) {
        emit message(tr("periodic solution: Newton iteration %1, ½‖F‖² = %2").arg(r.iteration).arg(r.cost, 0, 'g', 4));
    });
    connect(runner_, &PeriodicRunner::finished, this, &PeriodicController::finish);
    connect(document_, &ProjectDocument::projectReplaced, this, [this] {
        runner_->cancel();
        orbit_->clear();
        branch_->clear();
        shownModel_.clear();
        markOutOfDate();
    });
    connect(document_, &ProjectDocument::modelTextChanged, this, &PeriodicController::markOutOfDate);
    connect(document_, &ProjectDocument::dataChanged, this, &PeriodicController::offerDataSets);
    connect(document_, &ProjectDocument::projectReplaced, this, &PeriodicController::offerDataSets);
    connect(document_, &ProjectDocument::projectReplaced, this, &PeriodicController::offerPeriod);
    offerDataSets();
    offerPeriod();
}

void PeriodicController::offerPeriod()
{
    // A project fitted by periodic response knows its forcing period: the likely one here too.
    const double period = document_->settings().periodic.period;
    if (period > 0 && std::isfinite(period))
        panel_->periodEdit()->setValue(period);
}

void PeriodicController::offerDataSets()
{
    QStringList names;
    for (int i = 0; i < document_->dataSetCount(); ++i) {
        const auto& set = document_->dataSet(i);
        names << QString::fromStdString(set.name.empty() ? set.path : set.name);
    }
    panel_->setDataSets(names);
}

bool PeriodicController::addInputRecord(job::PeriodicJob& job, QString* error) const
{
    const int index = panel_->inputDataSet();
    if (index >= 0) {
        if (index >= document_->dataSetCount()) {
            *error = tr("Measured excitation: the data set chosen is no longer in the project.");
            return false;
        }
        const data::DataTable* table = document_->table(index);
        if (!table) {
            *error = tr("Measured excitation: %1").arg(document_->tableError(index));
            return false;
        }
        job.inputRecord = *table;
        job.inputColumns = document_->dataSet(index).mapping;
        return true;
    }
    try {
        job.inputRecord = data::readCsv(panel_->inputFile().toStdString());
    } catch (const data::DataError& e) {
        *error = tr("Measured excitation: %1").arg(QString::fromStdString(e.what()));
        return false;
    }
    return true;
}

void PeriodicController::markOutOfDate()
{
    // The orbit depends on every value in the text, starting values included.
    const QString notice = !shownModel_.isEmpty() && shownModel_ != document_->modelText()
        ? tr("Out of date — the model changed since this was computed")
        : QString();
    orbit_->setNotice(notice);
    branch_->setNotice(notice);
}

void PeriodicController::run()
{
    if (runner_->isRunning())
        return;
    QString error;
    auto job = panel_->job(document_->modelText(), document_->modelSource(), &error);
    if (!job || (panel_->modelHasInputs() && !addInputRecord(*job, &error))) {
        panel_->showMessage(error);
        return;
    }
    panel_->setRunning(true);
    runProject_ = document_->revision().project;
    runModel_ = document_->modelText();
    panel_->showMessage(tr("Computing…"));
    runner_->start(std::move(*job));
}

void PeriodicController::cancel()
{
    runner_->cancel();
}

void PeriodicController::finish(bool cancelled, const QString& message,
                                const std::shared_ptr<const PeriodicResult>& result)
{
    panel_->setRunning(false);
    if (runProject_ != document_->revision().project)
        return;  // computed for the project open before
    if (!result) {
        panel_->showMessage(cancelled ? tr("Cancelled.") : message);
        emit this->message(message);
        return;
    }
    panel_->showResult(*result);
    emit this->message(tr("periodic solution: %1").arg(message));
    const auto& s = result->solution;
    if (s.converged() && s.states.cols() >= 2) {
        const Eigen::VectorXd x = s.states.col(0), y = s.states.col(1);
        orbit_->clear();
        orbit_->setModel(std::vector<double>(x.data(), x.data() + x.size()),
                         std::vector<double>(y.data(), y.data() + y.size()));
        const auto label = [this](const std::string& state) {
            return QString::fromStdString(model::withUnit(state, document_->modelSummary().unitOf(state)));
        };
        orbit_->setAxisNames(label(result->stateNames[0]), label(result->stateNames[1]));
        orbit_->resetView();
        emit orbitShown();
    }
    if (result->branch) {
        std::vector<BranchPlot::Point> points;
        for (const auto& p : result->branch->points) {
            BranchPlot::PointType type = BranchPlot::PointType::Regular;
            if (p.type == shooting::BranchPointType::Fold)
                type = BranchPlot::PointType::Fold;
            else if (p.type == shooting::BranchPointType::PeriodDoubling)
                type = BranchPlot::PointType::PeriodDoubling;
            points.push_back({p.parameter, p.amplitude, p.stable, type});
        }
        const QString parameter = panel_->sweepParameterCombo()->currentText();
        branch_->setBranch(points, parameter, tr("amplitude"));
        branch_->resetView();
        emit branchShown();
    }
    if (s.converged() || result->branch) {
        shownModel_ = runModel_;
        markOutOfDate();
    }
}

}  // namespace sysid::ui
