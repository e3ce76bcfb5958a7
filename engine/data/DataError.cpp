#include "engine/data/DataError.h"

#include "engine/data/Text.h"

#include <utility>

namespace sysid::data {

std::string formatDataError(const std::string& source, int line, int column, const std::string& columnName,
                            const std::string& message)
{
    std::string out;
    if (!source.empty()) {
        out = source;
        if (line > 0)
            out += ':' + std::to_string(line);
        out += ": ";
    } else if (line > 0)
        out = "line " + std::to_string(line) + ": ";
    if (!columnName.empty())
        out += "column '" + printableExcerpt(columnName, 80) + "': ";
    else if (column > 0)
        out += "column " + std::to_string(column) + ": ";
    return out + message;
}

DataError::DataError(std::string message_, std::string source_, int line_, int column_, std::string columnName_) :
    std::runtime_error(formatDataError(source_, line_, column_, columnName_, message_)), source(std::move(source_)),
    line(line_), column(column_), columnName(std::move(columnName_)), message(std::move(message_))
{
}

}  // namespace sysid::data
