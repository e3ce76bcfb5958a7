#pragma once

#include "engine/data/DataTable.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sysid::data {

struct CsvOptions {
    // Name of the time column. Default: a column named `t` or `time` (any
    // letter case, the first such), else the first column.
    std::optional<std::string> timeColumn;
    // ',', ';' or '\t'; 0 = detect from the header line.
    char separator = 0;
    // '.' or ','; ',' only when the separator is not ','. With ',' a '.' in a
    // number is rejected (it would be a thousands separator or a mistake).
    char decimalPoint = '.';
};

// Parses CSV text (see DESIGN.md, "The command line"):
//  - `#` starts a comment (whole line or trailing, not inside double quotes);
//    blank lines are skipped; lines end with \n, \r\n or \r;
//  - the first other line is the header of column names (trimmed, surrounding
//    double quotes removed, "" inside quotes is a quote); names must be
//    non-empty and distinct; the separator is detected from it unless given;
//  - every further line is one row of finite numbers, one per column;
//  - the time column must be strictly increasing.
// Any problem throws DataError with sourceName, the 1-based physical line and
// the column; nothing else is thrown for any input (other than std::bad_alloc).
DataTable parseCsv(std::string_view text, const std::string& sourceName, const CsvOptions& options = {});

// Reads the file and parses it with parseCsv; a missing or unreadable file is a DataError.
DataTable readCsv(const std::string& path, const CsvOptions& options = {});

// The separator a header line uses: the most frequent of tab ; , outside quotes, ties going to
// tab, then ';', then ','; never the decimal point ("," for a single column, ";" with a decimal comma).
char guessSeparator(std::string_view header, char decimalPoint);

// The time column when none is chosen: the first named t or time (any case), else the first.
std::size_t defaultTimeColumn(const std::vector<std::string>& columnNames);

}  // namespace sysid::data
