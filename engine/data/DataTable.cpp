#include "engine/data/DataTable.h"

#include "engine/data/DataError.h"
#include "engine/data/Text.h"

namespace sysid::data {

std::size_t DataTable::rowCount() const
{
    return columns.empty() ? 0 : columns.front().size();
}

const std::vector<double>& DataTable::time() const
{
    if (timeColumn >= columns.size())
        throw DataError("the table has " + std::to_string(columns.size()) + " columns, so it has no time column " +
                            std::to_string(timeColumn + 1) + "; expected a table with a time column",
                        source);
    return columns[timeColumn];
}

std::optional<std::size_t> DataTable::findColumn(std::string_view name) const
{
    for (std::size_t c = 0; c < columnNames.size() && c < columns.size(); ++c)
        if (columnNames[c] == name)
            return c;
    return std::nullopt;
}

const std::vector<double>& DataTable::column(std::string_view name) const
{
    if (const auto c = findColumn(name))
        return columns[*c];
    std::string list;
    for (const auto& n : columnNames)
        list += (list.empty() ? "'" : ", '") + printableExcerpt(n, 80) + "'";
    throw DataError("no such column; expected one of: " + (list.empty() ? std::string("(no columns)") : list), source,
                    0, 0, std::string(name));
}

}  // namespace sysid::data
