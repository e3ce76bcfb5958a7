#pragma once

// The command-line options of a settings struct, made from its field table (core::Field): one
// option per field that names one (fields may share an option; the one that applies to the
// method is set), help from the field's help, choices and default, and the rules from the
// struct's validate().
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/ParameterOverrides.h"

#include "engine/core/SettingField.h"
#include "engine/estimate/FitSettingFields.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace sysid::cli {

// How the options of fields with a need (FitSettings: a method input) are treated.
template <class Need>
struct FieldOptionPolicy {
    // Whether a field with this need applies (the method takes it); empty: every field applies.
    std::function<bool(const Need&)> applies;
    // Who takes the needs, for help texts ("multiple-shooting or periodic-response").
    std::function<std::string(const std::vector<Need>&)> takers;
    // The refusal of an option whose fields do not apply; empty: such an option sets the first
    // of its fields (a check before the method is known).
    std::function<std::string(std::string_view subject, const std::vector<Need>&)> refusal;
    // Options the command reads itself, by the key of their settings ("priors" -> "prior"), so
    // that a rule they break names them too.
    std::map<std::string, std::string> otherOptions;
};

namespace detail {

// "max-iterations" of "max-iterations" or "realisations" of "realisations,n".
inline std::string longName(std::string_view option)
{
    return std::string(option.substr(0, option.find(',')));
}

template <class S, class Need>
bool isMap(const core::Field<S, Need>& field)
{
    return std::holds_alternative<core::NumberMapAccess<S>>(field.access) ||
        std::holds_alternative<core::ChoiceMapAccess<S>>(field.access);
}

// The fields per option, options in the table's order.
template <class S, class Need>
std::vector<std::pair<std::string, std::vector<const core::Field<S, Need>*>>> optionGroups(
    const core::FieldTable<S, Need>& table, const std::map<std::string, std::string>& rename)
{
    std::vector<std::pair<std::string, std::vector<const core::Field<S, Need>*>>> groups;
    for (const auto& field : table) {
        if (field.names.option.empty())
            continue;
        std::string option(field.names.option);
        if (const auto it = rename.find(longName(option)); it != rename.end())
            option = it->second;
        auto group = groups.begin();
        while (group != groups.end() && group->first != option)
            ++group;
        if (group == groups.end())
            groups.push_back({option, {&field}});
        else
            group->second.push_back(&field);
    }
    return groups;
}

template <class S, class Need>
std::string helpOf(const core::Field<S, Need>& field, const S& defaults)
{
    std::string text(field.names.help);
    // A choice, or a choice per name (an input's intersample behaviour): the same listing.
    const core::Choices* choices = nullptr;
    if (const auto* choice = std::get_if<core::ChoiceAccess<S>>(&field.access))
        choices = &choice->choices;
    else if (const auto* perName = std::get_if<core::ChoiceMapAccess<S>>(&field.access))
        choices = &perName->choices;
    if (choices)
        text += ": " + choices->list(" | ");
    const std::string value =
        field.names.defaultText.empty() ? core::fieldText(field, defaults) : std::string(field.names.defaultText);
    if (!value.empty() && !std::holds_alternative<core::FlagAccess<S>>(field.access))
        text += " (default: " + value + ")";
    if (choices)
        text += ". " + choices->help();
    return text;
}

}  // namespace detail

// Declares the options the arguments can name (`named`; all of them for --help). `rename` gives an
// option another name in this command ("integrator" is --method in `sysid simulate`); legacy
// options go to `hidden` (accepted, not listed).
template <class S, class Need>
void addFieldOptions(boost::program_options::options_description& options, const NamedOptions& named,
                     boost::program_options::options_description* hidden, const core::FieldTable<S, Need>& table,
                     const FieldOptionPolicy<Need>& policy = {}, const std::map<std::string, std::string>& rename = {})
{
    namespace po = boost::program_options;
    const S defaults{};
    for (const auto& [option, fields] : detail::optionGroups(table, rename)) {
        const bool legacyNamed =
            hidden && std::any_of(fields.begin(), fields.end(), [&](const auto* field) {
                return !field->names.legacyOption.empty() && named.namesDeclared(field->names.legacyOption);
            });
        if (!named.namesDeclared(option) && !legacyNamed)
            continue;
        std::string help;
        std::vector<Need> needs;
        for (const auto* field : fields) {
            std::string part = detail::helpOf(*field, defaults);
            if (field->need && policy.takers)
                part = (fields.size() > 1 ? policy.takers({*field->need}) + ": " : "") + part;
            help += (help.empty() ? "" : "; ") + part;
            if (field->need)
                needs.push_back(*field->need);
        }
        if (fields.size() == 1 && !needs.empty() && policy.takers)
            help += " [" + policy.takers(needs) + "]";
        const auto* first = fields.front();
        const auto declare = [&](po::options_description& into, const std::string& name, const std::string& text) {
            if (std::holds_alternative<core::FlagAccess<S>>(first->access))
                into.add_options()(name.c_str(), text.c_str());
            else if (detail::isMap(*first))
                into.add_options()(name.c_str(), po::value<std::vector<std::string>>()->composing(), text.c_str());
            else
                into.add_options()(name.c_str(), po::value<std::string>(), text.c_str());
        };
        declare(options, option, help);
        if (hidden)
            for (const auto* field : fields)
                if (!field->names.legacyOption.empty())
                    declare(*hidden, std::string(field->names.legacyOption), help);
    }
}

// Applies the options given to `s` (the defaults or a project's settings), then runs s.validate();
// a value that cannot be read, an option the policy refuses or a rule broken is a UsageError
// naming the option.
template <class S, class Need>
void applyFieldOptions(const boost::program_options::variables_map& vm, const core::FieldTable<S, Need>& table, S& s,
                       const FieldOptionPolicy<Need>& policy = {},
                       const std::map<std::string, std::string>& rename = {})
{
    const auto groups = detail::optionGroups(table, rename);
    for (const auto& [option, fields] : groups) {
        std::string given = detail::longName(option);
        if (!vm.count(given)) {
            given.clear();
            for (const auto* field : fields)
                if (!field->names.legacyOption.empty() && vm.count(std::string(field->names.legacyOption)))
                    given = std::string(field->names.legacyOption);
            if (given.empty())
                continue;
        }
        const std::string subject = "--" + given;
        const auto* first = fields.front();
        std::vector<Need> needs;
        const core::Field<S, Need>* target = nullptr;
        for (const auto* field : fields) {
            if (field->need)
                needs.push_back(*field->need);
            if (!target && (!field->need || !policy.applies || policy.applies(*field->need)))
                target = field;
        }

        // The value, read as the first field's kind; then the field it sets.
        std::string text;
        if (!std::holds_alternative<core::FlagAccess<S>>(first->access) && !detail::isMap(*first))
            text = vm[given].template as<std::string>();
        std::optional<int> choice;
        if (const auto* a = std::get_if<core::ChoiceAccess<S>>(&first->access)) {
            choice = a->choices.parse(text);
            if (!choice)
                throw UsageError(a->choices.mustBe(subject, text));
        }
        if (!target) {
            if (policy.refusal)
                throw UsageError(policy.refusal(choice ? subject + " " + text : subject, needs));
            target = first;
        }
        std::visit(
            [&](const auto& a) {
                using A = std::decay_t<decltype(a)>;
                if constexpr (std::is_same_v<A, core::NumberAccess<S>>) {
                    a.ref(s) = parseNumber(text, subject);
                } else if constexpr (std::is_same_v<A, core::CountAccess<S>>) {
                    a.ref(s) = parseCount(text, subject);
                } else if constexpr (std::is_same_v<A, core::FlagAccess<S>>) {
                    a.ref(s) = a.optionSets;
                } else if constexpr (std::is_same_v<A, core::TextAccess<S>>) {
                    a.ref(s) = text;
                } else if constexpr (std::is_same_v<A, core::ChoiceAccess<S>>) {
                    if (!a.choices.accepts(*choice))
                        throw UsageError(subject + " " + text + " is not " + std::string(a.choices.subset));
                    a.set(s, *choice);
                } else if constexpr (std::is_same_v<A, core::NumberMapAccess<S>>) {
                    const std::string form(target->names.form.empty() ? "NAME=VALUE" : target->names.form);
                    for (const auto& item : repeated(vm, given.c_str())) {
                        const auto [name, value] = splitAssignment(item, subject, form.c_str());
                        a.ref(s)[name] = parseNumber(value, subject + " " + name);
                    }
                } else {
                    const std::string form(target->names.form.empty() ? "NAME=CHOICE" : target->names.form);
                    for (const auto& item : repeated(vm, given.c_str())) {
                        const auto [name, value] = splitAssignment(item, subject, form.c_str());
                        const auto parsed = a.choices.parse(value);
                        if (!parsed || !a.choices.accepts(*parsed))
                            throw UsageError(a.choices.mustBe(subject + " " + name, value));
                        a.set(s, name, *parsed);
                    }
                }
            },
            target->access);
    }

    try {
        s.validate();
    } catch (const core::SettingError& e) {
        // The option of the setting (or of the map it is an entry of) names it.
        const auto name = [&](const std::string& key, const std::string& option) {
            if (e.key() == key)
                throw UsageError("--" + detail::longName(option) + ": " + e.expectation());
            if (e.key().compare(0, key.size() + 1, key + ".") == 0)
                throw UsageError("--" + detail::longName(option) + " " + e.key().substr(key.size() + 1) + ": " +
                                 e.expectation());
        };
        for (const auto& [option, fields] : groups)
            for (const auto* field : fields)
                name(field->names.key, option);
        for (const auto& [key, option] : policy.otherOptions)
            name(key, option);
        throw UsageError(e.what());
    }
}

// The fit settings' options (estimate::fitSettingFields) with the method's inputs: an option of a
// setting that settings.method does not take is refused with the methods that take it
// (MethodTraits), unless `refuse` is false (options checked before a project's method is known).
// Rules broken by --prior name it. The policy reads settings.method when it is applied.
FieldOptionPolicy<estimate::MethodInput> fitOptionPolicy(const estimate::FitSettings& settings, bool refuse = true);

}  // namespace sysid::cli
