#pragma once

#include "app/cli/CommandLine.h"

#include "engine/data/CsvReader.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/job/FitJob.h"

#include <boost/program_options.hpp>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sysid::cli {

// Parses a command's arguments with one positional argument (the model or project file).
// Returns nothing when --help was asked for and printed.
std::optional<boost::program_options::variables_map> parseArguments(
    const Arguments& args, const boost::program_options::options_description& options, const char* positional);

// The integrator options of every command that integrates: --METHOD_OPTION (named "method"
// by simulate, "integrator" by fit, where --method is the estimator), --rtol, --atol,
// --max-step, --max-steps. Options not given leave `settings` as they are (the defaults, or
// a project's), so they can override; a method given is marked chosen, else the job picks the
// model's default (integrate::defaultMethodFor).
void addIntegratorOptions(boost::program_options::options_description& options, const char* methodOption);
void applyIntegratorOptions(const boost::program_options::variables_map& vm, const char* methodOption,
                            integrate::IntegratorSettings& settings);

// The values of a repeatable string option (none when it was not given).
std::vector<std::string> repeated(const boost::program_options::variables_map& vm, const char* name);

// Splits "NAME=VALUE" as given to `option`; a missing name or value is a UsageError naming `form`.
std::pair<std::string, std::string> splitAssignment(const std::string& item, const std::string& option,
                                                    const char* form);

// The values of a repeatable NAME=NUMBER option such as --set, by name.
std::map<std::string, double> namedValues(const boost::program_options::variables_map& vm, const char* name);
// A repeatable NAME=W option (--weight, --state-weight) whose weights must be > 0; `form`
// names the expected shape in the usage error (e.g. "OUTPUT=WEIGHT").
std::map<std::string, double> positiveWeights(const boost::program_options::variables_map& vm, const char* name,
                                              const char* form);

// --method as an estimation method (fit, contour); nothing when it was not given, a UsageError
// listing the methods when it names none.
std::optional<estimate::EstimationMethod> estimationMethodOption(const boost::program_options::variables_map& vm);

// The repeatable --prior NAME=MEAN,SD (sd > 0), by name.
std::map<std::string, estimate::Prior> priorOptions(const boost::program_options::variables_map& vm);

// The MODEL form's data options: --map NAME=COLUMN (the model name read from another column;
// `form` names the shape in the usage error), --time (the time column), and one experiment per
// --data CSV file with that mapping.
std::map<std::string, std::string> columnMapping(const boost::program_options::variables_map& vm,
                                                 const char* form = "NAME=COLUMN");
data::CsvOptions csvOptions(const boost::program_options::variables_map& vm);
std::vector<job::ExperimentData> dataExperiments(const boost::program_options::variables_map& vm,
                                                 const std::map<std::string, std::string>& mapping);
// A project names its data: --data, --time and --map are refused with a UsageError naming it.
void refuseModelFormOptions(const boost::program_options::variables_map& vm, const std::string& project);

// The whole file at path (a model); a missing, unreadable or directory path is a UserError.
std::string readModelText(const std::string& path);
// Refuses an output file (given with `option`) that is a folder or lies in a folder that does
// not exist ("-" is stdout).
void checkOutputPlace(const std::string& path, const char* option = "-o");
// A whole-number option, read as signed so that "-3" is refused rather than wrapped around.
std::size_t countOption(const boost::program_options::variables_map& vm, const char* name, long long least);

}  // namespace sysid::cli
