#include "engine/estimate/OptimalEstimationStage.h"

#include <cstdio>
#include <iterator>

namespace sysid::estimate {

namespace {

using S = OptimalEstimationStage;

bool adaptive(const S& s)
{
    return integrate::isAdaptive(s.integrator.method);
}

S stage(integrate::IntegrationMethod method, double newtonTolerance)
{
    S s;
    s.integrator.method = method;
    s.integrator.methodChosen = true;
    s.newtonTolerance = newtonTolerance;
    return s;
}

std::string shortNumber(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

}  // namespace

const core::FieldTable<OptimalEstimationStage>& optimalEstimationStageFields()
{
    static const core::FieldTable<S> table = [] {
        core::FieldTable<S> t;
        // The integrator's method, rtol and atol, as the fit's "integrator" object spells them.
        core::FieldTable<S> integrator;
        core::appendNested(
            integrator, "integrator", [](S& s) -> integrate::IntegratorSettings& { return s.integrator; },
            integrate::integratorSettingFields());
        for (auto& field : integrator) {
            const std::string& key = field.names.key;
            if (key == "integrator.method") {
                field.names.help = "the integration method of the stage";
                field.names.defaultText = {};
                field.present = {};
                t.push_back(field);
            } else if (key == "integrator.rtol" || key == "integrator.atol") {
                field.present = adaptive;
                field.when = adaptive;
                t.push_back(field);
            }
        }
        auto steps = core::countField<S>(
            {.key = "steps_per_interval",
             .option = "steps",
             .label = "steps per interval",
             .help =
                 "fixed steps per shooting interval (fixed-step methods; h*lambda >= -2 keeps explicit Euler stable)"},
            [](S& s) -> std::size_t& { return s.stepsPerInterval; }, 1);
        steps.present = [](const S& s) { return !adaptive(s); };
        steps.when = steps.present;
        t.push_back(steps);
        t.push_back(core::numberField<S>(
            {.key = "newton_tolerance",
             .option = "newton-tolerance",
             .label = "Newton tolerance",
             .help = "the stage ends when every residual of the shooting system is below this"},
            [](S& s) -> double& { return s.newtonTolerance; }, core::kPositive));
        auto jacobians = core::flagField<S>(
            {.key = "previous_jacobians",
             .option = "previous-jacobians",
             .label = "Jacobians from the stage before",
             .help = "after an adaptive stage, integrate this adaptive stage's Jacobians with that stage's looser "
                     "integrator (true or false)"},
            [](S& s) -> bool& { return s.previousJacobians; });
        jacobians.present = [](const S& s) { return !s.previousJacobians; };
        t.push_back(jacobians);
        return t;
    }();
    return table;
}

std::vector<OptimalEstimationStage> defaultOptimalEstimationStages()
{
    using M = integrate::IntegrationMethod;
    S euler = stage(M::Euler, 1e-6);
    // A stage's Newton tolerance sits above its integration error, or the line search only
    // chases integration noise.
    S loose = stage(M::Dopri5, 1e-4);
    loose.integrator.relativeTolerance = 1e-6;
    loose.integrator.absoluteTolerance = 1e-8;
    S tight = stage(M::Dopri5, 1e-8);
    tight.integrator.relativeTolerance = 1e-11;
    tight.integrator.absoluteTolerance = 1e-13;
    return {euler, loose, tight};
}

bool isFirstStageMethod(integrate::IntegrationMethod method)
{
    return !integrate::isAdaptive(method);
}

void validateStages(const std::vector<OptimalEstimationStage>& stages)
{
    if (stages.empty())
        throw core::SettingError("stages", "tolerance schedule", "no stage", "at least one stage");
    for (std::size_t k = 0; k < stages.size(); ++k) {
        const std::string number = std::to_string(k + 1);
        try {
            core::validateFields(optimalEstimationStageFields(), stages[k]);
        } catch (const core::SettingError& e) {
            throw e.within("stages." + number, "stage " + number + " ");
        }
    }
}

std::vector<OptimalEstimationStage> stagesToRun(const std::vector<OptimalEstimationStage>& stages,
                                                bool fromPreviousSolution)
{
    if (!fromPreviousSolution)
        return stages;
    auto first = stages.begin();
    while (first != stages.end() && std::next(first) != stages.end() && !adaptive(*first))
        ++first;
    return {first, stages.end()};
}

std::vector<shooting::BvpStage> bvpStages(const std::vector<OptimalEstimationStage>& stages)
{
    std::vector<shooting::BvpStage> out;
    for (std::size_t k = 0; k < stages.size(); ++k) {
        const S& s = stages[k];
        shooting::BvpStage b;
        b.integrator = s.integrator;
        b.integrator.methodChosen = true;
        b.stepsPerInterval = s.stepsPerInterval;
        b.newtonTolerance = s.newtonTolerance;
        // The stage starts within the earlier stage's integration error of its solution, so that
        // stage's Jacobian is exact enough and costs a fraction of a tight one.
        if (k > 0 && s.previousJacobians && adaptive(s) && adaptive(stages[k - 1]))
            b.jacobianIntegrator = stages[k - 1].integrator;
        out.push_back(b);
    }
    return out;
}

std::string scheduleText(const std::vector<OptimalEstimationStage>& stages)
{
    std::string text;
    for (const S& s : stages)
        text += (text.empty() ? "" : " -> ") + integrate::methodName(s.integrator.method) +
            (adaptive(s) ? " rtol " + shortNumber(s.integrator.relativeTolerance)
                         : " " + std::to_string(s.stepsPerInterval) + " step" + (s.stepsPerInterval == 1 ? "" : "s") +
                     " per interval");
    return text;
}

}  // namespace sysid::estimate
