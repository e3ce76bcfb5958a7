#include "engine/estimate/FitSettingFields.h"

namespace sysid::estimate {

namespace {

using core::countField;
using core::numberField;
using In = MethodInput;

// A negative tolerance never stops the fit: it then runs until no step lowers the cost.
constexpr core::NumberRule kTolerance{core::NumberRule::Bound::Finite};

}  // namespace

const core::FieldTable<FitSettings, MethodInput>& fitSettingOwnFields()
{
    using S = FitSettings;
    static const core::FieldTable<S, MethodInput> table{
        countField<S, In>(
            {.key = "max_iterations",
             .option = "max-iterations",
             .label = "iteration limit",
             .help = "at most this many iterations"},
            [](S& s) -> std::size_t& { return s.maxIterations; }, 0),
        numberField<S, In>(
            {.key = "cost_tolerance",
             .option = "cost-tolerance",
             .label = "cost tolerance",
             .help = "stop when the relative decrease of the cost is below this"},
            [](S& s) -> double& { return s.costTolerance; }, kTolerance),
        numberField<S, In>(
            {.key = "step_tolerance",
             .option = "step-tolerance",
             .label = "step tolerance",
             .help = "stop when the relative parameter step is below this"},
            [](S& s) -> double& { return s.stepTolerance; }, kTolerance),
        numberField<S, In>(
            {.key = "gradient_tolerance",
             .option = "gradient-tolerance",
             .label = "gradient tolerance",
             .help = "stop when the scaled gradient is below this"},
            [](S& s) -> double& { return s.gradientTolerance; }, kTolerance),
        core::numberMapField<S, In>(
            {.key = "output_weights",
             .option = "weight",
             .label = "weight of output",
             .help = "OUTPUT=W: weight of an output's squared residuals",
             .form = "OUTPUT=WEIGHT",
             .defaultText = "1/sigma^2, sigma estimated from the data; steepest-descent: 1"},
            [](S& s) -> std::map<std::string, double>& { return s.outputWeights; }, core::kPositive, In::OutputWeights),
        core::choiceMapField<S, In>(
            {.key = "intersample",
             .option = "intersample",
             .label = "intersample behaviour of input",
             .help = "INPUT=BEHAVIOUR: how an input behaves between its samples",
             .form = "INPUT=BEHAVIOUR",
             .defaultText = "as the model declares it (input u hold), else linear"},
            [](S& s) -> std::map<std::string, integrate::Intersample>& { return s.intersample; },
            core::choicesOf(integrate::intersampleTable)),
        countField<S, In>(
            {.key = "shooting_intervals",
             .option = "intervals",
             .label = "shooting intervals",
             .help = "shooting intervals per experiment"},
            [](S& s) -> std::size_t& { return s.shootingIntervals; }, 1, In::ShootingIntervals),
        numberField<S, In>(
            {.key = "steepest_descent_gain",
             .option = "gain",
             .label = "steepest-descent gain K",
             .help = "K: theta <- theta - K int sum (model - measured) dmodel/dtheta dt = theta - (K/2) "
                     "dJ/dtheta, J = int sum (measured - model)^2 dt (Bordan 1971, eq. 4.22)"},
            [](S& s) -> double& { return s.steepestDescentGain; }, core::kPositive, In::Gain),
        core::choiceField<S, In>(
            {.key = "sensitivity",
             .option = "sensitivity",
             .label = "sensitivity method",
             .help = "how the output sensitivities dy/dtheta are computed"},
            [](S& s) -> SensitivityMethod& { return s.sensitivity; }, core::choicesOf(kSensitivityMethods),
            In::SensitivityMethod),
    };
    return table;
}

const core::FieldTable<PeriodicResponseSettings, MethodInput>& periodicResponseFields()
{
    using S = PeriodicResponseSettings;
    // The command line's --period (> 0, clearing the frequency parameter) and
    // --frequency-parameter (not with --period) are read by `sysid fit` itself. A named
    // frequency parameter sets the period, so the period's rule applies without one.
    static const core::FieldTable<S, MethodInput> table{
        [] {
            auto period = numberField<S, In>(
                {.key = "period",
                 .label = "forcing period",
                 .help = "T: forcing period of every experiment (0: from the frequency parameter)"},
                [](S& s) -> double& { return s.period; },
                {core::NumberRule::Bound::NonNegative, "a period > 0 (or 0: from the frequency parameter)"});
            period.when = [](const S& s) { return s.frequencyParameter.empty(); };
            return period;
        }(),
        core::textField<S, In>({.key = "frequency_parameter",
                                .label = "frequency parameter",
                                .help = "NAME: forcing period 2*pi/NAME, NAME fixed per experiment"},
                               [](S& s) -> std::string& { return s.frequencyParameter; }),
        countField<S, In>(
            {.key = "periods",
             .option = "periods",
             .label = "periods per orbit",
             .help = "n: the response is n*T-periodic"},
            [](S& s) -> std::size_t& { return s.periods; }, 1),
        core::choiceField<S, In>(
            {.key = "solver",
             .option = "periodic-solver",
             .label = "periodic solver",
             .help = "how the periodic response is found"},
            [](S& s) -> discretise::PeriodicSolver& { return s.solver; },
            core::choicesOf(discretise::kPeriodicSolvers)),
        countField<S, In>(
            {.key = "intervals",
             .option = "intervals",
             .label = "shooting intervals",
             .help = "shooting intervals per period"},
            [](S& s) -> std::size_t& { return s.intervals; }, 1),
        countField<S, In>(
            {.key = "nodes",
             .option = "nodes",
             .label = "nodes per period",
             .help = "time-discretisation nodes per forcing period"},
            [](S& s) -> std::size_t& { return s.nodes; }, 4),
        core::choiceField<S, In>(
            {.key = "scheme",
             .option = "scheme",
             .label = "discretisation scheme",
             .help = "the time discretisation's scheme"},
            [](S& s) -> discretise::PeriodicScheme& { return s.scheme; },
            core::choicesOf(discretise::kPeriodicSchemes)),
        countField<S, In>(
            {.key = "settle_periods",
             .option = "settle",
             .label = "settling periods",
             .help = "periods simulated from the model's initial state for the first guess of the orbit",
             .legacyKey = "warmup_periods"},
            [](S& s) -> std::size_t& { return s.settlePeriods; }, 1),
        core::choiceField<S, In>(
            {.key = "jacobian_reuse",
             .option = "jacobian-reuse",
             .label = "Jacobian re-use of the shooting Newton",
             .help = "when the shooting Newton re-uses its Jacobian (Vankan 1992, eq. 4.42)"},
            [](S& s) -> shooting::JacobianReuse& { return s.jacobianReuse; },
            core::choicesOf(shooting::kJacobianReuse)),
    };
    return table;
}

const core::FieldTable<EquationErrorSettings, MethodInput>& equationErrorFields()
{
    using S = EquationErrorSettings;
    static const core::FieldTable<S, MethodInput> table{
        core::choiceField<S, In>(
            {.key = "one_step", .option = "formula", .label = "single-step formula", .help = "the formula"},
            [](S& s) -> EquationErrorFormula& { return s.oneStep; },
            core::choicesOf(kEquationErrorFormulas, isOneStep, "a single-step formula"), In::OneStepFormula),
        core::choiceField<S, In>(
            {.key = "multistep", .option = "formula", .label = "multistep formula", .help = "the formula"},
            [](S& s) -> EquationErrorFormula& { return s.multistep; },
            core::choicesOf(kEquationErrorFormulas, isMultistep, "a multistep formula"), In::MultistepFormula),
        core::numberMapField<S, In>(
            {.key = "state_weights",
             .option = "state-weight",
             .label = "weight of state",
             .help = "STATE=W: weight of a state's equation error",
             .form = "STATE=WEIGHT",
             .defaultText = "1/T^2 for a coordinate with a velocity state (T the record length, Normann 1989), else "
                            "1"},
            [](S& s) -> std::map<std::string, double>& { return s.stateWeights; }, core::kPositive, In::StateWeights),
        core::flagField<S, In>(
            {.key = "simulate_fit",
             .option = "no-simulation",
             .label = "simulation of the fitted model",
             .help = "do not simulate the fitted model (no output residuals)"},
            [](S& s) -> bool& { return s.simulateFit; }, false, In::SimulateFit),
    };
    return table;
}

const core::FieldTable<FitSettings, MethodInput>& fitSettingFields()
{
    static const core::FieldTable<FitSettings, MethodInput> table = [] {
        core::FieldTable<FitSettings, MethodInput> all = fitSettingOwnFields();
        core::appendNested(
            all, "integrator", [](FitSettings& s) -> integrate::IntegratorSettings& { return s.integrator; },
            integrate::integratorSettingFields());
        core::appendNested(
            all, "periodic", [](FitSettings& s) -> PeriodicResponseSettings& { return s.periodic; },
            periodicResponseFields(), std::optional<MethodInput>(MethodInput::PeriodicResponse));
        core::appendNested(
            all, "equation_error", [](FitSettings& s) -> EquationErrorSettings& { return s.equationError; },
            equationErrorFields());
        return all;
    }();
    return table;
}

}  // namespace sysid::estimate
