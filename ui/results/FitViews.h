#pragma once

#include "engine/job/Comparison.h"

#include "ui/project/ProjectDocument.h"

#include <Eigen/Dense>
#include <QObject>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <string>
#include <vector>

class QVBoxLayout;
class QWidget;

namespace sysid::ui {

class CostPlot;
class CurvePlot;
class FieldPanel;
class OptimalEstimationView;
class ParameterHistoryPlot;
class PhasePortraitPlot;
class ResidualAnalysisPanel;
class ResultsPanel;
class TimeSeriesPlot;

// What a fit shows, kept true to the project:
// - the Outputs page, one TimeSeriesPlot per model output: the current data set as the fit fits
//   it (preprocessed), the raw record faintly behind when the preprocessing changes it, the
//   model's response of the last run and the residuals; under them the record's inputs on the
//   same time axis; on a validation data set the model at the estimate and its residual RMS;
//   the phase portrait of the first output;
// - the parameter and cost histories (of the running fit, else of the document's result);
// - the results table, the residual analysis, the optimal-estimation view and the field's model.
// Another project clears them all. A change of model, data, preprocessing or fit settings marks
// whatever was computed before it out of date (a notice on the plots, the model drawn grey, a
// banner over the results); a change of the data sets drops the model's responses, which belonged
// to the records as they were.
class FitViews : public QObject {
    Q_OBJECT

public:
    struct Views {
        ResultsPanel* results = nullptr;
        ParameterHistoryPlot* parameters = nullptr;
        CostPlot* cost = nullptr;
        PhasePortraitPlot* phase = nullptr;
        OptimalEstimationView* optimal = nullptr;
        FieldPanel* field = nullptr;
        ResidualAnalysisPanel* residuals = nullptr;
    };

    // The Outputs page is made a child of `pageParent`.
    FitViews(ProjectDocument* document, const Views& views, QWidget* pageParent, QObject* parent = nullptr);

    QWidget* outputPage() const { return outputPage_; }
    TimeSeriesPlot* outputPlot(int output) const;
    int outputPlotCount() const { return static_cast<int>(outputPlots_.size()); }
    // The model at the estimate was simulated on validation data set `dataSet` after the fit.
    bool hasValidationResponse(int dataSet) const;
    // The current data set's model inputs over time (nullptr: the model has no inputs).
    CurvePlot* inputsPlot() const { return inputsPlot_; }

public slots:
    // A fit or optimal estimation starts (true; its responses and iterations belong to the
    // project as it is at this moment) or has ended (false).
    void setRunning(bool running);
    void optimalEstimationStarted();
    // The model's response of data set `experiment` (samples x outputs, at the samples of that
    // data set as the run fits it).
    void showResponse(int experiment, const std::vector<double>& times, const Eigen::MatrixXd& outputs, bool withPhase);
    // The model at the estimate on validation data set `dataSet`, with how well it agrees per output.
    void showValidation(int dataSet, const std::vector<double>& times, const Eigen::MatrixXd& outputs,
                        const std::vector<sysid::job::OutputAgreement>& agreement);
    // The model simulated at the current parameter values on the current data set (LiveSimulation):
    // drawn instead of a fit's response until the next fit starts; cleared by clearLiveResponse.
    void showLiveResponse(const std::vector<double>& times, const Eigen::MatrixXd& outputs);
    void clearLiveResponse();

private:
    void clearAll();  // another project
    void rebuildPlots();  // one plot per model output
    void labelPlots();  // the model's units on the output and phase portrait axes
    QString labelWithUnit(const QString& output) const;  // "s [m]"
    void redrawOutputs();  // measured and model
    void redrawMeasured();  // the current data set as fitted, and raw behind it
    void redrawModel();  // the model's response of the current data set
    std::string columnOf(const std::string& name) const;  // the current data set's column of a model name
    void redrawInputs(const data::DataTable* fitted, std::size_t stride);
    void showResult();  // the document's result: table and histories
    void markOutOfDate();  // every view against the revision it was computed at

    struct Response {
        std::vector<double> times;
        Eigen::MatrixXd outputs;
        bool withPhase = false;
        std::vector<job::OutputAgreement> agreement;  // of a validation data set; empty for a fitted one
    };

    ProjectDocument* document_;
    Views views_;
    QWidget* outputPage_;
    QVBoxLayout* outputLayout_;
    std::vector<TimeSeriesPlot*> outputPlots_;
    QStringList plottedOutputs_;
    CurvePlot* inputsPlot_ = nullptr;
    QStringList plottedInputs_;
    std::map<int, Response> responses_;  // per data set, of the run that started at runRevision_
    std::optional<Response> live_;  // at the current values, of the current data set
    ProjectDocument::Revision runRevision_;
    ProjectDocument::Revision optimalRevision_;
    bool runActive_ = false;  // responses come from a run of this project
    bool historyFromRun_ = false;  // the histories show a run's iterations, not the result's
    QString dataNotice_;  // why the measured data are not what a fit would fit
};

}  // namespace sysid::ui
