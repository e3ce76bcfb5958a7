#pragma once

#include "engine/core/SettingField.h"
#include "engine/estimate/OptimalEstimationStage.h"
#include "engine/shooting/BoundaryValueProblem.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sysid::estimate {

// Named trajectories to start from, such as a previous result: augmented states (model states and
// estimated parameters) by name and their costates as "lambda_<name>", each sampled at `times`.
// They are interpolated onto the shooting points; names the model lacks are ignored.
struct StartTrajectory {
    std::string source;  // where it came from, for messages ("run1.json")
    std::vector<double> times;
    std::map<std::string, std::vector<double>> values;
};

// What a project's "guess_from" names instead of a file: the project's last stored result.
inline constexpr const char* kLastOptimalResult = "last_result";

struct OptimalEstimationSettings {
    // W per augmented state (a model state such as x or x', or an estimated parameter); default 1.
    std::map<std::string, double> stateWeights;
    // V per residual: a measured output's name, an input's name, or "eom:<coordinate>"; default 1.
    std::map<std::string, double> measurementWeights;
    // Augmented state name -> (q_a, W_a): prior knowledge of X(a); absent means W_a = 0.
    std::map<std::string, std::pair<double, double>> initialPrior;
    std::size_t shootingPoints = 101;  // equidistant on the data's time span
    // Augmented state name -> its starting guess as an expression of t, the measured signals
    // (outputs and inputs by name) and the parameters (their starting values), e.g. s2 = s4/3
    // (Rutten 1993, ch. 5). Replaces the default guess of that state.
    std::map<std::string, std::string> guessExpressions;
    // A previous result to start from: a result file of `sysid optimal`, or kLastOptimalResult
    // (the project's); empty: the guess from the data (Rutten 1993, §3.4). The front ends read it
    // into `startFrom`.
    std::string guessFrom;
    // Loose-to-tight schedule (Rutten 1993, §5.4), at least one stage.
    std::vector<OptimalEstimationStage> stages = defaultOptimalEstimationStages();
    // Newton settings (its maxIterations is the setting "max_iterations"), interval Jacobian mode
    // and threads; its shootingPoints and stages, when given, replace those above.
    shooting::BvpSettings bvp;

    // Not settings but what they were read into (never written to a file):
    // the trajectories of `guessFrom`, under the default guess and over by guessExpressions;
    std::optional<StartTrajectory> startFrom;
    // augmented state name -> its guess on the data grid (one value per sample), over everything else.
    std::map<std::string, std::vector<double>> initialGuess;

    // Every rule of optimalEstimationSettingFields(), q_a finite and W_a finite and >= 0, a
    // non-empty guess expression, and validateStages. Throws core::SettingError with the key in
    // the project's "optimal_estimation" object ("state_weights.x", "stages.2.integrator.rtol").
    // Names are checked against the model when it runs.
    void validate() const;
};

// Key, command-line option, label, help and rule of the settings that are one value or one
// number per name: state_weights, measurement_weights, shooting_points, max_iterations, guess_from.
// The others have a shape of their own and are read by hand: initial_prior {"NAME": {"value",
// "weight"}} (--initial NAME=VALUE,WEIGHT), initial_guess {"NAME": "EXPR"} (--guess NAME=EXPR)
// and stages [{...}] (--stage K:NAME=VALUE,..., optimalEstimationStageFields()).
const core::FieldTable<OptimalEstimationSettings>& optimalEstimationSettingFields();

}  // namespace sysid::estimate
