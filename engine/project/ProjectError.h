#pragma once

#include <stdexcept>
#include <string>

namespace sysid::project {

// A problem with a project file. what() reads "FILE: KEY: message" or, for text that is not
// JSON, "FILE:LINE:COLUMN: message"; parts that are unknown are left out.
class ProjectError : public std::runtime_error {
public:
    ProjectError(std::string file, std::string key, std::string message, int line = 0, int column = 0);

    std::string file;  // the project file as given
    std::string key;  // JSON key path such as "settings.max_iterations" or "data[1].path"; may be empty
    std::string message;  // without file and key
    int line = 0, column = 0;  // 1-based place in the text (parse errors only)
};

}  // namespace sysid::project
