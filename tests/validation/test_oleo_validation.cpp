// Seed 000 §6.4-6.5 (Vankan 1992): the oleo landing-gear shock absorber driven by a measured periodic
// force (resources/examples/oleo.sysid and oleo_1dof.sysid, data/oleo_measured.csv):
//   - the periodic solution of the 2-DOF model (eq. 6.6-6.7) under the force record by shooting and
//     by time discretisation (Fig. 6.4: the two agree);
//   - theta4 and theta11 estimated from the seed's start (6.0, 0.66) by periodic response with
//     shooting and with time discretisation: the same estimates (Fig. 6.5), the truth inside their
//     uncertainty;
//   - the older 1-DOF model (eq. 6.9-6.10) fitted to the same record and compared with the 2-DOF
//     one (Fig. 6.6): residuals, cost, AIC / BIC; the 2-DOF model wins.
#include "BenchmarkSupport.h"
#include "ValidationSupport.h"

#include "engine/job/ModelComparison.h"
#include "engine/job/PeriodicJob.h"

#include <QtTest>

#include <cmath>

using namespace sysid;

namespace {

constexpr double kTheta4 = 6.0491577, kTheta11 = 0.66718718;
constexpr double kNoiseSd = 2.12e-4;  // the noise added to the record (0.5 % of the RMS of y), against the clean run

// The project's fit with the periodic solver chosen (the projects use 400 nodes per period for time
// discretisation).
job::FitJob fitJobOf(const project::Project& project, discretise::PeriodicSolver solver)
{
    job::FitJob fit = project::makeFitJob(project);
    fit.settings.periodic.solver = solver;
    return fit;
}

}  // namespace

class TestOleoValidation : public QObject {
    Q_OBJECT

private:
    estimate::FitResult shot_, discretised_, oneDof_;
    job::FitJob shotJob_, oneDofJob_;

private slots:
    void periodicSolutionByShootingAndDiscretisationAgree()
    {
        const project::Project p = validation::bundledProject("oleo.sysid");
        job::PeriodicJob periodic;
        periodic.modelText = p.modelText;
        periodic.modelSource = p.modelSource;
        periodic.shooting.period = 2.0;
        periodic.shooting.integrator.relativeTolerance = 1e-10;
        periodic.shooting.integrator.absoluteTolerance = 1e-12;
        periodic.inputRecord = data::readCsv(validation::examplePath("data/oleo_force.csv"));
        job::NullProgressSink sink;
        const auto shot = periodic.run(sink);
        QVERIFY2(shot.solution.converged(), shot.solution.newton.termination.message.c_str());
        periodic.solver = discretise::PeriodicSolver::Discretisation;
        periodic.scheme = discretise::PeriodicScheme::HermiteSimpson;
        periodic.nodes = 400;
        const auto discretised = periodic.run(sink);
        QVERIFY2(discretised.solution.converged(), discretised.solution.newton.termination.message.c_str());
        // u at the period's start, and the stroke and temperature ranges over the orbit.
        const auto range = [](const shooting::PeriodicSolution& s, Eigen::Index column) {
            return std::pair{s.states.col(column).minCoeff(), s.states.col(column).maxCoeff()};
        };
        const auto [u0, u1] = range(shot.solution, 0);
        const auto [T0, T1] = range(shot.solution, 2);
        const double du = std::abs(shot.solution.initialState(0) - discretised.solution.states(0, 0));
        const double dT = std::abs(shot.solution.initialState(2) - discretised.solution.states(0, 2));
        qInfo("periodic solution: u in [%.5f, %.5f] m, T in [%.2f, %.2f] K; shooting vs time discretisation "
              "(400 nodes): |du(0)| = %.2e m, |dT(0)| = %.2e K; multipliers %s",
              u0, u1, T0, T1, du, dT, shot.solution.floquet.verdict.c_str());
        QVERIFY(u0 > 0.04 && u1 < 0.17 && T1 - T0 > 20);
        QVERIFY(shot.solution.floquet.stable);
        QVERIFY(du < 1e-5 * (u1 - u0) * 100);  // within 0.1 % of the stroke
        QVERIFY(dT < 1e-3 * (T1 - T0));
    }

    void theta4AndTheta11ByShootingAndByTimeDiscretisation()
    {
        const project::Project p = validation::bundledProject("oleo.sysid");
        shotJob_ = fitJobOf(p, discretise::PeriodicSolver::Shooting);
        QCOMPARE(shotJob_.parameterValues.at("theta4"), 6.0);
        QCOMPARE(shotJob_.parameterValues.at("theta11"), 0.66);
        const auto shot = validation::runFit(shotJob_);
        const auto discretised = validation::runFit(fitJobOf(p, discretise::PeriodicSolver::Discretisation));
        shot_ = shot.result;
        discretised_ = discretised.result;
        for (const auto* r : {&shot_, &discretised_}) {
            QVERIFY2(r->converged(), r->termination.message.c_str());
            const auto& t4 = validation::estimateOf(*r, "theta4");
            const auto& t11 = validation::estimateOf(*r, "theta11");
            qInfo("%s: theta4 = %.6f +- %.6f (truth %.6f), theta11 = %.6f +- %.6f (truth %.6f), %zu iterations, "
                  "%.1f s",
                  r == &shot_ ? "shooting" : "time discretisation", t4.value, t4.sd, kTheta4, t11.value, t11.sd,
                  kTheta11, r->iterations, r == &shot_ ? shot.seconds : discretised.seconds);
            QVERIFY(std::abs(t4.value - kTheta4) < 3 * t4.sd);
            QVERIFY(std::abs(t11.value - kTheta11) < 3 * t11.sd);
            QVERIFY(t4.sd < 0.01 * kTheta4 && t11.sd < 0.05 * kTheta11);
        }
        // The two solvers differ by the discretisation error of the orbit only (Hermite-Simpson, fourth
        // order: 0.05 sd at 200 nodes, 0.004 sd at 400, 6e-5 sd at 800 measured), far below the sd;
        // shooting's own integration error (rtol 1e-8) moves the estimates by 4e-7 sd.
        QCOMPARE(p.settings.periodic.nodes, std::size_t(400));
        for (const char* name : {"theta4", "theta11"}) {
            const auto& a = validation::estimateOf(shot_, name);
            const auto& b = validation::estimateOf(discretised_, name);
            qInfo("%s: shooting - time discretisation = %.2e (%.4f sd)", name, a.value - b.value,
                  (a.value - b.value) / a.sd);
            QVERIFY(std::abs(a.value - b.value) < 0.01 * a.sd);
        }
    }

    void twoDofModelBeatsTheOneDofModel()
    {
        QVERIFY2(shot_.converged(), "needs the 2-DOF fit of the test before");
        const project::Project p1 = validation::bundledProject("oleo_1dof.sysid");
        oneDofJob_ = fitJobOf(p1, discretise::PeriodicSolver::Shooting);
        oneDof_ = validation::runFit(oneDofJob_).result;
        QVERIFY2(oneDof_.converged(), oneDof_.termination.message.c_str());

        const job::ModelComparison c = job::compareModels({{"2-DOF", shotJob_, shot_}, {"1-DOF", oneDofJob_, oneDof_}},
                                                          project::experimentData(p1, 0));
        QVERIFY(c.note.empty());
        QCOMPARE(c.outputs, std::vector<std::string>{"y"});
        for (const auto& m : c.models) {
            QVERIFY2(m.comparison, m.error.c_str());
            qInfo("%s: k = %zu, N = %zu, cost %.2f, AIC %.2f, AICc %.2f, BIC %.2f, rms %.3e m (fit %.2f %%)",
                  m.name.c_str(), m.parameters, m.residuals, m.cost, m.criteria.aic, m.criteria.aicc, m.criteria.bic,
                  m.comparison->agreement[0].rmse, m.comparison->agreement[0].fitPercent);
        }
        const auto& two = c.models[0];
        const auto& one = c.models[1];
        QCOMPARE(two.parameters, std::size_t(2));
        QCOMPARE(one.parameters, std::size_t(3));
        QCOMPARE(two.residuals, std::size_t(600));
        // The 2-DOF model leaves the noise (rms ~ its sd, cost ~ N/2); the 1-DOF model cannot follow the
        // gas's heating and cooling.
        QVERIFY(two.comparison->agreement[0].rmse < 1.2 * kNoiseSd);
        QVERIFY(one.comparison->agreement[0].rmse > 3 * two.comparison->agreement[0].rmse);
        QVERIFY(std::abs(two.cost / (0.5 * 600) - 1) < 0.25);
        QVERIFY(two.criteria.aic < one.criteria.aic && two.criteria.bic < one.criteria.bic);
        QCOMPARE(c.best(), std::optional<std::size_t>(0));
        // The comparison's cost of the 2-DOF model is the fit's own (same weights from the same noise
        // estimate, the same periodic response).
        QVERIFY2(std::abs(two.cost - shot_.cost) < 1e-6 * shot_.cost,
                 qPrintable(QString("%1 vs %2").arg(two.cost).arg(shot_.cost)));
    }
};

QTEST_GUILESS_MAIN(TestOleoValidation)
#include "test_oleo_validation.moc"
