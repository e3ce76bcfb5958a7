// The model's second derivatives are compiled only for the runs that evaluate them
// (eval::CompileOptions): which settings need them (integrate::sensitivitiesNeedSecondDerivatives,
// estimate::needsSecondDerivatives), that the jobs compile them exactly then, that a run without them
// gives the same bits as with them and a run that needs them still works, and that asking a model
// compiled without them fails with core::InternalError instead of an empty Hessian.

#include "engine/core/InternalError.h"
#include "engine/estimate/EquationErrorObjective.h"
#include "engine/estimate/Fit.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/eval/CompiledModel.h"
#include "engine/eval/NativeSource.h"
#include "engine/integrate/ModelSystem.h"
#include "engine/integrate/Simulator.h"
#include "engine/job/FitJob.h"
#include "engine/job/PeriodicJob.h"
#include "engine/job/PreparedFit.h"
#include "engine/model/ModelBuilder.h"
#include "OptimalEstimationTestSupport.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace sysid;
using integrate::IntegrationMethod;

namespace {

// Duffing's oscillator, forced in its equations: x'' + c x' + k x + a x^3 = F cos(w t).
const std::string kDuffing = "param c = 0.1 [0, 10]\n"
                             "param k = 1 [0.1, 10]\n"
                             "param a = 0.5 [0, 10]\n"
                             "param F = 0.5 fixed\n"
                             "param w = 1.4 fixed\n"
                             "x'' = -c*x' - k*x - a*x^3 + F*cos(w*t)\n"
                             "x(0) = 0.2, 0\n"
                             "output x\n"
                             "output x'\n";

std::shared_ptr<const eval::CompiledModelSource> compiled(bool secondDerivatives)
{
    return eval::compileModel(model::parseModel(kDuffing, "duffing.model"), {.secondDerivatives = secondDerivatives});
}

// Both outputs of the Duffing model with c = 0.3, k = 1.2, a = 0.8 on t = 0, 0.05, ..., 8.
data::DataTable measured()
{
    eval::CompiledModel model(compiled(false));
    model.setParameters(std::vector<double>{0.3, 1.2, 0.8, 0.5, 1.4});
    integrate::SimulationRequest request;
    request.times = integrate::uniformGrid(0.0, 8.0, 0.05);
    integrate::IntegratorSettings tight;
    tight.relativeTolerance = 1e-11;
    tight.absoluteTolerance = 1e-13;
    const integrate::Trajectory tr = integrate::simulate(model, request, tight);
    data::DataTable table;
    table.source = "duffing.csv";
    table.columnNames = {"t", "x", "x'"};
    table.columns = {tr.times,
                     std::vector<double>(tr.outputs.col(0).data(), tr.outputs.col(0).data() + tr.outputs.rows()),
                     std::vector<double>(tr.outputs.col(1).data(), tr.outputs.col(1).data() + tr.outputs.rows())};
    table.timeColumn = 0;
    return table;
}

job::FitJob duffingFit(estimate::EstimationMethod method, std::optional<IntegrationMethod> integrator)
{
    job::FitJob fit;
    fit.modelText = kDuffing;
    fit.modelSource = "duffing.model";
    job::ExperimentData experiment;
    experiment.name = "run 1";
    experiment.table = measured();
    fit.experiments.push_back(experiment);
    fit.settings.method = method;
    if (integrator) {
        fit.settings.integrator.method = *integrator;
        fit.settings.integrator.methodChosen = true;
    }
    // The interpreter: the comparison below is with an interpreted model, and no C compiler runs.
    fit.settings.integrator.modelCode = eval::ModelCode::Interpreted;
    return fit;
}

// The message of the core::InternalError `call` throws; fails the test when it throws nothing or
// anything else (an IntegrationError would mean the failure was taken for a numerical one).
std::string internalError(const std::function<void()>& call)
{
    try {
        call();
    } catch (const core::InternalError& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("wrong exception: ") + e.what();
    }
    return "nothing thrown";
}

bool sameBits(const estimate::FitResult& a, const estimate::FitResult& b)
{
    if (a.parameters.size() != b.parameters.size() || a.cost != b.cost || a.iterations != b.iterations)
        return false;
    for (std::size_t i = 0; i < a.parameters.size(); ++i)
        if (a.parameters[i].value != b.parameters[i].value)
            return false;
    return true;
}

}  // namespace

class TestSecondDerivatives : public QObject {
    Q_OBJECT

private slots:
    void theIntegratorsNeedFollowsItsMethod()
    {
        integrate::IntegratorSettings settings;  // nothing chosen: whichever default the model gets
        QVERIFY(!integrate::sensitivitiesNeedSecondDerivatives(settings));
        for (const auto& spelling : integrate::kIntegrationMethods.entries()) {
            settings.method = spelling.value;
            settings.methodChosen = true;
            QCOMPARE(integrate::sensitivitiesNeedSecondDerivatives(settings),
                     spelling.value == IntegrationMethod::Rosenbrock4);
        }
        // A caller that integrates with `method` without resolving it gets them too.
        settings.method = IntegrationMethod::Rosenbrock4;
        settings.methodChosen = false;
        QVERIFY(integrate::sensitivitiesNeedSecondDerivatives(settings));
    }

    void theFitsNeedFollowsItsMethodAndIntegrator()
    {
        for (const auto& traits : estimate::kMethodTraits) {
            estimate::FitSettings settings;
            settings.method = traits.method;
            QCOMPARE(estimate::needsSecondDerivatives(settings), traits.objective == estimate::Objective::EquationError);
            settings.integrator.method = IntegrationMethod::Rosenbrock4;
            settings.integrator.methodChosen = true;
            QVERIFY(estimate::needsSecondDerivatives(settings));
            settings.integrator.method = IntegrationMethod::SparseImplicit;
            QCOMPARE(estimate::needsSecondDerivatives(settings), traits.objective == estimate::Objective::EquationError);
        }
    }

    void aFitCompilesThemOnlyWhenItEvaluatesThem()
    {
        using estimate::EstimationMethod;
        const job::PreparedFit explicitFit(duffingFit(EstimationMethod::OutputError, std::nullopt));
        QVERIFY(!explicitFit.model()->hasSecondDerivatives);
        QVERIFY(explicitFit.model()->rhsStateHessian.entries.empty());
        QVERIFY(explicitFit.model()->rhsMixedHessian.entries.empty());
        QVERIFY(explicitFit.model()->rhsParamHessian.entries.empty());
        QVERIFY(!job::PreparedFit(duffingFit(EstimationMethod::MultipleShooting, IntegrationMethod::Dopri5))
                     .model()
                     ->hasSecondDerivatives);

        const job::PreparedFit rosenbrock(duffingFit(EstimationMethod::OutputError, IntegrationMethod::Rosenbrock4));
        QVERIFY(rosenbrock.model()->hasSecondDerivatives);
        QVERIFY(!rosenbrock.model()->rhsStateHessian.entries.empty());  // d2f/dx2 of a x^3
        QVERIFY(!rosenbrock.model()->rhsMixedHessian.entries.empty());  // d2f/dx dc, ...
        for (const auto method : {EstimationMethod::SingleStep, EstimationMethod::Multistep})
            QVERIFY(job::PreparedFit(duffingFit(method, std::nullopt)).model()->hasSecondDerivatives);
    }

    // Each fit as the job runs it against the same fit on the model compiled in full, as before
    // the second derivatives became optional: the same bits.
    void aFitGivesTheSameResultAsWithTheFullModel_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<int>("integrator");  // -1: not chosen
        using estimate::EstimationMethod;
        QTest::newRow("output error, dopri5") << int(EstimationMethod::OutputError) << -1;
        QTest::newRow("output error, rosenbrock4")
            << int(EstimationMethod::OutputError) << int(IntegrationMethod::Rosenbrock4);
        QTest::newRow("multiple shooting, rosenbrock4")
            << int(EstimationMethod::MultipleShooting) << int(IntegrationMethod::Rosenbrock4);
        QTest::newRow("single-step equation error") << int(EstimationMethod::SingleStep) << -1;
        QTest::newRow("multistep equation error") << int(EstimationMethod::Multistep) << -1;
    }
    void aFitGivesTheSameResultAsWithTheFullModel()
    {
        QFETCH(int, method);
        QFETCH(int, integrator);
        const job::PreparedFit prepared(
            duffingFit(static_cast<estimate::EstimationMethod>(method),
                       integrator < 0 ? std::nullopt : std::optional(static_cast<IntegrationMethod>(integrator))));
        QCOMPARE(prepared.model()->hasSecondDerivatives, estimate::needsSecondDerivatives(prepared.settings()));
        const estimate::FitResult asRun = prepared.fit({});
        const auto full = compiled(true);
        const estimate::FitResult asBefore =
            estimate::fit(full, full->parameterValues, prepared.experiments(), prepared.settings());
        QVERIFY(asRun.converged());
        QVERIFY(sameBits(asRun, asBefore));
        // The fit found the data's parameters (c, k, a); one step of Heun's formula over the sampling
        // interval leaves the single-step estimates a bias of its order.
        const double tolerance =
            static_cast<estimate::EstimationMethod>(method) == estimate::EstimationMethod::SingleStep ? 2e-2 : 1e-3;
        const double truth[] = {0.3, 1.2, 0.8};
        for (std::size_t i = 0; i < 3; ++i)
            QVERIFY2(std::abs(asRun.parameters.at(i).value - truth[i]) < tolerance,
                     (asRun.parameters.at(i).name + " = " + std::to_string(asRun.parameters.at(i).value)).c_str());
    }

    // Shooting integrates the variational equations: with rosenbrock4 the job compiles the second
    // derivatives and finds the orbit dopri5 finds.
    void aPeriodicOrbitByShootingWithRosenbrock()
    {
        auto orbit = [](std::optional<IntegrationMethod> method) {
            job::PeriodicJob job;
            job.modelText = kDuffing;
            job.modelSource = "duffing.model";
            job.shooting.period = 2 * M_PI / 1.4;
            job.shooting.integrator.modelCode = eval::ModelCode::Interpreted;
            if (method) {
                job.shooting.integrator.method = *method;
                job.shooting.integrator.methodChosen = true;
            }
            estimate::NullProgressSink sink;
            return job.run(sink).solution;
        };
        const shooting::PeriodicSolution explicitOrbit = orbit(std::nullopt);
        const shooting::PeriodicSolution implicitOrbit = orbit(IntegrationMethod::Rosenbrock4);
        QVERIFY(explicitOrbit.converged());
        QVERIFY2(implicitOrbit.converged(), implicitOrbit.newton.termination.message.c_str());
        QVERIFY((explicitOrbit.initialState - implicitOrbit.initialState).norm() < 1e-6);
    }

    // Optimal estimation compiles its Hamiltonian system itself: with them when a stage integrates its
    // shooting intervals' variational equations with rosenbrock4, which before failed at that stage's
    // first step (the system was always compiled without them) and left the work to the next stage.
    void anOptimalEstimationStageWithRosenbrock()
    {
        auto job = test::msdJob();
        estimate::OptimalEstimationStage first, second, third;
        first.integrator.method = IntegrationMethod::RK4;
        first.stepsPerInterval = 2;
        first.newtonTolerance = 1e-3;  // stage 2 has Newton iterations to do, with rosenbrock4's Jacobians
        second.integrator.method = IntegrationMethod::Rosenbrock4;
        second.integrator.relativeTolerance = 1e-7;
        second.integrator.absoluteTolerance = 1e-9;
        second.newtonTolerance = 1e-7;
        third.integrator.relativeTolerance = 1e-11;
        third.integrator.absoluteTolerance = 1e-13;
        third.newtonTolerance = 1e-8;
        job.settings.stages = {first, second, third};
        job.settings.bvp.reuseBetweenStages = false;  // every stage builds its own Jacobians
        struct Log : job::ProgressSink {
            std::string all;
            void started(const std::vector<std::string>&) override {}
            void iteration(const estimate::IterationRecord&) override {}
            void trace(std::size_t, const std::vector<double>&, const Eigen::MatrixXd&) override {}
            void log(const std::string& line) override { all += line + "\n"; }
            void finished(job::JobStatus, const std::string&) override {}
        } log;
        const auto r = job.run(log);
        QVERIFY2(r.converged(), (r.termination.message + "\n" + log.all).c_str());
        QVERIFY2(log.all.find("stage 2 iteration") != std::string::npos, log.all.c_str());
        QVERIFY2(log.all.find("internal error") == std::string::npos, log.all.c_str());
        for (Eigen::Index i = 0; i < 3; ++i)
            QVERIFY2(std::abs(r.parameters(i) - 1.0) < 1e-4, log.all.c_str());
    }

    void askingAModelWithoutThemFailsLoudly()
    {
        const auto without = compiled(false);
        QVERIFY(!without->hasSecondDerivatives);
        eval::CompiledModel model(without);
        std::vector<double> values(64);
        const std::string evaluated = internalError([&] { model.stateHessianValues(values.data()); });
        QVERIFY2(evaluated.find("internal error: ") == 0, evaluated.c_str());
        QVERIFY2(evaluated.find("second derivatives") != std::string::npos, evaluated.c_str());
        QVERIFY(internalError([&] { model.mixedHessianValues(values.data()); }).find("internal error: ") == 0);

        integrate::ModelSystem system(model);
        integrate::SecondDerivatives second;
        const std::vector<double> x{0.1, 0.2};
        QVERIFY(internalError([&] { system.secondDerivatives(0.0, x.data(), second); }).find("internal error: ") == 0);

        // Rosenbrock with sensitivities refuses before its first step, not as a failed integration.
        integrate::SimulationRequest request;
        request.times = integrate::uniformGrid(0.0, 1.0, 0.1);
        request.sensitivityParameters = {0};
        integrate::IntegratorSettings rosenbrock;
        rosenbrock.method = IntegrationMethod::Rosenbrock4;
        rosenbrock.methodChosen = true;
        const std::string integrated = internalError([&] { integrate::simulate(model, request, rosenbrock); });
        QVERIFY2(integrated.find("internal error: rosenbrock4 with sensitivities needs the model's second "
                                 "derivatives") == 0,
                 integrated.c_str());
        // Without sensitivities it needs none.
        request.sensitivityParameters.clear();
        QCOMPARE(integrate::simulate(model, request, rosenbrock).times.size(), request.times.size());

        const std::string objective = internalError(
            [&] { estimate::EquationErrorObjective(without, estimate::EquationErrorFormula::Trapezoid, {0}); });
        QVERIFY2(objective.find("internal error: the equation-error objective") == 0, objective.c_str());

        // A fit given a model compiled for another run refuses at its start.
        const job::PreparedFit prepared(duffingFit(estimate::EstimationMethod::OutputError, std::nullopt));
        QVERIFY(!prepared.model()->hasSecondDerivatives);
        for (const auto method : {estimate::EstimationMethod::OutputError, estimate::EstimationMethod::SingleStep}) {
            estimate::FitSettings settings = prepared.settings();
            settings.method = method;
            settings.integrator.method = IntegrationMethod::Rosenbrock4;
            const std::string fitted = internalError(
                [&] { estimate::fit(prepared.model(), without->parameterValues, prepared.experiments(), settings); });
            QVERIFY2(fitted.find("internal error: ") == 0 && fitted.find("second derivatives") != std::string::npos,
                     fitted.c_str());
        }
    }

    // The native library's text holds the Hessian programs exactly when the model has them, so its
    // cache (keyed by a hash of the text) never hands a library without them to a model with them.
    void theNativeCodeKeysOnThem()
    {
        const std::string with = eval::nativeSource(*compiled(true));
        const std::string without = eval::nativeSource(*compiled(false));
        QVERIFY(with != without);
        for (const auto program : {eval::StateHessian, eval::MixedHessian}) {
            const std::string function = "void sysid_v" + std::to_string(program) + "(";
            QVERIFY(with.find(function) != std::string::npos);
            QVERIFY(without.find(function) == std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestSecondDerivatives)
#include "test_second_derivatives.moc"
