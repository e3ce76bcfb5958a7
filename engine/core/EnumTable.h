#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace sysid::core {

// One spelling of an enum value: the name the CLI, project files, JSON results and the GUI
// all use, and one line for help texts and tooltips. `alias` is an older spelling still read
// (project files written by earlier versions), never written or offered.
template <class E>
struct EnumSpelling {
    E value;
    std::string_view name;
    std::string_view description;
    std::string_view alias = {};
};

// The single statement of an enum's spellings (issue: "say each thing once"). Parse and name
// functions, help texts, error messages and GUI combo boxes are all made from one table.
template <class E, std::size_t N>
class EnumTable {
public:
    // `what` names the concept in messages ("integrator", "estimation method").
    constexpr EnumTable(std::string_view what, std::array<EnumSpelling<E>, N> entries) : what_(what), entries_(entries)
    {
    }

    std::string_view what() const { return what_; }
    const std::array<EnumSpelling<E>, N>& entries() const { return entries_; }

    std::optional<E> parse(std::string_view name) const
    {
        for (const auto& e : entries_)
            if (e.name == name || (!e.alias.empty() && e.alias == name))
                return e.value;
        return std::nullopt;
    }

    std::string_view name(E value) const { return find(value).name; }
    std::string_view description(E value) const { return find(value).description; }

    // "a | b | c": the choices, for usage lines.
    std::string choices(std::string_view separator = " | ") const
    {
        std::string out;
        for (const auto& e : entries_) {
            if (!out.empty())
                out += separator;
            out += e.name;
        }
        return out;
    }

    // "a, b or c", for sentences.
    std::string choiceSentence() const
    {
        std::string out;
        for (std::size_t i = 0; i < N; ++i) {
            if (i > 0)
                out += i + 1 == N ? " or " : ", ";
            out += entries_[i].name;
        }
        return out;
    }

    // "unknown integrator 'x'; expected dopri5, rosenbrock4 or rk4".
    std::string unknownMessage(std::string_view given) const
    {
        return "unknown " + std::string(what_) + " '" + std::string(given) + "'; expected " + choiceSentence();
    }

    // "dopri5: adaptive ...; rk4: ..." for one help text that lists every choice.
    std::string help(std::string_view separator = "; ") const
    {
        std::string out;
        for (const auto& e : entries_) {
            if (!out.empty())
                out += separator;
            out += std::string(e.name) + ": " + std::string(e.description);
        }
        return out;
    }

private:
    const EnumSpelling<E>& find(E value) const
    {
        for (const auto& e : entries_)
            if (e.value == value)
                return e;
        return entries_.front();  // unreachable for a complete table (tests check completeness)
    }

    std::string_view what_;
    std::array<EnumSpelling<E>, N> entries_;
};

template <class E, std::size_t N>
EnumTable(std::string_view, std::array<EnumSpelling<E>, N>) -> EnumTable<E, N>;

}  // namespace sysid::core
