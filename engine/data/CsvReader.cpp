#include "engine/data/CsvReader.h"

#include "engine/core/InputFile.h"

#include "engine/data/DataError.h"
#include "engine/data/Text.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sysid::data {

namespace {

constexpr int kMaxLineNumber = std::numeric_limits<int>::max();

template <std::size_t N>
bool isOneOf(const std::array<CsvSymbol, N>& symbols, char c)
{
    for (const CsvSymbol& s : symbols)
        if (s.symbol == c)
            return true;
    return false;
}

std::string separatorName(char sep)
{
    switch (sep) {
    case '\t': return "tab";
    default: return std::string("'") + sep + "'";
    }
}

// Physical lines, ended by \n, \r\n or \r, numbered from 1.
class LineReader {
public:
    explicit LineReader(std::string_view text) : text_(text) {}

    bool next(std::string_view& line, int& number)
    {
        if (pos_ >= text_.size())
            return false;
        std::size_t end = text_.find_first_of("\r\n", pos_);
        if (end == std::string_view::npos)
            end = text_.size();
        line = text_.substr(pos_, end - pos_);
        if (end + 1 < text_.size() && text_[end] == '\r' && text_[end + 1] == '\n')
            pos_ = end + 2;
        else
            pos_ = end + 1;
        if (number_ < kMaxLineNumber)
            ++number_;
        number = number_;
        return true;
    }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
    int number_ = 0;
};

std::string_view withoutByteOrderMark(std::string_view text)
{
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    return text;
}

// Line number (same rules as LineReader) of the byte at offset.
int lineOfOffset(std::string_view text, std::size_t offset)
{
    std::size_t line = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n')
            ++line;
        else if (text[i] == '\r' && !(i + 1 < text.size() && text[i + 1] == '\n'))
            ++line;
    }
    return placeNumber(line);
}

bool isSpace(char c, char sep)
{
    return (c == ' ' || c == '\t') && c != sep;
}

std::string_view trim(std::string_view s, char sep)
{
    while (!s.empty() && isSpace(s.front(), sep))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back(), sep))
        s.remove_suffix(1);
    return s;
}

bool isBlank(std::string_view s)
{
    for (char c : s)
        if (c != ' ' && c != '\t')
            return false;
    return true;
}

// The line up to a '#' that is not inside double quotes.
std::string_view stripComment(std::string_view line)
{
    bool inQuotes = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '"')
            inQuotes = !inQuotes;
        else if (line[i] == '#' && !inQuotes)
            return line.substr(0, i);
    }
    return line;
}

struct Field {
    std::string_view text;  // trimmed; for a quoted field the text between the quotes, "" not yet undone
    bool quoted = false;
};

struct SplitError {
    std::string message;
    std::size_t field = 0;  // 0-based
};

// Splits one line (comment already removed) into fields. Quoted fields may hold
// the separator and '#'; they cannot span lines.
bool splitFields(std::string_view s, char sep, std::vector<Field>& out, SplitError& error)
{
    out.clear();
    const std::size_t n = s.size();
    std::size_t pos = 0;
    for (;;) {
        while (pos < n && isSpace(s[pos], sep))
            ++pos;
        Field f;
        if (pos < n && s[pos] == '"') {
            std::size_t i = pos + 1;
            while (i < n) {
                if (s[i] == '"') {
                    if (i + 1 < n && s[i + 1] == '"') {
                        i += 2;
                        continue;
                    }
                    break;
                }
                ++i;
            }
            if (i >= n) {
                error = {"unterminated quoted field; expected a closing '\"' on the same line", out.size()};
                return false;
            }
            f.text = s.substr(pos + 1, i - pos - 1);
            f.quoted = true;
            pos = i + 1;
            while (pos < n && isSpace(s[pos], sep))
                ++pos;
            if (pos < n && s[pos] != sep) {
                error = {"unexpected text after the closing '\"' of a quoted field; expected the separator " +
                             separatorName(sep),
                         out.size()};
                return false;
            }
        } else {
            std::size_t end = s.find(sep, pos);
            if (end == std::string_view::npos)
                end = n;
            f.text = trim(s.substr(pos, end - pos), sep);
            if (f.text.find('"') != std::string_view::npos) {
                error = {"unexpected '\"' inside an unquoted field; expected the whole field in double quotes",
                         out.size()};
                return false;
            }
            pos = end;
        }
        out.push_back(f);
        if (pos >= n)
            return true;
        ++pos;  // the separator
    }
}

std::string unescapeQuotes(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        out += s[i];
        if (s[i] == '"' && i + 1 < s.size() && s[i + 1] == '"')
            ++i;
    }
    return out;
}

// "nan", "inf", "infinity", "nan(...)" with optional sign, any letter case.
bool isNonFiniteText(std::string_view s)
{
    if (!s.empty() && (s.front() == '+' || s.front() == '-'))
        s.remove_prefix(1);
    if (equalsIgnoreCase(s, "inf") || equalsIgnoreCase(s, "infinity") || equalsIgnoreCase(s, "nan"))
        return true;
    return s.size() >= 5 && equalsIgnoreCase(s.substr(0, 4), "nan(") && s.back() == ')';
}

// For text from_chars matched but found out of range: true when it is too
// large (overflow), false when too small (underflow towards zero).
bool isOverflow(std::string_view s)
{
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        ++i;
    long long intDigits = 0, firstNonZeroInt = -1, firstNonZeroFrac = -1, fracIndex = 0;
    bool inFraction = false;
    for (; i < s.size() && s[i] != 'e' && s[i] != 'E'; ++i) {
        const char c = s[i];
        if (c == '.') {
            inFraction = true;
        } else if (c >= '0' && c <= '9') {
            if (!inFraction) {
                if (firstNonZeroInt < 0 && c != '0')
                    firstNonZeroInt = intDigits;
                ++intDigits;
            } else {
                if (firstNonZeroInt < 0 && firstNonZeroFrac < 0 && c != '0')
                    firstNonZeroFrac = fracIndex;
                ++fracIndex;
            }
        }
    }
    long long magnitude = 0;  // decimal exponent of the leading digit
    if (firstNonZeroInt >= 0)
        magnitude = intDigits - 1 - firstNonZeroInt;
    else if (firstNonZeroFrac >= 0)
        magnitude = -(firstNonZeroFrac + 1);
    else
        return false;  // zero
    long long exponent = 0;
    bool negative = false;
    if (i < s.size()) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
            negative = s[i++] == '-';
        for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i)
            if (exponent < 1'000'000'000)
                exponent = exponent * 10 + (s[i] - '0');
    }
    // Clamp the mantissa's part too, so the sum cannot overflow.
    if (magnitude > 1'000'000'000)
        magnitude = 1'000'000'000;
    if (magnitude < -1'000'000'000)
        magnitude = -1'000'000'000;
    return magnitude + (negative ? -exponent : exponent) >= 0;
}

enum class NumberStatus { Ok, NotANumber, NonFinite, OutOfRange };

NumberStatus parseNumber(std::string_view cell, char decimalPoint, std::string& scratch, double& value)
{
    if (isNonFiniteText(cell))
        return NumberStatus::NonFinite;
    if (decimalPoint != '.') {
        if (cell.find('.') != std::string_view::npos)
            return NumberStatus::NotANumber;
        scratch.assign(cell);
        for (char& c : scratch)
            if (c == decimalPoint)
                c = '.';
        cell = scratch;
    }
    if (cell.size() >= 2 && cell[0] == '+' && cell[1] != '+' && cell[1] != '-')
        cell.remove_prefix(1);
    if (cell.empty())
        return NumberStatus::NotANumber;
    double v = 0;
    const char* first = cell.data();
    const char* last = cell.data() + cell.size();
    const auto r = std::from_chars(first, last, v, std::chars_format::general);
    if (r.ptr != last)
        return NumberStatus::NotANumber;
    if (r.ec == std::errc::result_out_of_range) {
        if (isOverflow(cell))
            return NumberStatus::OutOfRange;
        value = cell.front() == '-' ? -0.0 : 0.0;
        return NumberStatus::Ok;
    }
    if (r.ec != std::errc())
        return NumberStatus::NotANumber;
    if (!std::isfinite(v))
        return NumberStatus::NonFinite;
    value = v;
    return NumberStatus::Ok;
}

// As guessSeparator, but a header separated only by ',' with ',' as the decimal point is an error.
char detectSeparator(std::string_view header, char decimalPoint, const std::string& source, int line)
{
    const char separator = guessSeparator(header, decimalPoint);
    std::size_t commas = 0, semicolons = 0;
    bool inQuotes = false;
    for (char c : header) {
        if (c == '"')
            inQuotes = !inQuotes;
        else if (!inQuotes && c == ',')
            ++commas;
        else if (!inQuotes && c == ';')
            ++semicolons;
    }
    if (separator == ';' && decimalPoint == ',' && semicolons == 0 && commas > 0)
        throw DataError("the header is separated by ',' but the decimal point is ','; expected ';' or tab as the "
                        "separator when the decimal point is ','",
                        source, line);
    return separator;
}

std::string listNames(const std::vector<std::string>& names)
{
    std::string list;
    for (const auto& n : names)
        list += (list.empty() ? "'" : ", '") + printableExcerpt(n, 80) + "'";
    return list;
}

std::string numberError(NumberStatus status, std::string_view cell, char decimalPoint)
{
    const std::string quoted = "'" + printableExcerpt(cell, 32) + "'";
    switch (status) {
    case NumberStatus::NonFinite:
        return "found " + quoted + "; expected a finite number (NaN, Inf and missing values are not allowed)";
    case NumberStatus::OutOfRange: return "the number " + quoted + " is too large; expected a magnitude below 1.8e308";
    default:
        if (decimalPoint == ',')
            return "found " + quoted + "; expected a number with ',' as the decimal point (like 1,5 or -2,5e-3)";
        if (cell.find(',') != std::string_view::npos) {
            std::string scratch;
            double v = 0;
            if (parseNumber(cell, ',', scratch, v) == NumberStatus::Ok)
                return "found " + quoted +
                    "; expected a number with '.' as the decimal point (like 1.5), or set "
                    "the decimal point to ','";
        }
        return "found " + quoted + "; expected a number (like 1.5 or -2.5e-3)";
    }
}

}  // namespace

DataTable parseCsv(std::string_view text, const std::string& sourceName, const CsvOptions& options)
{
    const char decimalPoint = options.decimalPoint;
    if (!isOneOf(csvDecimalPoints, decimalPoint))
        throw DataError("decimal point '" + printableExcerpt(std::string_view(&decimalPoint, 1)) +
                            "' is not supported; expected '.' or ','",
                        sourceName);
    if (options.separator != 0 && !isOneOf(csvSeparators, options.separator))
        throw DataError("separator '" + printableExcerpt(std::string_view(&options.separator, 1)) +
                            "' is not supported; expected ',', ';' or tab",
                        sourceName);
    if (options.separator == decimalPoint)
        throw DataError("the separator and the decimal point are both ','; expected ';' or tab as the separator "
                        "when the decimal point is ','",
                        sourceName);

    text = withoutByteOrderMark(text);
    if (const auto nul = text.find('\0'); nul != std::string_view::npos)
        throw DataError("is not a text file: it contains a NUL byte; expected a CSV text file (UTF-8 or ASCII)",
                        sourceName, lineOfOffset(text, nul));

    LineReader lines(text);
    std::string_view line;
    int lineNo = 0;

    // Header: the first line that is not blank or a comment.
    std::string_view headerText;
    int headerLine = 0;
    if (options.headerLine < 0 || options.skipRows < 0)
        throw DataError("the header line and the number of rows to skip cannot be negative", sourceName);
    while (lines.next(line, lineNo)) {
        if (lineNo < options.headerLine)
            continue;
        const std::string_view content = stripComment(line);
        if (!isBlank(content)) {
            headerText = content;
            headerLine = lineNo;
            break;
        }
        if (lineNo == options.headerLine)
            throw DataError("the header line is blank or a comment; expected the column names on the line chosen as "
                            "the header",
                            sourceName, lineNo);
    }
    if (headerLine == 0 && options.headerLine > 0)
        throw DataError("the file has " + std::to_string(lineNo) + " lines; expected the header on line " +
                            std::to_string(options.headerLine),
                        sourceName);
    if (headerLine == 0)
        throw DataError("no header line: the file is empty or holds only comments; expected a first line of "
                        "column names such as 't,x'",
                        sourceName);
    if (!isValidUtf8(headerText))
        throw DataError("is not a text file: the header line is not valid UTF-8; expected a CSV text file in "
                        "UTF-8 or ASCII",
                        sourceName, headerLine);
    for (char c : headerText)
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7F)
            throw DataError("is not a text file: the header line holds the control byte \\x" +
                                printableExcerpt(std::string_view(&c, 1)).substr(2) + "; expected a CSV text file",
                            sourceName, headerLine);

    const char sep =
        options.separator != 0 ? options.separator : detectSeparator(headerText, decimalPoint, sourceName, headerLine);

    std::vector<Field> fields;
    SplitError splitError;
    if (!splitFields(headerText, sep, fields, splitError))
        throw DataError(splitError.message, sourceName, headerLine, placeNumber(splitError.field + 1));

    DataTable table;
    table.source = sourceName;
    std::unordered_map<std::string, std::size_t> seen;  // name -> column, to find duplicates in linear time
    for (std::size_t c = 0; c < fields.size(); ++c) {
        std::string name = fields[c].quoted ? unescapeQuotes(fields[c].text) : std::string(fields[c].text);
        name = std::string(trim(name, 0));
        if (name.empty())
            throw DataError("column " + std::to_string(c + 1) +
                                " has an empty name; expected a name for every column "
                                "(separator " +
                                separatorName(sep) + ")",
                            sourceName, headerLine, placeNumber(c + 1));
        const auto [previous, isNew] = seen.emplace(name, c);
        if (!isNew)
            throw DataError("duplicate column name (also column " + std::to_string(previous->second + 1) +
                                "); expected distinct names",
                            sourceName, headerLine, placeNumber(c + 1), name);
        table.columnNames.push_back(std::move(name));
    }
    const std::size_t columnCount = table.columnNames.size();
    table.columns.assign(columnCount, {});

    {  // A header made of numbers means the file has no header.
        std::string scratch;
        bool allNumbers = true;
        for (const auto& f : fields) {
            double v = 0;
            if (f.quoted || parseNumber(f.text, decimalPoint, scratch, v) != NumberStatus::Ok) {
                allNumbers = false;
                break;
            }
        }
        if (allNumbers)
            throw DataError("the header line holds only numbers; expected a header line of column names such as 't" +
                                (sep == '\t' ? std::string("<tab>") : std::string(1, sep)) + "x'",
                            sourceName, headerLine);
    }

    // A file that is no CSV of numbers at all (a project may point at any file) is refused
    // without echoing its lines: its header has no separator and its first row holds no number.
    const auto holdsANumber = [&](const std::vector<Field>& row) {
        std::string text;
        double v = 0;
        for (const auto& f : row)
            if (parseNumber(f.text, decimalPoint, text, v) == NumberStatus::Ok)
                return true;
        return false;
    };
    const auto notCsv = [&] {
        return DataError("does not look like a CSV file of numbers: the first row after the header (line " +
                             std::to_string(headerLine) +
                             ") holds no number; expected a header line of column "
                             "names and rows of numbers",
                         sourceName);
    };
    const auto firstRowHoldsANumber = [&] {
        LineReader ahead = lines;
        std::string_view row;
        int rowNumber = 0;
        int skip = options.skipRows;
        std::vector<Field> rowFields;
        SplitError rowError;
        while (ahead.next(row, rowNumber)) {
            const std::string_view content = stripComment(row);
            if (isBlank(content))
                continue;
            if (skip-- > 0)
                continue;
            return splitFields(content, sep, rowFields, rowError) && holdsANumber(rowFields);
        }
        return true;  // no rows: said as such below
    };

    if (options.timeColumn) {
        const auto c = table.findColumn(*options.timeColumn);
        if (!c && columnCount == 1 && !firstRowHoldsANumber())
            throw notCsv();
        if (!c)
            throw DataError("no such column for the time; expected one of: " + listNames(table.columnNames), sourceName,
                            headerLine, 0, *options.timeColumn);
        table.timeColumn = *c;
    } else {
        table.timeColumn = defaultTimeColumn(table.columnNames);
    }
    const std::size_t tc = table.timeColumn;

    std::string scratch;
    double previousTime = 0;
    int previousLine = 0;
    int toSkip = options.skipRows;
    while (lines.next(line, lineNo)) {
        const std::string_view content = stripComment(line);
        if (isBlank(content))
            continue;
        if (toSkip > 0) {
            --toSkip;
            continue;
        }
        const bool split = splitFields(content, sep, fields, splitError);
        if (previousLine == 0 && columnCount == 1 && (!split || !holdsANumber(fields)))
            throw notCsv();
        if (!split) {
            const std::size_t c = splitError.field;
            throw DataError(splitError.message, sourceName, lineNo, placeNumber(c + 1),
                            c < columnCount ? table.columnNames[c] : std::string());
        }
        if (fields.size() != columnCount)
            throw DataError("expected " + std::to_string(columnCount) + " fields as in the header (line " +
                                std::to_string(headerLine) + "), found " + std::to_string(fields.size()) +
                                " (separator " + separatorName(sep) + ")",
                            sourceName, lineNo);
        for (std::size_t c = 0; c < columnCount; ++c) {
            const std::string_view cell = fields[c].text;
            if (cell.empty())
                throw DataError("empty cell; expected a number", sourceName, lineNo, placeNumber(c + 1),
                                table.columnNames[c]);
            double v = 0;
            const NumberStatus status = parseNumber(cell, decimalPoint, scratch, v);
            if (status != NumberStatus::Ok)
                throw DataError(numberError(status, cell, decimalPoint), sourceName, lineNo, placeNumber(c + 1),
                                table.columnNames[c]);
            table.columns[c].push_back(v);
        }
        const double t = table.columns[tc].back();
        if (previousLine > 0) {
            if (t == previousTime)
                throw DataError("the time " + formatDouble(t) + " repeats the time on line " +
                                    std::to_string(previousLine) + "; expected strictly increasing time",
                                sourceName, lineNo, placeNumber(tc + 1), table.columnNames[tc]);
            if (t < previousTime)
                throw DataError("the time decreases from " + formatDouble(previousTime) + " (line " +
                                    std::to_string(previousLine) + ") to " + formatDouble(t) +
                                    "; expected strictly increasing time",
                                sourceName, lineNo, placeNumber(tc + 1), table.columnNames[tc]);
        }
        previousTime = t;
        previousLine = lineNo;
    }
    if (previousLine == 0)
        throw DataError("no data rows after the header (line " + std::to_string(headerLine) + ")" +
                            (options.skipRows > 0 ? " and the " + std::to_string(options.skipRows) + " skipped rows"
                                                  : std::string()) +
                            "; expected at least one row of numbers",
                        sourceName, headerLine);
    return table;
}

DataTable readCsv(const std::string& path, const CsvOptions& options)
{
    if (path.empty())
        throw DataError("no file name given; expected the path of a CSV file");
    std::string text;
    try {
        text = core::readInputFile(path, core::kMaxDataFileBytes, "a CSV file");
    } catch (const core::InputFileError& e) {
        throw DataError(e.message, path);
    }
    return parseCsv(text, path, options);
}

char guessSeparator(std::string_view header, char decimalPoint)
{
    const char candidates[3] = {'\t', ';', ','};
    std::size_t counts[3] = {0, 0, 0};
    bool inQuotes = false;
    for (char c : header) {
        if (c == '"')
            inQuotes = !inQuotes;
        else if (!inQuotes)
            for (int k = 0; k < 3; ++k)
                if (c == candidates[k])
                    ++counts[k];
    }
    int best = -1;
    for (int k = 0; k < 3; ++k)
        if (candidates[k] != decimalPoint && counts[k] > 0 && (best < 0 || counts[k] > counts[best]))
            best = k;
    if (best >= 0)
        return candidates[best];
    return decimalPoint == ',' ? ';' : ',';  // a single column
}

std::size_t defaultTimeColumn(const std::vector<std::string>& columnNames)
{
    for (std::size_t c = 0; c < columnNames.size(); ++c)
        if (equalsIgnoreCase(columnNames[c], "t") || equalsIgnoreCase(columnNames[c], "time"))
            return c;
    return 0;
}

CsvLayout csvLayout(std::string_view text, const CsvOptions& options)
{
    CsvLayout layout;
    LineReader lines(withoutByteOrderMark(text));
    std::string_view line;
    int number = 0;
    int toSkip = std::max(options.skipRows, 0);
    while (lines.next(line, number)) {
        layout.lines.emplace_back(line);
        if (number < options.headerLine || isBlank(stripComment(line)))
            continue;
        if (layout.headerLine == 0)
            layout.headerLine = number;
        else if (toSkip > 0) {
            --toSkip;
            layout.skippedLines.push_back(number);
        } else
            layout.dataLines.push_back(number);
    }
    if (options.separator != 0)
        layout.separator = options.separator;
    else if (layout.headerLine > 0)
        layout.separator = guessSeparator(stripComment(layout.lines[static_cast<std::size_t>(layout.headerLine - 1)]),
                                          options.decimalPoint);
    return layout;
}

std::vector<std::string> previewFields(std::string_view line, char separator)
{
    line = stripComment(line);
    std::vector<std::string> fields;
    std::string field;
    bool inQuotes = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '"') {
            if (inQuotes && i + 1 < line.size() && line[i + 1] == '"') {
                field += c;
                ++i;
            } else {
                inQuotes = !inQuotes;
            }
        } else if (c == separator && !inQuotes) {
            fields.emplace_back(trim(field, separator));
            field.clear();
        } else {
            field += c;
        }
    }
    fields.emplace_back(trim(field, separator));
    return fields;
}

CsvFormat detectCsvFormat(std::string_view text)
{
    constexpr std::size_t kRowsLooked = 50;
    CsvFormat format;
    const CsvLayout all = csvLayout(text);
    if (all.headerLine == 0)
        return format;
    const auto content = [&](int number) { return stripComment(all.lines[static_cast<std::size_t>(number - 1)]); };
    const std::vector<int>& rows = all.dataLines;

    // The last line is data: its separator and field count find the header below leading lines.
    int header = all.headerLine;
    if (!rows.empty()) {
        const std::string_view last = content(rows.back());
        // A decimal comma is likelier than a comma separator when ';' or tab is there too.
        const char separator = last.find_first_of("\t;") != std::string_view::npos ? guessSeparator(last, ',') : ',';
        const std::size_t fields = previewFields(last, separator).size();
        if (fields > 1 && previewFields(content(header), separator).size() != fields)
            for (const int number : rows)
                if (previewFields(content(number), separator).size() == fields) {
                    header = number;
                    break;
                }
    }
    if (header != all.headerLine)
        format.headerLine = header;
    const char separator = guessSeparator(content(header), '.');
    format.separator = separator;

    std::vector<int> after;
    for (const int number : rows)
        if (number > header && after.size() < kRowsLooked)
            after.push_back(number);
    std::string scratch;
    double value = 0;
    const auto isNumber = [&](std::string_view field, char point) {
        return parseNumber(field, point, scratch, value) == NumberStatus::Ok;
    };

    // Units: the rows right after the header with no number in them.
    std::size_t units = 0;
    for (; units < after.size(); ++units) {
        bool anyText = false, anyNumber = false;
        for (const std::string& field : previewFields(content(after[units]), separator)) {
            anyText = anyText || !field.empty();
            anyNumber = anyNumber || isNumber(field, '.') || isNumber(field, ',');
        }
        if (!anyText || anyNumber)
            break;
    }
    format.skipRows = static_cast<int>(units);

    if (separator != ',') {
        bool commaOnly = false, pointOnly = false;
        for (std::size_t k = units; k < after.size(); ++k)
            for (const std::string& field : previewFields(content(after[k]), separator)) {
                const bool point = isNumber(field, '.'), comma = isNumber(field, ',');
                commaOnly = commaOnly || (comma && !point);
                pointOnly = pointOnly || (point && !comma);
            }
        if (commaOnly && !pointOnly)
            format.decimalPoint = ',';
    }
    return format;
}

}  // namespace sysid::data
