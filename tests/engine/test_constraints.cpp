// The model language's constraints (engine/model: constraint, algebraic, include; the index
// reduction of ConstraintReduction) and their integration in the core (consistent initial values,
// algebraic variables, the refusal of explicit methods), each against a known answer.

#include "ModelTestSupport.h"

#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/integrate/Simulator.h"
#include "engine/job/ModelText.h"
#include "engine/model/ModelDescription.h"
#include "engine/model/SubModels.h"
#include "engine/project/Project.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <string>

using namespace sysid;
using model::Model;
using test::errorOf;
using test::show;

namespace {

const char* naturalPendulum = R"(param m = 2
param l = 1.5
param g = 9.81
coord x, y
kinetic T = 1/2*m*(x'^2 + y'^2)
potential V = m*g*y
constraint rod: x^2 + y^2 = l^2
x(0) = 0.9, 0
y(0) = -1 guess
output tension = 2*l*rod
)";

// The seed's form: Newton's equations with the rod force written out and its multiplier declared.
const char* newtonPendulum = R"(param m = 1
param l = 1
param g = 9.81
algebraic lam
x'' = -2*x*lam/m
y'' = -g - 2*y*lam/m
constraint x^2 + y^2 = l^2
x(0) = 0.6, 0
y(0) = -0.8 guess
)";

std::string messageOf(const std::string& text)
{
    const auto e = errorOf(text);
    return e ? std::string(e->what()) : std::string();
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

integrate::IntegratorSettings implicitSettings(integrate::IntegrationMethod method =
                                                   integrate::IntegrationMethod::SparseImplicit)
{
    integrate::IntegratorSettings s;
    s.method = method;
    s.methodChosen = true;
    s.relativeTolerance = 1e-10;
    s.absoluteTolerance = 1e-12;
    if (!integrate::isAdaptive(method))
        s.maxStep = 1e-3;
    return s;
}

integrate::Trajectory simulateText(const std::string& text, const std::vector<double>& times,
                                   const integrate::IntegratorSettings& settings)
{
    eval::CompiledModel model(eval::compileModel(model::parseModel(text)));
    integrate::SimulationRequest request;
    request.times = times;
    return integrate::simulate(model, request, settings);
}

void write(const QString& path, const std::string& text)
{
    std::ofstream out(path.toStdString());
    out << text;
}

}  // namespace

class TestConstraints : public QObject {
    Q_OBJECT

private slots:
    void pendulumInNaturalCoordinatesIsIndexThree()
    {
        const Model m = model::parseModel(naturalPendulum);
        QCOMPARE(m.states.size(), std::size_t(5));
        QCOMPARE(m.states.back().name, std::string("rod"));
        QVERIFY(m.states.back().algebraic);
        QCOMPARE(m.algebraicCount(), std::size_t(1));
        QCOMPARE(m.differentiationIndex, 3);
        QCOMPARE(m.constraints.size(), std::size_t(1));
        const auto& c = m.constraints.front();
        QCOMPARE(c.multiplier, std::string("rod"));
        QCOMPARE(c.hidden.size(), std::size_t(2));
        const GiNaC::ex x = test::state(m, "x").symbol, y = test::state(m, "y").symbol;
        const GiNaC::ex vx = test::state(m, "x'").symbol, vy = test::state(m, "y'").symbol;
        const GiNaC::ex l = test::param(m, "l"), mass = test::param(m, "m"), g = test::param(m, "g");
        const GiNaC::ex rod = m.states.back().symbol;
        QVERIFY(test::same(c.hidden[0], x * x + y * y - l * l));
        QVERIFY(test::same(c.hidden[1], 2 * x * vx + 2 * y * vy));
        // d2/dt2: 2 x'^2 + 2 y'^2 + 2 x x'' + 2 y y'' with m x'' = -2 x rod, m y'' = -m g - 2 y rod.
        QVERIFY(test::same(c.reduced, 2 * vx * vx + 2 * vy * vy - 4 * rod * (x * x + y * y) / mass - 2 * g * y));
        // The descriptor form: m x'' + 2 x rod = 0.
        QCOMPARE(m.lagrangeEquations.size(), std::size_t(2));
        QVERIFY(test::same(m.lagrangeEquations[0].constraintForce, 2 * x * rod));
        // Held and free initial values.
        QVERIFY(test::state(m, "x").heldInitial);
        QVERIFY(test::state(m, "x'").heldInitial);
        QVERIFY(!test::state(m, "y").heldInitial);
        QVERIFY(!test::state(m, "y'").heldInitial);
    }

    void newtonFormWithDeclaredMultiplier()
    {
        const Model m = model::parseModel(newtonPendulum);
        QCOMPARE(m.differentiationIndex, 3);
        QVERIFY(m.constraints.front().multiplier.empty());
        QCOMPARE(m.states.back().name, std::string("lam"));
        QVERIFY(m.constraints.front().reduced.has(m.states.back().symbol));
        // The same motion as the Lagrangian form: x = l sin(theta) of the angle form at t = 1 is
        // checked in the validation suite; here both forms give the same multiplier at rest.
        const auto tr = simulateText(newtonPendulum, {0.0, 0.5}, implicitSettings());
        QVERIFY(std::abs(tr.states(0, 4) - 9.81 * 0.8 / 2) < 1e-12);  // 2 lam l = m g cos(theta)
    }

    // 0 = 2 z - x with x' = -z: x = exp(-t/2), z = x/2 (index 1, no hidden constraint).
    void indexOneAlgebraicEquation()
    {
        const char* text = "state x = 1\nalgebraic z = 7\nx' = -z\nconstraint 2*z = x\n";
        const Model m = model::parseModel(text);
        QCOMPARE(m.differentiationIndex, 1);
        QVERIFY(m.constraints.front().hidden.empty());
        for (const auto method : {integrate::IntegrationMethod::SparseImplicit,
                                  integrate::IntegrationMethod::ImplicitEuler,
                                  integrate::IntegrationMethod::CrankNicolson}) {
            const auto tr = simulateText(text, integrate::uniformGrid(0, 2, 0.5), implicitSettings(method));
            double worst = 0, algebraic = 0;
            for (Eigen::Index k = 0; k < tr.states.rows(); ++k) {
                worst = std::max(worst, std::abs(tr.states(k, 0) - std::exp(-tr.times[k] / 2)));
                algebraic = std::max(algebraic, std::abs(tr.states(k, 1) - tr.states(k, 0) / 2));
            }
            qInfo("%s: |x - exp(-t/2)| <= %.2e, |z - x/2| <= %.2e", integrate::methodName(method).c_str(), worst,
                  algebraic);
            QVERIFY(worst < (method == integrate::IntegrationMethod::ImplicitEuler ? 1e-3 : 1e-7));
            QVERIFY(algebraic < 1e-12);
        }
    }

    // Hessenberg index 2: x' = mu, 0 = x - sin(t): x = sin(t), mu = cos(t).
    void indexTwoHessenberg()
    {
        const char* text = "state x = 0.3 guess\nalgebraic mu\nx' = mu\nconstraint x = sin(t)\n";
        const Model m = model::parseModel(text);
        QCOMPARE(m.differentiationIndex, 2);
        QCOMPARE(m.constraints.front().hidden.size(), std::size_t(1));
        const auto tr = simulateText(text, integrate::uniformGrid(0, 3, 0.25), implicitSettings());
        double worst = 0;
        for (Eigen::Index k = 0; k < tr.states.rows(); ++k) {
            worst = std::max(worst, std::abs(tr.states(k, 0) - std::sin(tr.times[k])));
            worst = std::max(worst, std::abs(tr.states(k, 1) - std::cos(tr.times[k])));
        }
        qInfo("index 2: |x - sin t|, |mu - cos t| <= %.2e", worst);
        QVERIFY(worst < 1e-8);
    }

    // A constraint on velocities (nonholonomic form A q' + b = 0) gets Psi_q'^T mu and index 2:
    // two masses whose velocities are tied, x' = 2 y', under a force on x alone: (m + 4 m) y'' = 2 F.
    void constraintOnVelocities()
    {
        const char* text = "param m = 1\nparam F = 3\ncoord x, y\nkinetic T = 1/2*m*(x'^2 + y'^2)\n"
                           "force x = F\nconstraint tie: x' = 2*y'\nx(0) = 0, 0\ny(0) = 0, 0\n";
        const Model m = model::parseModel(text);
        QVERIFY(m.constraints.front().onVelocities);
        QCOMPARE(m.differentiationIndex, 2);
        const auto tr = simulateText(text, {0.0, 1.0}, implicitSettings());
        // y'' = 2 F / (5 m), x = 2 y.
        QVERIFY(std::abs(tr.states(1, 2) - 0.5 * 2 * 3.0 / 5) < 1e-9);
        QVERIFY(std::abs(tr.states(1, 0) - 2 * tr.states(1, 2)) < 1e-9);
    }

    void keywordsStayContextual()
    {
        // A coordinate named constraint, an algebraic-named state and an input named include.
        const char* text = "input include\nstate algebraic = 1\nalgebraic' = -algebraic + include\n"
                           "constraint'' = -constraint\nconstraint(0) = 1, 0\n";
        const Model m = model::parseModel(text);
        QCOMPARE(m.algebraicCount(), std::size_t(0));
        QVERIFY(m.stateIndex("constraint") != std::string::npos);
        QVERIFY(m.stateIndex("algebraic") != std::string::npos);
        QCOMPARE(m.inputs.front().name, std::string("include"));
    }

    void problemsAreNamed()
    {
        const std::string base = "param l = 1\ncoord x, y\nkinetic T = 1/2*(x'^2 + y'^2)\nx(0) = 1, 0\n";
        QVERIFY(contains(messageOf("state x = 1\nalgebraic z\nx' = -z\n"), "add a constraint that determines z"));
        QVERIFY(contains(messageOf("state x = 1\nx' = -x\nconstraint x = 1\n"), "declare an algebraic variable"));
        QVERIFY(contains(messageOf("state x = 1\nalgebraic z\nx' = -z\nconstraint named: z = x\n"),
                         "only a constraint on Lagrangian coordinates has a multiplier to name"));
        QVERIFY(contains(messageOf(base + "input u\nconstraint x = u\n"), "holds input u"));
        QVERIFY(contains(messageOf(base + "constraint x^2 + y^2 = l^2\nconstraint 2*x^2 + 2*y^2 = 2*l^2\n"),
                         "do not determine the algebraic variables"));
        QVERIFY(contains(messageOf(base + "constraint x'^2 = y'\n"), "not linear in the velocity"));
        QVERIFY(contains(messageOf(base + "param lambda1 = 2\nconstraint x = y\n"),
                         "would be named lambda1, which is already a parameter"));
        QVERIFY(contains(messageOf("state x = 1\nalgebraic z\nx' = -z'\nconstraint z = x\n"), "no time derivative"));
        QVERIFY(contains(messageOf("param a.b = 1\nstate x = 1\nx' = -a.b*x\n"), "a dot names a part"));
        QVERIFY(contains(messageOf(base + "constraint rod: x^2 + y^2 = l^2\nlet e = rod\nkinetic T2 = e*x'^2\n"),
                         "second kinetic energy"));
        // The message points at the constraint.
        const auto e = errorOf("state x = 1\nx' = -x\n\nconstraint x = 1\n");
        QVERIFY(e);
        QCOMPARE(e->diagnostics().front().where.line, 4);
    }

    void descriptionShowsTheDescriptorSystem()
    {
        const Model m = model::parseModel(naturalPendulum);
        const std::string summary = model::describeModel(m);
        QVERIFY(contains(summary, "algebraic variables (1)"));
        QVERIFY(contains(summary, "differentiation index 3"));
        QVERIFY(contains(summary, "4 states under 2 hidden constraints leave 2 independent"));
        const std::string equations = model::describeEquations(m);
        QVERIFY(contains(equations, "M q'' + Phi_q^T lambda = Q"));
        QVERIFY(contains(equations, "hidden constraint (first time derivative): 0 = "));
        // GiNaC orders the terms of a sum as it likes (2*x*x' or 2*x'*x): compare the hidden constraint.
        const GiNaC::ex x = test::state(m, "x").symbol, xd = test::state(m, "x'").symbol;
        const GiNaC::ex y = test::state(m, "y").symbol, yd = test::state(m, "y'").symbol;
        QVERIFY(test::same(m.constraints.front().hidden.at(1), 2 * x * xd + 2 * y * yd));
        QVERIFY(contains(equations, "index-1 equation (second time derivative)"));
        const auto source = eval::compileModel(m);
        QCOMPARE(source->constraints.algebraic, std::size_t(1));
        QCOMPARE(source->constraints.invariants.values.size(), std::size_t(2));
        QCOMPARE(source->constraints.stabilised.size(), std::size_t(1));
        QCOMPARE(source->constraints.stabilised.front().first, 1);
        QCOMPARE(source->constraints.stabilised.front().second, 0);
    }

    void subModelsJoinedByConstraints()
    {
        QTemporaryDir dir;
        write(dir.filePath("mass.model"), "param m = 1 fixed\nparam k = 4\ncoord q\nkinetic T = 1/2*m*q'^2\n"
                                          "potential V = 1/2*k*q^2\nq(0) = 1, 0\noutput energy = T + V\n");
        write(dir.filePath("pair.model"),
              "param k1 = 4\ninclude \"mass.model\" as a (k = k1)\ninclude \"mass.model\" as b (k = k1)\n"
              "constraint a.q = b.q\nb.q(0) = 0.5 guess\n");
        const Model m = model::loadModel(dir.filePath("pair.model").toStdString());
        QVERIFY(m.stateIndex("a.q") != std::string::npos);
        QVERIFY(m.stateIndex("b.q'") != std::string::npos);
        QVERIFY(m.parameterIndex("a.m") != std::string::npos);
        QVERIFY(m.parameterIndex("a.k") == std::string::npos);  // bound to k1
        QCOMPARE(m.algebraicCount(), std::size_t(1));
        // The including model's b.q(0) replaces the sub-model's q(0) = 1.
        QVERIFY(!test::state(m, "b.q").heldInitial);
        // Two unit masses on springs k1 joined: q = cos(sqrt(k1/m) t) for both, a.q(0) = 1 held.
        eval::CompiledModel compiled(eval::compileModel(m));
        integrate::SimulationRequest request;
        request.times = {0.0, 1.0};
        const auto tr = integrate::simulate(compiled, request, implicitSettings());
        QVERIFY(std::abs(tr.states(1, 0) - std::cos(2.0)) < 1e-8);
        QVERIFY(std::abs(tr.states(1, 2) - std::cos(2.0)) < 1e-8);

        // Problems inside a sub-model are shown at the include, naming the file and place.
        write(dir.filePath("broken.model"), "param m = 1\ncoord q\nkinetic T = 1/2*m*q'^2 + w\n");
        write(dir.filePath("uses.model"), "param w0 = 1\ninclude \"broken.model\" as part\n");
        try {
            model::loadModel(dir.filePath("uses.model").toStdString());
            QFAIL("an error in a sub-model was not reported");
        } catch (const model::ModelError& e) {
            const auto& d = e.diagnostics().front();
            qInfo("%s", e.what());
            QCOMPARE(d.where.line, 2);
            QVERIFY(contains(d.message, "in sub-model part (broken.model:3:"));
            QVERIFY(contains(d.message, "unknown symbol 'part.w'"));
        }
        write(dir.filePath("bind.model"), "include \"mass.model\" as a (q = 1)\n");
        QVERIFY(contains(loadMessage((dir.filePath("bind.model"))), "'q' is not a parameter or input"));
        write(dir.filePath("missing.model"), "include \"nowhere.model\" as a\n");
        QVERIFY(contains(loadMessage((dir.filePath("missing.model"))), "cannot read the sub-model file"));
        write(dir.filePath("loop.model"), "include \"loop.model\" as again\n");
        QVERIFY(contains(loadMessage((dir.filePath("loop.model"))), "includes itself"));
        write(dir.filePath("field.model"), "field s on x in [0, 1] nodes 3\ns_t = s_xx\ns(0, t) = 0\ns(1, t) = 0\n"
                                           "s(x, 0) = 1\n");
        write(dir.filePath("withfield.model"), "include \"field.model\" as rod\n");
        QVERIFY(contains(loadMessage((dir.filePath("withfield.model"))), "cannot hold fields"));
        write(dir.filePath("bond.model"), "param m = 1\nSe push = 1\nI mass = m\n1 v : push, mass\n");
        write(dir.filePath("withbond.model"), "include \"bond.model\" as drive\n");
        const std::string bond = loadMessage(dir.filePath("withbond.model"));
        QVERIFY2(contains(bond, "in sub-model drive (bond.model:2:1): Se push: a sub-model cannot hold bond-graph "
                                "elements"),
                 bond.c_str());
    }

    // A bond graph driven along a prescribed motion: the effort source's force is an algebraic
    // variable and the spring's displacement is constrained to q = 0.1 sin t, so the force is the
    // inverse dynamics m q'' + b q' + k q = 0.1 (cos t - sin t) with m = 2, b = k = 1, and the momentum
    // m q' = 0.2 cos t (index 3: the constraint differentiated twice meets F).
    void bondGraphAlongAPrescribedMotion()
    {
        const std::string text = "param m = 2\nparam b = 1\nparam k = 1\nalgebraic F\nSe actuator = F\nI mass = m\n"
                                 "R damper = b\nC spring = 1/k\n1 motion : actuator, mass, damper, spring\n"
                                 "constraint spring.q = 0.1*sin(t)\nmass.p(0) = 0.05 guess\noutput force = F\n";
        const Model m = model::parseModel(text);
        QCOMPARE(m.differentiationIndex, 3);
        QCOMPARE(m.algebraicCount(), std::size_t(1));
        QVERIFY(!m.bondGraph.empty());
        QVERIFY(contains(model::describeEquations(m), "hidden constraint (first time derivative)"));
        const auto times = integrate::uniformGrid(0, 3, 0.5);
        const auto tr = simulateText(text, times, implicitSettings());
        const std::size_t q = m.stateIndex("spring.q"), p = m.stateIndex("mass.p"), f = m.stateIndex("F");
        double worst = 0.0;
        for (std::size_t i = 0; i < times.size(); ++i) {
            const double t = times[i];
            const auto row = static_cast<Eigen::Index>(i);
            worst = std::max({worst, std::abs(tr.states(row, static_cast<Eigen::Index>(q)) - 0.1 * std::sin(t)),
                              std::abs(tr.states(row, static_cast<Eigen::Index>(p)) - 0.2 * std::cos(t)),
                              std::abs(tr.states(row, static_cast<Eigen::Index>(f)) - 0.1 * (std::cos(t) - std::sin(t)))});
        }
        qInfo("bond graph along 0.1 sin t: largest error in q, p and F %.2e", worst);
        QVERIFY2(worst < 1e-8, qPrintable(QString::number(worst)));
    }

    // A project's model that includes sub-models reads them beside the project, wherever it is opened
    // from, and the file keeps the source relative to the project.
    void projectReadsSubModelsBesideIt()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("parts")));
        write(dir.filePath("parts/mass.model"), "param m = 1 fixed\ncoord q\nkinetic T = 1/2*m*q'^2\nq(0) = 1, 0\n");
        const std::string text = "include \"mass.model\" as a\ninclude \"mass.model\" as b\nconstraint a.q = b.q\n"
                                 "b.q(0) = 0 guess\noutput a.q\n";
        QVERIFY(model::includesSubModels(text));
        QVERIFY(!model::includesSubModels("param include = 1\nstate x = 1\nx' = -include*x\n"));
        nlohmann::json json = {{"version", 1},
                               {"model", {{"source", "parts/pair.model"}, {"text", text}}},
                               {"settings", nlohmann::json::object()}};
        write(dir.filePath("pair.sysid"), json.dump());
        const project::Project p = project::loadProject(dir.filePath("pair.sysid").toStdString());
        QVERIFY(p.modelSource.find(dir.path().toStdString()) == 0);  // resolved against the project's folder
        const auto source = job::compileModelText(p.modelText, p.modelSource, {});
        QCOMPARE(source->stateNames.front(), std::string("a.q"));
        const nlohmann::json saved = project::projectToJson(p, dir.path().toStdString());
        QCOMPARE(saved.at("model").at("source").get<std::string>(), std::string("parts/pair.model"));
    }

    // An explicit method cannot take algebraic variables; left unchosen, the core uses the DAE's default.
    void explicitMethodsRefuse()
    {
        integrate::IntegratorSettings chosen;
        chosen.method = integrate::IntegrationMethod::Dopri5;
        chosen.methodChosen = true;
        try {
            simulateText(naturalPendulum, {0.0, 1.0}, chosen);
            QFAIL("dopri5 integrated a DAE");
        } catch (const integrate::IntegrationError& e) {
            QVERIFY(contains(e.what(), "dopri5 cannot integrate the algebraic variables of this model (rod"));
            QVERIFY(contains(e.what(), "sparse-implicit"));
        }
        integrate::IntegratorSettings unchosen;
        const auto tr = simulateText(naturalPendulum, {0.0, 1.0}, unchosen);
        QCOMPARE(tr.states.rows(), Eigen::Index(2));
        QCOMPARE(integrate::defaultMethodFor(model::parseModel(naturalPendulum)),
                 integrate::IntegrationMethod::SparseImplicit);
    }

private:
    // The message loading a model file raises (its includes resolve beside it); empty when it loads.
    static std::string loadMessage(const QString& path)
    {
        try {
            model::loadModel(path.toStdString());
        } catch (const model::ModelError& e) {
            return e.what();
        }
        return {};
    }
};

QTEST_GUILESS_MAIN(TestConstraints)
#include "test_constraints.moc"
