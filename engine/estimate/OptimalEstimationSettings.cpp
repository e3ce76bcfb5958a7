#include "engine/core/SettingField.h"
#include "engine/estimate/OptimalEstimation.h"

#include <cmath>

namespace sysid::estimate {

void OptimalEstimationSettings::validate() const
{
    using core::SettingError;
    using core::settingText;
    for (const auto& [name, w] : stateWeights)
        if (!std::isfinite(w) || !(w > 0))
            throw SettingError("state_weights." + name, "the weight W of " + name, settingText(w),
                               "a finite number > 0");
    for (const auto& [name, v] : measurementWeights)
        if (!std::isfinite(v) || !(v >= 0))
            throw SettingError("measurement_weights." + name, "the weight V of " + name, settingText(v),
                               "a finite number >= 0");
    for (const auto& [name, prior] : initialPrior) {
        if (!std::isfinite(prior.first))
            throw SettingError("initial_prior." + name + ".value", "the prior q_a of " + name, settingText(prior.first),
                               "a finite number");
        if (!std::isfinite(prior.second) || !(prior.second >= 0))
            throw SettingError("initial_prior." + name + ".weight", "the prior weight W_a of " + name,
                               settingText(prior.second), "a finite number >= 0");
    }
    if (shootingPoints < 2)
        throw SettingError("shooting_points", "shooting points", std::to_string(shootingPoints), core::countRule(2));
    if (!isFirstStageMethod(firstStageMethod))
        throw SettingError("first_stage.method", "first-stage method",
                           "\"" + std::string(integrate::kIntegrationMethods.name(firstStageMethod)) + "\"",
                           "one of " + integrate::kIntegrationMethods.choices(", ", isFirstStageMethod, "\""));
    if (firstStageSteps < 1)
        throw SettingError("first_stage.steps_per_interval", "first-stage steps per interval",
                           std::to_string(firstStageSteps), core::countRule(1));
}

}  // namespace sysid::estimate
