#include "engine/estimate/FitSettings.h"

#include "engine/estimate/FitSettingFields.h"
#include "engine/estimate/MethodTraits.h"

#include <cmath>

namespace sysid::estimate {

namespace {

// Runs a nested struct's validate(), naming its settings under `key`.
template <class Validate>
void nested(std::string_view key, Validate validate)
{
    try {
        validate();
    } catch (const core::SettingError& e) {
        throw e.within(key);
    }
}

}  // namespace

void PeriodicResponseSettings::validate() const
{
    core::validateFields(periodicResponseFields(), *this);
}

void EquationErrorSettings::validate() const
{
    core::validateFields(equationErrorFields(), *this);
    nested("differentiation", [&] { differentiation.validate(); });
}

void FitSettings::validate() const
{
    core::validateFields(fitSettingOwnFields(), *this);
    for (const auto& [name, prior] : priors) {
        if (!std::isfinite(prior.mean))
            throw core::SettingError("priors." + name + ".mean", "prior mean of " + name, core::settingText(prior.mean),
                                     "a finite number");
        if (!std::isfinite(prior.sd) || !(prior.sd > 0))
            throw core::SettingError("priors." + name + ".sd", "prior standard deviation of " + name,
                                     core::settingText(prior.sd), core::kPositive.describe());
    }
    nested("integrator", [&] { integrator.validate(); });
    nested("periodic", [&] { periodic.validate(); });
    nested("equation_error", [&] { equationError.validate(); });
}

std::string structuralSensitivityRefusal(EstimationMethod method)
{
    return "the structural sensitivity method is for " + methodsTaking(MethodInput::SensitivityMethod, " and ") +
        " fits; " + methodName(method) + " forms its own derivatives (use sensitivity forward)";
}

bool needsSecondDerivatives(const FitSettings& settings)
{
    return traitsOf(settings.method).objective == Objective::EquationError ||
        integrate::sensitivitiesNeedSecondDerivatives(settings.integrator);
}

}  // namespace sysid::estimate
