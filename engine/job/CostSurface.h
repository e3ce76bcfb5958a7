#pragma once

#include "engine/estimate/FitResult.h"
#include "engine/job/FitJob.h"

#include <cstddef>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::parallel {
class ProcessGroup;
}

namespace sysid::job {

// One axis of a cost surface: a model parameter swept over [from, to] in `points` values.
struct SurfaceAxis {
    std::string parameter;
    double from = 0.0, to = 1.0;
    std::size_t points = 41;

    double value(std::size_t i) const;  // from + i (to - from) / (points - 1)
    // At least 2 points over a finite, increasing range; throws core::SettingError ("points",
    // "range").
    void validate() const;
};

struct CostSurfaceResult {
    SurfaceAxis x, y;
    std::vector<double> xValues, yValues;
    // cost[iy * x.points + ix] at (xValues[ix], yValues[iy]): 1/2 sum of weighted squared
    // output residuals (maximum likelihood: -ln L with each output's noise variance estimated at the
    // point) plus, for a method with priors, the prior term 1/2 sum ((theta - mean)/sd)^2 of
    // estimate::fit's cost. NaN where the model cannot be
    // integrated (its message is counted in `failedPoints`) or the point was not reached.
    std::vector<double> cost;
    std::size_t failedPoints = 0;
    std::string firstFailure;  // the integration message of the first point that failed (lowest row)
    bool cancelled = false;
    int ranks = 1;  // processes the rows were spread over
    std::vector<int> rowRanks;  // per y value: the process that computed the row, -1 if none did

    double at(std::size_t ix, std::size_t iy) const { return cost[iy * x.points + ix]; }
    double minimum() const;  // smallest finite cost, NaN if none
};

// The output-error cost of a fit's data over a grid of two of the model's parameters, the
// others held at the fit's starting values (FitJob::parameterValues over the model text),
// with the fit's preprocessing, output weights, priors and integrator: the picture of the seed 003
// Figures 4.3-4.6 on which an iteration path can be drawn.
struct CostSurface {
    FitJob fit;
    SurfaceAxis x, y;
    unsigned threads = 0;  // per process; 0: std::thread::hardware_concurrency()
    // The processes the rows are spread over (parallel::distributedFor); nullptr: this one.
    const parallel::ProcessGroup* processes = nullptr;

    // Called after each finished grid row, serialised, on a worker thread: points done, total.
    // Over several processes: on process 0 only, for the other processes' rows when they arrive.
    using Progress = std::function<void(std::size_t done, std::size_t total)>;

    // Both axes' validate(), the grid's size against the memory (key "points") and the fit's
    // settings (FitSettings::validate); throws core::SettingError with the key under "x", "y"
    // or "fit".
    void validate() const;
    // Why the grid of x.points x y.points costs cannot be held in memory, or "".
    std::string gridProblem() const;

    // Evaluates every grid point, rows shared among the processes and their `threads` threads; the
    // result is the same for any count, and on a process other than 0 it holds no costs (process 0
    // has them all). `stop` ends it early
    // (`cancelled`, unreached points NaN). Throws JobError: Settings for what validate() refuses,
    // an axis that names no parameter of the model or both axes the same; Model, Data as
    // FitJob::run does.
    CostSurfaceResult run(const Progress& progress = {}, std::stop_token stop = {}) const;
};

// One accepted iterate of a fit, projected onto the two parameters of a surface.
struct PathPoint {
    std::size_t iteration = 0;
    double x = 0.0, y = 0.0;
    double cost = 0.0;  // the fit's cost there (all its parameters at that iterate)
};

// The iteration path of a fit (its history, iteration 0 the start) in the plane of two of
// its estimated parameters. Throws JobError(Settings) naming a parameter the fit did not estimate.
std::vector<PathPoint> iterationPath(const estimate::FitResult& result, const std::string& x, const std::string& y);

}  // namespace sysid::job
