// Constrained mechanics as DAEs (seed 002, "Lagrangen DAEt"): the pendulum in natural coordinates
// (index 3) against the same pendulum in its angle, the constraint drift with and without
// stabilisation, consistent initial values, sensitivities of the DAE against central differences,
// fits through constrained models, a slider-crank built from components against the mechanism in
// its crank angle, and periodic solutions of a forced constrained pendulum by shooting.

#include "SensitivityCheck.h"
#include "ValidationSupport.h"

#include "engine/integrate/ConstraintDrift.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/shooting/PeriodicShooting.h"

#include <QtTest>

#include <cmath>
#include <string>
#include <vector>

using namespace sysid;
using validation::compiledExample;
using validation::compiledText;
using validation::valuesWith;

namespace {

integrate::IntegratorSettings daeIntegrator(double rtol = 1e-10,
                                            integrate::ConstraintStabilisation stabilisation =
                                                integrate::ConstraintStabilisation::Projection)
{
    integrate::IntegratorSettings s;
    s.method = integrate::IntegrationMethod::SparseImplicit;
    s.methodChosen = true;
    s.relativeTolerance = rtol;
    s.absoluteTolerance = rtol * 1e-2;
    s.stabilisation = stabilisation;
    return s;
}

integrate::Trajectory run(const std::shared_ptr<const eval::CompiledModelSource>& source,
                          const std::vector<double>& parameters, const std::vector<double>& times,
                          const integrate::IntegratorSettings& settings, std::vector<std::size_t> sensitivities = {})
{
    eval::CompiledModel model(source);
    model.setParameters(parameters);
    integrate::SimulationRequest request;
    request.times = times;
    request.sensitivityParameters = std::move(sensitivities);
    return integrate::simulate(model, request, settings);
}

Eigen::Index column(const std::vector<std::string>& names, const std::string& name)
{
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name)
            return static_cast<Eigen::Index>(i);
    throw std::invalid_argument("no column " + name);
}

double largestDrift(const integrate::Trajectory& tr, Eigen::Index fromRow = 0)
{
    return tr.invariants.bottomRows(tr.invariants.rows() - fromRow).cwiseAbs().maxCoeff();
}

// The damped pendulum driven by a horizontal force F cos(w t) on the bob, in natural coordinates
// and in its angle (generalised force F cos(w t) dx/dq = F cos(w t) l cos q).
const char* forcedNatural = R"(param m = 1 fixed
param l = 1
param g = 9.81 fixed
param c = 0.5
param F = 1 fixed
param w = 2 fixed
coord x, y
kinetic T = 1/2*m*(x'^2 + y'^2)
potential V = m*g*y
dissipation D = 1/2*c*(x'^2 + y'^2)/l^2
force x = F*cos(w*t)
constraint rod: x^2 + y^2 = l^2
x(0) = 0.1, 0
y(0) = -1 guess
output x
)";

const char* forcedAngle = R"(param m = 1 fixed
param l = 1
param g = 9.81 fixed
param c = 0.5
param F = 1 fixed
param w = 2 fixed
coord q
kinetic T = 1/2*m*l^2*q'^2
potential V = -m*g*l*cos(q)
dissipation D = 1/2*c*q'^2
force q = F*cos(w*t)*l*cos(q)
q(0) = 0.1, 0
output x = l*sin(q)
)";

}  // namespace

class TestConstrainedMechanicsValidation : public QObject {
    Q_OBJECT

private slots:
    // x = l sin q, y = -l cos q, tension m l q'^2 + m g cos q: the index-3 DAE integrated as index 1
    // with projection follows the ODE in the angle to the integration tolerance.
    void pendulumAgainstAngleForm()
    {
        const auto natural = compiledExample("pendulum_natural.model");
        const auto angle = compiledExample("pendulum_lagrange.model");
        const std::vector<double> times = integrate::uniformGrid(0, 10, 0.01);
        const auto a = run(natural, natural->parameterValues, times, daeIntegrator(1e-11));
        integrate::IntegratorSettings reference = validation::referenceIntegrator();
        reference.relativeTolerance = 1e-12;
        reference.absoluteTolerance = 1e-14;
        const auto b = run(angle, angle->parameterValues, times, reference);
        const double l = 1, m = 1, g = 9.81;
        double dx = 0, dy = 0, dtension = 0;
        for (Eigen::Index k = 0; k < a.outputs.rows(); ++k) {
            const double q = b.states(k, 0), v = b.states(k, 1);
            dx = std::max(dx, std::abs(a.outputs(k, column(natural->outputNames, "x")) - l * std::sin(q)));
            dy = std::max(dy, std::abs(a.outputs(k, column(natural->outputNames, "y")) + l * std::cos(q)));
            dtension = std::max(dtension, std::abs(a.outputs(k, column(natural->outputNames, "tension")) -
                                                   (m * l * v * v + m * g * std::cos(q))));
        }
        qInfo("natural vs angle over 10 s (rtol 1e-11): max |dx| %.2e, |dy| %.2e, |d tension| %.2e, drift %.2e", dx,
              dy, dtension, largestDrift(a));
        QVERIFY(dx < 1e-8);
        QVERIFY(dy < 1e-8);
        QVERIFY(dtension < 1e-7);
        QVERIFY(largestDrift(a) < 1e-8);
        // At the default tolerances the two agree to the default tolerance's level.
        const auto loose = run(natural, natural->parameterValues, times, daeIntegrator(1e-8));
        double dxLoose = 0;
        for (Eigen::Index k = 0; k < loose.outputs.rows(); ++k)
            dxLoose = std::max(dxLoose, std::abs(loose.outputs(k, 0) - l * std::sin(b.states(k, 0))));
        qInfo("at rtol 1e-8: max |dx| %.2e", dxLoose);
        QVERIFY(dxLoose < 1e-5);
    }

    // The seed: the invariant is kept in theory, but numerical errors drive the solution off the
    // manifold (quickly) without stabilisation; post-stabilisation by projection holds it.
    void constraintDrift()
    {
        const auto natural = compiledExample("pendulum_natural.model");
        auto parameters = valuesWith(*natural, {{"c", 0.0}});
        const std::vector<double> times = integrate::uniformGrid(0, 40, 0.05);
        using S = integrate::ConstraintStabilisation;
        const auto projected = run(natural, parameters, times, daeIntegrator(1e-8, S::Projection));
        const auto none = run(natural, parameters, times, daeIntegrator(1e-8, S::None));
        const auto baumgarte = run(natural, parameters, times, daeIntegrator(1e-8, S::Baumgarte));
        const Eigen::Index tenth = times.size() / 10;
        const double earlyNone = none.invariants.topRows(tenth).col(0).cwiseAbs().maxCoeff();
        const double lateNone = none.invariants.bottomRows(tenth).col(0).cwiseAbs().maxCoeff();
        const double lateBaumgarte = baumgarte.invariants.bottomRows(tenth).col(0).cwiseAbs().maxCoeff();
        qInfo("drift of x^2 + y^2 - l^2 over 40 s: projection %.2e; none %.2e in the first 4 s, %.2e in the last; "
              "Baumgarte (alpha = beta = 10) %.2e in the last",
              largestDrift(projected), earlyNone, lateNone, lateBaumgarte);
        qInfo("%s", integrate::describeDrift(integrate::constraintDrift(none)).c_str());
        QVERIFY(largestDrift(projected) < 1e-8);
        QVERIFY(lateNone > 5 * earlyNone);  // it grows
        QVERIFY(lateNone > 1e-8);
        QVERIFY(lateBaumgarte < lateNone / 5);  // Baumgarte holds it near the manifold
    }

    // x(0) held, y(0) a guess: y moves onto the circle, the velocities onto its tangent, rod solves
    // its equation; an impossible held value is refused naming the constraint.
    void consistentInitialValues()
    {
        const auto natural = compiledExample("pendulum_natural.model");
        for (const double l : {1.0, 1.3}) {
            const auto tr = run(natural, valuesWith(*natural, {{"l", l}}), {0.0, 0.01}, daeIntegrator());
            const double x = tr.states(0, column(natural->stateNames, "x"));
            const double y = tr.states(0, column(natural->stateNames, "y"));
            const double rod = tr.states(0, column(natural->stateNames, "rod"));
            QCOMPARE(x, l * std::sin(1.0));
            QVERIFY(std::abs(y + l * std::cos(1.0)) < 1e-14);
            QVERIFY(std::abs(tr.states(0, column(natural->stateNames, "y'"))) < 1e-14);
            // At rest the rod carries m g cos(1) = 2 l rod.
            QVERIFY(std::abs(rod - 9.81 * std::cos(1.0) / (2 * l)) < 1e-12);
        }
        // A held velocity: y' follows from x x' + y y' = 0.
        const std::string text = validation::readText(validation::examplePath("pendulum_natural.model"));
        const auto moving = compiledText(validation::replaced(text, "x(0) = l*sin(1), 0", "x(0) = l*sin(1), 0.5"),
                                         "moving.model");
        const auto tr = run(moving, moving->parameterValues, {0.0, 0.01}, daeIntegrator());
        QVERIFY(std::abs(tr.states(0, column(moving->stateNames, "y'")) - 0.5 * std::tan(1.0)) < 1e-13);
        // x(0) = 1.5 > l: no point of the circle has it.
        const auto impossible =
            compiledText(validation::replaced(text, "x(0) = l*sin(1), 0", "x(0) = 1.5, 0"), "impossible.model");
        try {
            run(impossible, impossible->parameterValues, {0.0, 0.01}, daeIntegrator());
            QFAIL("an impossible initial value was accepted");
        } catch (const integrate::IntegrationError& e) {
            const std::string message = e.what();
            qInfo("%s", message.c_str());
            QVERIFY(e.reason() == integrate::IntegrationError::Reason::Constraints);
            QVERIFY(message.find("x^2 + y^2 = l^2") != std::string::npos);
            QVERIFY(message.find("x = 1.5") != std::string::npos);
            QVERIFY(message.find("guess") != std::string::npos);
        }
    }

    // dx/dp of the index-1 DAE with projection, against central differences of the simulation, for
    // every state (the multiplier included) and both estimated parameters; l also moves the
    // consistent initial values.
    void sensitivitiesAgainstFiniteDifferences()
    {
        const auto natural = compiledExample("pendulum_natural.model");
        eval::CompiledModel model(natural);
        const std::vector<double> p = natural->parameterValues;
        const std::vector<double> times = integrate::uniformGrid(0, 3, 0.05);
        for (const integrate::IntegrationMethod method :
             {integrate::IntegrationMethod::SparseImplicit, integrate::IntegrationMethod::CrankNicolson}) {
            const auto settings = validation::sensitivitySettings(method);
            for (const std::string name : {"l", "c"}) {
                const std::size_t index = validation::parameterIndex(*natural, name);
                model.setParameters(p);
                integrate::SimulationRequest request;
                request.times = times;
                request.sensitivityParameters = {index};
                const auto tr = integrate::simulate(model, request, settings);
                std::vector<Eigen::VectorXd> sensitivity;
                for (const auto& S : tr.stateParameterSensitivity)
                    sensitivity.push_back(S.col(0));
                const double h = 1e-5;
                auto up = p, down = p;
                up[index] += h;
                down[index] -= h;
                const Eigen::MatrixXd differences = (validation::statesAt(model, up, times, settings) -
                                                     validation::statesAt(model, down, times, settings)) /
                    (2 * h);
                const auto m = validation::mismatch(sensitivity, differences);
                qInfo("%s, d/d%s: worst |S - FD| / max|FD| = %.2e (state %s)",
                      integrate::methodName(method).c_str(), name.c_str(), m.worst,
                      natural->stateNames[m.state].c_str());
                QVERIFY2(m.worst < 1e-6, "sensitivity differs from central differences");
            }
        }
    }

    // Output error through the constrained model: l and c from noise-free x, y (to 1e-6) and from 2 %
    // noise (within three standard deviations), by Levenberg-Marquardt and by multiple shooting.
    void fitThroughConstraints()
    {
        const auto natural = compiledExample("pendulum_natural.model");
        const std::vector<double> truth = natural->parameterValues;  // l = 1, c = 0.1
        const std::vector<double> times = integrate::uniformGrid(0, 8, 0.04);
        const auto start = valuesWith(*natural, {{"l", 1.3}, {"c", 0.3}});
        for (const auto method : {estimate::EstimationMethod::OutputError, estimate::EstimationMethod::MultipleShooting})
            for (const double noise : {0.0, 2.0}) {
                const auto record =
                    validation::simulatedRecord(natural, truth, times, noise, 5, data::NoiseDistribution::Gaussian);
                estimate::FitSettings settings;
                settings.method = method;
                settings.integrator = daeIntegrator(1e-9);
                const auto result = validation::fitOrReport(natural, start, {record}, settings);
                QVERIFY2(result.converged(), result.termination.message.c_str());
                for (const std::string name : {"l", "c"}) {
                    const std::size_t i = validation::parameterIndex(*natural, name);
                    const auto& estimate = validation::estimateOf(result, name);
                    const double value = estimate.value, sd = estimate.sd;
                    qInfo("%s, %g %% noise: %s = %.8f +- %.2e (true %g), %zu iterations",
                          estimate::methodName(method).c_str(), noise, name.c_str(), value, sd, truth[i],
                          result.iterations);
                    if (noise == 0)
                        QVERIFY(std::abs(value - truth[i]) < 1e-6 * std::max(1.0, truth[i]));
                    else
                        QVERIFY(std::abs(value - truth[i]) < 3 * sd);
                }
            }
    }

    // The slider-crank built from two bars and a slider (9 natural coordinates, 8 constraints)
    // against the same mechanism in its crank angle (an ODE derived without constraints).
    void sliderCrankAgainstReducedCoordinates()
    {
        const auto components = compiledExample("slider_crank.model");
        const auto reduced = compiledExample("slider_crank_reduced.model");
        QCOMPARE(components->constraints.index, 3);
        QCOMPARE(components->constraints.algebraic, std::size_t(8));
        const std::vector<double> times = integrate::uniformGrid(0, 3, 0.01);
        const auto a = run(components, components->parameterValues, times, daeIntegrator(1e-11));
        integrate::IntegratorSettings reference = validation::referenceIntegrator();
        reference.relativeTolerance = 1e-12;
        reference.absoluteTolerance = 1e-14;
        const auto b = run(reduced, reduced->parameterValues, times, reference);
        const double ds = (a.outputs.col(column(components->outputNames, "s")) -
                           b.outputs.col(column(reduced->outputNames, "s")))
                              .cwiseAbs()
                              .maxCoeff();
        const double dangle = (a.outputs.col(column(components->outputNames, "angle")) -
                               b.outputs.col(column(reduced->outputNames, "angle")))
                                  .cwiseAbs()
                                  .maxCoeff();
        qInfo("slider-crank over 3 s: max |ds| %.2e m, max |d angle| %.2e rad (angle %.3f .. %.3f), drift %.2e", ds,
              dangle, b.outputs.col(1).minCoeff(), b.outputs.col(1).maxCoeff(), largestDrift(a));
        QVERIFY(ds < 1e-9);
        QVERIFY(dangle < 1e-8);
        QVERIFY(largestDrift(a) < 1e-8);
        QVERIFY(b.outputs.col(1).maxCoeff() - b.outputs.col(1).minCoeff() > 0.5);  // it moves
    }

    // k and c of the component model fitted to a record of the reduced model (independent data).
    void sliderCrankFitFromReducedData()
    {
        const auto components = compiledExample("slider_crank.model");
        const auto reduced = compiledExample("slider_crank_reduced.model");
        const std::vector<double> times = integrate::uniformGrid(0, 2, 0.02);
        const auto record = validation::simulatedRecord(reduced, reduced->parameterValues, times, 0.0, 1,
                                                        data::NoiseDistribution::Gaussian);
        estimate::FitSettings settings;
        settings.integrator = daeIntegrator(1e-9);
        const auto result = validation::fitOrReport(components, valuesWith(*components, {{"k", 300}, {"c", 3}}),
                                                    {record}, settings);
        QVERIFY2(result.converged(), result.termination.message.c_str());
        const double k = validation::estimateOf(result, "k").value;
        const double c = validation::estimateOf(result, "c").value;
        qInfo("slider-crank from the reduced model's record: k = %.8f (400), c = %.8f (2), %zu iterations", k, c,
              result.iterations);
        QVERIFY(std::abs(k - 400) < 1e-5 * 400);
        QVERIFY(std::abs(c - 2) < 1e-5 * 2);
    }

    // The forced constrained pendulum's periodic orbit by single and multiple shooting: the same orbit
    // and Floquet multipliers as the angle form (the DAE's full monodromy adds zeros for the
    // directions the projection removes, which the multipliers leave out).
    void periodicOrbitByShooting()
    {
        const auto natural = compiledText(forcedNatural, "forced_natural.model");
        const auto angle = compiledText(forcedAngle, "forced_angle.model");
        shooting::PeriodicSettings settings;
        settings.period = 2 * std::acos(-1.0) / 2;
        settings.integrator = daeIntegrator(1e-10);
        eval::CompiledModel angleModel(angle);
        shooting::PeriodicSettings angleSettings = settings;
        angleSettings.integrator = validation::referenceIntegrator();
        Eigen::VectorXd angleGuess(2);
        angleGuess << 0.1, 0;
        const auto reference = shooting::findPeriodicSolution(angleModel, angleGuess, angleSettings);
        QVERIFY2(reference.converged(), reference.newton.termination.message.c_str());
        const double q0 = reference.initialState(0), v0 = reference.initialState(1);
        for (const std::size_t intervals : {std::size_t(1), std::size_t(4)}) {
            eval::CompiledModel model(natural);
            settings.intervals = intervals;
            Eigen::VectorXd guess = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(natural->stateCount()));
            guess(column(natural->stateNames, "x")) = 0.1;
            guess(column(natural->stateNames, "y")) = -1;
            const auto orbit = shooting::findPeriodicSolution(model, guess, settings);
            QVERIFY2(orbit.converged(), orbit.newton.termination.message.c_str());
            const double x0 = orbit.initialState(column(natural->stateNames, "x"));
            const double xv0 = orbit.initialState(column(natural->stateNames, "x'"));
            qInfo("%zu interval(s): x(0) = %.10f (angle form %.10f), x'(0) = %.10f (%.10f), %zu Newton iterations, "
                  "multipliers %zu",
                  intervals, x0, std::sin(q0), xv0, std::cos(q0) * v0, orbit.newton.iterations,
                  orbit.floquet.multipliers.size());
            QVERIFY(std::abs(x0 - std::sin(q0)) < 1e-7);
            QVERIFY(std::abs(xv0 - std::cos(q0) * v0) < 1e-7);
            QCOMPARE(orbit.floquet.multipliers.size(), reference.floquet.multipliers.size());
            for (std::size_t i = 0; i < reference.floquet.multipliers.size(); ++i) {
                qInfo("  multiplier %zu: %.8f%+.8fi (angle form %.8f%+.8fi)", i, orbit.floquet.multipliers[i].real(),
                      orbit.floquet.multipliers[i].imag(), reference.floquet.multipliers[i].real(),
                      reference.floquet.multipliers[i].imag());
                QVERIFY(std::abs(orbit.floquet.multipliers[i] - reference.floquet.multipliers[i]) < 1e-5);
            }
            QCOMPARE(orbit.floquet.stable, reference.floquet.stable);
        }
    }
};

QTEST_GUILESS_MAIN(TestConstrainedMechanicsValidation)
#include "test_constrained_mechanics_validation.moc"
