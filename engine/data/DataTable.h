#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sysid::data {

// A table of sampled signals, column-major: columns[c][row]. One column is the
// time; readers guarantee equal column lengths and strictly increasing time.
struct DataTable {
    std::string source;  // file name or other origin, for messages
    std::vector<std::string> columnNames;
    std::vector<std::vector<double>> columns;  // columns[c][row]
    std::size_t timeColumn = 0;

    std::size_t rowCount() const;
    // The time column; throws DataError if the table has no such column.
    const std::vector<double>& time() const;
    // Index of the column with exactly this name.
    std::optional<std::size_t> findColumn(std::string_view name) const;
    // Throws DataError naming the missing column and listing those that exist.
    const std::vector<double>& column(std::string_view name) const;
};

}  // namespace sysid::data
