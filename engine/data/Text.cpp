#include "engine/data/Text.h"

#include <sstream>

#include <charconv>

namespace sysid::data {

std::size_t utf8SequenceLength(std::string_view s, std::size_t i)
{
    if (i >= s.size())
        return 0;
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80)
        return 1;
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF)
        len = 2;
    else if (b0 >= 0xE0 && b0 <= 0xEF) {
        len = 3;
        if (b0 == 0xE0)
            lo = 0xA0;  // no overlong forms
        if (b0 == 0xED)
            hi = 0x9F;  // no surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        len = 4;
        if (b0 == 0xF0)
            lo = 0x90;  // no overlong forms
        if (b0 == 0xF4)
            hi = 0x8F;  // not above U+10FFFF
    } else
        return 0;
    if (len > s.size() - i)
        return 0;
    const auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (b1 < lo || b1 > hi)
        return 0;
    for (std::size_t k = 2; k < len; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if (b < 0x80 || b > 0xBF)
            return 0;
    }
    return len;
}

bool isValidUtf8(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8SequenceLength(text, i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

std::string printableExcerpt(std::string_view text, std::size_t maxChars)
{
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (i >= maxChars) {
            out += "...";
            break;
        }
        const auto b = static_cast<unsigned char>(text[i]);
        const std::size_t n = utf8SequenceLength(text, i);
        if (n > 1 || (n == 1 && b >= 0x20 && b != 0x7F)) {
            out.append(text.substr(i, n));
            i += n;
        } else {
            out += "\\x";
            out += hex[b >> 4];
            out += hex[b & 0xF];
            ++i;
        }
    }
    return out;
}

std::string formatDouble(double value)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, value);
    return std::string(buf, r.ptr);
}

std::string formatNumber(double value, int significantDigits)
{
    std::ostringstream s;
    s.precision(significantDigits);
    s << value;
    return s.str();
}

std::string nameList(const std::vector<std::string>& names, std::string_view none)
{
    std::string text;
    for (const auto& n : names)
        text += (text.empty() ? "" : ", ") + n;
    return text.empty() ? std::string(none) : text;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i]))
            return false;
    return true;
}

}  // namespace sysid::data
