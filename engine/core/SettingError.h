#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace sysid::core {

// A setting that breaks one of its rules, as every settings struct's validate() reports it
// (after Ceres' Solver::Options::IsValid: the message names the setting and the rule).
// `key` is where the setting sits in a project file's object for the struct ("rtol",
// "periodic.periods", "state_weights.x"), so that each front end can name it in its own terms
// (a project's key path, a command-line option, a field of a panel); `label` names it in words.
class SettingError : public std::invalid_argument {
public:
    // what(): "LABEL VALUE; expected RULE", e.g. "relative tolerance 0; expected a number > 0".
    SettingError(std::string key, std::string label, std::string value, std::string rule);

    const std::string& key() const { return key_; }
    const std::string& label() const { return label_; }
    const std::string& value() const { return value_; }  // the value given, as text (with its unit)
    const std::string& rule() const { return rule_; }  // what it must be: "a whole number >= 1"

    // "expected RULE, got VALUE": the message of a reader that names the key itself.
    std::string expectation() const;
    // The same error for a struct nested in another under `parent`: key "parent.KEY", and the
    // label after `labelPrefix` when one is given ("the x axis (a): ").
    SettingError within(std::string_view parent, std::string_view labelPrefix = {}) const;

private:
    std::string key_, label_, value_, rule_;
};

}  // namespace sysid::core
