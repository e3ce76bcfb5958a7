// Inputs between their samples: zero-order hold, linear, cubic spline; each against an exact answer.
#include "IntegrationTestSupport.h"

#include "engine/job/JobError.h"
#include "engine/integrate/InputSignals.h"
#include "engine/estimate/Experiment.h"
#include "engine/integrate/IntersampleChoice.h"
#include "engine/job/FitJob.h"
#include "engine/job/SimulationJob.h"
#include "engine/model/ModelError.h"
#include "engine/project/Project.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace sysid;
using integrate::Intersample;

namespace {

// x' = -a x + u with u a sampled square wave; the record is made with u held (zero-order hold).
const std::string kFirstOrder = "param a = 0.5 [0.01, 10]\ninput u\nstate x = 0\nx' = -a*x + u\noutput x\n";

data::DataTable heldStepRecord(double a)
{
    data::DataTable table;
    table.source = "held.csv";
    table.columnNames = {"t", "u", "x"};
    std::vector<double> t, u, x;
    double state = 0.0;
    for (int k = 0; k <= 40; ++k) {
        const double tk = 0.25 * k;
        const double uk = (k / 4) % 2 == 0 ? 1.0 : -0.5;
        t.push_back(tk);
        u.push_back(uk);
        x.push_back(state);
        // Exactly between samples: the exponential toward the held value.
        state = uk / a + (state - uk / a) * std::exp(-a * 0.25);
    }
    table.columns = {t, u, x};
    return table;
}

job::FitJob heldStepFit(std::map<std::string, Intersample> intersample, const std::string& modelText = kFirstOrder)
{
    job::FitJob job;
    job.modelText = modelText;
    job.experiments.push_back({"held", heldStepRecord(2.0), {}, {}});
    job.settings.intersample = std::move(intersample);
    job.settings.integrator = test::tight();
    job.settings.integrator.methodChosen = true;
    return job;
}

integrate::InputSignals oneInput(const std::vector<double>& t, const std::vector<double>& u, Intersample behaviour)
{
    return integrate::InputSignals({data::Signal(t, u)}, {behaviour});
}

double value(const integrate::InputSignals& inputs, double t)
{
    double u = 0.0;
    inputs.values(t, &u);
    return u;
}

// The largest difference between `states` (first column, at `times`) and the exact solution of
// x' = -x + u from x(0) = 0 with u held at us[s] from ts[s] to ts[s + 1]: between samples the
// exponential toward the held value, x(t) = u_k + (x_k - u_k) exp(-(t - t_k)).
double worstHeldError(const std::vector<double>& times, const Eigen::MatrixXd& states, const std::vector<double>& ts,
                      const std::vector<double>& us)
{
    double worst = 0.0;
    for (std::size_t k = 0; k < times.size(); ++k) {
        const double t = times[k];
        double x = 0.0, start = 0.0;
        for (std::size_t s = 0; s + 1 < ts.size() && ts[s] < t; ++s) {
            const double end = std::min(t, ts[s + 1]);
            x = us[s] + (x - us[s]) * std::exp(-(end - start));
            start = end;
        }
        worst = std::max(worst, std::abs(states(static_cast<Eigen::Index>(k), 0) - x));
    }
    return worst;
}

}  // namespace

class TestIntersample : public QObject {
    Q_OBJECT

private slots:
    void spellings()
    {
        QCOMPARE(integrate::intersampleTable.parse("hold"), std::optional(Intersample::Hold));
        QCOMPARE(integrate::intersampleTable.parse("spline"), std::optional(Intersample::Spline));
        QVERIFY(!integrate::intersampleTable.parse("cubic"));
        QCOMPARE(std::string(integrate::intersampleTable.name(Intersample::Linear)), std::string("linear"));
    }

    void holdKeepsEachSampleUntilTheNext()
    {
        const auto inputs = oneInput({0, 1, 2}, {3, -1, 4}, Intersample::Hold);
        QCOMPARE(value(inputs, 0.0), 3.0);
        QCOMPARE(value(inputs, 0.999), 3.0);
        QCOMPARE(value(inputs, 1.0), -1.0);
        QCOMPARE(value(inputs, 1.5), -1.0);
        QCOMPARE(value(inputs, 2.5), 4.0);  // after the last sample: the last value
        double slope = 1.0;
        inputs.slopes(0.5, &slope);
        QCOMPARE(slope, 0.0);
        QVERIFY(inputs.kinksAtSamples(0));
    }

    // The not-a-knot spline reproduces a cubic exactly, on uneven samples too.
    void splineReproducesACubic()
    {
        auto p = [](double t) { return 1 + 2 * t - t * t + 0.5 * t * t * t; };
        auto dp = [](double t) { return 2 - 2 * t + 1.5 * t * t; };
        const std::vector<double> t{0.0, 0.3, 1.0, 1.2, 2.0, 3.1};
        std::vector<double> u;
        for (double s : t)
            u.push_back(p(s));
        const auto inputs = oneInput(t, u, Intersample::Spline);
        QVERIFY(!inputs.kinksAtSamples(0));
        for (double s : {0.1, 0.3, 0.65, 1.1, 1.9, 2.5, 3.0}) {
            QVERIFY2(std::abs(value(inputs, s) - p(s)) < 1e-12, qPrintable(QString::number(s)));
            double slope = 0.0;
            inputs.slopes(s, &slope);
            QVERIFY2(std::abs(slope - dp(s)) < 1e-11, qPrintable(QString::number(s)));
        }
        // Three samples give the parabola through them, two the line.
        const auto parabola = oneInput({0, 1, 3}, {0, 1, 9}, Intersample::Spline);
        QVERIFY(std::abs(value(parabola, 2.0) - 4.0) < 1e-12);
        const auto line = oneInput({0, 2}, {1, 5}, Intersample::Spline);
        QVERIFY(std::abs(value(line, 0.5) - 2.0) < 1e-12);
    }

    // x' = -x + u with u held at its samples: between samples the exact exponential toward the
    // held value, x(t) = u_k + (x_k - u_k) exp(-(t - t_k)).
    void heldStepDrivesTheExactExponential()
    {
        auto model = test::compiled("input u\nstate x = 0\nx' = -x + u\n");
        const std::vector<double> ts{0.0, 1.0, 2.0, 3.0};
        const std::vector<double> us{1.0, 0.0, 2.0, 2.0};
        const auto inputs = oneInput(ts, us, Intersample::Hold);
        integrate::SimulationRequest request;
        request.times = integrate::uniformGrid(0, 3, 0.25);
        request.inputs = &inputs;
        const auto trajectory = integrate::simulate(*model, request, test::tight());
        const double worst = worstHeldError(request.times, trajectory.states, ts, us);
        QVERIFY2(worst < 1e-9, qPrintable(QString::number(worst)));
        // Linear interpolation of the same samples gives another response.
        const auto linear = oneInput(ts, us, Intersample::Linear);
        request.inputs = &linear;
        const auto other = integrate::simulate(*model, request, test::tight());
        QVERIFY(std::abs(other.states(4, 0) - trajectory.states(4, 0)) > 1e-2);
    }

    // The moving index (hints carried from call to call, as an integration reads its input) finds
    // the same interval as a binary search: values and slopes agree to the last bit, for every
    // behaviour, periodic too, at advancing times, on samples, and after jumps back and forth.
    void hintedReadsAgreeWithBinarySearch()
    {
        std::vector<double> t, u;
        for (int k = 0; k < 200; ++k) {
            t.push_back(0.01 * k + 0.003 * std::sin(k));  // uneven
            u.push_back(std::cos(0.3 * k) + 0.1 * k);
        }
        std::vector<double> at;
        for (int k = -5; k < 2100; ++k)
            at.push_back(0.001 * k);  // advancing, from before the first sample to after the last
        for (double s : t)
            at.push_back(s);  // on the samples
        for (double s : {1.5, 0.2, 1.9, 0.0, 1.0, -1.0, 3.0, 0.7})
            at.push_back(s);  // jumps
        const data::Signal signal(t, u);
        std::size_t signalHint = 0;
        for (double s : at) {
            QCOMPARE(signal.slope(s, signalHint), signal.slope(s));
            QCOMPARE(signal.at(s, signalHint), signal.at(s));
        }
        const std::vector<double> onePeriodT(t.begin(), t.end() - 1);
        const std::vector<double> onePeriodU(u.begin(), u.end() - 1);
        for (auto behaviour : {Intersample::Linear, Intersample::Hold, Intersample::Spline})
            for (bool periodic : {false, true}) {
                const auto inputs = periodic
                    ? integrate::InputSignals::periodic({data::Signal(onePeriodT, onePeriodU)}, {behaviour}, 2.5)
                    : oneInput(t, u, behaviour);
                std::size_t hint = 0;
                for (double s : at) {
                    double plain = 0.0, hinted = 0.0, plainSlope = 0.0, hintedSlope = 0.0;
                    inputs.values(s, &plain);
                    inputs.values(s, &hinted, &hint);
                    inputs.slopes(s, &plainSlope);
                    inputs.slopes(s, &hintedSlope, &hint);
                    QCOMPARE(hinted, plain);
                    QCOMPARE(hintedSlope, plainSlope);
                }
            }
    }

    // x' = -x + u with u linear between 2000 samples (every sample a kink, so a segment each): between
    // samples, with u = u_k + b (t - t_k), x(t) = u(t) - b + (x_k - u_k + b) exp(-(t - t_k)). dopri5
    // carries f across the samples (first same as last): no restart evaluation per sample, so the
    // evaluations beyond 6 per step or rejected step (the restarts) are the first one and the rare segment
    // whose last step overshot it; held samples, where u jumps, restart at each of the 1999 segments.
    void aLinearInputIsCarriedAcrossItsSamples()
    {
        auto model = test::compiled("input u\nstate x = 0\nx' = -x + u\n");
        std::vector<double> ts, us;
        for (int k = 0; k < 2000; ++k) {
            ts.push_back(0.005 * k);
            us.push_back(std::sin(3.0 * ts.back()) + 0.5 * std::cos(11.0 * ts.back()));
        }
        std::vector<double> exact(ts.size(), 0.0);
        for (std::size_t k = 0; k + 1 < ts.size(); ++k) {
            const double h = ts[k + 1] - ts[k], b = (us[k + 1] - us[k]) / h;
            exact[k + 1] = us[k + 1] - b + (exact[k] - us[k] + b) * std::exp(-h);
        }
        const auto inputs = oneInput(ts, us, Intersample::Linear);
        integrate::SimulationRequest request;
        request.times = ts;
        request.inputs = &inputs;
        for (auto method : {integrate::IntegrationMethod::Dopri5, integrate::IntegrationMethod::Dop853}) {
            const auto trajectory = integrate::simulate(*model, request, test::tight(method));
            double worst = 0.0;
            for (std::size_t k = 0; k < ts.size(); ++k)
                worst = std::max(worst, std::abs(trajectory.states(static_cast<Eigen::Index>(k), 0) - exact[k]));
            QVERIFY2(worst < 1e-10, qPrintable(QString::number(worst)));
            const auto& s = trajectory.statistics;
            QVERIFY(s.steps >= ts.size() - 1);
            if (method == integrate::IntegrationMethod::Dopri5) {
                const std::size_t restarts = s.rhsEvaluations - 6 * (s.steps + s.rejectedSteps);
                QVERIFY2(restarts >= 1 && restarts <= 5, qPrintable(QString::number(restarts)));
            }
        }
        const auto held = oneInput(ts, us, Intersample::Hold);
        request.inputs = &held;
        const auto trajectory = integrate::simulate(*model, request, test::tight());
        const auto& s = trajectory.statistics;
        QCOMPARE(s.rhsEvaluations, (ts.size() - 1) + 6 * (s.steps + s.rejectedSteps));
    }

    // x' = u with a spline input sampled from a cubic: x is the cubic's integral.
    void splineInputIntegratesExactly()
    {
        auto model = test::compiled("input u\nstate x = 0\nx' = u\n");
        auto p = [](double t) { return 1 + 2 * t - t * t + 0.5 * t * t * t; };
        auto P = [](double t) { return t + t * t - t * t * t / 3 + t * t * t * t / 8; };
        std::vector<double> ts, us;
        for (double t = 0; t <= 2.0 + 1e-12; t += 0.25) {
            ts.push_back(t);
            us.push_back(p(t));
        }
        const auto inputs = oneInput(ts, us, Intersample::Spline);
        integrate::SimulationRequest request;
        request.times = {0.0, 0.8, 2.0};
        request.inputs = &inputs;
        const auto trajectory = integrate::simulate(*model, request, test::tight());
        QVERIFY(std::abs(trajectory.states(1, 0) - P(0.8)) < 1e-9);
        QVERIFY(std::abs(trajectory.states(2, 0) - P(2.0)) < 1e-9);
    }

    // The fit setting: with the record's own zero-order hold the estimate is exact; read linearly
    // (the default) the same record gives another answer.
    void aFitTakesTheIntersampleSetting()
    {
        job::NullProgressSink sink;
        const auto held = heldStepFit({{"u", Intersample::Hold}}).run(sink);
        QVERIFY(held.converged());
        QVERIFY2(std::abs(held.parameters[0].value - 2.0) < 1e-7,
                 qPrintable(QString::number(held.parameters[0].value)));
        const auto linear = heldStepFit({}).run(sink);
        QVERIFY(std::abs(linear.parameters[0].value - 2.0) > 1e-2);
        QCOMPARE(linear.settings.intersample.size(), std::size_t{0});
        QCOMPARE(held.settings.intersample.at("u"), Intersample::Hold);
    }

    void anUnknownInputIsRefused()
    {
        job::NullProgressSink sink;
        try {
            heldStepFit({{"w", Intersample::Spline}}).run(sink);
            QFAIL("an intersample behaviour for an input the model does not have was accepted");
        } catch (const job::JobError& e) {
            QVERIFY2(
                QString(e.what()).contains("intersample behaviour for 'w': the model has no input 'w' (inputs: u)"),
                e.what());
        }
    }

    // The project file holds it under settings.intersample by the table's spellings.
    void theProjectFileHoldsIt()
    {
        project::Project p;
        p.modelText = kFirstOrder;
        p.settings.intersample = {{"u", Intersample::Hold}};
        const auto json = project::projectToJson(p, ".");
        QCOMPARE(json.at("settings").at("intersample"), nlohmann::json::parse(R"({"u": "hold"})"));
        auto changed = json;
        changed["settings"]["intersample"]["u"] = "spline";
        QCOMPARE(project::projectFromJson(changed, "p.sysid", ".").settings.intersample.at("u"), Intersample::Spline);
        changed["settings"]["intersample"]["u"] = "cubic";
        try {
            project::projectFromJson(changed, "p.sysid", ".");
            QFAIL("an unknown intersample behaviour was read");
        } catch (const std::exception& e) {
            const QString message(e.what());
            QVERIFY2(message.contains("intersample") && message.contains("hold") && message.contains("spline"),
                     e.what());
        }
    }

    // The model language: input u hold|linear|spline, after the names and before the unit.
    void theModelDeclaresIt()
    {
        const model::Model m = model::parseModel("input u hold\ninput v, w spline unit V\ninput z\n"
                                                 "state x\nx' = u + v + w + z\n");
        QCOMPARE(m.inputs[0].intersample, std::optional(Intersample::Hold));
        QCOMPARE(m.inputs[1].intersample, std::optional(Intersample::Spline));
        QCOMPARE(m.inputs[2].intersample, std::optional(Intersample::Spline));
        QCOMPARE(m.inputs[2].unit, std::string("V"));
        QVERIFY(!m.inputs[3].intersample);
        const std::map<std::string, Intersample> declared{
            {"u", Intersample::Hold}, {"v", Intersample::Spline}, {"w", Intersample::Spline}};
        QCOMPARE(m.declaredIntersample(), declared);
        QCOMPARE(eval::compileModel(m)->declaredIntersample, declared);
        // The words are keywords only in that slot: an input may be called hold.
        QCOMPARE(model::parseModel("input hold linear\nstate x\nx' = hold\n").inputs[0].intersample,
                 std::optional(Intersample::Linear));
        const auto message = [](const std::string& text) {
            try {
                model::parseModel(text, "m.model");
            } catch (const model::ModelError& e) {
                return std::string(e.what());
            }
            return std::string("accepted");
        };
        const std::string late = message("input u unit V hold\nstate x\nx' = u\n");
        QVERIFY2(late.find("m.model:1:16: 'hold' must come before 'unit'") != std::string::npos, late.c_str());
        const std::string unknown = message("input u cubic\nstate x\nx' = u\n");
        QVERIFY2(unknown.find("m.model:1:9: expected how the input behaves between samples (hold, linear, spline)") !=
                     std::string::npos,
                 unknown.c_str());
    }

    // The user's choice over the model's declaration over linear.
    void theChoiceOverridesTheDeclaration()
    {
        const std::map<std::string, Intersample> declared{{"u", Intersample::Hold}, {"v", Intersample::Spline}};
        const std::map<std::string, Intersample> chosen{{"u", Intersample::Linear}};
        QCOMPARE(integrate::intersampleOf("u", declared, chosen), Intersample::Linear);
        QCOMPARE(integrate::intersampleOf("v", declared, chosen), Intersample::Spline);
        QCOMPARE(integrate::intersampleOf("w", declared, chosen), Intersample::Linear);
        const std::map<std::string, Intersample> both{{"u", Intersample::Linear}, {"v", Intersample::Spline}};
        QCOMPARE(integrate::intersampleChoices(declared, chosen), both);

        const auto source = test::compiledSource("input u hold\nstate x = 0\nx' = -x + u\noutput x\n");
        const data::DataTable table = heldStepRecord(1.0);
        QCOMPARE(estimate::makeExperiment(*source, table, {}, "r").inputs.behaviour(0), Intersample::Hold);
        QCOMPARE(estimate::makeExperiment(*source, table, {}, "r", chosen).inputs.behaviour(0), Intersample::Linear);
    }

    // x' = -x + u with `input u hold` and a sampled step: the simulation follows the exact
    // exponential toward each held value, x(t) = u_k + (x_k - u_k) exp(-(t - t_k)).
    void aDeclaredHoldDrivesTheExactExponential()
    {
        job::SimulationJob simulation;
        simulation.modelText = "input u hold\nstate x = 0\nx' = -x + u\noutput x\n";
        const std::vector<double> ts{0.0, 1.0, 2.0, 3.0};
        const std::vector<double> us{1.0, 0.0, 2.0, 2.0};
        data::DataTable table;
        table.columnNames = {"t", "u"};
        table.columns = {ts, us};
        simulation.inputs = table;
        simulation.times = integrate::uniformGrid(0, 3, 0.25);
        simulation.settings = test::tight();
        simulation.settings.methodChosen = true;
        job::NullProgressSink sink;
        const auto trajectory = simulation.run(sink);
        const double worst = worstHeldError(simulation.times, trajectory.states, ts, us);
        QVERIFY2(worst < 1e-9, qPrintable(QString::number(worst)));
    }

    // A fit of the held record with the model's `input u hold` is exact without any setting; the
    // fit's setting (linear) overrides the declaration and gives the other answer.
    void aFitTakesTheModelsDeclaration()
    {
        const std::string declared = "param a = 0.5 [0.01, 10]\ninput u hold\nstate x = 0\nx' = -a*x + u\noutput x\n";
        job::NullProgressSink sink;
        const auto held = heldStepFit({}, declared).run(sink);
        QVERIFY(held.converged());
        QVERIFY2(std::abs(held.parameters[0].value - 2.0) < 1e-7,
                 qPrintable(QString::number(held.parameters[0].value)));
        const auto linear = heldStepFit({{"u", Intersample::Linear}}, declared).run(sink);
        QVERIFY(std::abs(linear.parameters[0].value - 2.0) > 1e-2);
    }

    void fromTableTakesTheBehaviourPerInput()
    {
        data::DataTable table;
        table.columnNames = {"t", "u", "w"};
        table.columns = {{0, 1, 2}, {0, 1, 0}, {0, 2, 0}};
        const auto inputs = integrate::InputSignals::fromTable({"u", "w"}, table, {}, {{"w", Intersample::Hold}});
        QCOMPARE(inputs.behaviour(0), Intersample::Linear);
        QCOMPARE(inputs.behaviour(1), Intersample::Hold);
        double u[2];
        inputs.values(0.5, u);
        QCOMPARE(u[0], 0.5);
        QCOMPARE(u[1], 0.0);
    }
};

QTEST_APPLESS_MAIN(TestIntersample)
#include "test_intersample.moc"
