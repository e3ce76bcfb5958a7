#pragma once

#include <string>
#include <vector>

namespace sysid::project {

// A bundled example as a reader chooses it: what it is, not its file name. The title and the
// description live in the example itself (a project's "title" and "description", a model's
// leading comment block), so there is one text to keep up to date.
struct Example {
    std::string path;  // the .sysid or .model file
    bool isProject = false;  // a project brings data and settings; a model file is the model alone
    std::string title;
    std::string description;
    std::string modelText;
};

// The title (the first line) and the description (the lines after it, '#' and one space
// removed, blank comment lines kept as paragraph breaks) of a model's leading comment block.
struct ModelHeading {
    std::string title;
    std::string description;
};
ModelHeading modelHeading(const std::string& modelText);

// Every .sysid project and .model file in `folder`: the projects first, then the models, each
// group in file-name order. A project that cannot be read is listed with its error as the
// description, so a broken example shows up instead of vanishing.
std::vector<Example> listExamples(const std::string& folder);

}  // namespace sysid::project
