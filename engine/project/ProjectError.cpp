#include "engine/project/ProjectError.h"

namespace sysid::project {

namespace {

std::string format(const std::string& file, const std::string& key, const std::string& message, int line, int column)
{
    std::string text = file;
    if (line > 0) {
        text += ':' + std::to_string(line);
        if (column > 0)
            text += ':' + std::to_string(column);
    }
    if (!key.empty())
        text += (text.empty() ? "" : ": ") + key;
    return text + (text.empty() ? "" : ": ") + message;
}

}  // namespace

ProjectError::ProjectError(std::string file_, std::string key_, std::string message_, int line_, int column_) :
    std::runtime_error(format(file_, key_, message_, line_, column_)), file(std::move(file_)), key(std::move(key_)),
    message(std::move(message_)), line(line_), column(column_)
{
}

}  // namespace sysid::project
