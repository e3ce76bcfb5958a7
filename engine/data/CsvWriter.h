#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace sysid::data {

// Writes a header line and one line per row, ',' separated, '\n' line ends.
// Numbers use the shortest text that reads back as the same double, so
// readCsv(writeCsv(x)) == x to the last bit. Names holding ',', ';', tab, '"'
// or '#' are quoted. Everything is checked before the first byte is written:
// throws DataError when header and columns differ in count, columns differ in
// length, a name is empty, repeated, has surrounding blanks or a line break,
// or a value is NaN or infinite (readCsv would refuse it), or the stream fails.
void writeCsv(std::ostream& out, const std::vector<std::string>& header,
              const std::vector<std::vector<double>>& columns);

// A text field of a CSV line (RFC 4180) in quotes, its quotes doubled.
std::string csvQuoted(const std::string& text);
// A text field of a CSV line: as it is, or csvQuoted when it holds ',', '"' or a line break.
std::string csvField(const std::string& text);
// A number field: the shortest text that reads back as the same double; empty when it is not finite.
std::string csvNumber(double value);

// Writes the same text to PATH with core::writeFileAtomically, so PATH is never half-written.
// Throws DataError naming the file on any failure (and leaves no PATH.tmp).
void writeCsvFile(const std::string& path, const std::vector<std::string>& header,
                  const std::vector<std::vector<double>>& columns);

}  // namespace sysid::data
