#pragma once

#include "ui/run/PeriodicRunner.h"

#include <QObject>
#include <QString>

namespace sysid::ui {

class BranchPlot;
class PeriodicPanel;
class PhasePortraitPlot;
class ProjectDocument;

// Wires the periodic-solution panel to its runner and plots: Run builds a job from the
// document's model text and the panel's settings, the converged orbit goes to the phase
// portrait (first state against the second) and a continuation to the branch plot. A model with
// inputs is driven by the record the panel names: a data set of the project or a CSV file.
class PeriodicController : public QObject {
    Q_OBJECT
public:
    PeriodicController(ProjectDocument* document, PeriodicPanel* panel, PhasePortraitPlot* orbit, BranchPlot* branch,
                       QObject* parent = nullptr);
    PeriodicRunner* runner() const { return runner_; }

public slots:
    void run();
    void cancel();

signals:
    void message(const QString& text);  // for the status bar and the log
    void orbitShown();  // a converged orbit was drawn
    void branchShown();  // a continuation was drawn

private:
    void finish(bool cancelled, const QString& message, const std::shared_ptr<const PeriodicResult>& result);
    void markOutOfDate();  // the plots against the model text they were computed from
    void offerDataSets();  // the project's data sets as the panel's input records
    void offerPeriod();  // the period of the project's periodic-response settings, when it has one
    // The record the panel chose for a model with inputs (a data set, with its column mapping, or a
    // CSV file); false with *error saying what is wrong.
    bool addInputRecord(job::PeriodicJob& job, QString* error) const;

    ProjectDocument* document_;
    PeriodicPanel* panel_;
    PhasePortraitPlot* orbit_;
    BranchPlot* branch_;
    PeriodicRunner* runner_;
    int runProject_ = 0;  // ProjectDocument::Revision::project when the run started
    QString runModel_;  // the model text of the running job
    QString shownModel_;  // the model text of the plotted orbit or branch
};

}  // namespace sysid::ui
