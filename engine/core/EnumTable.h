#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace sysid::core {

// One spelling of an enum value: the name the CLI, project files, JSON results and the GUI
// all use, and one line for help texts and tooltips. `alias` is an older spelling still read
// (project files written by earlier versions), never written or offered. `label` is the text
// of the value in the GUI's menus; the name when empty.
template <class E>
struct EnumSpelling {
    E value;
    std::string_view name;
    std::string_view description;
    std::string_view alias = {};
    std::string_view label = {};
};

// Keeps every value: the default filter of the listing functions below.
struct AnyValue {
    template <class E>
    constexpr bool operator()(E) const
    {
        return true;
    }
};

// The single statement of an enum's spellings (issue: "say each thing once"). Parse and name
// functions, help texts, error messages and GUI combo boxes are all made from one table.
// The listing functions take an optional filter (a predicate on the value) for settings that
// accept only some of the values (a single-step formula, a fixed-step integrator).
template <class E, std::size_t N>
class EnumTable {
public:
    // `what` names the concept in messages ("integrator", "estimation method"). With `anyCase`,
    // parse ignores the letter case of ASCII letters.
    constexpr EnumTable(std::string_view what, std::array<EnumSpelling<E>, N> entries, bool anyCase = false) :
        what_(what), entries_(entries), anyCase_(anyCase)
    {
    }

    constexpr std::string_view what() const { return what_; }
    constexpr const std::array<EnumSpelling<E>, N>& entries() const { return entries_; }

    constexpr std::optional<E> parse(std::string_view name) const
    {
        for (const auto& e : entries_)
            if (same(e.name, name) || (!e.alias.empty() && same(e.alias, name)))
                return e.value;
        return std::nullopt;
    }

    constexpr std::string_view name(E value) const { return find(value).name; }
    constexpr std::string_view description(E value) const { return find(value).description; }
    constexpr std::string_view label(E value) const
    {
        const auto& e = find(value);
        return e.label.empty() ? e.name : e.label;
    }

    // "a | b | c": the choices, for usage lines; each name between `quote`s when one is given.
    template <class Keep = AnyValue>
    std::string choices(std::string_view separator = " | ", Keep keep = {}, std::string_view quote = {}) const
    {
        return list(separator, separator, quote, keep);
    }

    // "a, b or c", for sentences.
    template <class Keep = AnyValue>
    std::string choiceSentence(Keep keep = {}) const
    {
        return list(", ", " or ", "", keep);
    }

    // "\"a\", \"b\" or \"c\"": the sentence with every name quoted as in a JSON file.
    template <class Keep = AnyValue>
    std::string quotedChoiceSentence(Keep keep = {}) const
    {
        return list(", ", " or ", "\"", keep);
    }

    // "unknown integrator 'x'; expected dopri5, rosenbrock4 or rk4".
    std::string unknownMessage(std::string_view given) const
    {
        return "unknown " + std::string(what_) + " '" + std::string(given) + "'; expected " + choiceSentence();
    }

    // "unknown integrator 'x' (known: dopri5, rosenbrock4, rk4)": a project reader's message.
    template <class Keep = AnyValue>
    std::string unknownListing(std::string_view given, Keep keep = {}) const
    {
        return "unknown " + std::string(what_) + " '" + std::string(given) + "' (known: " + choices(", ", keep) + ")";
    }

    // "--integrator must be dopri5, rosenbrock4 or rk4, not 'x'": a command line's message.
    template <class Keep = AnyValue>
    std::string mustBe(std::string_view subject, std::string_view given, Keep keep = {}) const
    {
        return std::string(subject) + " must be " + choiceSentence(keep) + ", not '" + std::string(given) + "'";
    }

    // "dopri5: adaptive ...; rk4: ..." for one help text that lists every choice.
    template <class Keep = AnyValue>
    std::string help(std::string_view separator = "; ", Keep keep = {}) const
    {
        std::string out;
        for (const auto& e : entries_) {
            if (!keep(e.value))
                continue;
            if (!out.empty())
                out += separator;
            out += std::string(e.name) + ": " + std::string(e.description);
        }
        return out;
    }

private:
    static constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

    constexpr bool same(std::string_view spelling, std::string_view given) const
    {
        if (!anyCase_)
            return spelling == given;
        if (spelling.size() != given.size())
            return false;
        for (std::size_t i = 0; i < given.size(); ++i)
            if (lower(spelling[i]) != lower(given[i]))
                return false;
        return true;
    }

    constexpr const EnumSpelling<E>& find(E value) const
    {
        for (const auto& e : entries_)
            if (e.value == value)
                return e;
        return entries_.front();  // unreachable for a complete table (tests check completeness)
    }

    template <class Keep>
    std::string list(std::string_view separator, std::string_view last, std::string_view quote, Keep keep) const
    {
        std::size_t total = 0;
        for (const auto& e : entries_)
            total += keep(e.value) ? 1 : 0;
        std::string out;
        std::size_t i = 0;
        for (const auto& e : entries_) {
            if (!keep(e.value))
                continue;
            if (i > 0)
                out += i + 1 == total ? last : separator;
            out += std::string(quote) + std::string(e.name) + std::string(quote);
            ++i;
        }
        return out;
    }

    std::string_view what_;
    std::array<EnumSpelling<E>, N> entries_;
    bool anyCase_ = false;
};

template <class E, std::size_t N>
EnumTable(std::string_view, std::array<EnumSpelling<E>, N>) -> EnumTable<E, N>;
template <class E, std::size_t N>
EnumTable(std::string_view, std::array<EnumSpelling<E>, N>, bool) -> EnumTable<E, N>;

}  // namespace sysid::core
