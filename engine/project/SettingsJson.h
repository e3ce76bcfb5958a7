#pragma once

#include "engine/core/SettingField.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace sysid::project {

// A member of a settings object that cannot be read: `key` is its path in the object
// ("periodic.solver"), `message` what is wrong ("unknown periodic solver 'x' (known: ...)").
class FieldJsonError : public std::invalid_argument {
public:
    FieldJsonError(std::string key, std::string message) :
        std::invalid_argument(key + ": " + message), key(std::move(key)), message(std::move(message))
    {
    }
    std::string key;
    std::string message;
};

// "[1,2] (array)": a JSON value in a message, cut to 40 characters.
std::string describeJson(const nlohmann::json& value);

namespace detail {

std::vector<std::string> splitKey(const std::string& key);
// The value at a dotted key (nullptr when absent or null).
const nlohmann::json* memberAt(const nlohmann::json& object, const std::string& key);
nlohmann::json& memberFor(nlohmann::json& object, const std::string& key);
double readNumber(const nlohmann::json& value, const std::string& key);
std::size_t readCount(const nlohmann::json& value, const std::string& key);
void requireObject(const nlohmann::json& value, const std::string& key, const char* shape);
// Refuses a member of `object` (at `key`, "" for the top) that is not in `known`.
void refuseUnknown(const nlohmann::json& object, const std::string& key, const std::set<std::string>& known,
                   const std::vector<std::string>& order);

}  // namespace detail

// Reads the members of `object` that the table describes into `s` (keys with a dot are members
// of nested objects; an old spelling, legacyKey, is read when the key is absent). A member the
// table does not know, and that is not one of `otherKeys` (read by the caller), is refused, as is
// a value of the wrong type or an unknown name; each error is a FieldJsonError with the key.
// The values' rules are not checked here: the caller runs the struct's validate() after.
template <class S, class Need>
void readFields(const core::FieldTable<S, Need>& table, const nlohmann::json& object, S& s,
                const std::vector<std::string>& otherKeys = {})
{
    using nlohmann::json;
    detail::requireObject(object, "", "an object");
    // The keys known in each object, in table order for the message.
    std::map<std::string, std::pair<std::set<std::string>, std::vector<std::string>>> known;
    const auto add = [&](const std::string& key) {
        std::string parent;
        for (const auto& part : detail::splitKey(key)) {
            auto& [set, order] = known[parent];
            if (set.insert(part).second)
                order.push_back(part);
            parent = parent.empty() ? part : parent + "." + part;
        }
    };
    for (const auto& field : table) {
        add(field.names.key);
        if (!field.names.legacyKey.empty())
            add(field.names.legacyKey);
    }
    for (const auto& key : otherKeys)
        add(key);
    for (const auto& [key, names] : known) {
        const json* member = key.empty() ? &object : detail::memberAt(object, key);
        if (!member)
            continue;
        if (!key.empty())
            detail::requireObject(*member, key, "an object");
        detail::refuseUnknown(*member, key, names.first, names.second);
    }

    for (const auto& field : table) {
        std::string key = field.names.key;
        const json* value = detail::memberAt(object, key);
        if (!value && !field.names.legacyKey.empty()) {
            key = field.names.legacyKey;
            value = detail::memberAt(object, key);
        }
        if (!value)
            continue;
        std::visit(
            [&](const auto& a) {
                using A = std::decay_t<decltype(a)>;
                if constexpr (std::is_same_v<A, core::NumberAccess<S>>) {
                    a.ref(s) = detail::readNumber(*value, key);
                } else if constexpr (std::is_same_v<A, core::CountAccess<S>>) {
                    a.ref(s) = detail::readCount(*value, key);
                } else if constexpr (std::is_same_v<A, core::FlagAccess<S>>) {
                    if (!value->is_boolean())
                        throw FieldJsonError(key, "expected true or false, got " + describeJson(*value));
                    a.ref(s) = value->template get<bool>();
                } else if constexpr (std::is_same_v<A, core::TextAccess<S>>) {
                    if (!value->is_string())
                        throw FieldJsonError(key, "expected a string, got " + describeJson(*value));
                    a.ref(s) = value->template get<std::string>();
                } else if constexpr (std::is_same_v<A, core::ChoiceAccess<S>>) {
                    if (!value->is_string())
                        throw FieldJsonError(key, "expected a string, got " + describeJson(*value));
                    const std::string name = value->template get<std::string>();
                    const auto parsed = a.choices.parse(name);
                    if (!parsed || !a.choices.accepts(*parsed))
                        throw FieldJsonError(key, a.choices.unknownListing(name));
                    a.set(s, *parsed);
                } else if constexpr (std::is_same_v<A, core::NumberMapAccess<S>>) {
                    detail::requireObject(*value, key, "an object {\"NAME\": number}");
                    auto& map = a.ref(s);
                    for (const auto& item : value->items())
                        map[item.key()] = detail::readNumber(item.value(), key + "." + item.key());
                } else {
                    detail::requireObject(*value, key, "an object {\"NAME\": \"CHOICE\"}");
                    for (const auto& item : value->items()) {
                        const std::string entry = key + "." + item.key();
                        if (!item.value().is_string())
                            throw FieldJsonError(entry, "expected a string, got " + describeJson(item.value()));
                        const std::string name = item.value().template get<std::string>();
                        const auto parsed = a.choices.parse(name);
                        if (!parsed || !a.choices.accepts(*parsed))
                            throw FieldJsonError(entry, a.choices.unknownListing(name));
                        a.set(s, item.key(), *parsed);
                    }
                }
            },
            field.access);
    }
}

// Writes every field of `s` into `object` (nested objects for dotted keys), except those whose
// `present` says they are not set.
template <class S, class Need>
void writeFields(const core::FieldTable<S, Need>& table, const S& s, nlohmann::json& object)
{
    S& m = const_cast<S&>(s);  // the accessors only read here
    for (const auto& field : table) {
        if (field.present && !field.present(s))
            continue;
        nlohmann::json& out = detail::memberFor(object, field.names.key);
        std::visit(
            [&](const auto& a) {
                using A = std::decay_t<decltype(a)>;
                if constexpr (std::is_same_v<A, core::ChoiceAccess<S>>) {
                    out = a.choices.name(a.get(s));
                } else if constexpr (std::is_same_v<A, core::NumberMapAccess<S>>) {
                    out = nlohmann::json::object();
                    for (const auto& [name, value] : a.ref(m))
                        out[name] = value;
                } else if constexpr (std::is_same_v<A, core::ChoiceMapAccess<S>>) {
                    out = nlohmann::json::object();
                    for (const auto& [name, value] : a.get(s))
                        out[name] = a.choices.name(value);
                } else {
                    out = a.ref(m);
                }
            },
            field.access);
    }
}

}  // namespace sysid::project
