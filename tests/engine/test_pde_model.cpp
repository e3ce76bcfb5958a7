// PDE models by the method of lines (issue 7): the field block parses into an ordinary
// first-order model whose right-hand side is the central-difference formula written out by
// hand, the difference weights are Fornberg's, and bad field input is reported at its place.
// Convergence against analytic solutions is in tests/validation/test_pde_validation.cpp.

#include "TextTestSupport.h"

#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/model/FieldDiscretisation.h"
#include "engine/model/ModelDescription.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/ModelError.h"

#include <QtTest>

#include <cmath>
#include <string>
#include <vector>

using namespace sysid;
using sysid::test::contains;

namespace {

// The first diagnostic of a model that must not build.
model::ModelDiagnostic firstError(const std::string& text)
{
    try {
        model::parseModel(text);
    } catch (const model::ModelError& e) {
        return e.diagnostics().front();
    }
    return {{0, 0}, "<no error>"};
}

std::vector<double> rhsAt(eval::CompiledModel& m, double t, const std::vector<double>& x)
{
    m.setPoint(t, x.data(), nullptr);
    std::vector<double> dx(m.stateCount());
    m.rhs(dx.data());
    return dx;
}

std::vector<GiNaC::numeric> rationals(std::initializer_list<std::pair<long, long>> values)
{
    std::vector<GiNaC::numeric> r;
    for (auto [p, q] : values)
        r.push_back(GiNaC::numeric(p) / GiNaC::numeric(q));
    return r;
}

const char* rod = R"(
field s on x in [0, 0.8] nodes 3
param alpha(x) = 0.2 [0.01, 1]
s_t = alpha(x) * s_xx
s(0, t) = 1 ; s(0.8, t) = 2
s(x, 0) = 1
output s
)";

}  // namespace

class TestPdeModel : public QObject {
    Q_OBJECT

private slots:
    void fornbergWeights()
    {
        using model::finiteDifferenceWeights;
        QVERIFY(finiteDifferenceWeights(2, {-1, 0, 1}) == rationals({{1, 1}, {-2, 1}, {1, 1}}));
        QVERIFY(finiteDifferenceWeights(1, {-1, 0, 1}) == rationals({{-1, 2}, {0, 1}, {1, 2}}));
        QVERIFY(finiteDifferenceWeights(2, {-2, -1, 0, 1, 2}) ==
                rationals({{-1, 12}, {4, 3}, {-5, 2}, {4, 3}, {-1, 12}}));
        QVERIFY(finiteDifferenceWeights(1, {-2, -1, 0, 1, 2}) ==
                rationals({{1, 12}, {-2, 3}, {0, 1}, {2, 3}, {-1, 12}}));
        // The node next to a boundary at fourth order: f''(x1) from f0..f5 (Fornberg 1988, table 3).
        QVERIFY(finiteDifferenceWeights(2, {-1, 0, 1, 2, 3, 4}) ==
                rationals({{10, 12}, {-15, 12}, {-4, 12}, {14, 12}, {-6, 12}, {1, 12}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, finiteDifferenceWeights(2, {0, 1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, finiteDifferenceWeights(1, {0, 0, 1}));
    }

    void statesParametersOutputs()
    {
        const model::Model m = model::parseModel(rod);
        QCOMPARE(m.states.size(), std::size_t(3));
        QCOMPARE(m.states[0].name, std::string("s[1]"));
        QCOMPARE(m.states[2].name, std::string("s[3]"));
        QCOMPARE(m.parameters.size(), std::size_t(3));
        QCOMPARE(m.parameters[1].name, std::string("alpha[2]"));
        QCOMPARE(m.parameters[1].value, 0.2);
        QCOMPARE(m.parameters[1].lower, 0.01);
        QCOMPARE(m.parameters[1].upper, 1.0);
        QCOMPARE(m.outputs.size(), std::size_t(3));
        QCOMPARE(m.outputs[1].name, std::string("s[2]"));
        QCOMPARE(m.fields.size(), std::size_t(1));
        QCOMPARE(m.fields[0].states, (std::vector<std::size_t>{0, 1, 2}));
        QCOMPARE(m.fields[0].coordinates[0].size(), std::size_t(3));
        QVERIFY(std::abs(m.fields[0].coordinates[0][1] - 0.4) < 1e-15);
    }

    // Seed 003 eq. 4.17 with non-zero boundary values: ds_i/dt = alpha_i (s_{i+1} - 2 s_i + s_{i-1}) / dx^2.
    void rhsIsCentralDifferenceForThreeNodes()
    {
        eval::CompiledModel m(eval::compileModel(model::parseModel(rod)));
        const std::vector<double> alpha{0.1, 0.15, 0.18};
        m.setParameters(alpha);
        const std::vector<double> x{0.3, -0.7, 1.9};
        const std::vector<double> dx = rhsAt(m, 0.5, x);
        const double h2 = 0.2 * 0.2;
        const double expected[3] = {alpha[0] * (1.0 - 2 * x[0] + x[1]) / h2, alpha[1] * (x[0] - 2 * x[1] + x[2]) / h2,
                                    alpha[2] * (x[1] - 2 * x[2] + 2.0) / h2};
        for (int i = 0; i < 3; ++i)
            QVERIFY2(
                std::abs(dx[static_cast<std::size_t>(i)] - expected[i]) < 1e-12 * std::abs(expected[i]),
                qPrintable(
                    QString("node %1: %2 vs %3").arg(i + 1).arg(dx[static_cast<std::size_t>(i)]).arg(expected[i])));
        std::vector<double> x0(3);
        m.initialState(x0.data());
        QCOMPARE(x0, (std::vector<double>{1, 1, 1}));
    }

    // A grid far beyond muParser's 20000 characters per program: the evaluator splits the
    // right-hand side into several programs and the values are still the central differences.
    void largeGridEvaluates()
    {
        const int n = 1000;
        eval::CompiledModel m(eval::compileModel(
            model::parseModel("field s on x in [0, 1] nodes " + std::to_string(n) +
                              "\nparam alpha(x) = 0.2 [0.01, 1]\n"
                              "s_t = alpha(x) * s_xx\ns(0, t) = 0 ; s(1, t) = 0\ns(x, 0) = 1\noutput s(0.5)\n")));
        QCOMPARE(m.stateCount(), std::size_t(n));
        QCOMPARE(m.parameterCount(), std::size_t(n));
        std::vector<double> alpha(n), x(n);
        for (int i = 0; i < n; ++i) {
            alpha[static_cast<std::size_t>(i)] = 0.1 + 0.001 * i;
            x[static_cast<std::size_t>(i)] = std::sin(0.01 * i * i);
        }
        m.setParameters(alpha);
        const std::vector<double> dx = rhsAt(m, 0.0, x);
        const double h = 1.0 / (n + 1);
        for (int i : {0, 1, 499, 998, 999}) {
            const auto k = static_cast<std::size_t>(i);
            const double left = i == 0 ? 0.0 : x[k - 1], right = i == n - 1 ? 0.0 : x[k + 1];
            const double expected = alpha[k] * (left - 2 * x[k] + right) / (h * h);
            QVERIFY2(std::abs(dx[k] - expected) < 1e-9 * std::abs(expected) + 1e-9,
                     qPrintable(QString("node %1: %2 vs %3").arg(i + 1).arg(dx[k]).arg(expected)));
        }
        std::vector<double> J(static_cast<std::size_t>(n) * n);
        m.stateJacobian(J.data());
        QCOMPARE(J[499 * n + 499], -2 * alpha[499] / (h * h));
    }

    // s_t = (a*x + b) s_xx + c s_x with a time-dependent boundary value: only a, b, c are parameters.
    void parametricCoefficientAndFirstDerivative()
    {
        eval::CompiledModel m(eval::compileModel(model::parseModel(R"(
param a = -0.1
param b = 0.22
param c = 0.5
field s on x in [0, 1.2] nodes 5
s_t = (a*x + b) * s_xx + c * s_x
s(0, t) = sin(t) ; s(1.2, t) = 0
s(x, 0) = x*(1.2 - x)
)")));
        QCOMPARE(m.parameterCount(), std::size_t(3));
        QCOMPARE(m.stateCount(), std::size_t(5));
        m.setParameters(std::vector<double>{-0.1, 0.22, 0.5});
        const std::vector<double> x{0.1, 0.2, 0.3, 0.25, 0.15};
        const double t = 0.7, h = 0.2;
        const std::vector<double> dx = rhsAt(m, t, x);
        for (std::size_t i = 0; i < 5; ++i) {
            const double left = i == 0 ? std::sin(t) : x[i - 1];
            const double right = i == 4 ? 0.0 : x[i + 1];
            const double xi = h * static_cast<double>(i + 1);
            const double expected =
                (-0.1 * xi + 0.22) * (left - 2 * x[i] + right) / (h * h) + 0.5 * (right - left) / (2 * h);
            QVERIFY2(std::abs(dx[i] - expected) < 1e-12, qPrintable(QString("node %1").arg(i + 1)));
        }
        std::vector<double> x0(5);
        m.initialState(x0.data());
        QVERIFY(std::abs(x0[2] - 0.6 * 0.6) < 1e-15);
    }

    // A coefficient as a let over the field variable gives the same right-hand side as written inline;
    // a let may also hold field derivatives.
    void letsOverAField()
    {
        const std::string head = "param a = -0.1\nparam b = 0.22\nfield s on x in [0, 1.2] nodes 5\n"
                                 "s(0, t) = 1 ; s(1.2, t) = 0\nparam k(x) = 0.3\n";
        eval::CompiledModel inline_(
            eval::compileModel(model::parseModel(head + "s_t = (a*x + b) * s_xx + k(x)*s*s_x\n")));
        eval::CompiledModel withLets(eval::compileModel(model::parseModel(
            head +
            "let alpha = a*x + b\nlet advection = k(x)*s*s_x\nlet both = alpha*s_xx + advection\ns_t = both\n")));
        const std::vector<double> p{-0.1, 0.22, 0.3, 0.4, 0.5, 0.6, 0.7};
        inline_.setParameters(p);
        withLets.setParameters(p);
        const std::vector<double> x{0.9, 0.7, 0.4, 0.3, 0.1};
        const std::vector<double> expected = rhsAt(inline_, 0.0, x), actual = rhsAt(withLets, 0.0, x);
        for (std::size_t i = 0; i < x.size(); ++i)
            QVERIFY(std::abs(expected[i] - actual[i]) <= 1e-13 * std::abs(expected[i]));
        QVERIFY(std::abs(expected[2] -
                         ((-0.1 * 0.6 + 0.22) * (0.7 - 0.8 + 0.3) / 0.04 + 0.5 * 0.4 * (0.3 - 0.7) / 0.4)) < 1e-12);
    }

    // Neumann on the left (ghost node s_{-1} = s_1 - 2 h g), Robin on the right (s_x = -k s):
    // the boundary nodes become states.
    void fluxBoundariesUseGhostNodes()
    {
        eval::CompiledModel m(eval::compileModel(model::parseModel(R"(
param k = 2
field s on x in [0, 1] nodes 3
s_t = s_xx
s_x(0, t) = 0.5
s_x(1, t) = -k * s
s(x, 0) = 1
)")));
        QCOMPARE(m.stateCount(), std::size_t(5));
        QCOMPARE(m.source().stateNames.front(), std::string("s[0]"));
        QCOMPARE(m.source().stateNames.back(), std::string("s[4]"));
        m.setParameters(std::vector<double>{2.0});
        const std::vector<double> x{1.0, 0.8, 0.5, 0.4, 0.2};
        const std::vector<double> dx = rhsAt(m, 0.0, x);
        const double h = 0.25, h2 = h * h;
        const double ghostLeft = x[1] - 2 * h * 0.5;
        const double ghostRight = x[3] + 2 * h * (-2.0 * x[4]);
        QVERIFY(std::abs(dx[0] - (ghostLeft - 2 * x[0] + x[1]) / h2) < 1e-12);
        QVERIFY(std::abs(dx[2] - (x[1] - 2 * x[2] + x[3]) / h2) < 1e-12);
        QVERIFY(std::abs(dx[4] - (x[3] - 2 * x[4] + ghostRight) / h2) < 1e-12);
    }

    // Seed 003 eq. 3.14 form: s_t = r(x) s_xx + v(y) s_yy on a 3 x 3 grid, zero boundaries.
    void twoDimensionalField()
    {
        const model::Model parsed = model::parseModel(R"(
field s on x in [0, 0.8] nodes 3, y in [0, 0.8] nodes 3
param r(x) = 0.1
param v(y) = 0.2
s_t = r(x) * s_xx + v(y) * s_yy
s(0, y, t) = 0 ; s(0.8, y, t) = 0
s(x, 0, t) = 0 ; s(x, 0.8, t) = y + 1
s(x, y, 0) = x + y
output s(0.4, 0.4)
)");
        QCOMPARE(parsed.states.size(), std::size_t(9));
        QCOMPARE(parsed.states[5].name, std::string("s[2,3]"));
        QCOMPARE(parsed.parameters.size(), std::size_t(6));
        QCOMPARE(parsed.parameters[4].name, std::string("v[2]"));
        QCOMPARE(parsed.outputs.size(), std::size_t(1));
        QCOMPARE(parsed.outputs[0].name, std::string("s(0.4,0.4)"));
        eval::CompiledModel m(eval::compileModel(parsed));
        const std::vector<double> r{0.1, 0.15, 0.2}, v{0.3, 0.25, 0.35};
        std::vector<double> p(r);
        p.insert(p.end(), v.begin(), v.end());
        m.setParameters(p);
        std::vector<double> x(9);
        for (std::size_t k = 0; k < 9; ++k)
            x[k] = 0.1 * static_cast<double>(k * k % 7) + 0.05;
        const std::vector<double> dx = rhsAt(m, 0.0, x);
        const double h2 = 0.04;
        auto at = [&](int i, int j) -> double {
            if (i == 0 || i == 4 || j == 0)
                return 0.0;
            if (j == 4)
                return 0.8 + 1.0;
            return x[static_cast<std::size_t>((i - 1) * 3 + (j - 1))];
        };
        for (int i = 1; i <= 3; ++i)
            for (int j = 1; j <= 3; ++j) {
                const double expected =
                    r[static_cast<std::size_t>(i - 1)] * (at(i - 1, j) - 2 * at(i, j) + at(i + 1, j)) / h2 +
                    v[static_cast<std::size_t>(j - 1)] * (at(i, j - 1) - 2 * at(i, j) + at(i, j + 1)) / h2;
                QVERIFY2(std::abs(dx[static_cast<std::size_t>((i - 1) * 3 + (j - 1))] - expected) < 1e-12,
                         qPrintable(QString("node %1,%2").arg(i).arg(j)));
            }
        std::vector<double> y(1);
        m.outputs(y.data());
        QCOMPARE(y[0], x[4]);
        std::vector<double> x0(9);
        m.initialState(x0.data());
        QVERIFY(std::abs(x0[5] - (0.4 + 0.6)) < 1e-15);
    }

    // output s(X): the node value at a node, linear interpolation between nodes, the
    // boundary value at the end.
    void pointOutputs()
    {
        eval::CompiledModel m(eval::compileModel(model::parseModel(R"(
field s on x in [0, 0.8] nodes 3
s_t = 0.1 * s_xx
s(0, t) = 1 ; s(0.8, t) = 2
output s(0.4)
output s(0.3)
output s(0.1)
output s(0.8)
)")));
        QCOMPARE(m.outputCount(), std::size_t(4));
        QCOMPARE(m.source().outputNames[1], std::string("s(0.3)"));
        const std::vector<double> x{3.0, 5.0, 7.0};
        m.setPoint(0.0, x.data(), nullptr);
        std::vector<double> y(4);
        m.outputs(y.data());
        QVERIFY(std::abs(y[0] - 5.0) < 1e-14);
        QVERIFY(std::abs(y[1] - 4.0) < 1e-14);
        QVERIFY(std::abs(y[2] - 2.0) < 1e-14);
        QVERIFY(std::abs(y[3] - 2.0) < 1e-14);
    }

    void fourthOrderNeedsEnoughNodes()
    {
        const model::Model m = model::parseModel(R"(
field s on x in [0, 1] nodes 4 order 4
s_t = s_xx
s(0, t) = 0 ; s(1, t) = 0
s(x, 0) = 1
)");
        QCOMPARE(m.states.size(), std::size_t(4));
        const auto e = firstError(R"(
field s on x in [0, 1] nodes 3 order 4
s_t = s_xx
s(0, t) = 0 ; s(1, t) = 0
)");
        QCOMPARE(e.where.line, 2);
        QVERIFY2(contains(e.message, "need at least 4 interior nodes"), e.message.c_str());
    }

    // A measured input drives a boundary: the end node's neighbour sees its value.
    void inputOnBoundary()
    {
        eval::CompiledModel m(eval::compileModel(model::parseModel(R"(
input u
field s on x in [0, 1] nodes 3
s_t = s_xx
s(0, t) = u ; s_x(1, t) = 0
)")));
        QCOMPARE(m.inputCount(), std::size_t(1));
        const std::vector<double> x{0.0, 0.0, 0.0, 0.0};
        const double u = 3.0;
        m.setPoint(0.0, x.data(), &u);
        std::vector<double> dx(4);
        m.rhs(dx.data());
        QVERIFY(std::abs(dx[0] - u / 0.0625) < 1e-12);
        QCOMPARE(dx[1], 0.0);
    }

    // A field model next to ordinary states: the ODE state may drive the boundary.
    void checkDescribesFields()
    {
        const std::string text = model::describeModel(model::parseModel(rod));
        QVERIFY2(contains(text, "s on x = 0.2 .. 0.6 (3 nodes): states s[1] .. s[3]"), text.c_str());
    }

    void fieldWithOrdinaryState()
    {
        const model::Model m = model::parseModel(R"(
state u = 1
u' = -u
field s on x in [0, 1] nodes 4
s_t = s_xx
s(0, t) = u ; s_x(1, t) = 0
)");
        QCOMPARE(m.states.size(), std::size_t(6));
        QCOMPARE(m.states[0].name, std::string("u"));
        QCOMPARE(m.states[5].name, std::string("s[5]"));
    }

    // Every one-character deletion or duplication of field models either builds a model that
    // compiles and evaluates, or is a ModelError with a place: no other exception, no crash.
    void damagedTextNeverCrashes()
    {
        const std::string texts[] = {rod, R"(
param k = 2
field s on x in [0, 1] nodes 2, y in [0, 1] nodes 2
param r(x) = 0.1
s_t = r(x) * s_xx + s_yy - k * s_x
s_x(0, y, t) = k * s ; s(1, y, t) = y
s(x, 0, t) = 0 ; s_y(x, 1, t) = 1
s(x, y, 0) = x * y
output s(0.5, 0.5)
)"};
        int built = 0, rejected = 0;
        for (const std::string& text : texts) {
            for (std::size_t i = 0; i < text.size(); ++i) {
                for (const std::string& damaged :
                     {text.substr(0, i) + text.substr(i + 1), text.substr(0, i + 1) + text.substr(i)}) {
                    try {
                        const model::Model m = model::parseModel(damaged);
                        eval::CompiledModel c(eval::compileModel(m));
                        std::vector<double> x0(c.stateCount()), dx(c.stateCount());
                        c.setParameters(c.source().parameterValues);
                        c.initialState(x0.data());
                        c.setPoint(0.0, x0.data(), nullptr);
                        c.rhs(dx.data());
                        ++built;
                    } catch (const model::ModelError& e) {
                        QVERIFY2(!e.diagnostics().empty() && e.diagnostics().front().where.line > 0,
                                 (damaged + "\n" + e.what()).c_str());
                        ++rejected;
                    } catch (const std::exception& e) {
                        QFAIL((damaged + "\nthrew " + e.what()).c_str());
                    }
                }
            }
        }
        qInfo() << built << "damaged texts built," << rejected << "rejected";
        QVERIFY(built > 0 && rejected > 0);
    }

    void errors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        const QString ok = "field s on x in [0, 1] nodes 3\n";
        QTest::newRow("unknown field") << ok + "q_t = s_xx\ns(0, t) = 0 ; s(1, t) = 0\ns_t = s_xx\n"
                                       << 2 << 1 << "unknown field 'q'";
        QTest::newRow("missing boundary")
            << ok + "s_t = s_xx\ns(0, t) = 0\n"
            << 1 << 12 << "no boundary condition at x = 1; add s(1, t) = ... (value) or s_x(1, t) = ... (flux)";
        QTest::newRow("missing boundary at 0.8")
            << QString("field s on x in [0, 0.8] nodes 3\ns_t = s_xx\ns(0, t) = 0\n") << 1 << 12
            << "no boundary condition at x = 0.8; add s(0.8, t) = ...";
        QTest::newRow("missing equation") << ok + "s(0, t) = 0 ; s(1, t) = 0\n" << 1 << 7 << "field s has no equation";
        QTest::newRow("nodes zero") << QString("field s on x in [0, 1] nodes 0\ns_t = s_xx\ns(0,t)=0;s(1,t)=0\n") << 1
                                    << 30 << "must be a whole number >= 1";
        QTest::newRow("nodes fraction") << QString("field s on x in [0, 1] nodes 2.5\ns_t = s_xx\n") << 1 << 30
                                        << "must be a whole number >= 1, not 2.5";
        QTest::newRow("empty interval") << QString("field s on x in [1, 1] nodes 3\ns_t = s_xx\n") << 1 << 18
                                        << "the interval of x is empty";
        QTest::newRow("not an end") << ok + "s_t = s_xx\ns(0.5, t) = 0\n"
                                    << 3 << 3 << "x = 0.5 is not an end of the interval";
        QTest::newRow("second boundary") << ok + "s_t = s_xx\ns(0, t) = 0 ; s(1, t) = 0 ; s_x(0, t) = 1\n"
                                         << 3 << 29 << "a second boundary condition for s at x = 0";
        QTest::newRow("order 3") << QString("field s on x in [0, 1] nodes 3 order 3\n") << 1 << 38 << "must be 2 or 4";
        QTest::newRow("order 4 flux")
            << QString("field s on x in [0, 1] nodes 5 order 4\ns_t = s_xx\ns_x(0,t)=0;s(1,t)=0\n") << 1 << 7
            << "order 4 is available with fixed boundary values";
        QTest::newRow("node param bare") << ok + "param alpha(x) = 1\ns_t = alpha*s_xx\ns(0,t)=0;s(1,t)=0\n"
                                         << 3 << 7 << "alpha is one parameter per node; write alpha(x)";
        QTest::newRow("node param not a variable")
            << QString("param alpha(z) = 1\n") + ok + "s_t = s_xx\ns(0,t)=0;s(1,t)=0\n"
            << 1 << 13 << "'z' in alpha(z) is not a field variable";
        QTest::newRow("node param wrong argument")
            << ok + "param alpha(x) = 1\ns_t = alpha(0.5)*s_xx\ns(0,t)=0;s(1,t)=0\n"
            << 3 << 7 << "write alpha(x)";
        QTest::newRow("derivative in ODE")
            << ok + "state y = 0\ny' = s_xx\ns_t = s_xx\ns(0,t)=0;s(1,t)=0\n"
            << 3 << 6 << "s_xx is a derivative of field s; it can appear only in s_t = ...";
        QTest::newRow("variable in ODE") << ok + "state y = 0\ny' = x\ns_t = s_xx\ns(0,t)=0;s(1,t)=0\n"
                                         << 3 << 6 << "x is the spatial variable of field s";
        QTest::newRow("field in ODE") << ok + "state y = 0\ny' = s\ns_t = s_xx\ns(0,t)=0;s(1,t)=0\n"
                                      << 3 << 6 << "field s has one value per node";
        QTest::newRow("value boundary uses field")
            << ok + "s_t = s_xx\ns(0,t)=s;s(1,t)=0\n"
            << 3 << 8 << "a boundary value s(...) = ... cannot depend on s itself";
        QTest::newRow("time in initial") << ok + "s_t = s_xx\ns(0,t)=0;s(1,t)=0\ns(x, 0) = t\n"
                                         << 4 << 11 << "time t cannot appear in the initial values of a field";
        QTest::newRow("wrong argument count") << ok + "s_t = s_xx\ns(0, 1, t)=0\n" << 3 << 1 << "s depends on (x, t)";
        QTest::newRow("bad time argument") << ok + "s_t = s_xx\ns(0, 2) = 0\n"
                                           << 3 << 6 << "the last argument of s(...) is the time";
        QTest::newRow("output outside") << ok + "s_t = s_xx\ns(0,t)=0;s(1,t)=0\noutput s(2)\n"
                                        << 4 << 10 << "x lies outside the interval of s";
        QTest::newRow("output point of non-field")
            << ok + "state y = 0\ny' = 1\ns_t = s_xx\ns(0,t)=0;s(1,t)=0\noutput y(1)\n"
            << 6 << 8 << "output y(...) takes the value of a field at a point";
        QTest::newRow("second equation") << ok + "s_t = s_xx\ns_t = s_xx\ns(0,t)=0;s(1,t)=0\n"
                                         << 3 << 1 << "a second equation for s_t";
        QTest::newRow("missing on") << QString("field s x in [0, 1] nodes 3\n") << 1 << 9
                                    << "expected 'on' after the field name";
        QTest::newRow("missing nodes") << QString("field s on x in [0, 1] 3\n") << 1 << 24 << "expected 'nodes'";
        QTest::newRow("second derivative as boundary") << ok + "s_t = s_xx\ns_xx(0,t)=0;s(1,t)=0\n"
                                                       << 3 << 1 << "a boundary condition gives the field";
        QTest::newRow("flux across the wrong side")
            << QString("field s on x in [0, 1] nodes 2, y in [0, 1] nodes 2\ns_t = s_xx + s_yy\ns_y(0, y, t) = 0\n")
            << 3 << 1 << "on the side x = 0 the flux is s_x, not s_y";
        QTest::newRow("ODE initial value on a field")
            << ok + "s_t = s_xx\ns(0,t)=0;s(1,t)=0\ns(0) = 1\n"
            << 4 << 1 << "s is a field: write its initial values as s(x, 0) = ...";
        QTest::newRow("ODE equation on a field") << ok + "s' = 1\ns(0,t)=0;s(1,t)=0\n"
                                                 << 2 << 1 << "s is a field; its equation is written s_t = ...";
        QTest::newRow("field let in an ODE")
            << ok + "let alpha = 2*x\nstate y = 0\ny' = alpha\ns_t = s_xx\ns(0,t)=0;s(1,t)=0\n"
            << 4 << 6
            << "alpha depends on field s (its variables, values or per-node "
               "parameters); it can appear only in s_t = ...";
        QTest::newRow("field let in a boundary") << ok + "let alpha = 2*x\ns_t = s_xx\ns(0,t)=alpha;s(1,t)=0\n"
                                                 << 4 << 8 << "alpha depends on field s";
        QTest::newRow("let over two fields") << ok +
                "field q on z in [0, 1] nodes 2\nlet both = min(x, z)\ns_t = s_xx\ns(0,t)=0;s(1,t)=0\n"
                "q_t = q_zz\nq(0,t)=0;q(1,t)=0\n"
                                             << 3 << 19 << "a let may use one field only; this one uses s and q";
        QTest::newRow("too many nodes") << QString(
                                               "field s on x in [0, 1] nodes 100, y in [0, 1] nodes 100\ns_t = s_xx\n"
                                               "s(0,y,t)=0;s(1,y,t)=0;s(x,0,t)=0;s(x,1,t)=0\n")
                                        << 1 << 7 << "field s has 10000 nodes; at most 2000";
    }

    void errors()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        // The diagnostic that says it (a model may also be missing what the broken line meant to give).
        std::vector<model::ModelDiagnostic> all;
        try {
            model::parseModel(text.toStdString());
        } catch (const model::ModelError& error) {
            all = error.diagnostics();
        }
        QVERIFY2(!all.empty(), "the model built");
        std::string seen;
        const model::ModelDiagnostic* e = nullptr;
        for (const auto& d : all) {
            seen += d.message + "\n";
            if (!e && contains(d.message, message.toStdString()))
                e = &d;
        }
        QVERIFY2(e, seen.c_str());
        QCOMPARE(e->where.line, line);
        QCOMPARE(e->where.column, column);
    }
};

QTEST_APPLESS_MAIN(TestPdeModel)
#include "test_pde_model.moc"
