#pragma once

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>

namespace sysid::data {

// Thrown for every problem with a data file or data table. what() reads
// "FILE:LINE: column 'NAME': message"; parts that are unknown are left out
// (line and column are 0 when unknown). `column` is the 1-based field number
// of the CSV column, `message` the bare message without the place.
// A line or field count as DataError's int, the largest int for counts beyond it.
inline int placeNumber(std::size_t n)
{
    return n > static_cast<std::size_t>(std::numeric_limits<int>::max()) ? std::numeric_limits<int>::max()
                                                                         : static_cast<int>(n);
}

class DataError : public std::runtime_error {
public:
    explicit DataError(std::string message, std::string source = {}, int line = 0, int column = 0,
                       std::string columnName = {});

    std::string source;
    int line = 0;
    int column = 0;
    std::string columnName;
    std::string message;
};

// The place and message as what() shows them.
std::string formatDataError(const std::string& source, int line, int column, const std::string& columnName,
                            const std::string& message);

}  // namespace sysid::data
