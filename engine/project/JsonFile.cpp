#include "engine/project/JsonFile.h"

#include "engine/core/InputFile.h"
#include "engine/project/ProjectError.h"

#include <utility>
#include <vector>

namespace sysid::project {

namespace {

using json = nlohmann::json;

// A first pass over the text that only follows the nesting, so that a value too deep is refused
// before anything recurses over it, with the key path where it becomes too deep.
class DepthCheck : public nlohmann::json_sax<json> {
public:
    std::string tooDeepAt;  // empty when the text is within kMaxJsonDepth
    // A number beyond double's range (nlohmann's out_of_range.406): where, and the number.
    std::string overflowAt, overflowNumber;
    std::size_t overflowByte = 0;

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override { return open(true); }
    bool start_array(std::size_t) override { return open(false); }
    bool key(string_t& name) override
    {
        frames_.back().key = name;
        return true;
    }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t byte, const std::string& token, const nlohmann::detail::exception& e) override
    {
        if (e.id == 406) {
            overflowAt = path();
            overflowNumber = token.substr(0, 40) + (token.size() > 40 ? "…" : "");
            overflowByte = byte;
        }
        return false;
    }

private:
    struct Frame {
        bool object = false;
        std::string key;
        std::size_t index = 0;
    };

    bool value()
    {
        if (!frames_.empty() && !frames_.back().object)
            ++frames_.back().index;
        return true;
    }
    bool open(bool object)
    {
        if (frames_.size() >= kMaxJsonDepth) {
            tooDeepAt = path();
            return false;
        }
        frames_.push_back({object, {}, 0});
        return true;
    }
    bool close()
    {
        frames_.pop_back();
        return value();
    }
    // The first levels of the path, enough to find the place; the rest is "…".
    std::string path() const
    {
        std::string text;
        const std::size_t shown = std::min<std::size_t>(frames_.size(), 6);
        for (std::size_t i = 0; i < shown; ++i) {
            const Frame& f = frames_[i];
            if (f.object)
                text += (text.empty() ? "" : ".") + f.key.substr(0, 64);
            else
                text += "[" + std::to_string(f.index) + "]";
        }
        if (frames_.size() > shown)
            text += "…";
        return text;
    }

    std::vector<Frame> frames_;
};

std::pair<int, int> lineAndColumn(const std::string& text, std::size_t byte)
{
    // nlohmann reports the 1-based index of the last character read.
    const std::size_t end = std::min(byte == 0 ? 0 : byte - 1, text.size());
    int line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < end; ++i)
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    return {line, static_cast<int>(end - lineStart) + 1};
}

// nlohmann's what() is "[json.exception.parse_error.101] parse error at line L, column C: REASON".
std::string parseReason(const std::string& what)
{
    const std::size_t at = what.find("column ");
    const std::size_t colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
    return colon == std::string::npos ? what : what.substr(colon + 2);
}

}  // namespace

json parseJsonText(const std::string& text, const std::string& file, const std::string& what)
{
    DepthCheck check;
    json::sax_parse(text, &check);
    if (!check.overflowAt.empty() || !check.overflowNumber.empty()) {
        const auto [line, column] = lineAndColumn(text, check.overflowByte);
        throw ProjectError(file, check.overflowAt,
                           "the number " + check.overflowNumber + " is beyond the range of a double (about 1.8e308)",
                           line, column);
    }
    if (!check.tooDeepAt.empty())
        throw ProjectError(file, check.tooDeepAt,
                           "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels; a " + what +
                               " of sysid is a few levels deep");
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        const auto [line, column] = lineAndColumn(text, e.byte);
        throw ProjectError(file, "", "not a JSON " + what + ": " + parseReason(e.what()), line, column);
    }
}

json readJsonFile(const std::string& path, const std::string& what)
{
    std::string text;
    try {
        text = core::readInputFile(path, core::kMaxProjectFileBytes, "a " + what);
    } catch (const core::InputFileError& e) {
        throw ProjectError(path, "", e.message);
    }
    return parseJsonText(text, path, what);
}

}  // namespace sysid::project
