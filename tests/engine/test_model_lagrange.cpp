// Lagrange's equations (engine/model/LagrangeDerivation) as the model language derives them,
// and the a.e. derivative rules of abs, sign, min and max (engine/model/SymbolicFunctions)
// as they reach the compiled Jacobians — including v = 0, where GiNaC's own abs gives NaN.

#include "ModelTestSupport.h"

#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/model/LagrangeDerivation.h"
#include "engine/model/Model.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/ModelError.h"
#include "engine/model/SymbolicFunctions.h"

#include <QtTest>

#include <cmath>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace sysid;
using model::Model;
using model::ModelError;
using test::errorOf;
using test::isZero;
using test::param;
using test::show;

namespace {

GiNaC::ex stateSymbol(const Model& m, const std::string& name)
{
    return test::state(m, name).symbol;
}

// f at (t, x, u) with parameters p.
std::vector<double> rhsAt(eval::CompiledModel& cm, const std::vector<double>& p, double t, const std::vector<double>& x,
                          const std::vector<double>& u)
{
    cm.setParameters(p);
    cm.setPoint(t, x.data(), u.empty() ? nullptr : u.data());
    std::vector<double> f(cm.stateCount());
    cm.rhs(f.data());
    return f;
}

std::vector<double> jacobianAt(eval::CompiledModel& cm, const std::vector<double>& x)
{
    cm.setPoint(0.0, x.data(), nullptr);
    std::vector<double> J(cm.stateCount() * cm.stateCount());
    cm.stateJacobian(J.data());
    return J;
}

const char* pendulumText = "param m = 2\n"
                           "param l = 3\n"
                           "param g = 9.81\n"
                           "param F = 0.5\n"
                           "coord q\n"
                           "q(0) = 1, 0\n"
                           "kinetic T = 1/2*m*l^2*q'^2\n"
                           "potential V = -m*g*l*cos(q)\n"
                           "force q = F\n";

}  // namespace

class TestModelLagrange : public QObject {
    Q_OBJECT

private slots:
    void pendulumEquationAsDerived()
    {
        const Model m = model::parseModel(pendulumText);
        QCOMPARE(m.states.size(), std::size_t(2));
        QCOMPARE(m.states[0].name, std::string("q"));
        QCOMPARE(m.states[1].name, std::string("q'"));
        QCOMPARE(m.lagrangeEquations.size(), std::size_t(1));
        QCOMPARE(m.accelerationSymbols.size(), std::size_t(1));
        const auto& eq = m.lagrangeEquations[0];
        QCOMPARE(eq.coordinate, std::string("q"));
        const GiNaC::symbol &mm = param(m, "m"), &l = param(m, "l"), &g = param(m, "g"), &F = param(m, "F");
        const GiNaC::ex q = stateSymbol(m, "q"), qdd = m.accelerationSymbols[0];
        QCOMPARE(m.accelerationSymbols[0].get_name(), std::string("q''"));
        const GiNaC::ex expected = mm * GiNaC::pow(l, 2) * qdd + mm * g * l * GiNaC::sin(q);
        QVERIFY2((eq.lhs - expected).expand().is_zero(), show(eq.lhs).c_str());
        QVERIFY2((eq.generalizedForce - F).expand().is_zero(), show(eq.generalizedForce).c_str());
        // Solved for q'': the first-order system is q' = q', q'' = (F - m g l sin q)/(m l^2).
        QVERIFY(isZero(m.states[0].rhs - stateSymbol(m, "q'")));
        const GiNaC::ex acceleration = (F - mm * g * l * GiNaC::sin(q)) / (mm * GiNaC::pow(l, 2));
        QVERIFY2(isZero(m.states[1].rhs - acceleration), show(m.states[1].rhs).c_str());
        QVERIFY(!m.dependsOnTime());
        // the energies are not parameters or states
        QCOMPARE(m.parameters.size(), std::size_t(4));
        QCOMPARE(m.parameterIndex("T"), std::string::npos);
    }

    void pendulumNumerically()
    {
        const Model m = model::parseModel(pendulumText);
        eval::CompiledModel cm(eval::compileModel(m));
        const std::vector<double> p{2, 3, 9.81, 0.5};
        const auto f = rhsAt(cm, p, 0.0, {0.7, -0.4}, {});
        QCOMPARE(f[0], -0.4);
        const double expected = (0.5 - 2 * 9.81 * 3 * std::sin(0.7)) / (2 * 9.0);
        QVERIFY2(std::abs(f[1] - expected) < 1e-13, qPrintable(QString::number(f[1], 'g', 17)));
    }

    void dissipationAddsDamping()
    {
        const std::string text = std::string(pendulumText) + "param c = 0.1\ndissipation D = 1/2*c*q'^2\n";
        const Model m = model::parseModel(text);
        const GiNaC::symbol &mm = param(m, "m"), &l = param(m, "l"), &g = param(m, "g"), &c = param(m, "c");
        const GiNaC::ex q = stateSymbol(m, "q"), qd = stateSymbol(m, "q'"), qdd = m.accelerationSymbols[0];
        const GiNaC::ex expected = mm * GiNaC::pow(l, 2) * qdd + c * qd + mm * g * l * GiNaC::sin(q);
        QVERIFY2((m.lagrangeEquations[0].lhs - expected).expand().is_zero(), show(m.lagrangeEquations[0].lhs).c_str());
        QVERIFY((m.lagrangeEquations[0].generalizedForce - param(m, "F")).expand().is_zero());
    }

    void noForceMeansZeroGeneralizedForce()
    {
        const Model m = model::parseModel("param k = 4\ncoord q\nkinetic T = q'^2/2\npotential V = k*q^2/2\n");
        QVERIFY(m.lagrangeEquations[0].generalizedForce.is_zero());
        const GiNaC::ex q = stateSymbol(m, "q");
        QVERIFY(isZero(m.states[1].rhs + param(m, "k") * q));
    }

    void exampleFileDerivesTheDocumentedEquation()
    {
        // resources/examples/pendulum_lagrange.model documents m*l^2*q'' + c*q' + m*g*l*sin(q) = 0.
        const Model m = model::loadModel(SYSID_SOURCE_DIR "/resources/examples/pendulum_lagrange.model");
        const GiNaC::symbol &mm = param(m, "m"), &l = param(m, "l"), &g = param(m, "g"), &c = param(m, "c");
        const GiNaC::ex q = stateSymbol(m, "q"), qd = stateSymbol(m, "q'"), qdd = m.accelerationSymbols[0];
        QVERIFY(
            (m.lagrangeEquations[0].lhs - (mm * l * l * qdd + c * qd + mm * g * l * GiNaC::sin(q))).expand().is_zero());
        QVERIFY(m.lagrangeEquations[0].generalizedForce.is_zero());
    }

    void outputsOfALagrangianModel()
    {
        // q'' in an output is the solved acceleration; the energies are named expressions.
        const std::string text = std::string(pendulumText) + "output q\noutput acc = q''\noutput E = T + V\n";
        const Model m = model::parseModel(text);
        QCOMPARE(m.outputs.size(), std::size_t(3));
        eval::CompiledModel cm(eval::compileModel(m));
        const std::vector<double> x{0.7, -0.4};
        cm.setPoint(0.0, x.data(), nullptr);
        std::vector<double> y(3);
        cm.outputs(y.data());
        QCOMPARE(y[0], 0.7);
        const double acc = (0.5 - 2 * 9.81 * 3 * std::sin(0.7)) / (2 * 9.0);
        QVERIFY2(std::abs(y[1] - acc) < 1e-13, qPrintable(QString::number(y[1], 'g', 17)));
        const double energy = 0.5 * 2 * 9 * 0.16 - 2 * 9.81 * 3 * std::cos(0.7);
        QVERIFY2(std::abs(y[2] - energy) < 1e-12, qPrintable(QString::number(y[2], 'g', 17)));
    }

    void timeDependentKineticEnergy()
    {
        // A mass growing in time: d/dt((1 + t) q') = (1 + t) q'' + q'.
        const Model m = model::parseModel("coord q\nkinetic T = 1/2*(1 + t)*q'^2\npotential V = q^2/2\n");
        const GiNaC::ex q = stateSymbol(m, "q"), qd = stateSymbol(m, "q'"), qdd = m.accelerationSymbols[0];
        const GiNaC::ex expected = (1 + m.time) * qdd + qd + q;
        QVERIFY2((m.lagrangeEquations[0].lhs - expected).expand().is_zero(), show(m.lagrangeEquations[0].lhs).c_str());
        QVERIFY(isZero(m.states[1].rhs - (-qd - q) / (1 + m.time)));
        QVERIFY(m.dependsOnTime());
    }

    // `force` is a keyword only before a coordinate (force q = ...): an input called force drives
    // the same cart and pendulum as one called u, and the force line still builds.
    void aForceLineBesideAnInputCalledForce()
    {
        const std::string common = "param M = 1.5\nparam m = 0.4\nparam l = 0.8\nparam g = 9.81\nparam c = 0.2\n"
                                   "coord x, th\n"
                                   "kinetic T = 1/2*(M + m)*x'^2 + m*l*x'*th'*cos(th) + 1/2*m*l^2*th'^2\n"
                                   "potential V = -m*g*l*cos(th)\n";
        const Model before = model::parseModel(common + "input u\nforce x = u - c*x'\n");
        const Model named = model::parseModel(common + "input force\nforce x = force - c*x'\n");
        QCOMPARE(named.inputs[0].name, std::string("force"));
        QCOMPARE(named.lagrangeEquations.size(), std::size_t(2));
        QVERIFY((named.lagrangeEquations[0].generalizedForce -
                 (named.inputs[0].symbol - param(named, "c") * stateSymbol(named, "x'")))
                    .expand()
                    .is_zero());
        eval::CompiledModel a(eval::compileModel(before)), b(eval::compileModel(named));
        std::mt19937 rng(17);
        std::uniform_real_distribution<double> U(-1.0, 1.0);
        const std::vector<double> p{1.5, 0.4, 0.8, 9.81, 0.2};
        for (int trial = 0; trial < 10; ++trial) {
            const std::vector<double> x{U(rng), 2 * U(rng), 3 * U(rng), 3 * U(rng)};
            const std::vector<double> u{5 * U(rng)};
            const auto fa = rhsAt(a, p, 0.0, x, u), fb = rhsAt(b, p, 0.0, x, u);
            for (std::size_t i = 0; i < fa.size(); ++i)
                QVERIFY2(std::abs(fa[i] - fb[i]) <= 1e-13 * (1 + std::abs(fa[i])), qPrintable(QString::number(trial)));
        }
    }

    void cartPendulumNonDiagonalMassMatrix()
    {
        // Cart (mass M, position x) carrying a pendulum (mass m, length l, angle th from the downward
        // vertical), pushed by an input force u against viscous friction c.
        const Model m = model::parseModel("param M = 1.5\nparam m = 0.4\nparam l = 0.8\nparam g = 9.81\nparam c = 0.2\n"
                                          "input u\n"
                                          "coord x, th\n"
                                          "kinetic T = 1/2*(M + m)*x'^2 + m*l*x'*th'*cos(th) + 1/2*m*l^2*th'^2\n"
                                          "potential V = -m*g*l*cos(th)\n"
                                          "force x = u - c*x'\n");
        QCOMPARE(m.states.size(), std::size_t(4));
        QCOMPARE(m.states[0].name, std::string("x"));
        QCOMPARE(m.states[1].name, std::string("x'"));
        QCOMPARE(m.states[2].name, std::string("th"));
        QCOMPARE(m.states[3].name, std::string("th'"));
        QCOMPARE(m.lagrangeEquations.size(), std::size_t(2));
        QCOMPARE(m.accelerationSymbols.size(), std::size_t(2));

        // Symbolically, the derived left-hand sides (hand-derived):
        //   (M+m) x'' + m l cos(th) th'' - m l sin(th) th'^2
        //   m l cos(th) x'' + m l^2 th'' + m g l sin(th)
        const GiNaC::symbol &M = param(m, "M"), &mm = param(m, "m"), &l = param(m, "l"), &g = param(m, "g"),
                            &c = param(m, "c");
        const GiNaC::ex th = stateSymbol(m, "th"), thd = stateSymbol(m, "th'"), xd = stateSymbol(m, "x'");
        const GiNaC::ex xdd = m.accelerationSymbols[0], thdd = m.accelerationSymbols[1];
        const GiNaC::ex lhsX =
            (M + mm) * xdd + mm * l * GiNaC::cos(th) * thdd - mm * l * GiNaC::sin(th) * GiNaC::pow(thd, 2);
        const GiNaC::ex lhsTh = mm * l * GiNaC::cos(th) * xdd + mm * l * l * thdd + mm * g * l * GiNaC::sin(th);
        QCOMPARE(m.lagrangeEquations[0].coordinate, std::string("x"));
        QCOMPARE(m.lagrangeEquations[1].coordinate, std::string("th"));
        QVERIFY2((m.lagrangeEquations[0].lhs - lhsX).expand().is_zero(), show(m.lagrangeEquations[0].lhs).c_str());
        QVERIFY2((m.lagrangeEquations[1].lhs - lhsTh).expand().is_zero(), show(m.lagrangeEquations[1].lhs).c_str());
        QVERIFY((m.lagrangeEquations[0].generalizedForce - (m.inputs[0].symbol - c * xd)).expand().is_zero());
        QVERIFY(m.lagrangeEquations[1].generalizedForce.is_zero());

        // Numerically at random points: M(q) q'' = Q - rest with the accelerations of the compiled model.
        eval::CompiledModel cm(eval::compileModel(m));
        std::mt19937 rng(20240607);
        std::uniform_real_distribution<double> U(-1.0, 1.0);
        for (int trial = 0; trial < 20; ++trial) {
            const double Mv = 1 + U(rng) * 0.5 + 0.5, mv = 0.5 + 0.3 * U(rng), lv = 1 + 0.5 * U(rng), gv = 9.81,
                         cv = 0.3 + 0.2 * U(rng);
            const double x = U(rng), xdv = 2 * U(rng), thv = 3 * U(rng), thdv = 3 * U(rng), u = 5 * U(rng);
            const auto f = rhsAt(cm, {Mv, mv, lv, gv, cv}, 0.3, {x, xdv, thv, thdv}, {u});
            QVERIFY(std::abs(f[0] - xdv) < 1e-14);
            QVERIFY(std::abs(f[2] - thdv) < 1e-14);
            const double a = f[1], b = f[3];  // x'', th''
            const double m11 = Mv + mv, m12 = mv * lv * std::cos(thv), m22 = mv * lv * lv;
            const double rest1 = -mv * lv * std::sin(thv) * thdv * thdv, rest2 = mv * gv * lv * std::sin(thv);
            const double Q1 = u - cv * xdv, Q2 = 0;
            const double r1 = m11 * a + m12 * b - (Q1 - rest1);
            const double r2 = m12 * a + m22 * b - (Q2 - rest2);
            QVERIFY2(std::abs(r1) < 1e-11 && std::abs(r2) < 1e-11,
                     qPrintable(QString("residuals %1 %2 at trial %3").arg(r1).arg(r2).arg(trial)));
            // Hand-solved (Cramer's rule), as a second opinion.
            const double det = m11 * m22 - m12 * m12;
            const double aHand = ((Q1 - rest1) * m22 - m12 * (Q2 - rest2)) / det;
            const double bHand = (m11 * (Q2 - rest2) - m12 * (Q1 - rest1)) / det;
            QVERIFY(std::abs(a - aHand) < 1e-11 * std::max(1.0, std::abs(aHand)));
            QVERIFY(std::abs(b - bHand) < 1e-11 * std::max(1.0, std::abs(bHand)));

            // The symbolic Jacobian agrees with central differences of f.
            std::vector<double> z{x, xdv, thv, thdv};
            cm.setPoint(0.3, z.data(), &u);
            std::vector<double> J(16);
            cm.stateJacobian(J.data());
            for (std::size_t j = 0; j < 4; ++j) {
                const double h = 1e-6;
                auto zp = z, zm = z;
                zp[j] += h;
                zm[j] -= h;
                const auto fp = rhsAt(cm, {Mv, mv, lv, gv, cv}, 0.3, zp, {u});
                const auto fm = rhsAt(cm, {Mv, mv, lv, gv, cv}, 0.3, zm, {u});
                for (std::size_t i = 0; i < 4; ++i) {
                    const double fd = (fp[i] - fm[i]) / (2 * h);
                    QVERIFY2(
                        std::abs(J[i + 4 * j] - fd) < 1e-5 * std::max(1.0, std::abs(fd)),
                        qPrintable(QString("J(%1,%2) = %3, differences %4").arg(i).arg(j).arg(J[i + 4 * j]).arg(fd)));
                }
            }
        }
    }

    void kineticEnergyDependingOnAnInputIsRejected()
    {
        const auto e = errorOf("input u\ncoord q\nkinetic T = 1/2*(1 + u^2)*q'^2\npotential V = q^2\n");
        QVERIFY(e);
        QCOMPARE(e->diagnostics().size(), std::size_t(1));
        QCOMPARE(e->diagnostics()[0].where.line, 3);
        QCOMPARE(e->diagnostics()[0].where.column, 1);
        QVERIFY2(std::string(e->diagnostics()[0].message).find("the kinetic energy depends on input u") !=
                     std::string::npos,
                 e->what());
        // An input outside the momentum (in T but not multiplied by a velocity) is fine.
        QVERIFY(!errorOf("input u\ncoord q\nkinetic T = 1/2*q'^2 + u*q\npotential V = q^2\n"));
        // Inputs are fine in the potential and in forces.
        QVERIFY(!errorOf("input u\ncoord q\nkinetic T = 1/2*q'^2\npotential V = u*q^2\nforce q = u\n"));
    }

    void singularKineticEnergyIsRejected()
    {
        // r' does not appear at all.
        auto e = errorOf("coord q, r\nkinetic T = 1/2*q'^2\npotential V = q^2 + r^2\n");
        QVERIFY(e);
        QCOMPARE(e->diagnostics().size(), std::size_t(1));
        QCOMPARE(e->diagnostics()[0].where.line, 2);
        QCOMPARE(e->diagnostics()[0].where.column, 1);
        QVERIFY2(e->diagnostics()[0].message.find("singular mass matrix") != std::string::npos, e->what());
        // Both velocities appear, but only in one combination: M = [[1, 1], [1, 1]].
        e = errorOf("coord q, r\nq(0) = 1\nkinetic T = 1/2*(q' + r')^2\npotential V = q^2 + r^2\n");
        QVERIFY(e);
        QCOMPARE(e->diagnostics()[0].where.line, 3);
        QVERIFY2(e->diagnostics()[0].message.find("singular mass matrix") != std::string::npos, e->what());
        // No velocity at all.
        QVERIFY(errorOf("coord q\nkinetic T = q^2\n"));
    }

    void deriveLagrangeDirectly()
    {
        // The derivation on its own, without the parser: a two-mass spring chain.
        GiNaC::symbol t("t"), k("k"), m1("m1"), m2("m2");
        model::LagrangeSystem system;
        system.time = t;
        model::LagrangeCoordinate a{"a", GiNaC::symbol("a"), GiNaC::symbol("a'"), GiNaC::symbol("a''"), 0};
        model::LagrangeCoordinate b{"b", GiNaC::symbol("b"), GiNaC::symbol("b'"), GiNaC::symbol("b''"), 0};
        b.force = GiNaC::cos(t);
        system.kinetic = m1 * GiNaC::pow(a.velocity, 2) / 2 + m2 * GiNaC::pow(b.velocity, 2) / 2;
        system.potential = k * GiNaC::pow(a.position, 2) / 2 + k * GiNaC::pow(b.position - a.position, 2) / 2;
        system.dissipation = 0;
        system.coordinates = {a, b};
        const auto result = model::deriveLagrange(system);
        QCOMPARE(result.equations.size(), std::size_t(2));
        QCOMPARE(result.accelerations.size(), std::size_t(2));
        QVERIFY(isZero(result.accelerations[0] - (-k * a.position + k * (b.position - a.position)) / m1));
        QVERIFY(isZero(result.accelerations[1] - (GiNaC::cos(t) - k * (b.position - a.position)) / m2));
        QVERIFY(isZero(result.equations[1].lhs - (m2 * b.acceleration + k * (b.position - a.position))));
        QVERIFY(isZero(result.equations[1].generalizedForce - GiNaC::cos(t)));

        system.kinetic = m1 * GiNaC::pow(a.velocity, 2) / 2;  // b' missing: singular
        QVERIFY_THROWS_EXCEPTION(model::LagrangeError, model::deriveLagrange(system));
    }

    // ---- derivative rules of the non-smooth functions -----------------------------------

    void dragTermDifferentiatesAtZeroVelocity()
    {
        const Model m = model::parseModel("param c = 0.7\nx'' = -c*x'*abs(x')\n");
        eval::CompiledModel cm(eval::compileModel(m));
        const double c = 0.7;
        for (double v : {0.0, 0.3, -0.3, 1e-300}) {
            const auto J = jacobianAt(cm, {0.2, v});
            for (double e : J)
                QVERIFY2(std::isfinite(e), qPrintable(QString("non-finite Jacobian entry at v = %1").arg(v)));
            QCOMPARE(J[0 + 2 * 1], 1.0);  // d x / d x'
            const double dfdv = J[1 + 2 * 1];
            QVERIFY2(std::abs(dfdv - (-2 * c * std::abs(v))) < 1e-15,
                     qPrintable(QString("d f/d x' at v = %1 is %2").arg(v).arg(dfdv)));
            QCOMPARE(J[1 + 2 * 0], 0.0);
            // d f / d c = -v |v|
            std::vector<double> P(2);
            cm.parameterJacobian(P.data());
            QVERIFY(std::isfinite(P[1]));
            QVERIFY(std::abs(P[1] + v * std::abs(v)) < 1e-15);
            // The second derivatives (used by Rosenbrock with sensitivities) are finite too.
            std::vector<double> H(cm.source().rhsStateHessian.entries.size());
            cm.stateHessianValues(H.data());
            for (double h : H)
                QVERIFY2(std::isfinite(h), qPrintable(QString("non-finite Hessian entry at v = %1").arg(v)));
            std::vector<double> Hm(cm.source().rhsMixedHessian.entries.size());
            cm.mixedHessianValues(Hm.data());
            for (double h : Hm)
                QVERIFY2(std::isfinite(h), qPrintable(QString("non-finite mixed Hessian entry at v = %1").arg(v)));
        }
        // exactly at 0: d f/d x' is 0 (not NaN, not -0.7*sign noise)
        const auto J0 = jacobianAt(cm, {0.0, 0.0});
        QCOMPARE(J0[3], 0.0);
        const auto J3 = jacobianAt(cm, {0.0, 0.3});
        QVERIFY(std::abs(J3[3] - (-2 * c * 0.3)) < 1e-15);
    }

    void signHasZeroDerivative()
    {
        const Model m = model::parseModel("state y\ny' = sign(y) + 3*sign(y - 1)*y\n");
        eval::CompiledModel cm(eval::compileModel(m));
        // d/dy = 0 + 3*sign(y - 1)
        for (double y : {0.0, 0.5, -0.5, 1.0, 2.0}) {
            const auto J = jacobianAt(cm, {y});
            const double expected = 3.0 * (y > 1 ? 1 : y < 1 ? -1 : 0);
            QVERIFY2(J[0] == expected,
                     qPrintable(QString("d/dy at %1 is %2, expected %3").arg(y).arg(J[0]).arg(expected)));
        }
        // symbolically too
        GiNaC::symbol v("v");
        QVERIFY(GiNaC::ex(model::sysid_sign(v)).diff(v).is_zero());
        QVERIFY((GiNaC::ex(model::sysid_abs(v)).diff(v) - model::sysid_sign(v)).is_zero());
        QVERIFY((GiNaC::ex(model::sysid_abs(v)).diff(v, 2)).is_zero());
    }

    void absDerivativeAtZeroIsZero()
    {
        const Model m = model::parseModel("state y\ny' = abs(y) + abs(2 - y)\n");
        eval::CompiledModel cm(eval::compileModel(m));
        QCOMPARE(jacobianAt(cm, {0.0})[0], -1.0);  // sign(0) - sign(2)
        QCOMPARE(jacobianAt(cm, {2.0})[0], 1.0);  // sign(2) - sign(0)
        QCOMPARE(jacobianAt(cm, {1.0})[0], 0.0);  // 1 - 1
        QCOMPARE(jacobianAt(cm, {-1.0})[0], -2.0);
    }

    void minMaxDerivatives()
    {
        const Model m = model::parseModel("state a\nstate b\na' = min(a, b)\nb' = max(a, 2*b)\n");
        eval::CompiledModel cm(eval::compileModel(m));
        struct Case {
            double a, b;
            double dMinDa, dMinDb, dMaxDa, dMaxDb;
        } cases[] = {
            {1, 2, 1, 0, 0, 2},  // a < b, a < 2b
            {3, 2, 0, 1, 0, 2},  // a > b, a < 2b
            {5, 1, 0, 1, 1, 0},  // a > 2b
            {-1, -3, 0, 1, 1, 0},  // a > b, a > 2b
            {1, 1, 0.5, 0.5, 0, 2},  // tie of min: half each side
            {2, 1, 0, 1, 0.5, 1},  // tie of max: a = 2b
        };
        for (const auto& k : cases) {
            const auto J = jacobianAt(cm, {k.a, k.b});  // column-major 2 x 2
            const QString where =
                QString("at a=%1 b=%2: J = [%3 %4; %5 %6]").arg(k.a).arg(k.b).arg(J[0]).arg(J[2]).arg(J[1]).arg(J[3]);
            QVERIFY2(J[0] == k.dMinDa && J[2] == k.dMinDb, qPrintable(where));
            QVERIFY2(J[1] == k.dMaxDa && J[3] == k.dMaxDb, qPrintable(where));
        }
        // and the values
        cm.setPoint(0, std::vector<double>{1, 2}.data(), nullptr);
        double f[2];
        cm.rhs(f);
        QCOMPARE(f[0], 1.0);
        QCOMPARE(f[1], 4.0);
    }

    void minMaxOfThreeArguments()
    {
        const Model m = model::parseModel("state a\nstate b\na' = min(a, b, 1)\nb' = max(a, b, 1)\n");
        eval::CompiledModel cm(eval::compileModel(m));
        const auto J = jacobianAt(cm, {0.0, 3.0});  // min = a, max = b
        QCOMPARE(J[0], 1.0);
        QCOMPARE(J[2], 0.0);
        QCOMPARE(J[1], 0.0);
        QCOMPARE(J[3], 1.0);
        const auto K = jacobianAt(cm, {2.0, 3.0});  // min = 1, max = b
        QCOMPARE(K[0], 0.0);
        QCOMPARE(K[2], 0.0);
        QCOMPARE(K[3], 1.0);
    }
};

QTEST_APPLESS_MAIN(TestModelLagrange)
#include "test_model_lagrange.moc"
