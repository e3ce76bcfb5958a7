#include "engine/core/SettingError.h"

#include <utility>

namespace sysid::core {

SettingError::SettingError(std::string key, std::string label, std::string value, std::string rule) :
    std::invalid_argument(label + " " + value + "; expected " + rule), key_(std::move(key)), label_(std::move(label)),
    value_(std::move(value)), rule_(std::move(rule))
{
}

std::string SettingError::expectation() const
{
    return "expected " + rule_ + ", got " + value_;
}

SettingError SettingError::within(std::string_view parent, std::string_view labelPrefix) const
{
    return SettingError(std::string(parent) + "." + key_, std::string(labelPrefix) + label_, value_, rule_);
}

}  // namespace sysid::core
