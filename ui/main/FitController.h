#pragma once

#include "engine/job/Comparison.h"

#include "engine/estimate/FitSettings.h"
#include "engine/job/FitJob.h"
#include "ui/project/ProjectDocument.h"

#include <Eigen/Dense>
#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

class QWidget;

namespace sysid::job {
struct OptimalEstimationJob;
}

namespace sysid::ui {

class CostPlot;
class EstimatorPanel;
class FieldPanel;
class FilterPanel;
class FitRunner;
class OptimalEstimationRunner;
class OptimalEstimationView;
class ParameterHistoryPlot;
class ResultsPanel;
class ValidationRunner;
struct ValidationOutcome;

// Runs the estimator panel's choice: a fit (FitRunner) or optimal estimation
// (OptimalEstimationRunner), each built from the document. Iterations go to the parameter and
// cost plots, a fit's result to the document, optimal estimation's to its view; the model's
// response and everything for the log and status bar leave as signals for the window to show.
class FitController : public QObject {
    Q_OBJECT

public:
    // Panels and plots the runs feed. `dialogParent` owns the warnings shown when a run cannot
    // start or fails.
    struct Views {
        QWidget* dialogParent = nullptr;
        EstimatorPanel* estimator = nullptr;
        ResultsPanel* results = nullptr;
        FilterPanel* filter = nullptr;
        ParameterHistoryPlot* parameterPlot = nullptr;
        CostPlot* costPlot = nullptr;
        FieldPanel* field = nullptr;
        OptimalEstimationView* optimalView = nullptr;
    };

    FitController(ProjectDocument* document, const Views& views, QObject* parent = nullptr);

    FitRunner* runner() const { return runner_; }
    // The invalid entries of the estimator and filter panels, one line each; a run is refused
    // while there are any.
    QStringList inputProblems() const;
    OptimalEstimationRunner* optimalRunner() const { return optimalRunner_; }
    ValidationRunner* validationRunner() const { return validationRunner_; }

public slots:
    void run();  // optimal estimation when the estimator panel has it selected
    // The stiffness along optimal estimation's starting guess (on the worker thread): the
    // suggestion goes next to the shooting points, kappa(t) to the optimal-estimation view.
    void checkOptimalStiffness();
    void cancel();
    // Output error from the shown equation-error estimate ("Use as start").
    void refineByOutputError();

signals:
    void runningChanged(bool running);  // for the progress bar
    // Iteration `iteration` of at most `maximum` (0: no fixed maximum) of the running fit.
    void iterationProgress(int iteration, int maximum);
    void iterationText(const QString& text);  // "iteration 3 of 100 · best cost 1.2" (empty: clear it)
    void logLine(const QString& text);
    void statusMessage(const QString& text, int timeoutMs);
    // The model's response of data set `experiment` (a fit: every data set; optimal estimation: the
    // current one), per sample and output; `withPhase`: also the model's phase portrait (a fit only).
    void modelResponse(int experiment, const std::vector<double>& times, const Eigen::MatrixXd& outputs,
                       bool withPhase);
    void optimalEstimationStarted();  // its view wants to be shown
    void stiffnessChecked();  // the view shows kappa(t) and wants to be shown
    // After a fit: the model at the estimate on validation data set `dataSet` (samples x outputs)
    // and how well it agrees per output (NaN: the data set does not measure it).
    void validationResponse(int dataSet, const std::vector<double>& times, const Eigen::MatrixXd& outputs,
                            const std::vector<sysid::job::OutputAgreement>& agreement);

private:
    void connectFitRunner();
    void connectOptimalRunner();
    void runOptimalEstimation();
    // The job of optimal estimation from the document and the panel, with the trajectories to
    // start from read; false (after a warning titled `title`) when it cannot be made.
    bool makeOptimalJob(job::OptimalEstimationJob& job, const QString& title);
    void startFit(job::FitJob job);
    // Says what is invalid and returns true when inputProblems() is not empty.
    bool refusedForInput(const QString& title);
    // The last fitted response of the previewed column, for the filter panel's spectrum.
    void showIdentifiedSpectrum();
    // Simulates the model at the fit's estimate on each included validation data set.
    void validate(const estimate::FitResult& result);
    void showValidation(const std::vector<ValidationOutcome>& outcomes);

    ProjectDocument* document_;
    Views views_;
    FitRunner* runner_;
    OptimalEstimationRunner* optimalRunner_;
    ValidationRunner* validationRunner_;
    std::vector<std::size_t> fittedSets_;  // the data set of each experiment of the running fit
    int optimalDataSet_ = 0;  // the data set optimal estimation runs on
    job::FitJob lastJob_;  // the running fit's model and settings (without its data)
    ProjectDocument::Revision validationRevision_;  // what the running validation computes from
    job::InitialValues validationInitial_;  // where the running validation's initial values come from
    estimate::EstimationMethod lastFitMethod_ = estimate::EstimationMethod::OutputError;
    int maxIterations_ = 0;  // of the running fit
    double bestCost_ = 0.0;  // lowest cost of the running fit's iterations so far (NaN before the first)
    ProjectDocument::Revision startRevision_;  // what the running fit computes from
    std::vector<double> lastTraceTimes_;  // the current data set's last model response
    Eigen::MatrixXd lastTraceOutputs_;
};

}  // namespace sysid::ui
