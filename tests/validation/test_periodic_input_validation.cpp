// Periodic solutions under a measured periodic excitation (Vankan 1992, §6.4-6.5: the shock absorber
// driven by a measured force over one period). Ueda's Duffing oscillator x'' + 0.2 x' + x^3 = u with
// u = 0.3 cos t given as a record over one period, extended periodically, against the same model with
// 0.3*cos(t) written out:
//   - the periodic extension itself: u(t + T) = u(t), the periodic spline's fourth-order accuracy,
//     averaging of whole periods, and the records that cannot be folded onto a period;
//   - the orbit and its Floquet multipliers by single and multiple shooting and by time
//     discretisation, to the interpolation's accuracy (stated in the log);
//   - continuation in the damping, and a periodic-response fit of the damping, with the input.
#include "../engine/VectorTestSupport.h"
#include "ValidationSupport.h"

#include "engine/data/DataError.h"
#include "engine/discretise/PeriodicDiscretisation.h"
#include "engine/integrate/PeriodicInputRecord.h"
#include "engine/shooting/Continuation.h"
#include "engine/shooting/PeriodicShooting.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace sysid;
using namespace sysid::shooting;
using test::vec;

namespace {

constexpr double twoPi = 2 * std::numbers::pi;
const char* kWritten = "param k = 0.2\nparam B = 0.3\nx'' = -k*x' - x^3 + B*cos(t)\nx(0) = 0, 0\noutput x\n";
const char* kDriven = "param k = 0.2\ninput u\nx'' = -k*x' - x^3 + u\nx(0) = 0, 0\noutput x\n";

// u = 0.3 cos t sampled at m points over [t0, t0 + 2 pi) (and `periods` whole periods, plus
// `noise` alternating in sign from period to period so that it cancels in the average).
data::DataTable forceRecord(std::size_t m, std::size_t periods = 1, double t0 = 0.0, double noise = 0.0)
{
    data::DataTable table;
    table.source = "force.csv";
    table.columnNames = {"t", "u"};
    table.columns.resize(2);
    for (std::size_t p = 0; p < periods; ++p)
        for (std::size_t k = 0; k < m; ++k) {
            const double t = t0 + twoPi * static_cast<double>(p * m + k) / static_cast<double>(m);
            table.columns[0].push_back(t);
            table.columns[1].push_back(0.3 * std::cos(t) + (p % 2 == 0 ? noise : -noise));
        }
    return table;
}

integrate::InputSignals periodicForce(std::size_t m, integrate::Intersample behaviour)
{
    return integrate::periodicInputsFromTable({"u"}, forceRecord(m), twoPi, {}, {{"u", behaviour}}).inputs;
}

PeriodicSettings tightSettings()
{
    PeriodicSettings s;
    s.period = twoPi;
    s.integrator.relativeTolerance = 1e-11;
    s.integrator.absoluteTolerance = 1e-13;
    s.newton.residualTolerance = 1e-10;
    return s;
}

double multiplierDifference(const PeriodicSolution& a, const PeriodicSolution& b)
{
    double d = 0;
    for (std::size_t i = 0; i < a.floquet.multipliers.size(); ++i)
        d = std::max(d, std::abs(a.floquet.multipliers[i] - b.floquet.multipliers[i]));
    return d;
}

}  // namespace

class TestPeriodicInputValidation : public QObject {
    Q_OBJECT

private slots:
    void periodicExtensionRepeatsAndIsFourthOrder()
    {
        double previous = 0;
        for (std::size_t m : {16, 32, 64}) {
            const auto u = periodicForce(m, integrate::Intersample::Spline);
            double error = 0;
            for (int j = 0; j < 997; ++j) {
                const double t = -7.0 + 0.031 * j;  // several periods, both sides of t0
                std::size_t hint = 0;
                error = std::max(error, std::abs(u.value(0, t, hint) - 0.3 * std::cos(t)));
                QVERIFY(std::abs(u.value(0, t + twoPi, hint) - u.value(0, t, hint)) < 1e-12);
                QVERIFY(std::abs(u.slope(0, t) + 0.3 * std::sin(t)) < 0.3 * 20.0 / static_cast<double>(m * m));
            }
            qInfo("periodic spline through %zu samples of 0.3 cos t: max error %.3e", m, error);
            if (previous > 0)
                QVERIFY2(previous / error > 12, "the periodic spline should converge at fourth order");
            previous = error;
        }
        // Hold and linear wrap too; their kinks repeat every period.
        const auto hold = periodicForce(8, integrate::Intersample::Hold);
        std::size_t hint = 0;
        QCOMPARE(hold.value(0, twoPi * 7.0 / 8.0 + 0.1, hint), 0.3 * std::cos(twoPi * 7.0 / 8.0));
        QCOMPARE(hold.value(0, twoPi * 15.0 / 8.0 + 0.1, hint), 0.3 * std::cos(twoPi * 7.0 / 8.0));
        std::vector<double> kinks;
        hold.kinks(0, 0.1, 2 * twoPi - 0.1, kinks);
        QCOMPARE(kinks.size(), std::size_t(15));  // 7 + 8 sample times inside (0.1, 4 pi - 0.1)
        const auto spline = periodicForce(8, integrate::Intersample::Spline);
        kinks.clear();
        spline.kinks(0, -10.0, 10.0, kinks);
        QVERIFY(kinks.empty());  // C2 across the period's ends
    }

    void wholePeriodsAreAveragedAndBadRecordsRefused()
    {
        // Five periods with +-0.05 alternating: the average is off by 0.05/5 only.
        const auto folded = integrate::periodicInputsFromTable({"u"}, forceRecord(40, 5, 0.0, 0.05), twoPi);
        QCOMPARE(folded.periodsAveraged, std::size_t(5));
        QCOMPARE(folded.inputs.signal(0).size(), std::size_t(41));  // 40 and the closing sample
        std::size_t hint = 0;
        QVERIFY(std::abs(folded.inputs.value(0, 0.0, hint) - (0.3 + 0.01)) < 1e-12);
        // One period with its closing sample: the closing sample is dropped.
        auto closed = forceRecord(40);
        closed.columns[0].push_back(twoPi);
        closed.columns[1].push_back(0.3);
        QCOMPARE(integrate::periodicInputsFromTable({"u"}, closed, twoPi).inputs.signal(0).size(), std::size_t(41));
        // 40 samples per period do not fold onto a period of 2 pi * 1.01.
        try {
            (void)integrate::periodicInputsFromTable({"u"}, forceRecord(40, 3), twoPi * 1.01);
            QFAIL("a period that is no whole number of samples was accepted");
        } catch (const data::DataError& e) {
            QVERIFY2(std::string(e.what()).find("force.csv") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("whole number of sample intervals") != std::string::npos, e.what());
        }
    }

    void shootingOrbitEqualsWrittenForcing()
    {
        eval::CompiledModel written(validation::compiledText(kWritten, "written"));
        eval::CompiledModel driven(validation::compiledText(kDriven, "driven"));
        PeriodicSettings s = tightSettings();
        const auto reference = findPeriodicSolution(written, vec({0, 0}), s);
        QVERIFY2(reference.converged(), reference.newton.termination.message.c_str());

        // Without the record the model is refused with a message saying what to give.
        const auto refused = findPeriodicSolution(driven, vec({0, 0}), s);
        QVERIFY(!refused.converged());
        QVERIFY2(refused.newton.termination.message.find("record over one forcing period") != std::string::npos,
                 refused.newton.termination.message.c_str());

        double previous = 0;
        for (std::size_t m : {32, 64, 128}) {
            const auto u = periodicForce(m, integrate::Intersample::Spline);
            s.inputs = &u;
            for (std::size_t intervals : {1, 4}) {
                s.intervals = intervals;
                const auto orbit = findPeriodicSolution(driven, vec({0, 0}), s);
                QVERIFY2(orbit.converged(), orbit.newton.termination.message.c_str());
                const double dx = (orbit.initialState - reference.initialState).cwiseAbs().maxCoeff();
                const double dmu = multiplierDifference(orbit, reference);
                qInfo("spline through %3zu samples, %zu interval(s): |x(0) - written| = %.2e, |mu - written| = %.2e",
                      m, intervals, dx, dmu);
                if (m == 64) {
                    QVERIFY(dx < 1e-6);
                    QVERIFY(dmu < 1e-6);
                }
                if (intervals == 1 && previous > 0)
                    QVERIFY2(previous / dx > 10, "the orbit should follow the spline's fourth-order accuracy");
                if (intervals == 1)
                    previous = dx;
            }
        }
        // Linear interpolation is second order: the same 64 samples are clearly worse.
        const auto linear = periodicForce(64, integrate::Intersample::Linear);
        s.inputs = &linear;
        s.intervals = 1;
        const auto orbit = findPeriodicSolution(driven, vec({0, 0}), s);
        QVERIFY(orbit.converged());
        const double dx = (orbit.initialState - reference.initialState).cwiseAbs().maxCoeff();
        qInfo("linear through  64 samples: |x(0) - written| = %.2e", dx);
        QVERIFY(dx > 1e-5 && dx < 1e-3);
    }

    void timeDiscretisationEqualsWrittenForcing()
    {
        eval::CompiledModel written(validation::compiledText(kWritten, "written"));
        eval::CompiledModel driven(validation::compiledText(kDriven, "driven"));
        const auto u = periodicForce(128, integrate::Intersample::Spline);
        discretise::DiscretisationSettings d;
        d.period = twoPi;
        d.nodes = 200;
        d.scheme = discretise::PeriodicScheme::HermiteSimpson;
        const auto shot = findPeriodicSolution(written, vec({0, 0}), tightSettings());
        QVERIFY(shot.converged());
        const auto reference = discretise::findPeriodicSolutionByDiscretisation(written, shot.times, shot.states, d);
        QVERIFY2(reference.converged(), reference.newton.termination.message.c_str());
        d.inputs = &u;
        const auto orbit = discretise::findPeriodicSolutionByDiscretisation(driven, shot.times, shot.states, d);
        QVERIFY2(orbit.converged(), orbit.newton.termination.message.c_str());
        const double dx = (orbit.states - reference.states).cwiseAbs().maxCoeff();
        qInfo("time discretisation (200 nodes), spline through 128 samples: max |x - written| = %.2e, |mu| diff %.2e",
              dx, multiplierDifference(orbit, reference));
        QVERIFY(dx < 1e-6);
        QVERIFY(multiplierDifference(orbit, reference) < 1e-6);
    }

    void continuationInDampingFollowsWrittenForcing()
    {
        eval::CompiledModel written(validation::compiledText(kWritten, "written"));
        eval::CompiledModel driven(validation::compiledText(kDriven, "driven"));
        const auto u = periodicForce(128, integrate::Intersample::Spline);
        ContinuationSettings c;
        c.parameter = 0;  // k
        c.start = 0.2;
        c.end = 0.4;
        c.initialStep = 0.05;
        c.maxStep = 0.05;
        c.method = ContinuationMethod::Natural;
        c.periodic = tightSettings();
        const auto reference = continuePeriodicSolutions(written, vec({0, 0}), c);
        c.periodic.inputs = &u;
        const auto branch = continuePeriodicSolutions(driven, vec({0, 0}), c);
        QVERIFY2(reference.completed(), reference.termination.message.c_str());
        QVERIFY2(branch.completed(), branch.termination.message.c_str());
        QCOMPARE(branch.points.size(), reference.points.size());
        for (std::size_t i = 0; i < branch.points.size(); ++i) {
            QVERIFY(std::abs(branch.points[i].parameter - reference.points[i].parameter) < 1e-12);
            QVERIFY(std::abs(branch.points[i].amplitude - reference.points[i].amplitude) < 1e-6);
        }
        // A period that follows the parameter contradicts a measured record.
        c.periodOf = forcingPeriodOfFrequency();
        QVERIFY(!continuePeriodicSolutions(driven, vec({0, 0}), c).completed());
    }

    void periodicResponseFitWithMeasuredInput_data()
    {
        QTest::addColumn<bool>("discretised");
        QTest::newRow("shooting") << false;
        QTest::newRow("time discretisation") << true;
    }

    // Responses of the written model at k = 0.2 (the truth), fitted from k = 0.3 by the model driven
    // by the 0.3 cos t record (three periods sampled at 60 points, averaged): k to the interpolation's
    // accuracy, with shooting and with time discretisation alike.
    void periodicResponseFitWithMeasuredInput()
    {
        QFETCH(bool, discretised);
        const auto written = validation::compiledText(kWritten, "written");
        const auto driven = validation::compiledText(kDriven, "driven");
        eval::CompiledModel reference(written);
        const auto orbit = findPeriodicSolution(reference, vec({0, 0}), tightSettings());
        QVERIFY(orbit.converged());

        estimate::Experiment e;
        e.name = "record";
        const std::size_t samples = 40;
        for (std::size_t i = 0; i < samples; ++i)
            e.times.push_back(twoPi * static_cast<double>(i) / static_cast<double>(samples));
        integrate::SimulationRequest request;
        request.times = e.times;
        request.initialState = std::vector<double>(orbit.initialState.data(), orbit.initialState.data() + 2);
        const auto tr = integrate::simulate(reference, request, validation::referenceIntegrator());
        e.measured = tr.outputs;
        e.outputMeasured = {true};
        const auto record = forceRecord(60, 3);
        e.inputs = integrate::InputSignals::fromTable({"u"}, record, {}, {{"u", integrate::Intersample::Spline}});

        estimate::FitSettings settings;
        settings.method = estimate::EstimationMethod::PeriodicResponse;
        settings.periodic.period = twoPi;
        settings.integrator = test::tight(integrate::IntegrationMethod::Dopri5, 1e-10, 1e-12);
        settings.outputWeights["x"] = 1.0;
        if (discretised) {
            settings.periodic.solver = discretise::PeriodicSolver::Discretisation;
            settings.periodic.scheme = discretise::PeriodicScheme::HermiteSimpson;
            settings.periodic.nodes = 200;
        }
        const auto r = validation::fitOrReport(driven, {0.3}, {e}, settings);
        QVERIFY2(r.converged(), r.termination.message.c_str());
        const double k = r.parameters[0].value;
        qInfo("periodic-response fit with the measured input (%s): k = %.8f (truth 0.2), %zu iterations",
              discretised ? "time discretisation" : "shooting", k, r.iterations);
        QVERIFY(std::abs(k - 0.2) < 1e-4);
    }
};

QTEST_GUILESS_MAIN(TestPeriodicInputValidation)
#include "test_periodic_input_validation.moc"
