#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

// Small text helpers shared by the data readers, writers and their messages.
namespace sysid::data {

// Length of the valid UTF-8 sequence that starts at text[i] (1 for ASCII), or 0
// when the bytes there are not valid UTF-8 (overlong, surrogate, truncated, > U+10FFFF).
std::size_t utf8SequenceLength(std::string_view text, std::size_t i);

bool isValidUtf8(std::string_view text);

// Text as it may be quoted in a message: control bytes and bytes that are not
// valid UTF-8 become \xNN, and text longer than maxChars bytes is cut with "...".
std::string printableExcerpt(std::string_view text, std::size_t maxChars = 40);

// Shortest text that reads back as exactly the same double ("0.1", "-0", "1e+300").
std::string formatDouble(double value);

// A number for a message, with at most `significantDigits` digits.
std::string formatNumber(double value, int significantDigits = 6);

// "a, b, c": names listed in a message; `none` when there are none.
std::string nameList(const std::vector<std::string>& names, std::string_view none = "none");

// ASCII case-insensitive comparison.
bool equalsIgnoreCase(std::string_view a, std::string_view b);

}  // namespace sysid::data
