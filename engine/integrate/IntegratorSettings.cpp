#include "engine/integrate/IntegratorSettings.h"

#include "engine/eval/CompiledModelSource.h"

namespace sysid::integrate {

std::optional<IntegrationMethod> parseIntegrationMethod(std::string_view name)
{
    return kIntegrationMethods.parse(name);
}

std::string methodName(IntegrationMethod method)
{
    return std::string(kIntegrationMethods.name(method));
}

bool takesAlgebraicVariables(IntegrationMethod method)
{
    return method == IntegrationMethod::SparseImplicit || method == IntegrationMethod::ImplicitEuler ||
        method == IntegrationMethod::CrankNicolson;
}

bool usesSecondDerivatives(IntegrationMethod method)
{
    return method == IntegrationMethod::Rosenbrock4;
}

bool isAdaptive(IntegrationMethod method)
{
    return method == IntegrationMethod::Dopri5 || method == IntegrationMethod::Dop853 ||
        method == IntegrationMethod::Rosenbrock4 || method == IntegrationMethod::SparseImplicit;
}

const core::FieldTable<IntegratorSettings>& integratorSettingFields()
{
    using S = IntegratorSettings;
    static const core::FieldTable<S> table = [] {
        core::Field<S> method;
        method.names = {.key = "method",
                        .option = "integrator",
                        .label = "integrator",
                        .help = "the integration method",
                        .defaultText = "dopri5; sparse-implicit for models with fields or constraints"};
        core::ChoiceAccess<S> access;
        access.get = [](const S& s) { return static_cast<int>(s.method); };
        access.set = [](S& s, int value) {
            s.method = static_cast<IntegrationMethod>(value);
            s.methodChosen = true;
        };
        access.choices = core::choicesOf(kIntegrationMethods);
        method.access = access;
        method.present = [](const S& s) { return s.methodChosen; };
        auto switches = core::choiceField<S>(
            {.key = "switches",
             .option = "switches",
             .label = "switches",
             .help = "what the integrator does where sign, abs, min or max switch",
             .defaultText = "locate"},
            [](S& s) -> SwitchHandling& { return s.switches; }, core::choicesOf(kSwitchHandlings));
        switches.present = [](const S& s) { return s.switches != SwitchHandling::Locate; };
        auto stabilisation = core::choiceField<S>(
            {.key = "stabilisation",
             .option = "stabilisation",
             .label = "constraints",
             .help = "how a model with constraints is kept on them (and on their time derivatives)",
             .defaultText = "projection"},
            [](S& s) -> ConstraintStabilisation& { return s.stabilisation; },
            core::choicesOf(kConstraintStabilisations));
        stabilisation.present = [](const S& s) { return s.stabilisation != ConstraintStabilisation::Projection; };
        auto alpha = core::numberField<S>(
            {.key = "baumgarte_alpha",
             .option = "baumgarte-alpha",
             .label = "Baumgarte alpha",
             .help = "Baumgarte's damping rate alpha (1/s) of the constraint drift, in 2 alpha dPhi/dt (stabilisation "
                     "baumgarte or both)"},
            [](S& s) -> double& { return s.baumgarteAlpha; }, core::kNonNegative);
        alpha.present = [](const S& s) { return s.baumgarteAlpha != 10.0; };
        auto beta = core::numberField<S>(
            {.key = "baumgarte_beta",
             .option = "baumgarte-beta",
             .label = "Baumgarte beta",
             .help = "Baumgarte's rate beta (1/s), in beta^2 Phi (stabilisation baumgarte or both)"},
            [](S& s) -> double& { return s.baumgarteBeta; }, core::kNonNegative);
        beta.present = [](const S& s) { return s.baumgarteBeta != 10.0; };
        auto code = core::choiceField<S>(
            {.key = "model_code",
             .option = "model-code",
             .label = "model code",
             .help = "how the model and its derivatives are evaluated: native machine code from the system C compiler "
                     "(cached per model; the interpreter runs until it is ready, and where no compiler works) or the "
                     "interpreter; the environment variable SYSID_NATIVE=off forces the interpreter",
             .defaultText = "native"},
            [](S& s) -> eval::ModelCode& { return s.modelCode; }, core::choicesOf(eval::kModelCodes));
        code.present = [](const S& s) { return s.modelCode != eval::ModelCode::Native; };
        auto sensitivityError = core::choiceField<S>(
            {.key = "sensitivity_error_control",
             .option = "sensitivity-error-control",
             .label = "sensitivity error",
             .help = "whether the forward sensitivities (fits, shooting) take part in the step-size control of dopri5, "
                     "dop853 and rosenbrock4, as CVODES' errconS: include (steps for states and sensitivities) or exclude (steps "
                     "for the states alone; the sparse-implicit method always controls the states alone)",
             .defaultText = "include"},
            [](S& s) -> SensitivityErrorControl& { return s.sensitivityErrorControl; },
            core::choicesOf(kSensitivityErrorControls));
        sensitivityError.present = [](const S& s) {
            return s.sensitivityErrorControl != IntegratorSettings{}.sensitivityErrorControl;
        };
        return core::FieldTable<S>{
            method,
            core::numberField<S>(
                {.key = "rtol",
                 .option = "rtol",
                 .label = "relative tolerance",
                 .help = "relative tolerance (adaptive methods)"},
                [](S& s) -> double& { return s.relativeTolerance; }, core::kPositive),
            core::numberField<S>(
                {.key = "atol",
                 .option = "atol",
                 .label = "absolute tolerance",
                 .help = "absolute tolerance (adaptive methods)"},
                [](S& s) -> double& { return s.absoluteTolerance; }, core::kPositive),
            core::numberField<S>(
                {.key = "max_step",
                 .option = "max-step",
                 .label = "max step",
                 .help = "largest step (adaptive methods) or the step (fixed-step methods); 0 = no "
                         "limit / one step per sample"},
                [](S& s) -> double& { return s.maxStep; }, core::kNonNegative),
            core::countField<S>(
                {.key = "max_steps",
                 .option = "max-steps",
                 .label = "step limit",
                 .help = "give up an integration after this many steps"},
                [](S& s) -> std::size_t& { return s.maxSteps; }, 1),
            switches,
            stabilisation,
            alpha,
            beta,
            code,
            sensitivityError,
        };
    }();
    return table;
}

void IntegratorSettings::validate() const
{
    core::validateFields(integratorSettingFields(), *this);
}

IntegrationMethod defaultMethodFor(bool modelHasFields, bool modelHasConstraints)
{
    return modelHasFields || modelHasConstraints ? IntegrationMethod::SparseImplicit : IntegrationMethod::Dopri5;
}

IntegrationMethod defaultMethodFor(const eval::CompiledModelSource& model)
{
    return defaultMethodFor(!model.fields.empty(), model.isDae());
}

void resolveMethod(IntegratorSettings& settings, const eval::CompiledModelSource& model)
{
    if (!settings.methodChosen)
        settings.method = defaultMethodFor(model);
}

bool sensitivitiesNeedSecondDerivatives(const IntegratorSettings& settings)
{
    // `method` counts even when not chosen: a caller that skips resolveMethod integrates with it.
    if (usesSecondDerivatives(settings.method))
        return true;
    if (settings.methodChosen)
        return false;
    for (const bool fields : {false, true})
        for (const bool constraints : {false, true})
            if (usesSecondDerivatives(defaultMethodFor(fields, constraints)))
                return true;
    return false;
}

}  // namespace sysid::integrate
