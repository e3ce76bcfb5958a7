#pragma once

#include "engine/job/SimulationJob.h"
#include "ui/run/JobRunner.h"

#include <Eigen/Dense>
#include <QString>
#include <QTimer>

#include <optional>
#include <vector>

namespace sysid::ui {

class ProjectDocument;

// The model simulated at the current parameter values over the current data set (its time grid
// and inputs as a fit would use them), so that the starting guess, the input mapping and the
// sign conventions can be judged before fitting. Every change of the model text, the parameter
// values, the data, the mapping, the preprocessing or the integrator restarts a debounce; when it
// runs out and model and data are valid, a job::SimulationJob runs on the worker thread. A newer
// change cancels a running simulation and supersedes its result. Paused while a fit runs.
class LiveSimulation : public JobRunner {
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 300;

    explicit LiveSimulation(ProjectDocument* document, QObject* parent = nullptr);

    // A fit runs (true): no simulations, a running one is cancelled. After the fit (false) the
    // fit's own response is shown; the next change simulates again.
    void setPaused(bool paused);
    int simulationsStarted() const { return started_; }

    // The job for the project as it is now; nullopt (with *why) when there is nothing to simulate.
    std::optional<job::SimulationJob> currentJob(QString* why = nullptr) const;

public slots:
    void schedule();  // after kDebounceMs of quiet, simulate

signals:
    // The model's outputs (samples x outputs) at the current values, on the current data set's grid.
    void simulated(const std::vector<double>& times, const Eigen::MatrixXd& outputs);
    void cleared();  // nothing valid to simulate now: no live curve
    void failed(const QString& message);  // the simulation could not run (for the status bar)
    // A model with constraints: how far the simulation left them (integrate::describeDrift).
    void constraintDrift(const QString& summary);

private:
    void simulate();

    ProjectDocument* document_;
    QTimer debounce_;
    bool paused_ = false;
    bool again_ = false;  // a change came while a simulation ran: simulate once it has stopped
    int generation_ = 0;  // of the latest request; older results are dropped
    int started_ = 0;
    std::vector<double> lastTimes_;
    Eigen::MatrixXd lastOutputs_;
};

}  // namespace sysid::ui
