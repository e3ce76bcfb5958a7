#include "engine/project/Project.h"

#include "engine/core/InputFile.h"
#include "engine/data/DataError.h"
#include "engine/model/SubModels.h"
#include "engine/data/Preprocessing.h"
#include "engine/project/AtomicFile.h"
#include "engine/estimate/FitSettingFields.h"
#include "engine/project/JsonFile.h"
#include "engine/project/JsonKeys.h"
#include "engine/project/MultistartJson.h"
#include "engine/project/OptimalEstimationJson.h"
#include "engine/project/ProfileJson.h"
#include "engine/project/SettingsJson.h"
#include "engine/project/StudyJson.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace sysid::project {

namespace {

// Reads typed values out of the project JSON; every error names the file and the key path.
class Reader {
public:
    explicit Reader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const std::string& key, const std::string& message) const
    {
        throw ProjectError(file_, key, message);
    }

    static std::string describe(const json& value) { return describeJson(value); }

    void requireObject(const json& value, const std::string& key, std::initializer_list<const char*> known) const
    {
        if (!value.is_object())
            fail(key, "expected an object, got " + describe(value));
        if (const auto unknown = findUnknownKey(value, known))
            fail(join(key, unknown->key), "unknown key (known here: " + unknown->known + ")");
    }

    // The member, or nullptr when it is absent or null.
    static const json* member(const json& object, const char* name)
    {
        const auto it = object.find(name);
        return it == object.end() || it->is_null() ? nullptr : &*it;
    }

    std::string string(const json& value, const std::string& key) const
    {
        if (!value.is_string())
            fail(key, "expected a string, got " + describe(value));
        return value.get<std::string>();
    }

    // A name of `table`; anything else fails with "unknown WHAT 'name' (known: a, b, c)".
    template <class E, std::size_t N>
    E choice(const json& value, const std::string& key, const core::EnumTable<E, N>& table) const
    {
        const std::string name = string(value, key);
        const auto parsed = table.parse(name);
        if (!parsed)
            fail(key, table.unknownListing(name));
        return *parsed;
    }

    double number(const json& value, const std::string& key) const
    {
        if (!value.is_number())
            fail(key, "expected a number, got " + describe(value));
        const double v = value.get<double>();
        if (!std::isfinite(v))
            fail(key, "expected a finite number");
        return v;
    }

    static std::string join(const std::string& key, const std::string& child)
    {
        return key.empty() ? child : key + "." + child;
    }

private:
    std::string file_;
};

std::string modelTextFrom(const Reader& r, const json& value, const std::string& key)
{
    if (value.is_string())
        return value.get<std::string>();
    if (!value.is_array())
        r.fail(key, "expected the model text as a string or an array of lines, got " + Reader::describe(value));
    std::string text;
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (i > 0)
            text += '\n';
        text += r.string(value[i], key + "[" + std::to_string(i) + "]");
    }
    return text;
}

// "a\nb\n" -> ["a", "b", ""]: one array element per line, so the file reads like the model.
json modelTextToJson(const std::string& text)
{
    json lines = json::array();
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

// The "settings" object: every setting of the fit's field table (estimate::fitSettingFields),
// then the priors, then the rules of FitSettings::validate.
void readSettings(const Reader& r, const json& value, const std::string& key, estimate::FitSettings& s)
{
    try {
        readFields(estimate::fitSettingFields(), value, s, {"priors"});
    } catch (const FieldJsonError& e) {
        r.fail(Reader::join(key, e.key), e.message);
    }
    if (const json* v = Reader::member(value, "priors")) {
        const std::string k = key + ".priors";
        if (!v->is_object())
            r.fail(k, "expected an object {\"PARAMETER\": {\"mean\": m, \"sd\": s}}, got " + Reader::describe(*v));
        for (const auto& item : v->items()) {
            const std::string pk = k + "." + item.key();
            r.requireObject(item.value(), pk, {"mean", "sd"});
            const json* mean = Reader::member(item.value(), "mean");
            const json* sd = Reader::member(item.value(), "sd");
            if (!mean || !sd)
                r.fail(pk, "a prior needs both \"mean\" and \"sd\"");
            s.priors[item.key()] = estimate::Prior{r.number(*mean, pk + ".mean"), r.number(*sd, pk + ".sd")};
        }
    }
    try {
        s.validate();
    } catch (const core::SettingError& e) {
        r.fail(Reader::join(key, e.key()), e.expectation());
    }
}

// A one-character string from the table of symbols the CSV reader accepts.
template <std::size_t N>
char readSymbol(const Reader& r, const json& value, const std::string& key,
                const std::array<data::CsvSymbol, N>& symbols)
{
    const std::string text = r.string(value, key);
    std::string known;
    for (const data::CsvSymbol& s : symbols) {
        if (text.size() == 1 && text[0] == s.symbol)
            return s.symbol;
        known += (known.empty() ? "" : ", ") +
            (s.symbol == '\t' ? std::string("\"\\t\"") : "\"" + std::string(1, s.symbol) + "\"");
    }
    r.fail(key, "expected one of " + known + ", got " + Reader::describe(value));
}

int readCount(const Reader& r, const json& value, const std::string& key, int least)
{
    if (!value.is_number_integer() || value.get<long long>() < least || value.get<long long>() > 1'000'000'000)
        r.fail(key, "expected a whole number from " + std::to_string(least) + ", got " + Reader::describe(value));
    return static_cast<int>(value.get<long long>());
}

data::CsvFormat readFormat(const Reader& r, const json& item, const std::string& key)
{
    data::CsvFormat format;
    if (const json* v = Reader::member(item, "separator"))
        format.separator = readSymbol(r, *v, key + ".separator", data::csvSeparators);
    if (const json* v = Reader::member(item, "decimal_point"))
        format.decimalPoint = readSymbol(r, *v, key + ".decimal_point", data::csvDecimalPoints);
    if (const json* v = Reader::member(item, "header_line"))
        format.headerLine = readCount(r, *v, key + ".header_line", 1);
    if (const json* v = Reader::member(item, "skip_rows"))
        format.skipRows = readCount(r, *v, key + ".skip_rows", 0);
    return format;
}

// Only what differs from the defaults, so projects of plain files stay as they were.
void writeFormat(const data::CsvFormat& format, json& item)
{
    const data::CsvFormat defaults;
    if (format.separator != defaults.separator)
        item["separator"] = std::string(1, format.separator);
    if (format.decimalPoint != defaults.decimalPoint)
        item["decimal_point"] = std::string(1, format.decimalPoint);
    if (format.headerLine != defaults.headerLine)
        item["header_line"] = format.headerLine;
    if (format.skipRows != defaults.skipRows)
        item["skip_rows"] = format.skipRows;
}

}  // namespace

Project projectFromJson(const json& root, const std::string& file, const std::string& directory)
{
    const Reader r(file);
    r.requireObject(root, "",
                    {"version", "title", "description", "model", "data", "preprocessing", "method", "settings",
                     "parameters", "last_result", "optimal_estimation", "last_optimal_result", "study", "profile",
                     "last_profile_result", "multistart"});
    Project project;

    const json* version = Reader::member(root, "version");
    if (!version)
        r.fail("version", "missing; a project file starts with \"version\": " + std::to_string(kProjectVersion));
    if (!version->is_number_integer() || version->get<long long>() < 1)
        r.fail("version", "expected a whole number >= 1, got " + Reader::describe(*version));
    if (version->get<long long>() > kProjectVersion)
        r.fail("version",
               "the project has version " + version->dump() + ", but this sysid reads versions up to " +
                   std::to_string(kProjectVersion) + "; it was written by a newer sysid");
    project.version = static_cast<int>(version->get<long long>());
    if (const json* title = Reader::member(root, "title"))
        project.title = r.string(*title, "title");
    if (const json* description = Reader::member(root, "description"))
        project.description = modelTextFrom(r, *description, "description");

    const json* model = Reader::member(root, "model");
    if (!model)
        r.fail("model", "missing; a project holds the model as {\"source\": NAME, \"text\": [lines]}");
    r.requireObject(*model, "model", {"source", "text"});
    const json* text = Reader::member(*model, "text");
    if (!text)
        r.fail("model.text", "missing; a project holds the model text");
    project.modelText = modelTextFrom(r, *text, "model.text");
    if (project.modelText.find_first_not_of(" \t\r\n") == std::string::npos)
        r.fail("model.text", "the model text is empty");
    if (const json* source = Reader::member(*model, "source"))
        project.modelSource = r.string(*source, "model.source");
    if (project.modelSource.empty())
        project.modelSource = file + ":model";
    // Sub-models are read beside the model: its source then names the file with the project's folder,
    // relative to it again when saved.
    else if (model::includesSubModels(project.modelText) && fs::path(project.modelSource).is_relative())
        project.modelSource = (fs::path(directory) / project.modelSource).lexically_normal().string();

    if (const json* data = Reader::member(root, "data")) {
        if (!data->is_array())
            r.fail("data", "expected an array of data sets, got " + Reader::describe(*data));
        for (std::size_t i = 0; i < data->size(); ++i) {
            const std::string key = "data[" + std::to_string(i) + "]";
            const json& item = (*data)[i];
            r.requireObject(item, key,
                            {"name", "path", "time_column", "separator", "decimal_point", "header_line", "skip_rows",
                             "mapping", "fixed_values", "true_values", "included", "role"});
            Project::DataSet set;
            if (const json* name = Reader::member(item, "name"))
                set.name = r.string(*name, key + ".name");
            const json* path = Reader::member(item, "path");
            if (!path)
                r.fail(key + ".path", "missing; every data set names its CSV file");
            const std::string given = r.string(*path, key + ".path");
            if (given.empty())
                r.fail(key + ".path", "the file name is empty");
            const fs::path resolved = fs::path(given).is_absolute() ? fs::path(given) : fs::path(directory) / given;
            set.path = resolved.lexically_normal().string();
            if (const std::string problem = core::inputFileProblem(set.path, core::kMaxDataFileBytes, "a CSV file");
                !problem.empty())
                r.fail(key + ".path",
                       "data file '" + given + "' " +
                           (problem.starts_with("file not found") ? std::string("not found") : problem) +
                           " (looked for " + set.path + ")");
            if (const json* time = Reader::member(item, "time_column"))
                set.timeColumn = r.string(*time, key + ".time_column");
            set.format = readFormat(r, item, key);
            if (const json* mapping = Reader::member(item, "mapping")) {
                if (!mapping->is_object())
                    r.fail(key + ".mapping",
                           "expected an object {\"MODEL NAME\": \"COLUMN\"}, got " + Reader::describe(*mapping));
                for (const auto& m : mapping->items())
                    set.mapping[m.key()] = r.string(m.value(), key + ".mapping." + m.key());
            }
            const auto readValues = [&](const char* member, std::map<std::string, double>& values) {
                const json* object = Reader::member(item, member);
                if (!object)
                    return;
                const std::string where = key + "." + member;
                if (!object->is_object())
                    r.fail(where, "expected an object {\"PARAMETER\": value}, got " + Reader::describe(*object));
                for (const auto& f : object->items())
                    values[f.key()] = r.number(f.value(), where + "." + f.key());
            };
            readValues("fixed_values", set.fixedValues);
            readValues("true_values", set.trueValues);
            if (const json* included = Reader::member(item, "included")) {
                if (!included->is_boolean())
                    r.fail(key + ".included", "expected true or false, got " + Reader::describe(*included));
                set.included = included->get<bool>();
            }
            if (const json* role = Reader::member(item, "role"))
                set.role = r.choice(*role, key + ".role", kDataRoles);
            project.data.push_back(std::move(set));
        }
    }

    if (const json* pre = Reader::member(root, "preprocessing")) {
        try {
            (void)data::preprocessingFromJson(*pre);
        } catch (const data::DataError& e) {
            std::string message = e.message.empty() ? e.what() : e.message;
            const std::string prefix = "preprocessing: ";
            if (message.compare(0, prefix.size(), prefix) == 0)
                message.erase(0, prefix.size());
            r.fail("preprocessing", message);
        }
        project.preprocessing = *pre;
    }

    if (const json* method = Reader::member(root, "method"))
        project.settings.method = r.choice(*method, "method", estimate::kEstimationMethods);
    if (const json* settings = Reader::member(root, "settings"))
        readSettings(r, *settings, "settings", project.settings);

    if (const json* parameters = Reader::member(root, "parameters")) {
        if (!parameters->is_object())
            r.fail("parameters", "expected an object {\"NAME\": starting value}, got " + Reader::describe(*parameters));
        for (const auto& item : parameters->items())
            project.parameterValues[item.key()] = r.number(item.value(), "parameters." + item.key());
    }

    if (const json* last = Reader::member(root, "last_result")) {
        if (!last->is_object())
            r.fail("last_result", "expected an object, got " + Reader::describe(*last));
        project.lastResult = *last;
    }

    if (const json* optimal = Reader::member(root, "optimal_estimation")) {
        try {
            project.optimalEstimation = optimalSettingsFromJson(*optimal);
        } catch (const OptimalSettingsError& e) {
            r.fail(e.key.empty() ? "optimal_estimation" : "optimal_estimation." + e.key, e.message);
        }
        // A result file to start from is found relative to the project, as the data are.
        std::string& from = project.optimalEstimation->guessFrom;
        if (!from.empty() && from != estimate::kLastOptimalResult && !fs::path(from).is_absolute())
            from = (fs::path(directory) / from).lexically_normal().string();
    }
    if (const json* last = Reader::member(root, "last_optimal_result")) {
        if (!last->is_object())
            r.fail("last_optimal_result", "expected an object, got " + Reader::describe(*last));
        project.lastOptimalResult = *last;
    }
    if (const json* study = Reader::member(root, "study")) {
        try {
            project.study = studySettingsFromJson(*study);
        } catch (const StudySettingsError& e) {
            r.fail(e.key.empty() ? "study" : "study." + e.key, e.message);
        }
    }
    if (const json* profile = Reader::member(root, "profile")) {
        try {
            project.profile = profileSetupFromJson(*profile);
        } catch (const FieldJsonError& e) {
            r.fail(e.key.empty() ? "profile" : "profile." + e.key, e.message);
        }
    }
    if (const json* last = Reader::member(root, "last_profile_result")) {
        if (!last->is_object())
            r.fail("last_profile_result", "expected an object, got " + Reader::describe(*last));
        project.lastProfileResult = *last;
    }
    if (const json* multistart = Reader::member(root, "multistart")) {
        try {
            project.multistart = multistartSettingsFromJson(*multistart);
        } catch (const FieldJsonError& e) {
            r.fail(e.key.empty() ? "multistart" : "multistart." + e.key, e.message);
        }
    }
    return project;
}

std::map<std::string, double> trueValues(const Project& project)
{
    // The estimate comes from the fitted data sets: theirs are the values it is compared with.
    std::vector<std::size_t> sets = estimationDataSets(project);
    if (sets.empty())
        for (std::size_t i = 0; i < project.data.size(); ++i)
            sets.push_back(i);
    if (sets.empty())
        return {};
    std::map<std::string, double> agreed = project.data[sets.front()].trueValues;
    for (const std::size_t i : sets)
        std::erase_if(agreed, [&, &set = project.data[i]](const auto& entry) {
            const auto it = set.trueValues.find(entry.first);
            return it == set.trueValues.end() || it->second != entry.second;
        });
    return agreed;
}

std::vector<std::size_t> estimationDataSets(const Project& project)
{
    std::vector<std::size_t> indices;
    for (std::size_t i = 0; i < project.data.size(); ++i)
        if (project.data[i].fitted())
            indices.push_back(i);
    return indices;
}

data::CsvOptions csvOptions(const Project::DataSet& set)
{
    data::CsvOptions options;
    static_cast<data::CsvFormat&>(options) = set.format;
    options.timeColumn = set.timeColumn;
    return options;
}

Project loadProject(const std::string& path)
{
    const json root = readJsonFile(path, "project file");
    return projectFromJson(root, path, fs::path(path).parent_path().string());
}

json projectToJson(const Project& project, const std::string& directory)
{
    json root;
    root["version"] = project.version;
    if (!project.title.empty())
        root["title"] = project.title;
    if (!project.description.empty())
        root["description"] = modelTextToJson(project.description);
    std::error_code ec;
    const fs::path base = fs::absolute(directory.empty() ? fs::path(".") : fs::path(directory), ec).lexically_normal();
    std::string source = project.modelSource;
    if (model::includesSubModels(project.modelText) && !source.empty() && !source.ends_with(":model")) {
        const fs::path relative = fs::absolute(source, ec).lexically_normal().lexically_relative(base);
        if (!relative.empty())
            source = relative.string();
    }
    root["model"] = {{"source", source}, {"text", modelTextToJson(project.modelText)}};

    json data = json::array();
    for (const auto& set : project.data) {
        json item;
        if (!set.name.empty())
            item["name"] = set.name;
        const fs::path absolute = fs::absolute(set.path, ec).lexically_normal();
        const fs::path relative = absolute.lexically_relative(base);
        item["path"] = relative.empty() ? absolute.string() : relative.string();
        if (set.timeColumn)
            item["time_column"] = *set.timeColumn;
        writeFormat(set.format, item);
        if (!set.mapping.empty())
            item["mapping"] = set.mapping;
        if (!set.fixedValues.empty())
            item["fixed_values"] = set.fixedValues;
        if (!set.trueValues.empty())
            item["true_values"] = set.trueValues;
        // Only what differs from the defaults, so projects from before stay as they were.
        if (!set.included)
            item["included"] = false;
        if (set.role != DataRole::Estimation)
            item["role"] = std::string(kDataRoles.name(set.role));
        data.push_back(std::move(item));
    }
    root["data"] = std::move(data);
    if (!project.preprocessing.is_null())
        root["preprocessing"] = project.preprocessing;

    const estimate::FitSettings& s = project.settings;
    root["method"] = estimate::methodName(s.method);
    json settings = json::object();
    // A method nobody chose stays absent, so the model decides again when it is loaded.
    writeFields(estimate::fitSettingFields(), s, settings);
    settings["priors"] = json::object();
    for (const auto& [name, prior] : s.priors)
        settings["priors"][name] = {{"mean", prior.mean}, {"sd", prior.sd}};
    root["settings"] = std::move(settings);
    root["parameters"] = json::object();
    for (const auto& [name, value] : project.parameterValues)
        root["parameters"][name] = value;
    if (project.lastResult)
        root["last_result"] = *project.lastResult;
    if (project.optimalEstimation) {
        json optimal = optimalSettingsToJson(*project.optimalEstimation);
        const std::string& from = project.optimalEstimation->guessFrom;
        if (!from.empty() && from != estimate::kLastOptimalResult) {
            const fs::path relative = fs::absolute(from, ec).lexically_normal().lexically_relative(base);
            optimal["guess_from"] = relative.empty() ? from : relative.string();
        }
        root["optimal_estimation"] = std::move(optimal);
    }
    if (project.lastOptimalResult)
        root["last_optimal_result"] = *project.lastOptimalResult;
    if (project.study)
        root["study"] = studySettingsToJson(*project.study);
    if (project.profile)
        root["profile"] = profileSetupToJson(*project.profile);
    if (project.lastProfileResult)
        root["last_profile_result"] = *project.lastProfileResult;
    if (project.multistart)
        root["multistart"] = multistartSettingsToJson(*project.multistart);
    return root;
}

void saveProject(const Project& project, const std::string& path)
{
    const json root = projectToJson(project, fs::path(path).parent_path().string());
    writeFileAtomically(path, root.dump(2) + "\n");
}

}  // namespace sysid::project
