#include "engine/project/ProjectJob.h"

#include "engine/data/CsvReader.h"
#include "engine/data/DataError.h"
#include "engine/data/Preprocessing.h"

namespace sysid::project {

job::ExperimentData experimentData(const Project& project, std::size_t index)
{
    const Project::DataSet& set = project.data.at(index);
    job::ExperimentData experiment;
    experiment.name = set.name.empty() ? set.path : set.name;
    try {
        experiment.table = data::readCsv(set.path, csvOptions(set));
    } catch (const data::DataError& e) {
        throw job::JobError(job::JobError::Kind::Data, e.what());
    }
    experiment.mapping = set.mapping;
    experiment.fixedValues = set.fixedValues;
    return experiment;
}

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
    } catch (const data::DataError& e) {
        throw job::JobError(job::JobError::Kind::Data, e.what());
    }
    const std::vector<std::size_t> fitted = estimationDataSets(project);
    if (fitted.empty() && !project.data.empty())
        throw job::JobError(job::JobError::Kind::Data,
                            "no data set to fit: each of the " + std::to_string(project.data.size()) +
                                " data set(s) is excluded or kept for validation; include at least one data set "
                                "with the role \"" +
                                std::string(kDataRoles.name(DataRole::Estimation)) + "\"");
    for (const std::size_t index : fitted)
        fit.experiments.push_back(experimentData(project, index));
    return fit;
}

}  // namespace sysid::project
