#include "engine/data/CsvWriter.h"

#include "engine/core/AtomicFile.h"
#include "engine/data/DataError.h"
#include "engine/data/Text.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <string_view>
#include <unordered_map>

namespace sysid::data {

namespace {

void validate(const std::string& source, const std::vector<std::string>& header,
              const std::vector<std::vector<double>>& columns)
{
    if (header.empty())
        throw DataError("no columns to write; expected at least one column", source);
    if (header.size() != columns.size())
        throw DataError("the header has " + std::to_string(header.size()) + " names but there are " +
                            std::to_string(columns.size()) + " columns; expected one name per column",
                        source);
    std::unordered_map<std::string, std::size_t> seen;  // name -> column
    for (std::size_t c = 0; c < header.size(); ++c) {
        const std::string& name = header[c];
        if (name.empty())
            throw DataError("column " + std::to_string(c + 1) + " has an empty name; expected a name for every column",
                            source, 0, placeNumber(c + 1));
        if (name.front() == ' ' || name.front() == '\t' || name.back() == ' ' || name.back() == '\t')
            throw DataError("the name begins or ends with a blank; expected a name without surrounding blanks", source,
                            0, placeNumber(c + 1), name);
        for (char ch : name)
            if (ch == '\n' || ch == '\r' || ch == '\0')
                throw DataError("the name holds a line break or NUL byte; expected a one-line name", source, 0,
                                placeNumber(c + 1), name);
        if (!isValidUtf8(name))
            throw DataError("the name is not valid UTF-8; expected a UTF-8 name", source, 0, placeNumber(c + 1), name);
        const auto [previous, isNew] = seen.emplace(name, c);
        if (!isNew)
            throw DataError("duplicate column name (also column " + std::to_string(previous->second + 1) +
                                "); expected distinct names",
                            source, 0, placeNumber(c + 1), name);
        if (columns[c].size() != columns[0].size())
            throw DataError("the column has " + std::to_string(columns[c].size()) + " values but column '" +
                                printableExcerpt(header[0], 80) + "' has " + std::to_string(columns[0].size()) +
                                "; expected columns of equal length",
                            source, 0, placeNumber(c + 1), name);
        for (std::size_t r = 0; r < columns[c].size(); ++r)
            if (!std::isfinite(columns[c][r]))
                throw DataError("row " + std::to_string(r + 1) + " holds " + formatDouble(columns[c][r]) +
                                    "; expected finite numbers only",
                                source, placeNumber(r + 2), placeNumber(c + 1), name);
    }
}

void writeName(std::ostream& out, const std::string& name)
{
    // Quoted also when it could read as a number, so a header of numeric names stays a header.
    const bool numeric = std::string_view("0123456789+-.").find(name.front()) != std::string_view::npos;
    if (!numeric && name.find_first_of(",;\t\"#") == std::string::npos) {
        out << name;
        return;
    }
    out << csvQuoted(name);
}

}  // namespace

std::string csvQuoted(const std::string& text)
{
    std::string field = "\"";
    for (char c : text) {
        if (c == '"')
            field += '"';
        field += c;
    }
    return field + '"';
}

std::string csvField(const std::string& text)
{
    return text.find_first_of(",\"\n") == std::string::npos ? text : csvQuoted(text);
}

std::string csvNumber(double value)
{
    return std::isfinite(value) ? formatDouble(value) : std::string();
}

namespace {

void writeValidated(std::ostream& out, const std::vector<std::string>& header,
                    const std::vector<std::vector<double>>& columns)
{
    for (std::size_t c = 0; c < header.size(); ++c) {
        if (c > 0)
            out << ',';
        writeName(out, header[c]);
    }
    out << '\n';
    const std::size_t rows = columns[0].size();
    std::string line;
    char buf[64];
    for (std::size_t r = 0; r < rows; ++r) {
        line.clear();
        for (std::size_t c = 0; c < columns.size(); ++c) {
            if (c > 0)
                line += ',';
            const auto res = std::to_chars(buf, buf + sizeof buf, columns[c][r]);
            line.append(buf, res.ptr);
        }
        line += '\n';
        out.write(line.data(), static_cast<std::streamsize>(line.size()));
    }
}

}  // namespace

void writeCsv(std::ostream& out, const std::vector<std::string>& header,
              const std::vector<std::vector<double>>& columns)
{
    validate({}, header, columns);
    writeValidated(out, header, columns);
    out.flush();
    if (!out)
        throw DataError("writing the CSV text failed; expected a writable stream");
}

void writeCsvFile(const std::string& path, const std::vector<std::string>& header,
                  const std::vector<std::vector<double>>& columns)
{
    if (path.empty())
        throw DataError("no file name given; expected the path of the CSV file to write");
    validate(path, header, columns);
    std::ostringstream text;
    writeValidated(text, header, columns);
    try {
        core::writeFileAtomically(path, text.view());
    } catch (const core::FileWriteError& e) {
        throw DataError(e.message, path);
    }
}

}  // namespace sysid::data
