#include "engine/estimate/OptimalEstimationSettings.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace sysid::estimate {

const core::FieldTable<OptimalEstimationSettings>& optimalEstimationSettingFields()
{
    using S = OptimalEstimationSettings;
    static const core::FieldTable<S> table = [] {
        auto guessFrom = core::textField<S>(
            {.key = "guess_from",
             .option = "guess-from",
             .label = "result to start from",
             .help = "start from a previous result of sysid optimal (RESULT.json; in a project, \"last_result\" is the "
                     "project's last one): its states, parameters and costates (which give the inputs), interpolated "
                     "onto the shooting points",
             .defaultText = "the measured signals, their central differences and the parameters' starting values"},
            [](S& s) -> std::string& { return s.guessFrom; });
        guessFrom.present = [](const S& s) { return !s.guessFrom.empty(); };
        return core::FieldTable<S>{
            core::numberMapField<S>(
                {.key = "state_weights",
                 .option = "state-weight",
                 .label = "the weight W",
                 .help = "NAME=W: weight W of the model residual xi of an augmented state (x, x', or a parameter)",
                 .form = "NAME=W",
                 .defaultText = "1"},
                [](S& s) -> std::map<std::string, double>& { return s.stateWeights; }, core::kPositive),
            core::numberMapField<S>(
                {.key = "measurement_weights",
                 .option = "measurement-weight",
                 .label = "the weight V",
                 .help = "NAME=V: weight V of a residual eps (an output, an input or eom:COORDINATE)",
                 .form = "NAME=V",
                 .defaultText = "1"},
                [](S& s) -> std::map<std::string, double>& { return s.measurementWeights; }, core::kNonNegative),
            core::countField<S>(
                {.key = "shooting_points",
                 .option = "points",
                 .label = "shooting points",
                 .help = "shooting points, equidistant on the data's time span"},
                [](S& s) -> std::size_t& { return s.shootingPoints; }, 2),
            core::countField<S>(
                {.key = "max_iterations",
                 .option = "max-iterations",
                 .label = "Newton iterations per stage",
                 .help = "at most this many Newton iterations in each stage of the schedule"},
                [](S& s) -> std::size_t& { return s.bvp.newton.maxIterations; }, 1),
            guessFrom,
        };
    }();
    return table;
}

void OptimalEstimationSettings::validate() const
{
    using core::SettingError;
    using core::settingText;
    core::validateFields(optimalEstimationSettingFields(), *this);
    for (const auto& [name, prior] : initialPrior) {
        if (!std::isfinite(prior.first))
            throw SettingError("initial_prior." + name + ".value", "the prior q_a of " + name, settingText(prior.first),
                               "a finite number");
        if (!std::isfinite(prior.second) || !(prior.second >= 0))
            throw SettingError("initial_prior." + name + ".weight", "the prior weight W_a of " + name,
                               settingText(prior.second), "a finite number >= 0");
    }
    for (const auto& [name, expression] : guessExpressions)
        if (std::all_of(expression.begin(), expression.end(), [](unsigned char c) { return std::isspace(c); }))
            throw SettingError("initial_guess." + name, "the initial guess of " + name, "\"" + expression + "\"",
                               "an expression of t, the measured signals and the parameters");
    validateStages(stages);
}

}  // namespace sysid::estimate
