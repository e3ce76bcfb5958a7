#include "engine/project/SettingsJson.h"

#include <cmath>
#include <cstdint>

namespace sysid::project {

using nlohmann::json;

std::string describeJson(const json& value)
{
    std::string text = value.dump();
    if (text.size() > 40)
        text = text.substr(0, 37) + "...";
    return text + " (" + value.type_name() + ")";
}

namespace detail {

std::vector<std::string> splitKey(const std::string& key)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = key.find('.', start);
        parts.push_back(key.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos)
            return parts;
        start = dot + 1;
    }
}

const json* memberAt(const json& object, const std::string& key)
{
    const json* at = &object;
    for (const auto& part : splitKey(key)) {
        if (!at->is_object())
            return nullptr;
        const auto it = at->find(part);
        if (it == at->end() || it->is_null())
            return nullptr;
        at = &*it;
    }
    return at;
}

json& memberFor(json& object, const std::string& key)
{
    json* at = &object;
    for (const auto& part : splitKey(key))
        at = &(*at)[part];
    return *at;
}

double readNumber(const json& value, const std::string& key)
{
    if (!value.is_number())
        throw FieldJsonError(key, "expected a number, got " + describeJson(value));
    const double v = value.get<double>();
    if (!std::isfinite(v))
        throw FieldJsonError(key, "expected a finite number");
    return v;
}

std::size_t readCount(const json& value, const std::string& key)
{
    if (value.is_number_unsigned())
        return value.get<std::size_t>();
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0)
        return static_cast<std::size_t>(value.get<std::int64_t>());
    if (value.is_number_float()) {
        const double v = value.get<double>();
        if (v >= 0 && v == std::floor(v) && v < 1e15)
            return static_cast<std::size_t>(v);
    }
    throw FieldJsonError(key, "expected a whole number >= 0, got " + describeJson(value));
}

void requireObject(const json& value, const std::string& key, const char* shape)
{
    if (!value.is_object())
        throw FieldJsonError(key, std::string("expected ") + shape + ", got " + describeJson(value));
}

void refuseUnknown(const json& object, const std::string& key, const std::set<std::string>& known,
                   const std::vector<std::string>& order)
{
    for (const auto& item : object.items()) {
        if (known.count(item.key()))
            continue;
        std::string list;
        for (const auto& k : order)
            list += (list.empty() ? "" : ", ") + k;
        throw FieldJsonError(key.empty() ? item.key() : key + "." + item.key(),
                             "unknown key (known here: " + list + ")");
    }
}

}  // namespace detail

}  // namespace sysid::project
