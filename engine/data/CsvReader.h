#pragma once

#include "engine/data/DataTable.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sysid::data {

// A separator or decimal point the reader accepts, with the words a reader of a menu knows it by.
struct CsvSymbol {
    char symbol;
    std::string_view label;
};
inline constexpr std::array<CsvSymbol, 3> csvSeparators{{{',', "comma ,"}, {';', "semicolon ;"}, {'\t', "tab"}}};
inline constexpr std::array<CsvSymbol, 2> csvDecimalPoints{{{'.', "point ."}, {',', "comma ,"}}};

// How a file's text is laid out: what a project stores with its data set so the file reads again the same way.
struct CsvFormat {
    // One of csvSeparators; 0 = detect from the header line.
    char separator = 0;
    // One of csvDecimalPoints; ',' only when the separator is not ','. With ',' a '.' in a
    // number is rejected (it would be a thousands separator or a mistake).
    char decimalPoint = '.';
    // Physical line (1-based) of the header; 0 = the first line that is not blank or a comment.
    // The lines before it are not read (a title, a date, a device name).
    int headerLine = 0;
    // Rows after the header that hold no data, such as a row of units: the first skipRows lines
    // after the header that are not blank or a comment.
    int skipRows = 0;
};

struct CsvOptions : CsvFormat {
    // Name of the time column. Default: a column named `t` or `time` (any
    // letter case, the first such), else the first column.
    std::optional<std::string> timeColumn;
};

// Parses CSV text (see DESIGN.md, "The command line"):
//  - `#` starts a comment (whole line or trailing, not inside double quotes);
//    blank lines are skipped; lines end with \n, \r\n or \r;
//  - the first other line (or the line options.headerLine) is the header of column names (trimmed, surrounding
//    double quotes removed, "" inside quotes is a quote); names must be
//    non-empty and distinct; the separator is detected from it unless given;
//  - the next options.skipRows such lines are not read (units);
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

// How parseCsv sees a text before it reads any number, for showing the text as it will be read
// (the import dialog's preview). Never throws, however bad the text.
struct CsvLayout {
    std::vector<std::string> lines;  // physical lines (ends \n, \r\n or \r; no byte order mark): line k is lines[k - 1]
    int headerLine =
        0;  // options.headerLine, else the first line that is not blank or a comment (1-based); 0 when there is none
    std::vector<int> skippedLines;  // the options.skipRows lines after the header that are not read
    std::vector<int> dataLines;  // the further lines after the header that are not blank or a comment
    char separator = ',';  // the one given, else guessSeparator of the header line (',' without one)
};
CsvLayout csvLayout(std::string_view text, const CsvOptions& options = {});

// The fields of one line as parseCsv splits them, but forgiving, for showing a line that may be
// wrong: the comment removed, fields trimmed, double quotes removed ("" inside quotes is a
// quote), and a line parseCsv refuses (an unclosed quote) still split.
std::vector<std::string> previewFields(std::string_view line, char separator);

// The format a text most likely has, proposed to the user (never applied silently): the header is
// the first line with as many fields as the last line, the separator is guessed from it, the
// decimal point is ',' when the separator is not ',' and the first rows hold numbers like 1,25 but
// none like 1.25, and the rows right after the header whose fields are all non-numeric (units) are
// skipped. Never throws.
CsvFormat detectCsvFormat(std::string_view text);

}  // namespace sysid::data
