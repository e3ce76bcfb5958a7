#include "engine/project/ProjectJob.h"

#include "engine/data/CsvReader.h"
#include "engine/data/DataError.h"
#include "engine/data/Preprocessing.h"

namespace sysid::project {

job::FitJob makeFitJob(const Project& project)
{
    job::FitJob fit;
    fit.modelText = project.modelText;
    fit.modelSource = project.modelSource.empty() ? "<model>" : project.modelSource;
    fit.settings = project.settings;
    fit.parameterValues = project.parameterValues;
    try {
        if (!project.preprocessing.is_null())
            fit.preprocessing = data::preprocessingFromJson(project.preprocessing);
        for (const auto& set : project.data) {
            job::ExperimentData experiment;
            experiment.name = set.name.empty() ? set.path : set.name;
            experiment.table = data::readCsv(set.path, csvOptions(set));
            experiment.mapping = set.mapping;
            experiment.fixedValues = set.fixedValues;
            fit.experiments.push_back(std::move(experiment));
        }
    } catch (const data::DataError& e) {
        throw job::JobError(job::JobError::Kind::Data, e.what());
    }
    return fit;
}

}  // namespace sysid::project
