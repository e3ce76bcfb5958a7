#pragma once

#include "app/cli/CommandLine.h"
#include "app/cli/OutputPlace.h"

#include "engine/data/CsvReader.h"
#include "engine/estimate/FitSettingFields.h"
#include "engine/job/FitJob.h"

#include <boost/program_options.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sysid::cli {

// The arguments with older option spellings replaced by today's (also in the --old=VALUE form): one
// name per concept across the commands, while the old spelling a script may hold still works.
Arguments withCurrentSpellings(const Arguments& args, const std::map<std::string, std::string>& older);

// The options a command line can name: those a "--name" or "--name=value" argument names or
// abbreviates (program_options takes a unique prefix), and those whose short name is a letter of
// a single-dash argument. Every option when help is asked for, so that --help lists them all.
// Program_options compares each argument with every option declared, and declaring an option
// costs as much again: commands declare and parse only these (docs/DECISIONS.md, "The command
// line's start"). An unknown name still matches none, and an abbreviation keeps every option it
// could mean, so the errors stay the same.
class NamedOptions {
public:
    explicit NamedOptions(const Arguments& args);
    // Whether the option with this long name (and short name, 0 for none) may be named.
    bool names(std::string_view longName, char shortName = 0) const;
    // `option` as declared to program_options: "name" or "name,n".
    bool namesDeclared(std::string_view option) const;
    // Whether a command declares and parses against this option: one the arguments can name, the
    // positional one, or one with a default value (which a command may read without it given).
    bool keeps(std::string_view longName, char shortName, const char* positional,
               const boost::program_options::value_semantic& semantic) const;
    // "name" and 'n' of "name,n" (0: no short name).
    static std::pair<std::string_view, char> declaredNames(std::string_view option);

private:
    std::vector<std::string> longNames_;
    std::string shortNames_;
    bool every_ = false;
};

// Declares options as options_description::add_options() does, but only those parseArguments
// keeps: the ones `named` can name, the positional one and those with a default value (which a
// command may read without its option given). A command's options are declared through it.
class NamedOptionsInit {
public:
    NamedOptionsInit(boost::program_options::options_description& options, const NamedOptions& named,
                     const char* positional = nullptr);
    NamedOptionsInit& operator()(const char* name, const char* description);
    NamedOptionsInit& operator()(const char* name, const boost::program_options::value_semantic* semantic);
    NamedOptionsInit& operator()(const char* name, const boost::program_options::value_semantic* semantic,
                                 const char* description);

private:
    boost::program_options::options_description& options_;
    const NamedOptions& named_;
    const char* positional_;
};

// Parses a command's arguments with one positional argument (the model or project file).
// Returns nothing when --help was asked for and printed. `hidden` options are accepted but not
// listed by --help (older spellings).
std::optional<boost::program_options::variables_map> parseArguments(
    const Arguments& args, const boost::program_options::options_description& options, const char* positional,
    const boost::program_options::options_description* hidden = nullptr, int positionalCount = 1);

// A whole number given as text ("--realisations 12"); anything else is a UsageError naming `option`.
std::size_t parseCount(const std::string& text, const std::string& option);

// The values of a repeatable string option (none when it was not given).
std::vector<std::string> repeated(const boost::program_options::variables_map& vm, const char* name);

// Splits "NAME=VALUE" as given to `option`; a missing name or value is a UsageError naming `form`.
std::pair<std::string, std::string> splitAssignment(const std::string& item, const std::string& option,
                                                    const char* form);

// The values of a repeatable NAME=NUMBER option such as --set, by name; `form` names the shape
// in the usage error.
std::map<std::string, double> namedValues(const boost::program_options::variables_map& vm, const char* name,
                                          const char* form = "NAME=VALUE");
// The values of a repeatable NAME=NUMBER,NUMBER option such as --prior NAME=MEAN,SD, by name;
// `form` names the shape in the usage error, `first` and `second` the numbers in theirs.
std::map<std::string, std::pair<double, double>> namedPairs(const boost::program_options::variables_map& vm,
                                                            const char* name, const char* form, const char* first,
                                                            const char* second);

// --method as an estimation method (fit, contour, study); nothing when it was not given, a
// UsageError listing the methods when it names none.
std::optional<estimate::EstimationMethod> estimationMethodOption(const boost::program_options::variables_map& vm);
// "--method NAME: a | b | ...": the help line of --method, from the methods' table.
std::string estimationMethodHelp(const std::string& intro);

// The repeatable --prior NAME=MEAN,SD, by name (the rule sd > 0 is FitSettings::validate's).
std::map<std::string, estimate::Prior> priorOptions(const boost::program_options::variables_map& vm);

// The MODEL form's data options: --map NAME=COLUMN (the model name read from another column;
// `form` names the shape in the usage error), --time (the time column), and one experiment per
// --data CSV file with that mapping.
std::map<std::string, std::string> columnMapping(const boost::program_options::variables_map& vm,
                                                 const char* form = "NAME=COLUMN");
// --separator, --decimal-point, --header-line and --skip-rows: how the data files are read.
void addCsvFormatOptions(boost::program_options::options_description& options, const NamedOptions& named);
data::CsvOptions csvOptions(const boost::program_options::variables_map& vm);
std::vector<job::ExperimentData> dataExperiments(const boost::program_options::variables_map& vm,
                                                 const std::map<std::string, std::string>& mapping);
// A project names its data: --data, --time, --map and the format options are refused with a UsageError naming it.
void refuseModelFormOptions(const boost::program_options::variables_map& vm, const std::string& project);

// The command's PROJECT.sysid or MODEL argument ("input"); a UsageError saying `missing` when
// it was not given.
std::string inputArgument(const boost::program_options::variables_map& vm,
                          const char* missing = "missing the PROJECT.sysid or MODEL file");
// A .sysid file is a project; any other a model.
bool isProjectFile(const std::string& path);

// The whole file at path (a model); a missing, unreadable or directory path is a UserError.
std::string readModelText(const std::string& path);
// Writes a command's result to `path` atomically; "-" is standard output.
void writeResult(const std::string& path, const std::string& text);
// A whole-number option, read as signed so that "-3" is refused rather than wrapped around.
std::size_t countOption(const boost::program_options::variables_map& vm, const char* name, long long least);

}  // namespace sysid::cli
