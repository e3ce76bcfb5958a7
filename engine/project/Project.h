#pragma once

#include "engine/data/CsvReader.h"
#include "engine/estimate/FitSettings.h"
#include "engine/estimate/OptimalEstimation.h"
#include "engine/job/Multistart.h"
#include "engine/job/NoiseStudy.h"
#include "engine/job/ProfileLikelihood.h"
#include "engine/project/DataRole.h"
#include "engine/project/ProjectError.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sysid::project {

// The newest project format this build reads and writes.
inline constexpr int kProjectVersion = 1;

// A .sysid project (DESIGN.md, "Projects"). In memory, data paths are usable from the
// current directory (loadProject makes them absolute); in the file they are relative to it.
struct Project;
// Parameter values known to be true: those every fitted data set (estimationDataSets; all when
// none is) was simulated with (each carries the value, and they agree). Empty for measured data.
std::map<std::string, double> trueValues(const Project& project);

struct Project {
    int version = kProjectVersion;
    // What the project is, for a reader choosing among examples: a one-line title and a
    // description (the system, its source in the literature, what to try). Both may be empty.
    std::string title;
    std::string description;
    std::string modelText;
    std::string modelSource;  // name model errors are reported under, e.g. "sdof_cubic.model"

    struct DataSet {
        std::string name;  // shown in plots and messages; may be empty
        std::string path;
        std::optional<std::string> timeColumn;  // default: t, time, else the first column
        data::CsvFormat format;  // separator, decimal point, header line, rows skipped after it
        std::map<std::string, std::string> mapping;  // model output/input -> column
        std::map<std::string, double> fixedValues;  // fixed parameters with other values in this record only
        // Parameter values a synthetic record was simulated with; results show the relative error.
        std::map<std::string, double> trueValues;
        bool included = true;  // false: the user set it aside; neither fitted nor validated
        DataRole role = DataRole::Estimation;
        // Whether a fit fits it: included and for estimation.
        bool fitted() const { return included && role == DataRole::Estimation; }
    };
    std::vector<DataSet> data;

    nlohmann::json preprocessing = nlohmann::json::object();  // data::Preprocessing as its JSON (toJson)
    // method, integrator, iterations, tolerances, shooting intervals, output weights, priors
    estimate::FitSettings settings;
    std::map<std::string, double> parameterValues;  // starting values overriding the model text
    std::optional<nlohmann::json> lastResult;  // resultToJson of the last fit
    // Weights, priors and shooting points of optimal estimation ("optimal_estimation",
    // OptimalEstimationJson.h); absent in projects that never used it.
    std::optional<estimate::OptimalEstimationSettings> optimalEstimation;
    // optimalResultToJson of the last optimal estimation the GUI ran ("last_optimal_result"): what
    // "guess_from": "last_result" starts from and what the GUI shows again.
    std::optional<nlohmann::json> lastOptimalResult;
    // Monte Carlo noise study settings ("study", StudyJson.h); absent until a study was set up.
    std::optional<job::NoiseStudySettings> study;
    // Profile likelihood settings and the parameters to profile ("profile", ProfileJson.h); empty
    // parameters: every estimated one. Absent until profiles were set up.
    struct ProfileSetup {
        job::ProfileSettings settings;
        std::vector<std::string> parameters;
        bool operator==(const ProfileSetup&) const = default;
    };
    std::optional<ProfileSetup> profile;
    // profileResultToJson of the last profiles the GUI computed ("last_profile_result"): the HTML
    // report's profile section.
    std::optional<nlohmann::json> lastProfileResult;
    // Multistart settings ("multistart", MultistartJson.h); absent until a multistart was set up.
    std::optional<job::MultistartSettings> multistart;
};

// Indices (into Project::data) of the data sets a fit fits, in order: the fit's experiment k is
// data set estimationDataSets(project)[k].
std::vector<std::size_t> estimationDataSets(const Project& project);

// How a data set's file is read: its format and time column.
data::CsvOptions csvOptions(const Project::DataSet& set);

// Reads a project. Never writes anything. Throws ProjectError naming the file and the JSON
// key: not JSON (with line:column), a wrong type or value, an unknown key or method, a
// version newer than kProjectVersion, no model text, a data file that does not exist.
Project loadProject(const std::string& path);

// The JSON of a project whose relative data paths are resolved against `directory`
// (the project file's folder), and the inverse. Used by loadProject / saveProject.
Project projectFromJson(const nlohmann::json& json, const std::string& file, const std::string& directory);
nlohmann::json projectToJson(const Project& project, const std::string& directory);

// Writes the project to PATH.tmp and renames it to PATH, so PATH is either the old or the
// new file, never a half-written one; on failure PATH.tmp is removed and ProjectError thrown.
// Data paths are written relative to PATH's folder.
void saveProject(const Project& project, const std::string& path);

}  // namespace sysid::project
