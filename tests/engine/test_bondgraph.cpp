// Bond-graph models (engine/model/BondGraph*, Causality): the sequential causality assignment
// against hand-assigned causal strokes, the derived state equations against equations written by
// hand (linear and nonlinear laws, resistors in either causality, transformers and gyrators, an
// algebraic loop solved by hand), and every error with its message and line:column.

#include "ModelTestSupport.h"
#include "TextTestSupport.h"

#include "engine/model/Causality.h"
#include "engine/model/Model.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/ModelDescription.h"
#include "engine/model/SymbolicFunctions.h"

#include <QtTest>

#include <string>

using namespace sysid;
using model::Model;
using test::contains;
using test::errorOf;
using test::param;
using test::same;
using test::show;
using test::state;

namespace {

// The mass-spring-damper of mass_spring_damper.model as a bond graph; lines 1-10.
const std::string msdHead = "param m = 2\n"  // 1
                            "param b = 0.5\n"  // 2
                            "param k = 3\n"  // 3
                            "input u\n"  // 4
                            "Se actuator = u\n";  // 5
const std::string msdTail = "1 motion : actuator, mass, damper, spring\n"  // 9
                            "output s = spring.q\n";  // 10

std::string msd(const std::string& mass = "I mass = m\n", const std::string& damper = "R damper = b\n",
                const std::string& spring = "C spring = 1/k\n")
{
    return msdHead + mass + damper + spring + msdTail;
}

GiNaC::ex sym(const Model& m, const std::string& name)
{
    return state(m, name).symbol;
}

GiNaC::ex input(const Model& m, const std::string& name)
{
    return m.inputs.at(m.inputIndex(name)).symbol;
}

const model::Output& output(const Model& m, const std::string& name)
{
    for (const auto& o : m.outputs)
        if (o.name == name)
            return o;
    throw std::runtime_error("no output " + name);
}

}  // namespace

class TestBondGraph : public QObject {
    Q_OBJECT

private slots:
    // ---- causality (SCAP) on bare graphs --------------------------------------------------

    void causalityOfTheMassSpringDamper()
    {
        using K = model::BondNodeKind;
        // Se -> 1 -> I, R, C: the source sets its effort, the I the junction's flow, so the
        // junction sets the I's effort and the R and C get the flow: C sets its effort (integral),
        // R its effort from its flow (resistance causality).
        const std::vector<model::CausalNode> nodes{
            {K::EffortSource}, {K::OneJunction}, {K::Inertia}, {K::Resistor}, {K::Capacitor}};
        const std::vector<model::CausalEdge> edges{{0, 1}, {1, 2}, {1, 3}, {1, 4}};
        const auto r = model::assignCausality(nodes, edges);
        QVERIFY(r.problems.empty());
        using E = model::EffortEnd;
        QVERIFY(r.effort == (std::vector<E>{E::Tail, E::Tail, E::Head, E::Head}));
        // Which step fixed each bond: the source its own, the I the junction's other bonds.
        QVERIFY(r.cause == (std::vector<std::size_t>{0, 2, 2, 2}));
    }

    void causalityConflictAndDerivative()
    {
        using K = model::BondNodeKind;
        using P = model::CausalityProblem::Kind;
        // Two effort sources on a 0-junction: the second meets the first's causality.
        auto r = model::assignCausality({{K::EffortSource}, {K::EffortSource}, {K::ZeroJunction}, {K::Resistor}},
                                        {{0, 2}, {1, 2}, {2, 3}});
        QCOMPARE(r.problems.size(), std::size_t(1));
        QVERIFY(r.problems[0].kind == P::SourceConflict);
        QCOMPARE(r.problems[0].node, std::size_t(1));
        QCOMPARE(r.problems[0].causes, std::vector<std::size_t>{0});
        // Two C on a 0-junction: the second is dependent (derivative causality), found at its step.
        r = model::assignCausality({{K::FlowSource}, {K::ZeroJunction}, {K::Capacitor}, {K::Capacitor}},
                                   {{0, 1}, {1, 2}, {1, 3}});
        QCOMPARE(r.problems.size(), std::size_t(1));
        QVERIFY(r.problems[0].kind == P::Derivative);
        QCOMPARE(r.problems[0].node, std::size_t(3));
        QCOMPARE(r.problems[0].causes, std::vector<std::size_t>{2});
        // A gyrator between two 1-junctions with an I each: both integral (a GY turns flow into effort).
        r = model::assignCausality(
            {{K::OneJunction}, {K::Inertia}, {K::Gyrator}, {K::OneJunction}, {K::Inertia}, {K::EffortSource}},
            {{5, 0}, {0, 1}, {0, 2}, {2, 3}, {3, 4}});
        QVERIFY(r.problems.empty());
        // ...while a transformer there makes the second I dependent.
        r = model::assignCausality(
            {{K::OneJunction}, {K::Inertia}, {K::Transformer}, {K::OneJunction}, {K::Inertia}, {K::EffortSource}},
            {{5, 0}, {0, 1}, {0, 2}, {2, 3}, {3, 4}});
        QCOMPARE(r.problems.size(), std::size_t(1));
        QVERIFY(r.problems[0].kind == P::Derivative);
        QCOMPARE(r.problems[0].node, std::size_t(4));
    }

    // ---- derived equations --------------------------------------------------------------

    void massSpringDamperStateEquations()
    {
        const Model m = model::parseModel(msd());
        QCOMPARE(m.states.size(), std::size_t(2));
        QCOMPARE(m.states[0].name, std::string("mass.p"));
        QCOMPARE(m.states[1].name, std::string("spring.q"));
        const GiNaC::ex p = sym(m, "mass.p"), q = sym(m, "spring.q"), u = input(m, "u");
        const GiNaC::ex mm = param(m, "m"), b = param(m, "b"), k = param(m, "k");
        QVERIFY2(same(state(m, "mass.p").rhs, u - b * p / mm - k * q), show(state(m, "mass.p").rhs).c_str());
        QVERIFY2(same(state(m, "spring.q").rhs, p / mm), show(state(m, "spring.q").rhs).c_str());
        QVERIFY(same(output(m, "s").expression, q));
        QVERIFY(m.outputsDeclared);
        QCOMPARE(m.bondGraph.bonds.size(), std::size_t(4));
        QCOMPARE(m.bondGraph.bonds[1].causality, std::string("integral causality"));
        QCOMPARE(m.bondGraph.bonds[2].causality, std::string("resistance causality: e from f"));
    }

    void nonlinearLaws()
    {
        // A hardening spring and a quadratic (drag) damper.
        const Model m =
            model::parseModel("param k3 = 0.5\n" + msd("I mass = m\n", "R damper : e = b*f*abs(f)\n",
                                                       "C spring : e = k*q + k3*q^3\n"));
        const GiNaC::ex p = sym(m, "mass.p"), q = sym(m, "spring.q"), u = input(m, "u");
        const GiNaC::ex mm = param(m, "m"), b = param(m, "b"), k = param(m, "k"), k3 = param(m, "k3");
        const GiNaC::ex v = p / mm;
        const GiNaC::ex expected = u - b * v * model::sysid_abs(v) - k * q - k3 * GiNaC::pow(q, 3);
        QVERIFY2(same(state(m, "mass.p").rhs, expected), show(state(m, "mass.p").rhs).c_str());
        // A nonlinear inertia law too: f = p/m + p^3 (a stiffening mass, for the test only).
        const Model n = model::parseModel(msd("I mass : f = p/m + p^3\n"));
        const GiNaC::ex pn = sym(n, "mass.p");
        QVERIFY(same(state(n, "spring.q").rhs, pn / param(n, "m") + GiNaC::pow(pn, 3)));
    }

    void resistorLawIsInvertedWhenTheCausalityAsksForIt()
    {
        // Written as f = e/b, but the 1-junction gives the damper its flow: e = b*f is used.
        const Model m = model::parseModel(msd("I mass = m\n", "R damper : f = e/b\n"));
        const Model reference = model::parseModel(msd());
        QVERIFY(same(state(m, "mass.p").rhs.subs(GiNaC::lst{sym(m, "mass.p") == sym(reference, "mass.p"),
                                                             sym(m, "spring.q") == sym(reference, "spring.q"),
                                                             param(m, "m") == param(reference, "m"),
                                                             param(m, "b") == param(reference, "b"),
                                                             param(m, "k") == param(reference, "k"),
                                                             input(m, "u") == input(reference, "u")}),
                     state(reference, "mass.p").rhs));
        QCOMPARE(m.bondGraph.bonds[2].causality, std::string("resistance causality: e from f"));
        // A current source into a capacitor with a resistor in parallel: the 0-junction gives the
        // resistor its effort (conductance causality), so R = r gives f = e/r.
        const Model rc = model::parseModel("param r = 2\nparam c = 0.1\ninput i\nSf source = i\nC cap = c\n"
                                           "R leak = r\n0 node : source, cap, leak\n");
        const GiNaC::ex q = sym(rc, "cap.q");
        QVERIFY2(same(state(rc, "cap.q").rhs, input(rc, "i") - q / param(rc, "c") / param(rc, "r")),
                 show(state(rc, "cap.q").rhs).c_str());
        QCOMPARE(rc.bondGraph.bonds[2].causality, std::string("conductance causality: f from e"));
    }

    void transformerAndGyrator()
    {
        const Model m = model::loadModel(test::kExamples + "bondgraph_dc_motor.model");
        const GiNaC::ex lambda = sym(m, "inductance.p"), h = sym(m, "load.p"), u = input(m, "u");
        const GiNaC::ex Ra = param(m, "Ra"), La = param(m, "La"), K = param(m, "K"), bm = param(m, "bm"),
                        N = param(m, "N"), J = param(m, "J");
        const GiNaC::ex i = lambda / La, w = h / J;
        // La i' = u - Ra i - K N w;  J w' = N K i - N^2 bm w.
        QVERIFY2(same(state(m, "inductance.p").rhs, u - Ra * i - K * N * w), show(state(m, "inductance.p").rhs).c_str());
        QVERIFY2(same(state(m, "load.p").rhs, N * K * i - N * N * bm * w), show(state(m, "load.p").rhs).c_str());
        QVERIFY(same(output(m, "i").expression, i));
        QVERIFY(same(output(m, "w").expression, w));
        // The gyrator's port variables: back-EMF K*w_motor and torque K*i.
        const Model v = model::parseModel(test::slurp(test::kExamples + "bondgraph_dc_motor.model") +
                                          "output emf = motor.e1\noutput torque = motor.e2\noutput wm = rotor.f\n");
        QVERIFY(same(output(v, "emf").expression.subs(GiNaC::lst{sym(v, "load.p") == h, param(v, "K") == K,
                                                                param(v, "N") == N, param(v, "J") == J}),
                     K * N * w));
        QVERIFY(same(output(v, "wm").expression.subs(GiNaC::lst{sym(v, "load.p") == h, param(v, "N") == N,
                                                               param(v, "J") == J}),
                     N * w));
    }

    void linearAlgebraicLoopIsSolved()
    {
        // Se u -> 1a {R1 (written f = e/R1: conductance), -> 0b {R2, -> 1c {I L}}}: the resistors'
        // causalities form a loop. By hand: the node voltage v_b = R2*(u - R1*iL)/(R1 + R2), L iL' = v_b.
        const std::string text = "param R1 = 2\nparam R2 = 3\nparam L = 0.5\ninput u\nSe src = u\n"
                                 "R r1 : f = e/R1\nR r2 = R2\nI coil = L\n"
                                 "1 a : src, r1, b\n0 b : r2, c\n1 c : coil\n";
        const Model m = model::parseModel(text);
        const GiNaC::ex lam = sym(m, "coil.p"), R1 = param(m, "R1"), R2 = param(m, "R2"), L = param(m, "L");
        const GiNaC::ex iL = lam / L;
        QVERIFY2(same(state(m, "coil.p").rhs, R2 * (input(m, "u") - R1 * iL) / (R1 + R2)),
                 show(state(m, "coil.p").rhs).c_str());
        QCOMPARE(m.bondGraph.loops.size(), std::size_t(1));
        QVERIFY(contains(model::describeEquations(m), "algebraic loop through"));
        // The same loop with a cubic resistor cannot be solved symbolically.
        EXPECT_ONE_ERROR("param R1 = 2\nparam R2 = 3\nparam L = 0.5\ninput u\nSe src = u\n"
                         "R r1 : f = e/R1\nR r2 : e = R2*f^3\nI coil = L\n"
                         "1 a : src, r1, b\n0 b : r2, c\n1 c : coil\n",
                         6, 3, "algebraic loop through R r1 and R r2");
    }

    void variablesInOutputsEquationsAndInitialValues()
    {
        const Model m = model::parseModel(msd() +
                                          "output v = motion.f\noutput F = damper.e\n"
                                          "state E = 0\nE' = damper.e*damper.f\noutput E\n"
                                          "spring.q(0) = 0.1\nmass.p(0) = 0.2 estimate\n");
        const GiNaC::ex p = sym(m, "mass.p"), mm = param(m, "m"), b = param(m, "b");
        QVERIFY(same(output(m, "v").expression, p / mm));
        QVERIFY(same(output(m, "F").expression, b * p / mm));
        QVERIFY(same(state(m, "E").rhs, b * p * p / (mm * mm)));
        QVERIFY(same(state(m, "spring.q").initial, GiNaC::numeric(1, 10)));
        QVERIFY(m.parameterIndex("mass.p(0)") != std::string::npos);
        // An output of a state's derivative: the flow into the spring.
        const Model d = model::parseModel(msd() + "output rate = spring.q'\n");
        QVERIFY(same(output(d, "rate").expression, sym(d, "mass.p") / param(d, "m")));
    }

    void keywordsAreContextual()
    {
        // R, C and I are free as names: a parameter R, a state C with C(0) and an input I.
        const Model m = model::parseModel("param R = 2\nparam m = 1\ninput I\nSe push = I\nI mass = m\nR drag = R\n"
                                          "1 v : push, mass, drag\nstate C\nC(0) = 1\nC' = -C\n");
        QCOMPARE(m.states.size(), std::size_t(2));
        QVERIFY(same(state(m, "mass.p").rhs, input(m, "I") - param(m, "R") * sym(m, "mass.p") / param(m, "m")));
    }

    void listingShowsCausalityAndEquations()
    {
        const std::string listing = model::describeEquations(model::parseModel(msd()));
        QVERIFY2(contains(listing, "bond 1: Se actuator -> 1-junction motion (source)"), listing.c_str());
        QVERIFY2(contains(listing, "bond 4: 1-junction motion -> C spring (integral causality)"), listing.c_str());
        QVERIFY2(contains(listing, "effort from C spring: e = "), listing.c_str());
        QVERIFY2(contains(listing, "d/dt spring.q ="), listing.c_str());
        QVERIFY(contains(listing, "Karnopp, Margolis & Rosenberg"));
    }

    // ---- errors --------------------------------------------------------------------------

    void causalConflictNamesBothSources()
    {
        EXPECT_ONE_ERROR("input u\ninput w\nSe a = u\nSe b = w\nR r = 1\n0 node : a, b, r\n", 4, 4,
                         "causal conflict: the Se b cannot impose its effort, because the Se a already sets it");
        // Two flow sources on a 1-junction.
        EXPECT_ONE_ERROR("input u\ninput w\nSf a = u\nSf b = w\nC c = 1\n1 node : a, b, c\n", 4, 4,
                         "causal conflict: the Sf b cannot impose its flow");
    }

    void derivativeCausalityNamesTheElements()
    {
        // A rotor inertia on the rigid gear of the DC motor: dependent inertias.
        const std::string motor = test::slurp(test::kExamples + "bondgraph_dc_motor.model");
        const std::string withRotor =
            validationReplace(motor, "R bearing = bm\n1 rotor : bearing\n",
                              "R bearing = bm\nparam Jm = 1e-3\nI inertia = Jm\n1 rotor : bearing, inertia\n");
        const auto e = errorOf(withRotor);
        QVERIFY(e);
        QCOMPARE(e->diagnostics().size(), std::size_t(1));
        const auto& d = e->diagnostics()[0];
        QVERIFY2(contains(d.message, "the I load is forced into derivative causality") &&
                     contains(d.message, "as the causality of the I inertia requires") &&
                     contains(d.message, "TF gear") && contains(d.message, "Dependent storage"),
                 d.message.c_str());
        QCOMPARE(d.where.line, lineOf(withRotor, "I load = J"));
        QCOMPARE(d.where.column, 3);
        // A capacitor across an effort source.
        EXPECT_ONE_ERROR("input u\nSe a = u\nC c = 1\nR r = 1\n0 node : a, c, r\n", 3, 3,
                         "the C c is forced into derivative causality: the 0-junction node sets its effort, as "
                         "the causality of the Se a requires");
    }

    void unknownAndMisplacedNames()
    {
        EXPECT_ONE_ERROR(msdHead + "I mass = m\nR damper = b\nC spring = 1/k\n1 motion : actuator, mass, dampr, spring\n",
                         9, 28, "unknown bond-graph element 'dampr' in the 1-junction motion; did you mean 'damper'?");
        EXPECT_ERROR(msdHead + "I mass = m\nR damper = b\nC spring = 1/k\n1 motion : actuator, mass, k, spring\n", 9,
                     28, "'k' is a parameter, not a bond-graph element");
        EXPECT_ONE_ERROR(msd() + "output x = spring.x\n", 11, 12,
                         "'spring.x' is not a variable of the C spring; write spring.q, spring.e or spring.f");
        EXPECT_ONE_ERROR(msd() + "output x = spring\n", 11, 12, "'spring' is the C spring");
        EXPECT_ONE_ERROR(msd() + "let P = damper.e\noutput P\n", 11, 9, "after the intermediates (let)");
        EXPECT_ONE_ERROR(msd() + "param a.b = 1\n", 11, 7, "a variable of a bond-graph element (spring.e)");
        EXPECT_ONE_ERROR(msd() + "spring.x'' = -spring.x\n", 11, 1, "a variable of a bond-graph element (spring.e)");
        EXPECT_ONE_ERROR(msd() + "spring.q' = 1\n", 11, 1, "a second equation for spring.q'");
        EXPECT_ONE_ERROR("param q = 1\n" + msd("I mass = m\n", "R damper = b\n", "C spring : e = k*q\n"), 9, 18,
                         "'q' in the law of the C spring is its own q (spring.q), but the model also declares q");
        EXPECT_ONE_ERROR(msd("I mass = m\n", "R damper : e = b*mass.f\n"), 7, 18,
                         "'mass.f' belongs to the I mass; the relation of the R damper may use its own");
        EXPECT_ONE_ERROR(msd("I mass = m\nR mass = b\n"), 7, 3, "'mass' is already declared");
    }

    void bondsMustBeComplete()
    {
        EXPECT_ONE_ERROR(msdHead + "I mass = m\nR damper = b\nC spring = 1/k\n1 motion : actuator, mass, spring\n", 7,
                         3, "the R damper is not bonded: list damper in a junction");
        EXPECT_ERROR(msd() + "1 other : damper, spring\n", 11, 11,
                         "the R damper is already bonded to the 1-junction motion (line 9); a one-port element has "
                         "one bond");
        EXPECT_ONE_ERROR(msd() + "0 lonely : motion\n", 11, 3, "the 0-junction lonely joins only one bond");
        EXPECT_ONE_ERROR(msd() + "1 w : motion, w\n", 11, 15, "cannot be bonded to itself");
        EXPECT_ONE_ERROR("param n = 2\ninput u\nSe s = u\nR r = 1\nTF tr = n : s -> r\nR x = 1\n1 j : tr, x\n", 7, 7,
                         "the TF tr is bonded by its own statement (line 5)");
        EXPECT_ERROR("param n = 2\ninput u\nSe s = u\nR r = 1\nTF tr = n : r -> s\n", 5, 13,
                         "the R r takes power in, so it cannot feed the input port of the TF tr");
        EXPECT_ONE_ERROR("input u\nSe s = u\nR r = 1\n1 j : s, r\n", 1, 1, "the model has no states");
    }

    void malformedStatements()
    {
        EXPECT_ONE_ERROR(msdHead + "I mass = m\nR damper = b\nC spring = 1/k\n1 motion actuator, mass\n", 9, 10,
                         "expected ':' and the elements it joins (1-junction motion : a, b, c), found 'actuator'");
        EXPECT_ONE_ERROR("param n = 2\ninput u\nSe s = u\nR r = 1\nTF tr = n : s > r\n", 5, 15,
                         "expected '->' between the two ports");
        EXPECT_ONE_ERROR(msd("I mass = m\n", "R damper = b\n", "C spring : q = e/k\n"), 8, 12,
                         "expected the constitutive law e = ...(q) after ':', found 'q'");
        EXPECT_ONE_ERROR(msd("I mass = m\n", "R damper = b\n", "C spring : f = q\n"), 8, 12,
                         "the law of a C element gives its effort from its displacement: e = ...(q)");
        EXPECT_ONE_ERROR(msd("I mass = m\n", "R damper b\n"), 7, 10,
                         "expected '= RESISTANCE' or ': e = ...(f)' after R damper, found 'b'");
        EXPECT_ONE_ERROR(msd("I mass : e = p/m\n"), 6, 10,
                         "the law of an I element gives its flow from its momentum: f = ...(p)");
        EXPECT_ONE_ERROR(msd("I mass = m\n", "R damper : e = 2*e\n"), 7, 18,
                         "damper.e cannot appear on its right-hand side");
        EXPECT_ONE_ERROR(msd("I mass = m\n", "R damper = b\n", "C spring : e = k*f\n"), 8, 18,
                         "its flow cannot appear in it");
        EXPECT_ONE_ERROR(msd("I mass = m\n", "R damper : f = sqrt(e)\n"), 7, 3,
                         "cannot be inverted symbolically; write it as e = ...(f)");
        EXPECT_ONE_ERROR(msd("I mass = 0\n"), 6, 10, "the parameter of the I mass is zero");
    }

private:
    static std::string validationReplace(std::string text, const std::string& from, const std::string& to)
    {
        const auto at = text.find(from);
        if (at == std::string::npos)
            throw std::invalid_argument("'" + from + "' does not occur");
        return text.replace(at, from.size(), to);
    }

    static int lineOf(const std::string& text, const std::string& part)
    {
        const auto at = text.find(part);
        return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    }
};

QTEST_GUILESS_MAIN(TestBondGraph)
#include "test_bondgraph.moc"
