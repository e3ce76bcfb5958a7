#pragma once

#include "engine/core/EnumTable.h"
#include "engine/core/SettingError.h"

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace sysid::core {

// One table of field descriptors per settings struct states, for each setting, its key in a
// project file, its command-line option, its help line and its rule. The project reader and
// writer, the command-line options and validate() are all made from it, so adding a setting is
// one member with its default plus one entry (see docs: "to add a fit setting").

// The rule of a number. `text` replaces the generated description ("a number > 0") where the
// rule has more to say.
struct NumberRule {
    enum class Bound { Finite, Positive, NonNegative };
    Bound bound = Bound::Finite;
    std::string_view text = {};

    bool accepts(double value) const;
    std::string describe() const;
};
inline constexpr NumberRule kAnyNumber{};
inline constexpr NumberRule kPositive{NumberRule::Bound::Positive};
inline constexpr NumberRule kNonNegative{NumberRule::Bound::NonNegative};

// A number as a setting's value is shown: the shortest text that reads back the same.
std::string settingText(double value);

// An enum table seen through int, so that one field type serves every enum. `accepts` narrows
// the values a setting takes (a one-step formula); `subset` then names them ("a single-step
// formula"). Listings show the accepted values only; mustBe, for a command line's parse of the
// whole table, shows every value.
struct Choices {
    std::string_view what;
    std::string_view subset;
    std::function<std::optional<int>(std::string_view)> parse;
    std::function<std::string(int)> name;
    std::function<bool(int)> accepts;
    std::function<std::string(std::string_view separator)> list;
    std::function<std::string(std::string_view given)> unknownListing;
    std::function<std::string(std::string_view subject, std::string_view given)> mustBe;
    std::function<std::string()> help;
};

template <class E, std::size_t N, class Keep = AnyValue>
Choices choicesOf(const EnumTable<E, N>& table, Keep keep = {}, std::string_view subset = {})
{
    const auto* t = &table;
    Choices c;
    c.what = table.what();
    c.subset = subset;
    c.parse = [t](std::string_view name) -> std::optional<int> {
        const auto value = t->parse(name);
        return value ? std::optional<int>(static_cast<int>(*value)) : std::nullopt;
    };
    c.name = [t](int value) { return std::string(t->name(static_cast<E>(value))); };
    c.accepts = [keep](int value) { return keep(static_cast<E>(value)); };
    c.list = [t, keep](std::string_view separator) { return t->choices(separator, keep); };
    c.unknownListing = [t, keep](std::string_view given) { return t->unknownListing(given, keep); };
    c.mustBe = [t](std::string_view subject, std::string_view given) { return t->mustBe(subject, given); };
    c.help = [t, keep] { return t->help("; ", keep); };
    return c;
}

template <class S>
struct NumberAccess {
    std::function<double&(S&)> ref;
    NumberRule rule;
};
template <class S>
struct CountAccess {
    std::function<std::size_t&(S&)> ref;
    std::size_t minimum = 0;
};
// A switch. On the command line the option sets `optionSets` (false for "--no-simulation").
template <class S>
struct FlagAccess {
    std::function<bool&(S&)> ref;
    bool optionSets = true;
};
template <class S>
struct TextAccess {
    std::function<std::string&(S&)> ref;
};
template <class S>
struct ChoiceAccess {
    std::function<int(const S&)> get;
    std::function<void(S&, int)> set;
    Choices choices;
};
// NAME -> number, such as a weight per output (on the command line: repeated NAME=VALUE).
template <class S>
struct NumberMapAccess {
    std::function<std::map<std::string, double>&(S&)> ref;
    NumberRule rule;
};
// NAME -> enum value, such as a choice per input (on the command line: repeated NAME=CHOICE).
template <class S>
struct ChoiceMapAccess {
    std::function<std::map<std::string, int>(const S&)> get;
    std::function<void(S&, const std::string&, int)> set;
    Choices choices;
};
template <class S>
using FieldAccess = std::variant<NumberAccess<S>, CountAccess<S>, FlagAccess<S>, TextAccess<S>, ChoiceAccess<S>,
                                 NumberMapAccess<S>, ChoiceMapAccess<S>>;

struct FieldNames {
    std::string key;  // the member of the struct's object in a project file; "a.b" inside member a
    std::string_view option = {};  // the command-line option without "--"; empty: none
    std::string_view label = {};  // the setting in words, for messages
    std::string_view help = {};  // what it does, one line, for help texts and tooltips
    std::string_view form = {};  // a map's command-line entry, e.g. "OUTPUT=WEIGHT"
    std::string_view defaultText = {};  // replaces the default value in help texts
    std::string legacyKey = {};  // an older key still read, never written
    std::string_view legacyOption = {};  // an older option still accepted, not listed in the help
};

// For the fields of a struct that every user takes (no method input to check).
struct NoNeed {
    bool operator==(const NoNeed&) const = default;
};

// One setting. `need` says what its user must take for the setting to apply (for FitSettings,
// the estimation method's input, see MethodTraits); without it the setting always applies.
// `present` decides whether a file records the value (empty: always); `when` whether its rule
// is checked, for a setting that another one makes unused (empty: always).
template <class S, class Need = NoNeed>
struct Field {
    FieldNames names;
    FieldAccess<S> access;
    std::optional<Need> need = {};
    std::function<bool(const S&)> present = {};
    std::function<bool(const S&)> when = {};
};

template <class S, class Need = NoNeed>
using FieldTable = std::vector<Field<S, Need>>;

// Makers for the table entries. `ref` is a lambda [](S& s) -> T& { return s.member; }.
template <class S, class Need = NoNeed, class Ref>
Field<S, Need> numberField(FieldNames names, Ref ref, NumberRule rule = {}, std::optional<Need> need = {})
{
    return {std::move(names), NumberAccess<S>{ref, rule}, need};
}

template <class S, class Need = NoNeed, class Ref>
Field<S, Need> countField(FieldNames names, Ref ref, std::size_t minimum, std::optional<Need> need = {})
{
    return {std::move(names), CountAccess<S>{ref, minimum}, need};
}

template <class S, class Need = NoNeed, class Ref>
Field<S, Need> flagField(FieldNames names, Ref ref, bool optionSets = true, std::optional<Need> need = {})
{
    return {std::move(names), FlagAccess<S>{ref, optionSets}, need};
}

template <class S, class Need = NoNeed, class Ref>
Field<S, Need> textField(FieldNames names, Ref ref, std::optional<Need> need = {})
{
    return {std::move(names), TextAccess<S>{ref}, need};
}

template <class S, class Need = NoNeed, class Ref>
Field<S, Need> choiceField(FieldNames names, Ref ref, Choices choices, std::optional<Need> need = {})
{
    using E = std::remove_cvref_t<std::invoke_result_t<Ref, S&>>;
    ChoiceAccess<S> access;
    access.get = [ref](const S& s) { return static_cast<int>(ref(const_cast<S&>(s))); };
    access.set = [ref](S& s, int value) { ref(s) = static_cast<E>(value); };
    access.choices = std::move(choices);
    return {std::move(names), std::move(access), need};
}

template <class S, class Need = NoNeed, class Ref>
Field<S, Need> numberMapField(FieldNames names, Ref ref, NumberRule rule = {}, std::optional<Need> need = {})
{
    return {std::move(names), NumberMapAccess<S>{ref, rule}, need};
}

template <class S, class Need = NoNeed, class Ref>
Field<S, Need> choiceMapField(FieldNames names, Ref ref, Choices choices, std::optional<Need> need = {})
{
    using E = typename std::remove_cvref_t<std::invoke_result_t<Ref, S&>>::mapped_type;
    ChoiceMapAccess<S> access;
    access.get = [ref](const S& s) {
        std::map<std::string, int> out;
        for (const auto& [name, value] : ref(const_cast<S&>(s)))
            out[name] = static_cast<int>(value);
        return out;
    };
    access.set = [ref](S& s, const std::string& name, int value) { ref(s)[name] = static_cast<E>(value); };
    access.choices = std::move(choices);
    return {std::move(names), std::move(access), need};
}

namespace detail {

template <class Outer, class Sub, class Ref>
FieldAccess<Outer> nestedAccess(const FieldAccess<Sub>& access, Ref outer)
{
    return std::visit(
        [&](const auto& a) -> FieldAccess<Outer> {
            using A = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<A, NumberAccess<Sub>>)
                return NumberAccess<Outer>{[outer, r = a.ref](Outer& o) -> double& { return r(outer(o)); }, a.rule};
            else if constexpr (std::is_same_v<A, CountAccess<Sub>>)
                return CountAccess<Outer>{[outer, r = a.ref](Outer& o) -> std::size_t& { return r(outer(o)); },
                                          a.minimum};
            else if constexpr (std::is_same_v<A, FlagAccess<Sub>>)
                return FlagAccess<Outer>{[outer, r = a.ref](Outer& o) -> bool& { return r(outer(o)); }, a.optionSets};
            else if constexpr (std::is_same_v<A, TextAccess<Sub>>)
                return TextAccess<Outer>{[outer, r = a.ref](Outer& o) -> std::string& { return r(outer(o)); }};
            else if constexpr (std::is_same_v<A, ChoiceAccess<Sub>>)
                return ChoiceAccess<Outer>{
                    [outer, g = a.get](const Outer& o) { return g(outer(const_cast<Outer&>(o))); },
                    [outer, s = a.set](Outer& o, int v) { s(outer(o), v); }, a.choices};
            else if constexpr (std::is_same_v<A, NumberMapAccess<Sub>>)
                return NumberMapAccess<Outer>{
                    [outer, r = a.ref](Outer& o) -> std::map<std::string, double>& { return r(outer(o)); }, a.rule};
            else
                return ChoiceMapAccess<Outer>{
                    [outer, g = a.get](const Outer& o) { return g(outer(const_cast<Outer&>(o))); },
                    [outer, s = a.set](Outer& o, const std::string& n, int v) { s(outer(o), n, v); }, a.choices};
        },
        access);
}

}  // namespace detail

// Appends the fields of a struct held in member `prefix` of Outer (`outer` returns it), keys
// "prefix.key". Their need is their own when the tables share the Need type, else `need`.
template <class Outer, class Need, class Sub, class SubNeed, class Ref>
void appendNested(FieldTable<Outer, Need>& out, std::string_view prefix, Ref outer, const FieldTable<Sub, SubNeed>& sub,
                  std::optional<Need> need = {})
{
    for (const auto& f : sub) {
        Field<Outer, Need> field;
        field.names = f.names;
        field.names.key = std::string(prefix) + "." + f.names.key;
        if (!f.names.legacyKey.empty())
            field.names.legacyKey = std::string(prefix) + "." + f.names.legacyKey;
        field.access = detail::nestedAccess<Outer, Sub>(f.access, outer);
        if constexpr (std::is_same_v<Need, SubNeed>)
            field.need = f.need ? f.need : need;
        else
            field.need = need;
        if (f.present)
            field.present = [outer, p = f.present](const Outer& o) { return p(outer(const_cast<Outer&>(o))); };
        if (f.when)
            field.when = [outer, w = f.when](const Outer& o) { return w(outer(const_cast<Outer&>(o))); };
        out.push_back(std::move(field));
    }
}

// The fields `keep` (a predicate on a field) accepts, for a command that offers only some settings.
template <class S, class Need, class Keep>
FieldTable<S, Need> selectFields(const FieldTable<S, Need>& table, Keep keep)
{
    FieldTable<S, Need> out;
    for (const auto& field : table)
        if (keep(field))
            out.push_back(field);
    return out;
}

// The field with this key (nullptr when none).
template <class S, class Need>
const Field<S, Need>* findField(const FieldTable<S, Need>& table, std::string_view key)
{
    for (const auto& f : table)
        if (f.names.key == key)
            return &f;
    return nullptr;
}

// The value of a scalar field as text (a number, a whole number, true/false, a name); empty for
// a map. Used for defaults in help texts and for messages.
template <class S, class Need>
std::string fieldText(const Field<S, Need>& field, const S& s)
{
    S& m = const_cast<S&>(s);  // the accessors only read here
    return std::visit(
        [&](const auto& a) -> std::string {
            using A = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<A, NumberAccess<S>>)
                return settingText(a.ref(m));
            else if constexpr (std::is_same_v<A, CountAccess<S>>)
                return std::to_string(a.ref(m));
            else if constexpr (std::is_same_v<A, FlagAccess<S>>)
                return a.ref(m) ? "true" : "false";
            else if constexpr (std::is_same_v<A, TextAccess<S>>)
                return a.ref(m);
            else if constexpr (std::is_same_v<A, ChoiceAccess<S>>)
                return a.choices.name(a.get(s));
            else
                return {};
        },
        field.access);
}

// The rule of a count, in words.
std::string countRule(std::size_t minimum);

// Keeps every field: the default filter of validateFields.
struct AnyField {
    template <class F>
    bool operator()(const F&) const
    {
        return true;
    }
};

// Checks every field of `s` that `applies` (a predicate on the field) against its rule; the
// first that breaks it is a SettingError with the field's key and label.
template <class S, class Need, class Applies = AnyField>
void validateFields(const FieldTable<S, Need>& table, const S& s, Applies applies = {})
{
    S& m = const_cast<S&>(s);  // the accessors only read here
    for (const auto& field : table) {
        if (!applies(field) || (field.when && !field.when(s)))
            continue;
        const std::string& key = field.names.key;
        const std::string label(field.names.label.empty() ? std::string_view(key) : field.names.label);
        std::visit(
            [&](const auto& a) {
                using A = std::decay_t<decltype(a)>;
                if constexpr (std::is_same_v<A, NumberAccess<S>>) {
                    if (!a.rule.accepts(a.ref(m)))
                        throw SettingError(key, label, settingText(a.ref(m)), a.rule.describe());
                } else if constexpr (std::is_same_v<A, CountAccess<S>>) {
                    if (a.ref(m) < a.minimum)
                        throw SettingError(key, label, std::to_string(a.ref(m)), countRule(a.minimum));
                } else if constexpr (std::is_same_v<A, ChoiceAccess<S>>) {
                    if (!a.choices.accepts(a.get(s)))
                        throw SettingError(key, label, a.choices.name(a.get(s)),
                                           a.choices.subset.empty() ? "one of " + a.choices.list(", ")
                                                                    : std::string(a.choices.subset));
                } else if constexpr (std::is_same_v<A, NumberMapAccess<S>>) {
                    for (const auto& [name, value] : a.ref(m))
                        if (!a.rule.accepts(value))
                            throw SettingError(key + "." + name, label + " of " + name, settingText(value),
                                               a.rule.describe());
                } else if constexpr (std::is_same_v<A, ChoiceMapAccess<S>>) {
                    for (const auto& [name, value] : a.get(s))
                        if (!a.choices.accepts(value))
                            throw SettingError(key + "." + name, label + " of " + name, a.choices.name(value),
                                               "one of " + a.choices.list(", "));
                }
            },
            field.access);
    }
}

}  // namespace sysid::core
