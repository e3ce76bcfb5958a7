#include "app/cli/OutputPlace.h"

#include "app/cli/CommandLine.h"

#include "engine/core/AtomicFile.h"
#include "engine/core/InputFile.h"
#include "engine/project/JsonFile.h"

#include <filesystem>
#include <utility>
#include <vector>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace sysid::cli {

namespace {

// (option, value) for every argument value that may name a file: which of them do is asked only
// when an output file is checked (a result to standard output needs no look at the disk).
std::vector<std::pair<std::string, std::string>>& namedFiles()
{
    static std::vector<std::pair<std::string, std::string>> files;
    return files;
}

std::string optionName(const std::string& key)
{
    if (key == "input")
        return "the command's file";
    return key == "model" ? std::string("the model file") : "--" + key;
}

// The data and model files a project names, resolved as the project reader resolves them. A
// project that cannot be read names none here; reading it later reports why.
std::vector<std::string> filesOfProject(const std::string& project)
{
    std::vector<std::string> files;
    try {
        const nlohmann::json root = project::readJsonFile(project, "project file");
        const fs::path folder = fs::path(project).parent_path();
        auto add = [&](const nlohmann::json& value) {
            if (value.is_string() && !value.get<std::string>().empty()) {
                const fs::path p = value.get<std::string>();
                files.push_back((p.is_absolute() ? p : folder / p).string());
            }
        };
        if (const auto data = root.find("data"); data != root.end() && data->is_array())
            for (const auto& item : *data)
                if (item.is_object() && item.contains("path"))
                    add(item["path"]);
        if (const auto model = root.find("model");
            model != root.end() && model->is_object() && model->contains("source"))
            add((*model)["source"]);
    } catch (const std::exception&) {
    }
    return files;
}

}  // namespace

void recordArguments(const po::variables_map& vm)
{
    auto& files = namedFiles();
    files.clear();
    auto note = [&](const std::string& key, const std::string& value) {
        if (value != "-" && !value.empty())
            files.emplace_back(key, value);
    };
    for (const auto& [key, value] : vm) {
        if (const auto* text = boost::any_cast<std::string>(&value.value()))
            note(key, *text);
        else if (const auto* list = boost::any_cast<std::vector<std::string>>(&value.value()))
            for (const auto& item : *list)
                note(key, item);
    }
}

void checkOutputPlace(const std::string& path, const char* option)
{
    if (path == "-")
        return;
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw UserError(path + ": is a directory; " + option + " needs a file name");
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec))
        throw UserError(path + ": the folder " + parent.string() + " does not exist");
    const std::string given = option;
    const std::string ownKey = given == "-o" ? "output" : given.substr(given.find_first_not_of('-'));
    for (const auto& [key, input] : namedFiles()) {
        if (key == ownKey || !fs::is_regular_file(input, ec))
            continue;  // the output option itself, or a value that names no file
        if (core::sameFile(path, input))
            throw UserError(path + ": " + option + " names the input given as " + optionName(key) +
                            "; sysid does not overwrite its inputs: choose another output file");
        if (fs::path(input).extension() == ".sysid")
            for (const auto& file : filesOfProject(input))
                if (core::sameFile(path, file))
                    throw UserError(path + ": " + option + " names a file the project " + input +
                                    " reads; sysid does not overwrite its inputs: choose another output file");
    }
    try {
        core::checkCanWrite(path);
    } catch (const core::FileWriteError& e) {
        throw UserError(e.what());
    }
}

}  // namespace sysid::cli
