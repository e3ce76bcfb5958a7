// What a run reports besides its estimate: why it stopped (termination), what it cost
// (statistics: integration counts, seconds per phase) and the full report of a fit, in the
// results, their JSON and the jobs' logs; one observer type for the estimators and the jobs.
#include "EstimateTestSupport.h"
#include "IntegrationTestSupport.h"
#include "TextTestSupport.h"

#include "engine/core/RunSummary.h"
#include "engine/data/CsvReader.h"
#include "engine/data/Text.h"
#include "engine/estimate/Fit.h"
#include "engine/job/FitJob.h"
#include "engine/job/OptimalEstimationJob.h"
#include "engine/job/PeriodicJob.h"
#include "engine/project/FitReport.h"
#include "engine/project/OptimalEstimationJson.h"
#include "engine/project/PeriodicJson.h"
#include "engine/project/ResultJson.h"

#include <QtTest>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace sysid;
using nlohmann::json;
using sysid::test::slurp;

namespace {

const std::string kOscillator = "param c = 0.1 [0, 10]\nparam k = 4 fixed\nx'' = -c*x' - k*x\nx(0) = 1, 0\noutput x\n";

job::FitJob oscillatorJob()
{
    const auto source = test::compiledSource(kOscillator);
    const auto experiment = test::simulatedExperiment(source, {0.4, 4.0}, integrate::uniformGrid(0.0, 8.0, 0.05));
    data::DataTable table;
    table.source = "oscillator.csv";
    table.columnNames = {"t", "x"};
    table.columns = {
        experiment.times,
        std::vector<double>(experiment.measured.data(), experiment.measured.data() + experiment.measured.rows())};
    table.timeColumn = 0;
    job::FitJob fit;
    fit.modelText = kOscillator;
    fit.modelSource = "oscillator.model";
    fit.experiments.push_back({"run 1", table, {}, {}});
    fit.settings.maxIterations = 40;
    fit.settings.integrator.relativeTolerance = 1e-9;
    return fit;
}

// Every event, in order; what the estimators send and what only the jobs add.
struct Recorder : estimate::ProgressSink {
    std::vector<std::string> events, lines;
    void started(const std::vector<std::string>&) override { events.push_back("started"); }
    void iteration(const estimate::IterationRecord&) override { events.push_back("iteration"); }
    void trace(std::size_t, const std::vector<double>&, const Eigen::MatrixXd&) override { events.push_back("trace"); }
    void log(const std::string& line) override
    {
        events.push_back("log");
        lines.push_back(line);
    }
    void finished(estimate::JobStatus, const std::string&) override { events.push_back("finished"); }
    bool logged(const std::string& part) const
    {
        for (const auto& l : lines)
            if (l.find(part) != std::string::npos)
                return true;
        return false;
    }
};

std::set<std::string> keys(const json& object)
{
    std::set<std::string> names;
    for (const auto& item : object.items())
        names.insert(item.key());
    return names;
}

void checkStatisticsShape(const json& statistics)
{
    QCOMPARE(keys(statistics),
             (std::set<std::string>{"steps", "rejected_steps", "rhs_evaluations", "jacobian_evaluations",
                                    "factorizations", "integrations", "events", "newton", "seconds"}));
    QCOMPARE(keys(statistics["newton"]),
             (std::set<std::string>{"iterations", "jacobian_builds", "jacobian_reuses", "modified_steps"}));
    QCOMPARE(keys(statistics["seconds"]),
             (std::set<std::string>{"compilation", "integration", "linear_algebra", "total"}));
    QVERIFY(statistics["steps"].is_number_unsigned());
    QVERIFY(statistics["seconds"]["total"].get<double>() > 0.0);
}

void checkTerminationJson(const json& termination, const core::Termination& expected)
{
    QCOMPARE(keys(termination), (std::set<std::string>{"kind", "criterion", "message"}));
    QCOMPARE(termination["kind"].get<std::string>(), std::string(core::terminationKinds.name(expected.kind)));
    QCOMPARE(termination["criterion"].get<std::string>(),
             std::string(core::terminationCriteria.name(expected.criterion)));
    QCOMPARE(termination["message"].get<std::string>(), expected.message);
}

// "label -> value" of a report's lines (the first line is the title).
std::map<std::string, std::string> reportLines(const std::string& text)
{
    std::map<std::string, std::string> lines;
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);
    lines["title"] = line;
    while (std::getline(in, line)) {
        const auto gap = line.find("  ", 2);
        const auto value = line.find_first_not_of(' ', gap);
        lines[line.substr(2, gap - 2)] = line.substr(value);
    }
    return lines;
}

}  // namespace

class TestFitReport : public QObject {
    Q_OBJECT
private slots:
    // The minimisers take their own options, built from the fit's settings; their defaults are
    // FitSettings' defaults.
    void minimiserOptionsComeFromTheFitSettings()
    {
        const estimate::StoppingTolerances defaults;
        const estimate::StoppingTolerances fromFit = estimate::stoppingTolerances(estimate::FitSettings{});
        QCOMPARE(fromFit.maxIterations, defaults.maxIterations);
        QCOMPARE(fromFit.costTolerance, defaults.costTolerance);
        QCOMPARE(fromFit.stepTolerance, defaults.stepTolerance);
        QCOMPARE(fromFit.gradientTolerance, defaults.gradientTolerance);
        estimate::FitSettings settings;
        settings.maxIterations = 7;
        settings.costTolerance = 1e-5;
        settings.stepTolerance = 1e-4;
        settings.gradientTolerance = 1e-3;
        const auto lm = estimate::levenbergMarquardtOptions(settings);
        const auto gn = estimate::gaussNewtonOptions(settings);
        for (const estimate::StoppingTolerances* t : {static_cast<const estimate::StoppingTolerances*>(&lm),
                                                      static_cast<const estimate::StoppingTolerances*>(&gn)}) {
            QCOMPARE(t->maxIterations, std::size_t{7});
            QCOMPARE(t->costTolerance, 1e-5);
            QCOMPARE(t->stepTolerance, 1e-4);
            QCOMPARE(t->gradientTolerance, 1e-3);
        }
        QCOMPARE(lm.initialDamping, estimate::LevenbergMarquardtOptions{}.initialDamping);
    }

    // estimate::fit and the job around it report through the same observer type: the estimator's
    // iterations, traces and log lines, the job's started and finished.
    void oneObserverForEstimatorAndJob()
    {
        const job::FitJob fit = oscillatorJob();
        Recorder jobSink;
        const auto result = fit.run(jobSink);
        QCOMPARE(jobSink.events.front(), std::string("started"));
        QCOMPARE(jobSink.events.back(), std::string("finished"));

        const auto source = test::compiledSource(kOscillator);
        const auto experiments = job::preparedExperiments(fit, *source);
        Recorder direct;
        const auto same = estimate::fit(source, source->parameterValues, experiments, fit.settings, &direct);
        QVERIFY(std::count(direct.events.begin(), direct.events.end(), "iteration") ==
                static_cast<long>(same.history.size()));
        QVERIFY(std::count(direct.events.begin(), direct.events.end(), "trace") > 0);
        QCOMPARE(std::count(direct.events.begin(), direct.events.end(), "started"), 0L);
        QCOMPARE(std::count(direct.events.begin(), direct.events.end(), "finished"), 0L);
        QCOMPARE(same.parameters[0].value, result.parameters[0].value);
    }

    // Every method: why it stopped, who minimised, how often the objective was evaluated, the
    // settings it ran with and the seconds it took.
    void fitResultsCarryTheirRun_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<QString>("minimiser");
        QTest::newRow("output-error") << int(estimate::EstimationMethod::OutputError)
                                      << QStringLiteral("Levenberg-Marquardt");
        QTest::newRow("multiple-shooting")
            << int(estimate::EstimationMethod::MultipleShooting) << QStringLiteral("damped Gauss-Newton");
        QTest::newRow("steepest-descent")
            << int(estimate::EstimationMethod::SteepestDescent) << QStringLiteral("steepest descent with a fixed gain");
    }
    void fitResultsCarryTheirRun()
    {
        QFETCH(int, method);
        QFETCH(QString, minimiser);
        job::FitJob fit = oscillatorJob();
        fit.settings.method = static_cast<estimate::EstimationMethod>(method);
        fit.settings.steepestDescentGain = 0.5;
        job::NullProgressSink sink;
        const auto r = fit.run(sink);
        QCOMPARE(QString::fromStdString(r.minimiser), minimiser);
        QVERIFY(!r.termination.message.empty());
        QVERIFY(r.termination.kind != core::TerminationKind::Cancelled);
        QVERIFY(r.evaluations >= r.iterations + 1);
        QCOMPARE(r.derivativeEvaluations, r.evaluations);
        QCOMPARE(r.settings.maxIterations, std::size_t{40});
        QVERIFY(r.settings.method == fit.settings.method);
        QVERIFY(r.statistics.seconds.total > 0.0);
        QVERIFY(r.statistics.seconds.linearAlgebra > 0.0);  // the normal equations and the covariance
        QVERIFY(r.statistics.seconds.compilation > 0.0);  // the model's programs, compiled on first use
        QVERIFY(r.statistics.seconds.linearAlgebra + r.statistics.seconds.compilation < r.statistics.seconds.total);
    }

    void equationErrorResultCarriesItsRun()
    {
        const auto source = test::compiledSource("param k = 0.5 [0.01, 10]\nparam c = 0.1\nx'' = -c*x' - k*x\n"
                                                 "x(0) = 1, 0\noutput x\noutput x'\n");
        const auto data = test::simulatedExperiment(source, {2.0, 0.1}, integrate::uniformGrid(0.0, 4.0, 0.02));
        estimate::FitSettings settings;
        settings.method = estimate::EstimationMethod::SingleStep;
        const auto r = estimate::fit(source, {0.5, 0.1}, {data}, settings);
        QVERIFY2(r.converged(), core::describe(r.termination).c_str());
        QCOMPARE(r.minimiser, std::string("Newton-Raphson with the exact Hessian"));
        QVERIFY(r.evaluations > r.iterations);
        QVERIFY(r.derivativeEvaluations > r.iterations && r.derivativeEvaluations <= r.evaluations);
        QVERIFY(r.statistics.seconds.total > 0.0);
        QVERIFY(r.statistics.seconds.linearAlgebra > 0.0);
    }

    // Integrations report their steps and evaluations to the run's collector (core::currentStatistics).
    void integrationCountsReachTheFitResult()
    {
        job::NullProgressSink sink;
        const auto r = oscillatorJob().run(sink);
        QVERIFY(r.statistics.integration.integrations > 0);
        QVERIFY(r.statistics.integration.steps > 0);
        QVERIFY(r.statistics.integration.rhsEvaluations > r.statistics.integration.steps);
        QVERIFY(r.statistics.seconds.integration > 0.0);
    }

    void resultJsonHoldsTerminationStatisticsAndReport()
    {
        job::NullProgressSink sink;
        const auto r = oscillatorJob().run(sink);
        QVERIFY2(r.converged(), r.termination.message.c_str());
        const json j = project::resultToJson(r);
        checkTerminationJson(j["termination"], r.termination);
        QCOMPARE(j["termination"]["kind"].get<std::string>(), std::string("converged"));
        // The older members, derived from the termination.
        QCOMPARE(j["converged"].get<bool>(), true);
        QCOMPARE(j["cancelled"].get<bool>(), false);
        QCOMPARE(j["stop_reason"].get<std::string>(), r.termination.message);
        checkStatisticsShape(j["statistics"]);
        QCOMPARE(j["statistics"]["seconds"]["total"].get<double>(), r.statistics.seconds.total);

        const json& report = j["report"];
        QCOMPARE(
            keys(report),
            (std::set<std::string>{"method", "minimiser", "non_default_settings", "unknowns", "residuals", "iterations",
                                   "evaluations", "derivative_evaluations", "initial_cost", "final_cost", "text"}));
        QCOMPARE(report["method"].get<std::string>(), std::string("output-error"));
        QCOMPARE(report["minimiser"].get<std::string>(), std::string("Levenberg-Marquardt"));
        QCOMPARE(report["non_default_settings"], (json{{"max_iterations", 40}, {"integrator.rtol", 1e-9}}));
        QCOMPARE(report["unknowns"].get<std::size_t>(), std::size_t{1});
        QCOMPARE(report["evaluations"].get<std::size_t>(), r.evaluations);
        QCOMPARE(report["text"].get<std::string>(), project::fitReport(r));
        QCOMPARE(json::parse(j.dump()), j);
    }

    void resultJsonReadsTheTerminationBack()
    {
        job::NullProgressSink sink;
        const auto r = oscillatorJob().run(sink);
        const auto back = project::resultFromJson(json::parse(project::resultToJson(r).dump()));
        QVERIFY(back.termination == r.termination);
        QCOMPARE(back.statistics.seconds.total, r.statistics.seconds.total);
        QCOMPARE(back.statistics.integration.steps, r.statistics.integration.steps);

        // A result stored before the termination was recorded: kind from "converged"/"cancelled".
        json old = project::resultToJson(r);
        old.erase("termination");
        old.erase("statistics");
        old["stop_reason"] = "relative step below tolerance";
        const auto legacy = project::resultFromJson(old);
        QVERIFY(legacy.converged());
        QCOMPARE(legacy.termination.criterion, core::TerminationCriterion::None);
        QCOMPARE(legacy.termination.message, std::string("relative step below tolerance"));
        old["converged"] = false;
        old["cancelled"] = true;
        QVERIFY(project::resultFromJson(old).cancelled());
        old["cancelled"] = false;
        QCOMPARE(project::resultFromJson(old).termination.kind, core::TerminationKind::Failed);

        json damaged = project::resultToJson(r);
        damaged["termination"]["kind"] = "exploded";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, project::resultFromJson(damaged));
    }

    void nonDefaultSettingsAreNamedAsInAProject()
    {
        QCOMPARE(project::nonDefaultSettings(estimate::FitSettings{}), json::object());
        estimate::FitSettings s;
        s.maxIterations = 12;
        s.integrator.relativeTolerance = 1e-9;
        s.outputWeights["y"] = 2.0;
        s.periodic.nodes = 64;
        s.steepestDescentGain = 0.1;
        QCOMPARE(project::nonDefaultSettings(s),
                 (json{{"max_iterations", 12},
                       {"integrator.rtol", 1e-9},
                       {"output_weights.y", 2.0},
                       {"periodic.nodes", 64},
                       {"steepest_descent_gain", 0.1}}));
    }

    void reportNamesMethodSettingsCountsAndTermination()
    {
        job::NullProgressSink sink;
        const auto r = oscillatorJob().run(sink);
        const std::string text = project::fitReport(r);
        QVERIFY(text.back() != '\n');
        const auto lines = reportLines(text);
        QCOMPARE(lines.at("title"), std::string("fit report"));
        QCOMPARE(lines.at("method"), std::string("output-error by Levenberg-Marquardt, integrator dopri5"));
        QCOMPARE(lines.at("non-default settings"), std::string("integrator.rtol = 1e-09, max_iterations = 40"));
        QCOMPARE(lines.at("unknowns"), std::string("1 (c) from 161 residuals"));
        QCOMPARE(lines.at("iterations"), std::to_string(r.iterations));
        QCOMPARE(lines.at("evaluations"),
                 std::to_string(r.evaluations) + " of the objective, " + std::to_string(r.derivativeEvaluations) +
                     " with derivatives");
        QVERIFY(lines.at("cost").find(" -> ") != std::string::npos);
        QCOMPARE(lines.at("integration"), core::integrationSummary(r.statistics));
        QCOMPARE(lines.at("time"), core::timeSummary(r.statistics));
        QVERIFY(lines.at("time").find("linear algebra") != std::string::npos);
        QCOMPARE(lines.at("termination"), core::describe(r.termination));
        // The residual analysis' verdict of the one output (ResidualAnalysis.h).
        QCOMPARE(lines.at("residuals of x"), estimate::verdict(r.residualAnalysis.outputs.at(0)));
        // -2 ln L of the residuals with the output's variance at RSS/n (estimate::Likelihood), for information
        // criteria.
        QCOMPARE(lines.at("-2 ln L"),
                 data::formatNumber(r.likelihood.minusTwoLog, 10) + " (161 samples, 1 noise variance)");
        QCOMPARE(lines.size(), std::size_t{12});

        QCOMPARE(reportLines(project::fitReport(estimate::FitResult{})).at("non-default settings"),
                 std::string("none"));
    }

    void periodicJobCarriesTerminationAndStatistics()
    {
        job::PeriodicJob periodic;
        periodic.modelText = "param c = 0.2\nparam w = 1\nx'' = -c*x' - x + 0.7*cos(w*t)\nx(0) = 0, 0\noutput x\n";
        periodic.shooting.period = 2.0 * 3.141592653589793;
        periodic.sweep =
            job::PeriodicSweep{"w", 0.5, 0.6, true, 0.05, 200, shooting::ContinuationMethod::PseudoArclength, ""};
        Recorder sink;
        const auto result = periodic.run(sink);
        QVERIFY(result.solution.converged());
        QCOMPARE(result.solution.newton.termination.criterion, core::TerminationCriterion::ResidualTolerance);
        QVERIFY(result.branch);
        QVERIFY2(result.branch->completed(), core::describe(result.branch->termination).c_str());
        QVERIFY(result.statistics.seconds.total > 0.0);
        QVERIFY(sink.logged("termination: converged (residual_tolerance)"));
        QVERIFY(sink.logged("continuation: converged (parameter_range)"));
        QVERIFY(sink.logged("statistics: "));
        QCOMPARE(sink.events.back(), std::string("finished"));

        const json j = project::periodicResultToJson(result, "w");
        checkTerminationJson(j["termination"], result.solution.newton.termination);
        QCOMPARE(j["converged"].get<bool>(), true);
        QCOMPARE(j["message"].get<std::string>(), result.solution.newton.termination.message);
        checkStatisticsShape(j["statistics"]);
        // The orbit's and the branch's Newton solves are counted.
        QVERIFY(result.statistics.newton.iterations > result.solution.newton.iterations);
        QCOMPARE(j["statistics"]["newton"]["iterations"].get<std::size_t>(), result.statistics.newton.iterations);
        QVERIFY(j["statistics"]["newton"]["jacobian_builds"].get<std::size_t>() >= 1);
        checkTerminationJson(j["branch"]["termination"], result.branch->termination);
        QCOMPARE(j["branch"]["completed"].get<bool>(), true);
    }

    void optimalEstimationCarriesTerminationAndStatistics()
    {
        const std::string examples = SYSID_SOURCE_DIR "/resources/examples/";
        job::OptimalEstimationJob optimal;
        optimal.modelText = slurp(examples + "msd_optimal.model");
        optimal.modelSource = "msd_optimal.model";
        optimal.experiment.table = data::readCsv(examples + "msd_optimal_data.csv");
        optimal.experiment.name = "msd";
        Recorder sink;
        const auto result = optimal.run(sink);
        QVERIFY2(result.converged(), result.termination.message.c_str());
        QCOMPARE(result.termination.criterion, core::TerminationCriterion::ResidualTolerance);
        QVERIFY(result.statistics.seconds.total > 0.0);
        QVERIFY(result.statistics.seconds.linearAlgebra > 0.0);
        QVERIFY(sink.logged("termination: converged (residual_tolerance)"));
        QVERIFY(sink.logged("statistics: "));

        const json j = project::optimalResultToJson(result);
        checkTerminationJson(j["termination"], result.termination);
        QCOMPARE(j["converged"].get<bool>(), true);
        QCOMPARE(j["message"].get<std::string>(), result.termination.message);
        checkStatisticsShape(j["statistics"]);
    }
};

QTEST_GUILESS_MAIN(TestFitReport)
#include "test_fit_report.moc"
