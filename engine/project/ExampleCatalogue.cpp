#include "engine/project/ExampleCatalogue.h"

#include "engine/project/Project.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace sysid::project {

namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string trimmed(const std::string& s)
{
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string::npos)
        return {};
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

ModelHeading modelHeading(const std::string& modelText)
{
    ModelHeading heading;
    std::istringstream lines(modelText);
    std::string line;
    std::vector<std::string> body;
    while (std::getline(lines, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos) {
            if (heading.title.empty())
                continue;
            break;  // a blank line ends the leading block
        }
        if (line[first] != '#')
            break;
        std::string comment = line.substr(first + 1);
        if (!comment.empty() && comment.front() == ' ')
            comment.erase(0, 1);
        if (heading.title.empty())
            heading.title = trimmed(comment);
        else
            body.push_back(comment);
    }
    while (!body.empty() && trimmed(body.back()).empty())
        body.pop_back();
    for (std::size_t i = 0; i < body.size(); ++i)
        heading.description += (i > 0 ? "\n" : "") + body[i];
    return heading;
}

std::vector<Example> listExamples(const std::string& folder)
{
    std::vector<fs::path> projects, models;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        if (!entry.is_regular_file(ec))
            continue;
        if (entry.path().extension() == ".sysid")
            projects.push_back(entry.path());
        else if (entry.path().extension() == ".model")
            models.push_back(entry.path());
    }
    std::sort(projects.begin(), projects.end());
    std::sort(models.begin(), models.end());

    std::vector<Example> examples;
    for (const fs::path& path : projects) {
        Example e;
        e.path = path.string();
        e.isProject = true;
        try {
            const Project p = loadProject(e.path);
            e.title = p.title;
            e.description = p.description;
            e.modelText = p.modelText;
        } catch (const ProjectError& error) {
            e.description = error.what();
        }
        if (e.title.empty())
            e.title = path.filename().string();
        examples.push_back(std::move(e));
    }
    for (const fs::path& path : models) {
        Example e;
        e.path = path.string();
        e.modelText = readFile(path);
        ModelHeading heading = modelHeading(e.modelText);
        e.title = heading.title.empty() ? path.filename().string() : std::move(heading.title);
        e.description = std::move(heading.description);
        examples.push_back(std::move(e));
    }
    return examples;
}

}  // namespace sysid::project
