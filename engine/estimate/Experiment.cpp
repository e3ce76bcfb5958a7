#include "engine/estimate/Experiment.h"

#include "engine/data/Noise.h"

#include "engine/data/DataError.h"
#include "engine/integrate/IntersampleChoice.h"

#include <cmath>

namespace sysid::estimate {

namespace {

const std::string& columnFor(const std::string& name, const std::map<std::string, std::string>& mapping)
{
    const auto it = mapping.find(name);
    return it == mapping.end() ? name : it->second;
}

}  // namespace

Experiment makeExperiment(const eval::CompiledModelSource& model, const data::DataTable& table,
                          const std::map<std::string, std::string>& mapping, std::string name,
                          const std::map<std::string, integrate::Intersample>& intersample)
{
    for (const auto& [modelName, column] : mapping) {
        bool known = false;
        for (const auto* names : {&model.outputNames, &model.inputNames})
            for (const auto& n : *names)
                known = known || n == modelName;
        if (!known)
            throw data::DataError("the mapping names '" + modelName +
                                      "', which is neither an output nor an input of the model",
                                  table.source);
        if (!table.findColumn(column))
            table.column(column);  // throws, listing the columns that exist
    }
    Experiment e;
    e.name = std::move(name);
    e.times = table.time();
    const auto samples = static_cast<Eigen::Index>(e.times.size());
    e.measured = Eigen::MatrixXd::Zero(samples, static_cast<Eigen::Index>(model.outputCount()));
    e.outputMeasured.assign(model.outputCount(), false);
    for (std::size_t j = 0; j < model.outputCount(); ++j) {
        const std::string& column = columnFor(model.outputNames[j], mapping);
        const auto index = table.findColumn(column);
        if (!index || *index == table.timeColumn)
            continue;
        const auto& values = table.columns[*index];
        for (Eigen::Index i = 0; i < samples; ++i)
            e.measured(i, static_cast<Eigen::Index>(j)) = values[static_cast<std::size_t>(i)];
        e.outputMeasured[j] = true;
    }
    bool any = false;
    for (bool m : e.outputMeasured)
        any = any || m;
    if (!any) {
        std::string outputs;
        for (const auto& o : model.outputNames)
            outputs += (outputs.empty() ? "" : ", ") + o;
        throw data::DataError("no column matches a model output (outputs: " + outputs +
                                  "); name the columns after the outputs or map them",
                              table.source);
    }
    e.inputs = integrate::InputSignals::fromTable(
        model.inputNames, table, mapping, integrate::intersampleChoices(model.declaredIntersample, intersample));
    return e;
}

double estimateNoiseSd(const std::vector<double>& time, const Eigen::VectorXd& values)
{
    return data::noiseSd(time, values.data());
}

}  // namespace sysid::estimate
