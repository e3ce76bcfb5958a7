// Every setting said once: the enums' tables are complete and read back what they write, the
// method traits have one row per method, every settings struct's validate() names the setting
// and the rule it broke, and the field tables carry the fit settings through a project file.
#include "engine/core/EnumTable.h"
#include "engine/core/SettingError.h"
#include "engine/core/SettingField.h"
#include "engine/data/Differentiation.h"
#include "engine/data/Noise.h"
#include "engine/data/Preprocessing.h"
#include "engine/discretise/PeriodicDiscretisation.h"
#include "engine/discretise/PeriodicSolver.h"
#include "engine/estimate/EquationErrorFormula.h"
#include "engine/estimate/EstimationMethod.h"
#include "engine/estimate/FitSettingFields.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/estimate/OptimalEstimation.h"
#include "engine/estimate/SensitivityMethod.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/job/CostSurface.h"
#include "engine/job/NoiseStudy.h"
#include "engine/job/PeriodicJob.h"
#include "engine/project/Project.h"
#include "engine/project/SettingsJson.h"
#include "engine/shooting/Continuation.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>

using namespace sysid;
using nlohmann::json;

namespace {

std::string str(std::string_view s)
{
    return std::string(s);
}

// One entry per value 0..last, names and aliases unique, every name and alias parsed back to
// its value, and every entry with a description and a label.
template <class E, std::size_t N>
void checkTable(const core::EnumTable<E, N>& table, E last)
{
    QCOMPARE(N, static_cast<std::size_t>(last) + 1);
    std::set<int> values;
    std::set<std::string> spellings;
    for (const auto& e : table.entries()) {
        QVERIFY2(values.insert(static_cast<int>(e.value)).second, "two entries for one value");
        QVERIFY(!e.name.empty());
        QVERIFY2(!e.description.empty(), e.name.data());
        QVERIFY(!table.label(e.value).empty());
        QVERIFY2(spellings.insert(str(e.name)).second, e.name.data());
        QVERIFY(table.parse(e.name) == e.value);
        QCOMPARE(str(table.name(e.value)), str(e.name));
        if (!e.alias.empty()) {
            QVERIFY2(spellings.insert(str(e.alias)).second, e.alias.data());
            QVERIFY(table.parse(e.alias) == e.value);
        }
    }
    for (int v = 0; v <= static_cast<int>(last); ++v)
        QVERIFY2(values.count(v), "a value without an entry");
    QVERIFY(!table.parse("no such name"));
    QVERIFY(!table.parse(""));
}

// `change` makes `s` break one rule: validate() names the setting by `key`, and its message
// names the setting (label) and the rule.
template <class S, class Change>
void expectRule(S s, Change change, const std::string& key)
{
    change(s);
    try {
        s.validate();
    } catch (const core::SettingError& e) {
        QVERIFY2(e.key() == key, ("key " + e.key() + ", expected " + key).c_str());
        const std::string what = e.what();
        QVERIFY2(what.find(e.label()) == 0 && what.find("expected " + e.rule()) != std::string::npos, e.what());
        QVERIFY(!e.rule().empty());
        return;
    }
    QFAIL(("no error for " + key).c_str());
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// A struct with a per-name choice, as an input's intersample behaviour would be: one table entry
// makes it a project member and an option.
struct PerInput {
    std::map<std::string, data::NoiseDistribution> distribution;
    double scale = 1.0;
    void validate() const;
};

const core::FieldTable<PerInput>& perInputFields()
{
    static const core::FieldTable<PerInput> table{
        core::choiceMapField<PerInput>(
            {.key = "distribution", .option = "distribution", .form = "INPUT=NAME"},
            [](PerInput & s) -> auto& { return s.distribution; }, core::choicesOf(data::kNoiseDistributions)),
        core::numberField<PerInput>(
            {.key = "scale", .option = "scale", .label = "scale"}, [](PerInput& s) -> double& { return s.scale; },
            core::kPositive),
    };
    return table;
}

void PerInput::validate() const
{
    core::validateFields(perInputFields(), *this);
}

}  // namespace

class TestSettings : public QObject {
    Q_OBJECT

private slots:
    void enumTablesAreComplete()
    {
        checkTable(estimate::kEstimationMethods, estimate::EstimationMethod::MaximumLikelihood);
        checkTable(estimate::kSensitivityMethods, estimate::SensitivityMethod::Structural);
        checkTable(estimate::kEquationErrorFormulas, estimate::EquationErrorFormula::NewtonCotes6);
        checkTable(integrate::kIntegrationMethods, integrate::IntegrationMethod::CrankNicolson);
        checkTable(discretise::kPeriodicSolvers, discretise::PeriodicSolver::Discretisation);
        checkTable(discretise::kPeriodicSchemes, discretise::PeriodicScheme::HermiteSimpson);
        checkTable(data::kDerivativeMethods, data::DerivativeMethod::SmoothingSpline);
        checkTable(data::kNoiseDistributions, data::NoiseDistribution::Gaussian);
        checkTable(shooting::kContinuationMethods, shooting::ContinuationMethod::PseudoArclength);
    }

    // The old spellings still read: "central" (sysid periodic --scheme), "discretization".
    void aliasesAndLetterCase()
    {
        QVERIFY(discretise::kPeriodicSchemes.parse("central") == discretise::PeriodicScheme::CentralDifference);
        QCOMPARE(str(discretise::kPeriodicSchemes.name(discretise::PeriodicScheme::CentralDifference)),
                 std::string("central-difference"));
        QVERIFY(discretise::kPeriodicSolvers.parse("discretization") == discretise::PeriodicSolver::Discretisation);
        // The data spellings ignore the letter case, the others do not.
        QVERIFY(data::parseNoiseDistribution("Gaussian") == data::NoiseDistribution::Gaussian);
        QVERIFY(data::parseDerivativeMethod("Savitzky-Golay") == data::DerivativeMethod::SavitzkyGolay);
        QVERIFY(!integrate::parseIntegrationMethod("Dopri5"));
    }

    void messagesComeFromTheTable()
    {
        const auto& t = integrate::kIntegrationMethods;
        QCOMPARE(t.mustBe("--integrator", "rk45"),
                 std::string(
                     "--integrator must be dopri5, dop853, rosenbrock4, rk4, euler, sparse-implicit, implicit-euler or "
                     "crank-nicolson, not 'rk45'"));
        QCOMPARE(t.unknownListing("rk45"),
                 std::string("unknown integrator 'rk45' (known: dopri5, dop853, rosenbrock4, rk4, "
                             "euler, sparse-implicit, implicit-euler, crank-nicolson)"));
        QCOMPARE(estimate::kEquationErrorFormulas.unknownListing("heun", estimate::isMultistep),
                 std::string("unknown formula 'heun' (known: trapezoid, simpson, newton-cotes-6)"));
        QCOMPARE(data::kNoiseDistributions.quotedChoiceSentence(), std::string("\"uniform\" or \"gaussian\""));
        QCOMPARE(t.choices(", ", estimate::isFirstStageMethod, "\""),
                 std::string("\"rk4\", \"euler\", \"implicit-euler\", \"crank-nicolson\""));
        QCOMPARE(estimate::kSensitivityMethods.choices(), std::string("forward | structural"));
    }

    void methodTraitsHaveOneRowPerMethod()
    {
        QCOMPARE(estimate::kMethodTraits.size(), estimate::kEstimationMethods.entries().size());
        for (std::size_t i = 0; i < estimate::kMethodTraits.size(); ++i) {
            const auto method = static_cast<estimate::EstimationMethod>(i);
            QVERIFY(estimate::kMethodTraits[i].method == method);
            QVERIFY(estimate::traitsOf(method).method == method);
        }
        using In = estimate::MethodInput;
        QCOMPARE(estimate::methodsTaking(In::Priors), std::string("bayes, periodic-response or ml"));
        QCOMPARE(estimate::methodsTaking(In::SensitivityMethod, " and "),
                 std::string("output-error, bayes, steepest-descent and ml"));
        QCOMPARE(estimate::methodsTaking({In::OneStepFormula, In::MultistepFormula}),
                 std::string("single-step or multistep"));
        QCOMPARE(estimate::notTakenMessage("--gain", {In::Gain}, estimate::EstimationMethod::Bayes),
                 std::string("--gain is for --method steepest-descent, not bayes"));
        // Exactly the equation-error methods refine, differentiate and do without an ODE.
        for (const auto& row : estimate::kMethodTraits) {
            const bool equationError = row.objective == estimate::Objective::EquationError;
            QCOMPARE(row.takes(In::Refinement), equationError);
            QCOMPARE(row.takes(In::Differentiation), equationError);
            // Weights are given, except where the method estimates them (maximum likelihood).
            QCOMPARE(row.takes(In::OutputWeights),
                     !equationError && row.weighting != estimate::OutputWeighting::Estimated);
            QCOMPARE(row.takes(In::InitialValues), !equationError);
            QCOMPARE(row.minimiser == estimate::Minimiser::NewtonRaphson, equationError);
            QCOMPARE(row.takes(In::OneStepFormula) || row.takes(In::MultistepFormula), equationError);
        }
    }

    void defaultsAreValid()
    {
        integrate::IntegratorSettings{}.validate();
        estimate::PeriodicResponseSettings{}.validate();
        estimate::EquationErrorSettings{}.validate();
        estimate::FitSettings{}.validate();
        estimate::OptimalEstimationSettings{}.validate();
        job::NoiseStudySettings{}.validate();
        data::Preprocessing{}.validate();
        job::SurfaceAxis{}.validate();
        job::PeriodicJob periodic;
        periodic.shooting.period = 1.0;
        periodic.validate();
        job::PeriodicSweep{}.validate();
    }

    void integratorRules()
    {
        using S = integrate::IntegratorSettings;
        expectRule(
            S{}, [](S& s) { s.relativeTolerance = 0; }, "rtol");
        expectRule(
            S{}, [](S& s) { s.absoluteTolerance = -1; }, "atol");
        expectRule(
            S{}, [](S& s) { s.relativeTolerance = kNaN; }, "rtol");
        expectRule(
            S{}, [](S& s) { s.maxStep = -0.1; }, "max_step");
        expectRule(
            S{}, [](S& s) { s.maxSteps = 0; }, "max_steps");
    }

    void fitRules()
    {
        using S = estimate::FitSettings;
        expectRule(
            S{}, [](S& s) { s.costTolerance = kNaN; }, "cost_tolerance");
        expectRule(
            S{}, [](S& s) { s.stepTolerance = kNaN; }, "step_tolerance");
        expectRule(
            S{}, [](S& s) { s.gradientTolerance = kNaN; }, "gradient_tolerance");
        expectRule(
            S{}, [](S& s) { s.outputWeights["y"] = 0; }, "output_weights.y");
        expectRule(
            S{}, [](S& s) { s.shootingIntervals = 0; }, "shooting_intervals");
        expectRule(
            S{}, [](S& s) { s.steepestDescentGain = -0.02; }, "steepest_descent_gain");
        expectRule(
            S{},
            [](S& s) {
                s.priors["k"] = {1.0, 0.0};
            },
            "priors.k.sd");
        expectRule(
            S{},
            [](S& s) {
                s.priors["k"] = {kNaN, 1.0};
            },
            "priors.k.mean");
        // The structs inside it are named under their member.
        expectRule(
            S{}, [](S& s) { s.integrator.relativeTolerance = 0; }, "integrator.rtol");
        expectRule(
            S{}, [](S& s) { s.periodic.nodes = 3; }, "periodic.nodes");
        expectRule(
            S{}, [](S& s) { s.equationError.stateWeights["x"] = -1; }, "equation_error.state_weights.x");
        // A negative tolerance is allowed: the fit then never stops on it.
        S negative;
        negative.costTolerance = -1;
        negative.validate();
    }

    void periodicResponseRules()
    {
        using S = estimate::PeriodicResponseSettings;
        expectRule(
            S{}, [](S& s) { s.period = -1; }, "period");
        expectRule(
            S{}, [](S& s) { s.periods = 0; }, "periods");
        expectRule(
            S{}, [](S& s) { s.intervals = 0; }, "intervals");
        expectRule(
            S{}, [](S& s) { s.nodes = 3; }, "nodes");
        expectRule(
            S{}, [](S& s) { s.settlePeriods = 0; }, "settle_periods");
        // A named frequency parameter sets the period: the period's rule does not apply.
        S frequency;
        frequency.frequencyParameter = "w";
        frequency.period = -1;
        frequency.validate();
    }

    void equationErrorRules()
    {
        using S = estimate::EquationErrorSettings;
        expectRule(
            S{}, [](S& s) { s.oneStep = estimate::EquationErrorFormula::Simpson; }, "one_step");
        expectRule(
            S{}, [](S& s) { s.multistep = estimate::EquationErrorFormula::Heun; }, "multistep");
        expectRule(
            S{}, [](S& s) { s.stateWeights["x"] = 0; }, "state_weights.x");
        expectRule(
            S{},
            [](S& s) {
                s.differentiation.method = data::DerivativeMethod::SavitzkyGolay;
                s.differentiation.window = 4;
            },
            "differentiation.window");
    }

    void preprocessingRules()
    {
        using S = data::Preprocessing;
        expectRule(
            S{},
            [](S& s) {
                s.window = std::pair{2.0, 1.0};
            },
            "window");
        expectRule(
            S{}, [](S& s) { s.decimation = 0; }, "decimation");
        expectRule(
            S{},
            [](S& s) {
                s.lowPass = S::LowPass{11, 1.0};
            },
            "low_pass.order");
        expectRule(
            S{},
            [](S& s) {
                s.lowPass = S::LowPass{4, 0.0};
            },
            "low_pass.cutoff_hz");
        expectRule(
            S{},
            [](S& s) {
                s.noise = S::AddedNoise{-1, data::NoiseDistribution::Uniform, 0};
            },
            "noise.percent");
        expectRule(
            S{},
            [](S& s) {
                s.differentiation.method = data::DerivativeMethod::SavitzkyGolay;
                s.differentiation.polynomialOrder = 7;
            },
            "differentiation.order");
    }

    void optimalEstimationRules()
    {
        using S = estimate::OptimalEstimationSettings;
        expectRule(
            S{}, [](S& s) { s.stateWeights["x"] = 0; }, "state_weights.x");
        expectRule(
            S{}, [](S& s) { s.measurementWeights["y"] = -1; }, "measurement_weights.y");
        expectRule(
            S{},
            [](S& s) {
                s.initialPrior["x"] = {kNaN, 1.0};
            },
            "initial_prior.x.value");
        expectRule(
            S{},
            [](S& s) {
                s.initialPrior["x"] = {1.0, -1.0};
            },
            "initial_prior.x.weight");
        expectRule(
            S{}, [](S& s) { s.shootingPoints = 1; }, "shooting_points");
        expectRule(
            S{}, [](S& s) { s.stages.front().stepsPerInterval = 0; }, "stages.1.steps_per_interval");
        expectRule(
            S{}, [](S& s) { s.stages[1].integrator.relativeTolerance = 0; }, "stages.2.integrator.rtol");
        expectRule(
            S{}, [](S& s) { s.stages[2].newtonTolerance = -1; }, "stages.3.newton_tolerance");
        expectRule(
            S{}, [](S& s) { s.stages.clear(); }, "stages");
        expectRule(
            S{}, [](S& s) { s.guessExpressions["x"] = " "; }, "initial_guess.x");
        expectRule(
            S{}, [](S& s) { s.bvp.newton.maxIterations = 0; }, "max_iterations");
        // A fixed-step stage's tolerances and an adaptive stage's steps are not used, so not checked.
        estimate::OptimalEstimationSettings unused;
        unused.stages.front().integrator.relativeTolerance = 0;
        unused.stages[1].stepsPerInterval = 0;
        unused.validate();
    }

    void noiseStudyRules()
    {
        using S = job::NoiseStudySettings;
        expectRule(
            S{}, [](S& s) { s.realisations = 0; }, "realisations");
        expectRule(
            S{}, [](S& s) { s.noisePercent = 0; }, "noise_percent");
        expectRule(
            S{}, [](S& s) { s.noisePercent = kNaN; }, "noise_percent");
    }

    void costSurfaceRules()
    {
        using S = job::CostSurface;
        S surface;
        surface.x.parameter = "a";
        surface.y.parameter = "b";
        surface.validate();
        expectRule(
            surface, [](S& s) { s.x.points = 1; }, "x.points");
        expectRule(
            surface, [](S& s) { s.y.from = 2; }, "y.range");
        expectRule(
            surface, [](S& s) { s.x.to = kNaN; }, "x.range");
        expectRule(
            surface, [](S& s) { s.fit.settings.integrator.absoluteTolerance = 0; }, "fit.integrator.atol");
    }

    void periodicJobRules()
    {
        using S = job::PeriodicJob;
        S job;
        job.shooting.period = 2.0;
        expectRule(
            job, [](S& s) { s.shooting.period = 0; }, "period");
        expectRule(
            job, [](S& s) { s.shooting.periods = 0; }, "periods");
        expectRule(
            job, [](S& s) { s.shooting.intervals = 0; }, "intervals");
        expectRule(
            job, [](S& s) { s.nodes = 2; }, "nodes");
        expectRule(
            job, [](S& s) { s.shooting.samples = 1; }, "samples");
        expectRule(
            job, [](S& s) { s.shooting.newton.maxIterations = 0; }, "max_iterations");
        expectRule(
            job, [](S& s) { s.shooting.newton.residualTolerance = 0; }, "tolerance");
        expectRule(
            job, [](S& s) { s.shooting.integrator.maxSteps = 0; }, "integrator.max_steps");
        const auto sweep = [](S& s) {
            s.sweep = job::PeriodicSweep{};
            s.sweep->parameter = "w";
        };
        expectRule(
            job,
            [&](S& s) {
                sweep(s);
                s.sweep->to = s.sweep->from;
            },
            "sweep.range");
        expectRule(
            job,
            [&](S& s) {
                sweep(s);
                s.sweep->step = 0;
            },
            "sweep.step");
        expectRule(
            job,
            [&](S& s) {
                sweep(s);
                s.sweep->maxPoints = 1;
            },
            "sweep.max_points");
        expectRule(
            job,
            [&](S& s) {
                sweep(s);
                s.sweep->frequency = true;
                s.sweep->from = -1;
            },
            "sweep.range");
        // A frequency sweep sets the period itself.
        S frequency;
        sweep(frequency);
        frequency.sweep->frequency = true;
        frequency.sweep->from = 0.5;
        frequency.validate();
    }

    // Every fit setting has one key, a label and a help line; options are shared only by
    // settings that serve different methods.
    void fitFieldTableIsWellFormed()
    {
        std::set<std::string> keys;
        std::map<std::string, std::set<int>> needsOfOption;
        for (const auto& field : estimate::fitSettingFields()) {
            QVERIFY2(keys.insert(field.names.key).second, field.names.key.c_str());
            QVERIFY2(!field.names.label.empty() && !field.names.help.empty(), field.names.key.c_str());
            if (field.names.option.empty())
                continue;
            const int need = field.need ? static_cast<int>(*field.need) : -1;
            QVERIFY2(needsOfOption[str(field.names.option)].insert(need).second, field.names.key.c_str());
        }
        QCOMPARE(needsOfOption["intervals"].size(), std::size_t{2});
        QCOMPARE(needsOfOption["formula"].size(), std::size_t{2});
    }

    // What the writer writes the reader reads back, every setting away from its default.
    void fitSettingsRoundTripThroughTheirTable()
    {
        estimate::FitSettings s;
        s.integrator.method = integrate::IntegrationMethod::RK4;
        s.integrator.methodChosen = true;
        s.integrator.relativeTolerance = 1e-5;
        s.integrator.absoluteTolerance = 1e-7;
        s.integrator.maxStep = 0.01;
        s.integrator.maxSteps = 5000;
        s.integrator.modelCode = eval::ModelCode::Interpreted;
        // Not the default, so that it is written.
        const auto control = integrate::IntegratorSettings{}.sensitivityErrorControl ==
                integrate::SensitivityErrorControl::Include
            ? integrate::SensitivityErrorControl::Exclude
            : integrate::SensitivityErrorControl::Include;
        s.integrator.sensitivityErrorControl = control;
        s.maxIterations = 7;
        s.costTolerance = 1e-9;
        s.stepTolerance = 1e-8;
        s.gradientTolerance = 1e-7;
        s.outputWeights = {{"x", 2.5}};
        s.shootingIntervals = 4;
        s.steepestDescentGain = 0.1;
        s.sensitivity = estimate::SensitivityMethod::Structural;
        s.periodic = {3.0,
                      "w",
                      2,
                      discretise::PeriodicSolver::Discretisation,
                      3,
                      50,
                      discretise::PeriodicScheme::CentralDifference,
                      5};
        s.equationError.oneStep = estimate::EquationErrorFormula::RungeKutta4;
        s.equationError.multistep = estimate::EquationErrorFormula::Simpson;
        s.equationError.stateWeights = {{"x", 3.0}};
        s.equationError.simulateFit = false;
        const auto& table = estimate::fitSettingFields();
        json j = json::object();
        project::writeFields(table, s, j);
        QCOMPARE(j["periodic"]["settle_periods"].get<int>(), 5);
        QCOMPARE(j["integrator"]["method"].get<std::string>(), std::string("rk4"));
        QCOMPARE(j["integrator"]["model_code"].get<std::string>(), std::string("interpreted"));
        QCOMPARE(j["integrator"]["sensitivity_error_control"].get<std::string>(),
                 std::string(integrate::kSensitivityErrorControls.name(control)));
        estimate::FitSettings back;
        project::readFields(table, j, back);
        QVERIFY(back.integrator.sensitivityErrorControl == control);
        json again = json::object();
        project::writeFields(table, back, again);
        QCOMPARE(again, j);
        QVERIFY(back.integrator.methodChosen);

        // A method nobody chose is not written, and reads back unchosen.
        json unchosen = json::object();
        project::writeFields(table, estimate::FitSettings{}, unchosen);
        QVERIFY(!unchosen["integrator"].contains("method"));
        QVERIFY(!unchosen["integrator"].contains("model_code"));  // native, the default
        QVERIFY(!unchosen["integrator"].contains("sensitivity_error_control"));
    }

    void olderKeysAreRead()
    {
        estimate::FitSettings s;
        project::readFields(estimate::fitSettingFields(), json::parse(R"({"periodic": {"warmup_periods": 7}})"), s);
        QCOMPARE(s.periodic.settlePeriods, std::size_t{7});
    }

    // Settling and warm-up periods are one setting: "settle_periods", the older key still read.
    void projectReadsTheOlderKey()
    {
        json root = json::object();
        root["version"] = 1;
        root["method"] = "periodic-response";
        root["model"]["text"] = "param a = 1\nstate y = 1\ny' = -a*y\noutput y\n";
        root["settings"]["periodic"]["warmup_periods"] = 7;
        const project::Project p = project::projectFromJson(root, "p.sysid", ".");
        QCOMPARE(p.settings.periodic.settlePeriods, std::size_t{7});
        const json written = project::projectToJson(p, ".");
        QCOMPARE(written["settings"]["periodic"]["settle_periods"].get<int>(), 7);
        QVERIFY(!written["settings"]["periodic"].contains("warmup_periods"));
    }

    void readerNamesTheKey()
    {
        const auto keyOf = [](const json& j) {
            estimate::FitSettings s;
            try {
                project::readFields(estimate::fitSettingFields(), j, s, {"priors"});
            } catch (const project::FieldJsonError& e) {
                return e.key + ": " + e.message;
            }
            return std::string("no error");
        };
        QVERIFY(keyOf(json::parse(R"({"periodic": {"nodes": "many"}})"))
                    .starts_with("periodic.nodes: expected a whole number"));
        QVERIFY(keyOf(json::parse(R"({"sensitivity": "adjoint"})"))
                    .starts_with("sensitivity: unknown sensitivity method 'adjoint' (known: forward, structural)"));
        QVERIFY(keyOf(json::parse(R"({"equation_error": {"one_step": "simpson"}})"))
                    .starts_with("equation_error.one_step: unknown formula 'simpson' (known: heun, rk4)"));
        QVERIFY(keyOf(json::parse(R"({"integrator": {"rtoll": 1}})"))
                    .starts_with("integrator.rtoll: unknown key (known here: "));
        QCOMPARE(keyOf(json::parse(R"({"priors": {}})")), std::string("no error"));
    }

    // A NAME -> choice setting (an input's intersample behaviour, say) is one table entry.
    void aChoicePerNameIsOneEntry()
    {
        PerInput s;
        s.distribution = {{"u", data::NoiseDistribution::Gaussian}};
        json j = json::object();
        project::writeFields(perInputFields(), s, j);
        QCOMPARE(j, json::parse(R"({"distribution": {"u": "gaussian"}, "scale": 1.0})"));
        PerInput back;
        project::readFields(perInputFields(), j, back);
        QVERIFY(back.distribution == s.distribution);
        try {
            project::readFields(perInputFields(), json::parse(R"({"distribution": {"u": "pink"}})"), back);
            QFAIL("an unknown name was read");
        } catch (const project::FieldJsonError& e) {
            QCOMPARE(e.key, std::string("distribution.u"));
        }
        expectRule(
            PerInput{}, [](PerInput& p) { p.scale = 0; }, "scale");
    }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "test_settings.moc"
