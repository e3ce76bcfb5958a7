#pragma once
// Records and jobs for the optimal-estimation tests: a model simulated into a data table (what a
// CSV file of measurements gives the job), the seed-001 examples as jobs.

#include "TextTestSupport.h"

#include "engine/data/CsvReader.h"
#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/integrate/InputSignals.h"
#include "engine/integrate/Simulator.h"
#include "engine/job/OptimalEstimationJob.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/SymbolicLock.h"

#include <cmath>
#include <mutex>
#include <string>
#include <vector>

namespace sysid::test {

// The model `text` simulated at `times` (its own parameter values and initial state) with the
// input columns `inputs` (name -> values at `times`): a table t, inputs, outputs.
inline data::DataTable simulatedTable(const std::string& text, const std::vector<double>& times,
                                      const std::vector<std::pair<std::string, std::vector<double>>>& inputs = {},
                                      integrate::IntegrationMethod method = integrate::IntegrationMethod::Dopri5)
{
    std::shared_ptr<const eval::CompiledModelSource> source;
    {
        std::lock_guard lock(model::symbolicMutex());
        source = eval::compileModel(model::parseModel(text, "truth"));
    }
    eval::CompiledModel truth(source);
    std::vector<data::Signal> series;
    for (const auto& [name, values] : inputs)
        series.emplace_back(times, values);
    const integrate::InputSignals inputSignals(std::move(series));
    integrate::SimulationRequest request;
    request.times = times;
    request.inputs = &inputSignals;
    integrate::IntegratorSettings integrator;
    integrator.method = method;
    integrator.methodChosen = true;
    integrator.relativeTolerance = 1e-12;
    integrator.absoluteTolerance = 1e-14;
    const auto trajectory = integrate::simulate(truth, request, integrator);
    data::DataTable table;
    table.source = "simulated";
    table.columnNames.push_back("t");
    table.columns.push_back(times);
    for (const auto& [name, values] : inputs) {
        table.columnNames.push_back(name);
        table.columns.push_back(values);
    }
    for (std::size_t j = 0; j < source->outputNames.size(); ++j) {
        table.columnNames.push_back(source->outputNames[j]);
        std::vector<double> column(times.size());
        for (std::size_t k = 0; k < times.size(); ++k)
            column[k] = trajectory.outputs(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(j));
        table.columns.push_back(column);
    }
    return table;
}

inline job::OptimalEstimationJob optimalJob(const std::string& modelText, const data::DataTable& table,
                                            const std::string& name = "record")
{
    job::OptimalEstimationJob j;
    j.modelText = modelText;
    j.modelSource = name + ".model";
    j.experiment.table = table;
    j.experiment.name = name;
    return j;
}

// The seed-001 mass-spring-damper (§3.4): msd_optimal.model from m = b = k = 10 on its noise-free record.
inline job::OptimalEstimationJob msdJob()
{
    return optimalJob(slurp(kExamples + "msd_optimal.model"), data::readCsv(kExamples + "msd_optimal_data.csv"), "msd");
}

// The seed-001 mixture (ch. 5; mixture_compression.model, H = 2, K = 1) under a load step smoothed
// over 0.05, 0..1 every 0.0025, started at H = `startH`, K = `startK` (the seed: 4, 4).
inline job::OptimalEstimationJob mixtureJob(double startH, double startK)
{
    const std::string text = slurp(kExamples + "mixture_compression.model");
    std::vector<double> times, load;
    for (int k = 0; k <= 400; ++k) {
        times.push_back(k * 0.0025);
        load.push_back(1.0 - std::exp(-times.back() / 0.05));
    }
    const data::DataTable table = simulatedTable(text, times, {{"u", load}}, integrate::IntegrationMethod::Rosenbrock4);
    job::OptimalEstimationJob j = optimalJob(text, table, "mixture");
    j.parameterValues = {{"H", startH}, {"K", startK}};
    return j;
}

}  // namespace sysid::test
