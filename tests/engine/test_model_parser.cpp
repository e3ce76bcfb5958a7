// The model language (engine/model): every construct parses into the right Model, every
// function evaluates like its std:: counterpart through CompiledModel, and every error is
// reported with its exact line and column, in text order.

#include "ModelTestSupport.h"
#include "TextTestSupport.h"

#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/model/Model.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/ModelError.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace sysid;
using model::Model;
using model::ModelDiagnostic;
using model::ModelError;
using sysid::test::contains;
using test::errorOf;
using test::param;
using test::same;
using test::show;
using test::state;

namespace {

const model::Output* output(const Model& m, const std::string& name)
{
    for (const auto& o : m.outputs)
        if (o.name == name)
            return &o;
    return nullptr;
}

std::vector<std::string> stateNames(const Model& m)
{
    std::vector<std::string> names;
    for (const auto& s : m.states)
        names.push_back(s.name);
    return names;
}

std::vector<std::string> outputNames(const Model& m)
{
    std::vector<std::string> names;
    for (const auto& o : m.outputs)
        names.push_back(o.name);
    return names;
}

std::string join(const std::vector<std::string>& v)
{
    std::string s;
    for (const auto& x : v)
        s += (s.empty() ? "" : " ") + x;
    return s;
}

std::string describe(const std::vector<ModelDiagnostic>& ds)
{
    std::string s;
    for (const auto& d : ds)
        s += "\n  " + model::formatDiagnostic("m.model", d);
    return s;
}

constexpr double inf = std::numeric_limits<double>::infinity();

}  // namespace

class TestModelParser : public QObject {
    Q_OBJECT

private slots:
    // ---- constructs ----------------------------------------------------------------------

    void secondOrderCoordinateMakesPositionThenVelocity()
    {
        const Model m = model::parseModel("state y = 2\ny' = -y\nx'' = -x + y\nz'' = x'\n");
        QCOMPARE(join(stateNames(m)), std::string("y x x' z z'"));
        const GiNaC::ex x = state(m, "x").symbol, xd = state(m, "x'").symbol, y = state(m, "y").symbol;
        const GiNaC::ex zd = state(m, "z'").symbol;
        QVERIFY(same(state(m, "x").rhs, xd));
        QVERIFY(same(state(m, "x'").rhs, -x + y));
        QVERIFY(same(state(m, "y").rhs, -y));
        QVERIFY(same(state(m, "z").rhs, zd));
        QVERIFY(same(state(m, "z'").rhs, xd));
        QVERIFY(same(state(m, "y").initial, 2));
        QVERIFY(same(state(m, "x").initial, 0));
        QVERIFY(same(state(m, "x'").initial, 0));
        QVERIFY(!m.dependsOnTime());
        QVERIFY(m.lagrangeEquations.empty());
        QCOMPARE(m.source, std::string("<model>"));
    }

    void stateWithoutInitialValueStartsAtZero()
    {
        const Model m = model::parseModel("state y\ny' = 1 - y\n");
        QCOMPARE(m.states.size(), std::size_t(1));
        QVERIFY(same(m.states[0].initial, 0));
    }

    void initialValuesOfCoordinate()
    {
        const Model m = model::parseModel("x'' = -x\nx(0) = 1.5, -2\n");
        QVERIFY(same(state(m, "x").initial, GiNaC::numeric(3, 2)));
        QVERIFY(same(state(m, "x'").initial, -2));
        const Model only = model::parseModel("x'' = -x\nx(0) = 4\n");
        QVERIFY(same(state(only, "x").initial, 4));
        QVERIFY(same(state(only, "x'").initial, 0));
        const Model first = model::parseModel("state y\ny' = -y\ny(0) = 3\n");
        QVERIFY(same(state(first, "y").initial, 3));
    }

    void parameterValuesBoundsAndFixed()
    {
        const Model m = model::parseModel("param a = 0.1 [0, 10]\n"
                                          "param b = 2 fixed\n"
                                          "param c = 1e-3\n"
                                          "param d = .5 [-1, 1] fixed\n"
                                          "param e = 2*pi\n"
                                          "param f = -(3 + 1)/8 [-2*pi, pi^2]\n"
                                          "param g = 1.5E+2\n"
                                          "state y = 0\ny' = a + b + c + d + e + f + g\n");
        QCOMPARE(m.parameters.size(), std::size_t(7));
        QCOMPARE(m.parameterSymbols.size(), std::size_t(7));
        const char* names[] = {"a", "b", "c", "d", "e", "f", "g"};
        for (std::size_t i = 0; i < 7; ++i) {
            QCOMPARE(m.parameters[i].name, std::string(names[i]));
            QCOMPARE(m.parameterSymbols[i].get_name(), std::string(names[i]));
            QVERIFY(!m.parameters[i].isInitialValue);
        }
        QCOMPARE(m.parameters[0].value, 0.1);
        QCOMPARE(m.parameters[0].lower, 0.0);
        QCOMPARE(m.parameters[0].upper, 10.0);
        QVERIFY(!m.parameters[0].fixed);
        QCOMPARE(m.parameters[1].value, 2.0);
        QVERIFY(m.parameters[1].fixed);
        QCOMPARE(m.parameters[1].lower, -inf);
        QCOMPARE(m.parameters[1].upper, inf);
        QCOMPARE(m.parameters[2].value, 1e-3);
        QVERIFY(!m.parameters[2].fixed);
        QCOMPARE(m.parameters[3].value, 0.5);
        QCOMPARE(m.parameters[3].lower, -1.0);
        QCOMPARE(m.parameters[3].upper, 1.0);
        QVERIFY(m.parameters[3].fixed);
        QVERIFY(std::abs(m.parameters[4].value - 2 * M_PI) < 1e-14);
        QCOMPARE(m.parameters[5].value, -0.5);
        QVERIFY(std::abs(m.parameters[5].lower + 2 * M_PI) < 1e-14);
        QVERIFY(std::abs(m.parameters[5].upper - M_PI * M_PI) < 1e-13);
        QCOMPARE(m.parameters[6].value, 150.0);
        QCOMPARE(m.parameters[0].where.line, 1);
        QCOMPARE(m.parameters[0].where.column, 7);
        QCOMPARE(m.parameterIndex("e"), std::size_t(4));
        QCOMPARE(m.parameterIndex("nosuch"), std::string::npos);
    }

    void decimalLiteralsAreExact()
    {
        // 0.1 must be the rational 1/10 so that symbolic work (cancellation) stays exact.
        const Model m = model::parseModel("state y\ny' = 0.1*y - y/10 + 1e-3 - 1/1000 + .5 - 1/2 + 2.5e-1*y - y/4\n");
        QVERIFY2(m.states[0].rhs.expand().is_zero(), show(m.states[0].rhs).c_str());
    }

    // [LOW, HIGH] between an initial value and `estimate` bounds the estimate, as for a parameter.
    void estimatedInitialValuesTakeBounds()
    {
        const Model m = model::parseModel("state y = 1 [0, 5] estimate\n"
                                          "y' = -y\n"
                                          "x'' = -x\n"
                                          "x(0) = 2 [-3, 3] estimate, 0.5 estimate\n");
        const auto bounds = [&](const char* name) {
            const model::Parameter& p = m.parameters.at(m.parameterIndex(name));
            return std::make_pair(p.lower, p.upper);
        };
        QCOMPARE(bounds("y(0)"), std::make_pair(0.0, 5.0));
        QCOMPARE(bounds("x(0)"), std::make_pair(-3.0, 3.0));
        QVERIFY(std::isinf(bounds("x'(0)").first) && std::isinf(bounds("x'(0)").second));
        EXPECT_ONE_ERROR("state y = 1 [0, 5]\ny' = -y\n", 1, 19, "add 'estimate'");
        EXPECT_ONE_ERROR("state y = 9 [0, 5] estimate\ny' = -y\n", 1, 11, "y(0) lies outside its bounds [0, 5]");
        EXPECT_ONE_ERROR("x'' = -x\nx(0) = 1 [2, 0] estimate\n", 2, 11, "bounds of x(0) must satisfy lower < upper");
    }

    void estimatedInitialValuesBecomeParameters()
    {
        const Model m = model::parseModel("param k = 3\n"
                                          "state y = 1 estimate\n"
                                          "y' = -k*y\n"
                                          "x'' = -x\n"
                                          "x(0) = 2 estimate, 0.5 estimate\n"
                                          "z'' = -z\n"
                                          "z(0) = 7, 8 estimate\n");
        QCOMPARE(m.parameters.size(), std::size_t(5));
        QCOMPARE(m.parameters[0].name, std::string("k"));
        QVERIFY(!m.parameters[0].isInitialValue);
        struct Expect {
            const char* name;
            double value;
        } expected[] = {{"y(0)", 1.0}, {"x(0)", 2.0}, {"x'(0)", 0.5}, {"z'(0)", 8.0}};
        for (const auto& e : expected) {
            const std::size_t i = m.parameterIndex(e.name);
            QVERIFY2(i != std::string::npos, e.name);
            QVERIFY(m.parameters[i].isInitialValue);
            QVERIFY(!m.parameters[i].fixed);
            QCOMPARE(m.parameters[i].value, e.value);
            QCOMPARE(m.parameterSymbols[i].get_name(), std::string(e.name));
        }
        QCOMPARE(m.parameterIndex("z(0)"), std::string::npos);
        QVERIFY(same(state(m, "y").initial, param(m, "y(0)")));
        QVERIFY(same(state(m, "x").initial, param(m, "x(0)")));
        QVERIFY(same(state(m, "x'").initial, param(m, "x'(0)")));
        QVERIFY(same(state(m, "z").initial, 7));
        QVERIFY(same(state(m, "z'").initial, param(m, "z'(0)")));

        // Through the compiled model: x0 follows the initial-value parameters.
        eval::CompiledModel cm(eval::compileModel(m));
        QCOMPARE(cm.parameterCount(), std::size_t(5));
        std::vector<double> p(cm.parameters().begin(), cm.parameters().end());
        p[m.parameterIndex("y(0)")] = -4;
        cm.setParameters(p);
        std::vector<double> x0(cm.stateCount());
        cm.initialState(x0.data());
        QCOMPARE(x0[m.stateIndex("y")], -4.0);
        QCOMPARE(x0[m.stateIndex("x")], 2.0);
        QCOMPARE(x0[m.stateIndex("x'")], 0.5);
        QCOMPARE(x0[m.stateIndex("z")], 7.0);
        QCOMPARE(x0[m.stateIndex("z'")], 8.0);
    }

    void initialValuesMayBeExpressionsOfParameters()
    {
        const Model m = model::parseModel("param a = 2\nparam b = 3\n"
                                          "state y = a*b + 1\ny' = -y\n"
                                          "x'' = -x\nx(0) = a/b, -sqrt(b)\n");
        const GiNaC::symbol &a = param(m, "a"), &b = param(m, "b");
        QVERIFY(same(state(m, "y").initial, a * b + 1));
        QVERIFY(same(state(m, "x").initial, a / b));
        QVERIFY(same(state(m, "x'").initial, -GiNaC::sqrt(b)));
        eval::CompiledModel cm(eval::compileModel(m));
        std::vector<double> x0(cm.stateCount());
        cm.initialState(x0.data());
        QCOMPARE(x0[0], 7.0);
        QVERIFY(std::abs(x0[1] - 2.0 / 3.0) < 1e-15);
        QVERIFY(std::abs(x0[2] + std::sqrt(3.0)) < 1e-15);
        std::vector<double> J(cm.stateCount() * cm.parameterCount());
        cm.initialStateJacobian(J.data());  // column-major n x np
        QCOMPARE(J[0 + 3 * 0], 3.0);  // d(a*b+1)/da = b
        QCOMPARE(J[0 + 3 * 1], 2.0);  // d/db = a
        QVERIFY(std::abs(J[1 + 3 * 1] + 2.0 / 9.0) < 1e-15);  // d(a/b)/db = -a/b^2
    }

    void letsAreSubstituted()
    {
        const Model m = model::parseModel("param k3 = 2\nparam c = 0.5\n"
                                          "let fs = k3*x^3\n"
                                          "let fd = c*x'\n"
                                          "let total = fs + fd\n"
                                          "x'' = -total + sin(t)\n");
        const GiNaC::symbol &k3 = param(m, "k3"), &c = param(m, "c");
        const GiNaC::ex x = state(m, "x").symbol, xd = state(m, "x'").symbol;
        QVERIFY2(same(state(m, "x'").rhs, -k3 * GiNaC::pow(x, 3) - c * xd + GiNaC::sin(m.time)),
                 show(state(m, "x'").rhs).c_str());
        QVERIFY(m.dependsOnTime());
        QCOMPARE(m.parameters.size(), std::size_t(2));
        QCOMPARE(m.states.size(), std::size_t(2));
    }

    void inputsAreSymbols()
    {
        const Model m = model::parseModel("input u, w\ninput v\nstate y\ny' = u - 2*w + v\n");
        QCOMPARE(m.inputs.size(), std::size_t(3));
        QCOMPARE(m.inputs[0].name, std::string("u"));
        QCOMPARE(m.inputs[1].name, std::string("w"));
        QCOMPARE(m.inputs[2].name, std::string("v"));
        QCOMPARE(m.inputIndex("v"), std::size_t(2));
        QVERIFY(same(m.states[0].rhs, m.inputs[0].symbol - 2 * m.inputs[1].symbol + m.inputs[2].symbol));
        QVERIFY(m.dependsOnTime());
    }

    void outputsByNameVelocityAccelerationAndExpression()
    {
        const Model m = model::parseModel("param c = 0.3\n"
                                          "state y = 1\ny' = -c*y\n"
                                          "x'' = -c*x' - x + y\n"
                                          "output x\n"
                                          "output x'\n"
                                          "output x''\n"
                                          "output y'\n"
                                          "output e = x - y\n");
        QVERIFY(m.outputsDeclared);
        QCOMPARE(join(outputNames(m)), std::string("x x' x'' y' e"));
        const GiNaC::symbol& c = param(m, "c");
        const GiNaC::ex x = state(m, "x").symbol, xd = state(m, "x'").symbol, y = state(m, "y").symbol;
        QVERIFY(same(output(m, "x")->expression, x));
        QVERIFY(same(output(m, "x'")->expression, xd));
        QVERIFY2(same(output(m, "x''")->expression, -c * xd - x + y), show(output(m, "x''")->expression).c_str());
        QVERIFY(same(output(m, "y'")->expression, -c * y));
        QVERIFY(same(output(m, "e")->expression, x - y));
        QCOMPARE(output(m, "e")->where.line, 9);
        QCOMPARE(output(m, "e")->where.column, 8);
    }

    void withoutOutputEveryStateIsAnOutput()
    {
        const Model m = model::parseModel("x'' = -x\nstate y = 1\ny' = -y\n");
        QVERIFY(!m.outputsDeclared);
        QCOMPARE(join(outputNames(m)), std::string("x x' y"));
        for (std::size_t i = 0; i < m.states.size(); ++i)
            QVERIFY(same(m.outputs[i].expression, m.states[i].symbol));
        const auto src = eval::compileModel(m);
        QCOMPARE(src->outputNames, (std::vector<std::string>{"x", "x'", "y"}));
    }

    void commentsAndSemicolons()
    {
        const Model m = model::parseModel("# a comment line\n"
                                          "param a = 1; param b = 2 # trailing comment; not a statement\n"
                                          "   # indented comment\n"
                                          "\n"
                                          "state y = 1; y' = -a*y + b ;; output y\r\n"
                                          "#last line without newline");
        QCOMPARE(m.parameters.size(), std::size_t(2));
        QCOMPARE(m.states.size(), std::size_t(1));
        QCOMPARE(join(outputNames(m)), std::string("y"));
        QVERIFY(same(m.states[0].rhs, -param(m, "a") * m.states[0].symbol + param(m, "b")));
        QCOMPARE(m.parameters[1].where.line, 2);
        QCOMPARE(m.parameters[1].where.column, 20);
    }

    void operatorPrecedence()
    {
        const Model m = model::parseModel("param a = 2\nstate y\ny' = -a^2 + 2^3^2/4*a - (a - 1)*-a + 2^-1\n");
        const GiNaC::symbol& a = param(m, "a");
        // -a^2 is -(a^2); ^ is right-associative: 2^3^2 = 2^9; unary minus after '*'.
        const GiNaC::ex expected = -GiNaC::pow(a, 2) + GiNaC::numeric(512) / 4 * a + (a - 1) * a + GiNaC::numeric(1, 2);
        QVERIFY2(same(m.states[0].rhs, expected), show(m.states[0].rhs).c_str());
    }

    void everyFunctionEvaluatesLikeStd()
    {
        const Model m = model::parseModel("state a\na' = 0\nstate b\nb' = 0\n"
                                          "output o_sin = sin(a)\n"
                                          "output o_cos = cos(a)\n"
                                          "output o_tan = tan(a)\n"
                                          "output o_asin = asin(a)\n"
                                          "output o_acos = acos(a)\n"
                                          "output o_atan = atan(b)\n"
                                          "output o_atan2 = atan2(b, a - 0.5)\n"
                                          "output o_sinh = sinh(b)\n"
                                          "output o_cosh = cosh(b)\n"
                                          "output o_tanh = tanh(b)\n"
                                          "output o_exp = exp(b)\n"
                                          "output o_log = log(a)\n"
                                          "output o_sqrt = sqrt(a)\n"
                                          "output o_abs = abs(b)\n"
                                          "output o_sign = sign(b)\n"
                                          "output o_min = min(a, b)\n"
                                          "output o_max = max(a, b)\n"
                                          "output o_min3 = min(a, b, 0.25)\n"
                                          "output o_max3 = max(b, a, 0.75)\n"
                                          "output o_pow = a^b\n"
                                          "output o_pi = pi*a\n");
        eval::CompiledModel cm(eval::compileModel(m));
        QCOMPARE(cm.outputCount(), std::size_t(21));
        const double points[][2] = {{0.3, -0.7}, {0.8, 1.2}, {0.5, 0.0}, {0.1, 0.1}, {0.95, -2.5}};
        for (const auto& pt : points) {
            const double a = pt[0], b = pt[1];
            const double sign = b > 0 ? 1.0 : b < 0 ? -1.0 : 0.0;
            const double expected[] = {std::sin(a),
                                       std::cos(a),
                                       std::tan(a),
                                       std::asin(a),
                                       std::acos(a),
                                       std::atan(b),
                                       std::atan2(b, a - 0.5),
                                       std::sinh(b),
                                       std::cosh(b),
                                       std::tanh(b),
                                       std::exp(b),
                                       std::log(a),
                                       std::sqrt(a),
                                       std::abs(b),
                                       sign,
                                       std::min(a, b),
                                       std::max(a, b),
                                       std::min({a, b, 0.25}),
                                       std::max({b, a, 0.75}),
                                       std::pow(a, b),
                                       M_PI * a};
            const double x[] = {a, b};
            cm.setPoint(0.0, x, nullptr);
            std::vector<double> y(cm.outputCount());
            cm.outputs(y.data());
            for (std::size_t i = 0; i < y.size(); ++i) {
                const double tol = 1e-14 * std::max(1.0, std::abs(expected[i]));
                QVERIFY2(std::abs(y[i] - expected[i]) <= tol,
                         qPrintable(QString("%1 at a=%2 b=%3: got %4, expected %5")
                                        .arg(QString::fromStdString(m.outputs[i].name))
                                        .arg(a)
                                        .arg(b)
                                        .arg(y[i], 0, 'g', 17)
                                        .arg(expected[i], 0, 'g', 17)));
            }
        }
    }

    void functionsOfNumbersFoldToConstants()
    {
        // Constant arguments are evaluated when the model is built (and give the same numbers).
        const Model m =
            model::parseModel("param p1 = abs(-3) + sign(-2) + min(4, 1, 2) + max(-1, -5)\n"
                              "param p2 = sqrt(16) + exp(0) + log(1) + atan2(1, 1)*4/pi + cos(pi) + sign(0)\n"
                              "state y\ny' = abs(-2)*y + sign(0) + max(3, 1)\n");
        QCOMPARE(m.parameters[0].value, 3.0 - 1.0 + 1.0 - 1.0);
        QVERIFY(std::abs(m.parameters[1].value - (4.0 + 1.0 + 0.0 + 1.0 - 1.0 + 0.0)) < 1e-14);
        QVERIFY2(same(m.states[0].rhs, 2 * m.states[0].symbol + 3), show(m.states[0].rhs).c_str());
    }

    void namesMayContainDigitsAndUnderscores()
    {
        const Model m = model::parseModel("param k_1 = 1\nparam _k2 = 2\nstate y_3\ny_3' = -k_1*y_3 + _k2\n");
        QCOMPARE(m.states[0].name, std::string("y_3"));
        QCOMPARE(m.parameters[1].name, std::string("_k2"));
    }

    // Keywords are keywords only where a declaration needs one: the words of the language stay
    // free as names of inputs, outputs, parameters and states.
    void keywordsAreFreeAsNames()
    {
        const Model m = model::parseModel("param order = 2 fixed\n"
                                          "param potential = 0.5\n"
                                          "param prior = 1 prior 1, 0.5\n"
                                          "input force, hold\n"
                                          "state field = 1\n"
                                          "state state = 0 estimate\n"
                                          "field' = -potential*field + force/order + 0*hold\n"
                                          "state' = field - prior*state\n"
                                          "output kinetic = potential*field\n"
                                          "output state\n");
        QCOMPARE(join(stateNames(m)), std::string("field state"));
        QCOMPARE(m.inputs.size(), std::size_t(2));
        QCOMPARE(m.inputs[0].name, std::string("force"));
        QCOMPARE(m.inputs[1].name, std::string("hold"));
        QVERIFY(!m.inputs[0].intersample);
        QVERIFY(m.parameters[0].fixed);
        QVERIFY(m.parameters[2].prior);
        const GiNaC::ex field = state(m, "field").symbol;
        QVERIFY(same(state(m, "field").rhs, -param(m, "potential") * field + m.inputs[0].symbol / param(m, "order")));
        QCOMPARE(join(outputNames(m)), std::string("kinetic state"));
        QVERIFY(same(output(m, "kinetic")->expression, param(m, "potential") * field));
        // The word after a keyword is the name: a declaration's own keyword may be its name.
        const Model own =
            model::parseModel("param param = 1\nstate x = 1\nx' = -param*x\noutput output = 2*x\noutput force = x\n");
        QCOMPARE(own.parameters[0].name, std::string("param"));
        QCOMPARE(own.outputs[0].name, std::string("output"));
        QCOMPARE(own.outputs[1].name, std::string("force"));
        // A line that starts with a declared name followed by ' or ( is that name's equation or
        // initial value, however it is spelled.
        const Model lines = model::parseModel("output''= -output\noutput(0) = 1, 0\n");
        QCOMPARE(join(stateNames(lines)), std::string("output output'"));
        QVERIFY(same(lines.states[0].initial, 1));
    }

    void timePiAndFunctionsAreNotNames()
    {
        EXPECT_ONE_ERROR("param pi = 3\nstate y\ny' = -y\n", 1, 7,
                         "'pi' is the number pi (3.14159...) and cannot be redeclared");
        EXPECT_ONE_ERROR("input t\nstate y\ny' = -y\n", 1, 7, "'t' is time and cannot be redeclared");
        EXPECT_ERROR("state sin = 1\nsin' = -sin\n", 1, 7,
                     "'sin' is the name of a function and cannot be used as a name");
        EXPECT_ONE_ERROR("input sign\nstate y\ny' = -y\n", 1, 7, "'sign' is the name of a function");
        // A line that starts with force and no ' or ( is a force, whatever else force names: it
        // needs its coordinate.
        EXPECT_ONE_ERROR("input force\nstate y\ny' = -y\nforce = 1\n", 4, 7,
                         "expected the coordinate the force acts on (force q = ...)");
    }

    // output EXPR: an expression that is not just a name is the output y1, the next y2, ...
    void anonymousOutputsAreNumbered()
    {
        const Model m = model::parseModel("param nu = 0.5\n"
                                          "state x = 1\nx' = -x\n"
                                          "output x + nu\n"
                                          "output x\n"
                                          "output (x - nu)/2 unit m\n"
                                          "output sin(x)\n"
                                          "output -x\n");
        QCOMPARE(join(outputNames(m)), std::string("y1 x y2 y3 y4"));
        const GiNaC::ex x = state(m, "x").symbol;
        const GiNaC::symbol& nu = param(m, "nu");
        QVERIFY(same(output(m, "y1")->expression, x + nu));
        QVERIFY(same(output(m, "y2")->expression, (x - nu) / 2));
        QCOMPARE(output(m, "y2")->unit, std::string("m"));
        QVERIFY(same(output(m, "y3")->expression, GiNaC::sin(x)));
        QVERIFY(same(output(m, "y4")->expression, -x));
        QCOMPARE(output(m, "y1")->where.line, 4);
        QCOMPARE(output(m, "y1")->where.column, 8);
        const auto src = eval::compileModel(m);
        QCOMPARE(src->outputNames, (std::vector<std::string>{"y1", "x", "y2", "y3", "y4"}));
        // As a simulation sees it: y1 = x + nu at x = 0.25.
        eval::CompiledModel cm(src);
        const std::vector<double> nu05{0.5};
        cm.setParameters(nu05);
        const double state0 = 0.25;
        cm.setPoint(0.0, &state0, nullptr);
        std::vector<double> y(src->outputCount());
        cm.outputs(y.data());
        QCOMPARE(y[0], 0.75);

        // The name it would get is taken: the model must name it.
        EXPECT_ONE_ERROR("state y1 = 1\ny1' = -y1\noutput 2*y1\n", 3, 8,
                         "this output would be named y1, which is already a state; name it: output NAME = ...");
        EXPECT_ONE_ERROR("state x = 1\nx' = -x\noutput y1 = x\noutput 2*x\n", 4, 8,
                         "this output would be named y1, which is already an output on line 3");
        EXPECT_ONE_ERROR("state x = 1\nx' = -x\noutput x + 1 = 2\n", 3, 8,
                         "the name of an output comes alone before '='");
        EXPECT_ONE_ERROR("state x = 1\nx' = -x\noutput\n", 3, 7, "expected what to output after 'output'");
        EXPECT_ONE_ERROR("state x = 1\nx' = -x\noutput x + q\n", 3, 12, "unknown symbol 'q'");
    }

    // ---- when: state resets ------------------------------------------------------------------

    // The bouncing ball: g = x - 0 falls through zero, x' takes -e*x' (the velocity before).
    void whenMakesAnEventWithItsReset()
    {
        const Model m = model::parseModel("param g = 9.81\n"
                                          "param e = 0.8 [0, 1]\n"
                                          "x'' = -g\n"
                                          "x(0) = 1, 0\n"
                                          "when x < 0 : x' = -e*x'   # impact\n"
                                          "output x\n");
        QCOMPARE(m.events.size(), std::size_t(1));
        const model::Event& bounce = m.events[0];
        const GiNaC::ex x = state(m, "x").symbol;
        const GiNaC::ex v = state(m, "x'").symbol;
        QVERIFY2(same(bounce.condition, x), show(bounce.condition).c_str());
        QCOMPARE(bounce.direction, -1);
        QCOMPARE(bounce.assignments.size(), std::size_t(1));
        QCOMPARE(bounce.assignments[0].state, m.stateIndex("x'"));
        QVERIFY2(same(bounce.assignments[0].value, -param(m, "e") * v), show(bounce.assignments[0].value).c_str());
        QCOMPARE(bounce.text, std::string("when x < 0"));
        QCOMPARE(bounce.resetText, std::string("x' = -e*x'"));
        QCOMPARE(bounce.where.line, 5);
        QCOMPARE(bounce.where.column, 1);
        // The dynamics are untouched by the reset.
        QVERIFY(same(state(m, "x'").rhs, -param(m, "g")));
        QVERIFY(model::parseModel("x'' = -1\n").events.empty());
    }

    // Both directions, <= and >= read as < and >, several resets applied together, conditions
    // and values in t, states, parameters, inputs and lets, a `when` written before the states
    // it names, and a condition that opens with a parenthesis.
    void whenConditionsAndResetsUseEveryRightHandSideName()
    {
        const Model m = model::parseModel("input u\n"
                                          "param w = 2\n"
                                          "when s >= w*t : z = y, y = z + u\n"
                                          "state z = 1\n"
                                          "state y = 0\n"
                                          "let s = z + y\n"
                                          "z' = u - z\n"
                                          "y' = z\n"
                                          "when (z - 1) < 0 : z = 1\n"
                                          "when u <= y:y=0\n"
                                          "when t > 3 : z = 2*w\n");
        QCOMPARE(m.events.size(), std::size_t(4));
        const GiNaC::ex z = state(m, "z").symbol;
        const GiNaC::ex y = state(m, "y").symbol;
        const GiNaC::ex u = m.inputs[0].symbol;
        const GiNaC::ex w = param(m, "w");
        const model::Event& swap = m.events[0];
        QCOMPARE(swap.direction, 1);
        QVERIFY2(same(swap.condition, z + y - w * m.time), show(swap.condition).c_str());
        QCOMPARE(swap.assignments.size(), std::size_t(2));
        QCOMPARE(swap.assignments[0].state, m.stateIndex("z"));
        QVERIFY(same(swap.assignments[0].value, y));
        QCOMPARE(swap.assignments[1].state, m.stateIndex("y"));
        QVERIFY(same(swap.assignments[1].value, z + u));
        QCOMPARE(swap.text, std::string("when s >= w*t"));
        QCOMPARE(swap.resetText, std::string("z = y, y = z + u"));
        QCOMPARE(m.events[1].direction, -1);
        QVERIFY(same(m.events[1].condition, z - 1));
        QCOMPARE(m.events[1].text, std::string("when (z - 1) < 0"));
        QCOMPARE(m.events[2].direction, -1);
        QVERIFY(same(m.events[2].condition, u - y));
        QCOMPARE(m.events[2].text, std::string("when u <= y"));
        QCOMPARE(m.events[2].resetText, std::string("y=0"));
        QCOMPARE(m.events[3].direction, 1);
        QVERIFY(same(m.events[3].condition, m.time - 3));
        QVERIFY(same(m.events[3].assignments[0].value, 2 * w));
    }

    // A reset may assign a position, the velocity of a Lagrangian coordinate, and estimated
    // parameters and initial values may appear in it.
    void whenResetsCoordinatesOfEveryKind()
    {
        const Model m = model::parseModel("param wall = -1 [-2, 0]\n"
                                          "param e = 0.9\n"
                                          "coord q\n"
                                          "kinetic T = q'^2/2\n"
                                          "potential V = q^2/2\n"
                                          "q(0) = 0.5 estimate, 0\n"
                                          "state z = 0\n"
                                          "z' = q\n"
                                          "when q < wall : q' = -e*q', q = wall, z = z + e\n");
        QCOMPARE(m.events.size(), std::size_t(1));
        const model::Event& e = m.events[0];
        QVERIFY(same(e.condition, state(m, "q").symbol - param(m, "wall")));
        QCOMPARE(e.assignments.size(), std::size_t(3));
        QCOMPARE(e.assignments[0].state, m.stateIndex("q'"));
        QCOMPARE(e.assignments[1].state, m.stateIndex("q"));
        QVERIFY(same(e.assignments[1].value, param(m, "wall")));
        QCOMPARE(e.assignments[2].state, m.stateIndex("z"));
    }

    // `when` is a keyword only as a statement's first word with no ', ( or = after it: a
    // parameter, state, coordinate or input may be called when.
    void whenIsFreeAsAName()
    {
        const Model ball = model::parseModel("param when = 0.5\n"
                                             "x'' = -when*x\n"
                                             "x(0) = 1, 0\n"
                                             "when x < 0 : x' = -when*x'\n");
        QCOMPARE(ball.events.size(), std::size_t(1));
        QVERIFY(same(ball.events[0].assignments[0].value, -param(ball, "when") * state(ball, "x'").symbol));
        const Model coordinate = model::parseModel("when'' = -when\n"
                                                   "when(0) = 1, 0\n"
                                                   "when when < 0 : when' = -when'\n"
                                                   "output when\n");
        QCOMPARE(join(stateNames(coordinate)), std::string("when when'"));
        QCOMPARE(coordinate.events.size(), std::size_t(1));
        QCOMPARE(coordinate.events[0].assignments[0].state, std::size_t(1));
        QVERIFY(same(coordinate.states[0].initial, 1));
        const Model first = model::parseModel("input when\nstate y = 1\ny' = when - y\nwhen (y) > 2 : y = 0\n");
        QCOMPARE(first.inputs[0].name, std::string("when"));
        QCOMPARE(first.events.size(), std::size_t(1));
        const Model named = model::parseModel("state when = 1\nwhen' = -when\noutput w = 2*when\n");
        QVERIFY(named.events.empty());
        EXPECT_ONE_ERROR("state y\ny' = -y\nwhen = 1\n", 3, 1, "'when = ...' is not a statement");
    }

    void whenSyntaxErrors()
    {
        const std::string ball = "param e = 0.8\nx'' = -1\nx(0) = 1, 0\n";
        EXPECT_ONE_ERROR(ball + "when x = 0 : x' = -e*x'\n", 4, 8,
                         "expected '<' or '>' in the condition of 'when' (when x < 0 : x' = -e*x'): the event fires "
                         "when the condition becomes true, found '='");
        EXPECT_ONE_ERROR(ball + "when x < 0 x' = -e*x'\n", 4, 12, "expected ':' after the condition of 'when'");
        EXPECT_ONE_ERROR(ball + "when 0 < x < 1 : x' = 0\n", 4, 12, "expected ':' after the condition of 'when'");
        EXPECT_ONE_ERROR(ball + "when x < 0 :\n", 4, 13, "expected a state to reset (STATE = EXPR)");
        EXPECT_ONE_ERROR(ball + "when x < 0 : 2 = x\n", 4, 14, "expected a state to reset (STATE = EXPR)");
        EXPECT_ONE_ERROR(ball + "when x < 0 : x' -e*x'\n", 4, 17, "expected '=' after 'x'' (a reset is written");
        EXPECT_ONE_ERROR(ball + "when x < 0 : x' = -e*x',\n", 4, 25, "expected a state to reset");
        EXPECT_ONE_ERROR(ball + "when\n", 4, 5, "expected a condition after 'when'");
        EXPECT_ONE_ERROR(ball + "when x < : x' = 0\n", 4, 10, "expected a number, a name or '(' in an expression");
        EXPECT_ONE_ERROR(ball + "when x < 0 : x' = 0 x = 1\n", 4, 21, "unexpected 'x' after the end of the statement");
        // < > : belong to `when` only
        EXPECT_ONE_ERROR("state y = 1\ny' = y < 1\n", 2, 8, "unexpected '<' after the end of the statement");
        EXPECT_ONE_ERROR("state y = 1\ny' = -y : 2\n", 2, 9, "unexpected ':' after the end of the statement");
    }

    void whenResetsAssignStatesOnly()
    {
        const std::string ball = "param e = 0.8\ninput u\nlet k = 2*e\nx'' = -1\nx(0) = 1, 0\nstate z = 0\nz' = x\n";
        EXPECT_ONE_ERROR(ball + "when x < 0 : e = 1\n", 8, 14,
                         "'e' is a parameter, not a state; a reset assigns states");
        EXPECT_ONE_ERROR(ball + "when x < 0 : u = 1\n", 8, 14, "'u' is an input, not a state");
        EXPECT_ONE_ERROR(ball + "when x < 0 : k = 1\n", 8, 14, "'k' is an intermediate (let), not a state");
        EXPECT_ONE_ERROR(ball + "when x < 0 : v' = 1\n", 8, 14, "unknown state 'v'' in a reset");
        EXPECT_ONE_ERROR(ball + "when x < 0 : xx' = 1\n", 8, 14, "did you mean 'x'?");
        EXPECT_ONE_ERROR(ball + "when x < 0 : t = 1\n", 8, 14, "'t' is time and cannot be redeclared; a reset");
        EXPECT_ONE_ERROR(ball + "when x < 0 : z' = 1\n", 8, 14,
                         "z' is the derivative of state z; a reset assigns the state itself: z = ...");
        EXPECT_ONE_ERROR(ball + "when x < 0 : x'' = 1\n", 8, 14,
                         "x'' is an acceleration; a reset assigns the position x or the velocity x'");
        EXPECT_ONE_ERROR(ball + "when x < 0 : x' = -e*x', z = 0, x' = 0\n", 8, 33,
                         "x' is reset twice in one 'when' (first at column 14)");
        // the condition and the values are right-hand sides
        EXPECT_ONE_ERROR(ball + "when x < 0 : x' = -c*x'\n", 8, 20, "unknown symbol 'c'");
        EXPECT_ONE_ERROR(ball + "when x'' < 0 : x' = 0\n", 8, 6, "(an acceleration)");
        EXPECT_ONE_ERROR(ball + "when x < 0 : x' = z'\n", 8, 19, "z' is the derivative of state z");
        EXPECT_ONE_ERROR(ball + "when e < 1 : x' = 0\n", 8, 6,
                         "the condition of 'when e < 1' depends on no state, input or time t, so it never becomes "
                         "true during a simulation");
        EXPECT_ONE_ERROR(ball + "when k > 1 + e : x' = 0\n", 8, 6, "depends on no state, input or time t");
        // a field's nodes are not reset by name
        EXPECT_ERROR("field s on x in [0, 1] nodes 3\ns_t = s_xx\ns(0, t) = 0 ; s(1, t) = 0\ns(x, 0) = 1\n"
                     "state y = 0\ny' = 1\nwhen y > 1 : s = 0\n",
                     7, 14, "s is a field; a reset assigns ordinary states, not the nodes of a field");
        // ... but a model with fields may reset its ordinary states
        const Model mixed =
            model::parseModel("field s on x in [0, 1] nodes 3\ns_t = s_xx\ns(0, t) = 0 ; s(1, t) = 0\ns(x, 0) = 1\n"
                              "state y = 0\ny' = 1\nwhen y > 1 : y = 0\n");
        QCOMPARE(mixed.events.size(), std::size_t(1));
        QCOMPARE(mixed.events[0].assignments[0].state, mixed.stateIndex("y"));
        // errors in several events and elsewhere are all reported, in line order
        const auto e = errorOf(ball + "when x < 0 : e = 1\ny' = 1\nwhen x < 0 : x' = q\n");
        QVERIFY(e);
        QVERIFY2(e->diagnostics().size() == 3, describe(e->diagnostics()).c_str());
        QCOMPARE(e->diagnostics()[0].where.line, 8);
        QCOMPARE(e->diagnostics()[1].where.line, 9);
        QCOMPARE(e->diagnostics()[2].where.line, 10);
    }

    void loadModelReadsAnExampleFile()
    {
        const Model m = model::loadModel(SYSID_SOURCE_DIR "/resources/examples/duffing.model");
        QCOMPARE(join(stateNames(m)), std::string("x x'"));
        QCOMPARE(m.parameters.size(), std::size_t(2));
        QCOMPARE(m.parameters[0].name, std::string("k"));
        QCOMPARE(m.parameters[1].name, std::string("B"));
        QVERIFY(m.parameters[1].fixed);
        QVERIFY(m.dependsOnTime());
        QVERIFY(contains(m.source, "duffing.model"));
    }

    void unreadableFileIsAModelError()
    {
        try {
            model::loadModel("/nonexistent/dir/none.model");
            QFAIL("loadModel did not throw");
        } catch (const ModelError& e) {
            QCOMPARE(e.diagnostics().size(), std::size_t(1));
            QVERIFY(contains(e.what(), "/nonexistent/dir/none.model"));
        }
    }

    // ---- errors ------------------------------------------------------------------------

    void unknownSymbolSuggestsAName()
    {
        EXPECT_ERROR("param damping = 1\nstate y = 1\ny' = -dampng*y\n", 3, 7, "unknown symbol 'dampng'");
        EXPECT_ERROR("param damping = 1\nstate y = 1\ny' = -dampng*y\n", 3, 7, "did you mean 'damping'?");
        // Nothing close: no suggestion, but a hint how to declare it.
        const auto e = errorOf("state y = 1\ny' = -zzzzzz*y\n");
        QVERIFY(e);
        QVERIFY(!contains(e->diagnostics()[0].message, "did you mean"));
        EXPECT_ERROR("state y = 1\ny' = -zzzzzz*y\n", 2, 7, "unknown symbol 'zzzzzz'");
        // In an output, in an initial value, in a let.
        EXPECT_ERROR("state y = 1\ny' = -y\noutput e = y - q\n", 3, 16, "unknown symbol 'q'");
        EXPECT_ERROR("param a = 1\nstate y = 2*b\ny' = -y\n", 2, 13, "unknown symbol 'b'");
        EXPECT_ERROR("state y = 1\nlet f = yy\ny' = -f\n", 2, 9, "did you mean 'y'?");
    }

    void namesNotAllowedWhereTheyStand()
    {
        EXPECT_ERROR("param a = 1\nparam b = 2*a\nstate y\ny' = -y\n", 2, 13, "'a' cannot appear in a parameter value");
        EXPECT_ERROR("param a = t\nstate y\ny' = -y\n", 1, 11, "time t cannot appear");
        EXPECT_ERROR("state z = 1\nz' = -z\nstate y = z\ny' = -y\n", 3, 11, "cannot appear in an initial value");
        EXPECT_ERROR("param a = 1\nstate y\ny' = a'\n", 3, 6, "parameter a has no time derivative");
    }

    void unknownFunction()
    {
        EXPECT_ERROR("state y = 1\ny' = foo(y)\n", 2, 6, "unknown function 'foo'");
        EXPECT_ERROR("state y = 1\ny' = -y + ln(y)\n", 2, 11, "unknown function 'ln'");
    }

    void wrongArgumentCount()
    {
        EXPECT_ERROR("state y = 1\ny' = sin(y, 1)\n", 2, 6, "sin() takes 1 argument, 2 given");
        EXPECT_ERROR("state y = 1\ny' = 2*atan2(y)\n", 2, 8, "atan2() takes 2 arguments, 1 given");
        EXPECT_ERROR("state y = 1\ny' = exp()\n", 2, 6, "exp() takes 1 argument, 0 given");
        EXPECT_ERROR("state y = 1\ny' = min(y)\n", 2, 6, "min() takes two or more arguments, 1 given");
        EXPECT_ERROR("state y = 1\ny' = y + max()\n", 2, 10, "max() takes two or more arguments, 0 given");
    }

    void redeclaration()
    {
        EXPECT_ONE_ERROR("param a = 1\nparam a = 2\nstate y\ny' = -a*y\n", 2, 7,
                         "'a' is already declared as a parameter on line 1");
        EXPECT_ONE_ERROR("param y = 1\nstate y = 1\ny' = -y\n", 2, 7,
                         "'y' is already declared as a parameter on line 1");
        EXPECT_ONE_ERROR("state y = 1\ny' = -y\ninput y\n", 3, 7, "'y' is already declared as a state on line 1");
        EXPECT_ONE_ERROR("x'' = -x\nparam x = 1\n", 2, 7,
                         "'x' is already declared as a second-order coordinate on line 1");
        EXPECT_ONE_ERROR("param sin = 1\nstate y\ny' = -y\n", 1, 7, "is the name of a function");
        EXPECT_ONE_ERROR("param t = 1\nstate y\ny' = -y\n", 1, 7, "'t' is time and cannot be redeclared");
        EXPECT_ONE_ERROR("state y\ny' = -y\noutput y\noutput y\n", 4, 8, "output y is already declared on line 3");
        EXPECT_ONE_ERROR("param a = 1\nstate y\ny' = -y\noutput a = 2*y\n", 4, 8, "already a parameter");
    }

    void equationWithAnErrorIsNotAlsoReportedMissing()
    {
        // The equation y' = ... is there; only its right-hand side is wrong. A second message
        // "state y has no equation" would send the user looking for something that exists.
        EXPECT_ONE_ERROR("state y = 1\ny' = -foo*y\n", 2, 7, "unknown symbol 'foo'");
        EXPECT_ONE_ERROR("x'' = -x\nstate y = 0\ny' = x''\n", 3, 6, "(an acceleration)");
        EXPECT_ONE_ERROR("state y = 1\ny' = sin(y, 1)\n", 2, 6, "sin() takes 1 argument, 2 given");
    }

    void outputNamesFollowTheNamingRules()
    {
        // An output named like time would give the CSV two columns called t; like a function or
        // pi, a name that means something else in every expression.
        EXPECT_ONE_ERROR("state y = 1\ny' = -y\noutput t = 2*y\n", 3, 8, "'t' is time and cannot be redeclared");
        EXPECT_ONE_ERROR("state y = 1\ny' = -y\noutput pi = 2*y\n", 3, 8, "'pi' is the number pi");
        EXPECT_ONE_ERROR("state y = 1\ny' = -y\noutput sin = 2*y\n", 3, 8, "is the name of a function");
    }

    void missingEquationForDeclaredState()
    {
        EXPECT_ONE_ERROR("state y = 1\nstate z = 0\ny' = -y\n", 2, 7, "state z has no equation");
    }

    void equationForUndeclaredState()
    {
        EXPECT_ONE_ERROR("state y = 1\ny' = -y\nz' = y\n", 3, 1, "equation for undeclared state z");
        EXPECT_ONE_ERROR("param a = 1\nstate y\ny' = -y\na' = y\n", 4, 1, "which is a parameter, not a state");
    }

    void secondEquationForTheSameState()
    {
        EXPECT_ONE_ERROR("state y = 1\ny' = -y\ny' = y\n", 3, 1, "a second equation for y' (the first is on line 2)");
        EXPECT_ONE_ERROR("x'' = -x\nstate y\ny' = 0\nx'' = x\n", 4, 1,
                         "a second equation for x'' (the first is on line 1)");
        EXPECT_ERROR("state y\ny'' = -y\n", 2, 1, "y is a first-order state; write y' = ...");
        EXPECT_ONE_ERROR("x'' = -x\nx' = 1\n", 2, 1, "x is a second-order coordinate");
    }

    void accelerationInRightHandSide()
    {
        EXPECT_ERROR("x'' = -x\nstate y = 0\ny' = x''\n", 3, 6, "x'' (an acceleration) may only stand on the left");
        EXPECT_ERROR("x'' = -x - 0.1*x''\n", 1, 16, "(an acceleration)");
        EXPECT_ERROR("x'' = -x\nlet f = x''\nstate y\ny' = f\n", 2, 9, "(an acceleration)");
    }

    void derivativeOfFirstOrderStateInRightHandSide()
    {
        EXPECT_ERROR("state y = 1\ny' = -y\nstate z = 0\nz' = y'\n", 4, 6, "y' is the derivative of state y");
    }

    void syntaxErrors()
    {
        // missing '='
        EXPECT_ONE_ERROR("state y = 1\ny' -y\n", 2, 4, "expected '=' after 'y'', found '-'");
        EXPECT_ONE_ERROR("param a 1\nstate y\ny' = -y\n", 1, 9,
                         "expected '=' and an initial value after the parameter name");
        EXPECT_ONE_ERROR("state y\nlet f y\ny' = -y\n", 2, 7, "expected '=' after the name");
        EXPECT_ONE_ERROR("state y\ny = -y\n", 2, 1, "'y = ...' is not a statement");
        // dangling operator
        EXPECT_ONE_ERROR("state y = 1\ny' = -y *\n", 2, 10,
                         "expected a number, a name or '(' in an expression, found end of line");
        EXPECT_ONE_ERROR("state y = 1\ny' = -y *", 2, 10, "expected a number, a name or '(' in an expression");
        EXPECT_ONE_ERROR("state y = 1\ny' = -y + ; output y\n", 2, 11, "found ';'");
        // unbalanced parentheses
        EXPECT_ONE_ERROR("state y = 1\ny' = (y + 1\n", 2, 12, "expected ')', found end of line");
        EXPECT_ONE_ERROR("state y = 1\ny' = y + 1)\n", 2, 11, "unexpected ')' after the end of the statement");
        EXPECT_ONE_ERROR("state y = 1\ny' = sin(y\n", 2, 11, "expected ')' or ',' in the arguments of sin(...)");
        // unexpected characters
        EXPECT_ONE_ERROR("state y = 1\ny' = $y\n", 2, 6, "unexpected '$'");
        EXPECT_ONE_ERROR("state y = 1\ny' = -y \xC3\xA9\n", 2, 9, "unexpected non-ASCII character");
        EXPECT_ERROR("state y = 1\ny' = \xC3\xA9*y\n", 2, 6, "unexpected non-ASCII character");
        // a multi-byte character is one column: the '$' after "é " is in column 11
        {
            const auto e = errorOf("state y = 1\ny' = -y \xC3\xA9 $\n");
            QVERIFY(e);
            QCOMPARE(e->diagnostics().size(), std::size_t(2));
            QCOMPARE(e->diagnostics()[0].where.column, 9);
            QCOMPARE(e->diagnostics()[1].where.line, 2);
            QCOMPARE(e->diagnostics()[1].where.column, 11);
            QVERIFY(contains(e->diagnostics()[1].message, "'$'"));
        }
        // non-ASCII text in a comment is fine
        QVERIFY(!errorOf("# \xC3\x9Cnicode \xE2\x80\x94 comment\nstate y\ny' = -y # \xCE\xB1\n"));
        // three primes
        EXPECT_ONE_ERROR("state y = 1\ny''' = y\n", 2, 1, "'y' has 3 primes; at most two");
        // unknown statement word, numbers running into names, bad numbers
        EXPECT_ONE_ERROR("parm a = 1\nstate y\ny' = -y\n", 1, 1, "unknown statement 'parm'");
        EXPECT_ONE_ERROR("state y\nk = 1\ny' = -y\n", 2, 1, "'k = ...' is not a statement");
        EXPECT_ERROR("state y\ny' = 2y\n", 2, 6, "number '2' runs into a name");
        EXPECT_ONE_ERROR("state y\ny' = 1.2.3*y\n", 2, 6, "'1.2.3' is not a valid number");
        EXPECT_ONE_ERROR("state y\ny' = -y\nx(1) = 2\n", 3, 3, "expected 0 in x(0)");
        EXPECT_ONE_ERROR("param a = 1 [0 1]\nstate y\ny' = -y\n", 1, 16, "',' between the lower and upper bound");
    }

    void letUsedBeforeItsDefinition()
    {
        EXPECT_ONE_ERROR("state y = 1\nlet g = 2*f\nlet f = y\ny' = -g\n", 2, 11,
                         "'f' is used before its definition on line 3");
        EXPECT_ONE_ERROR("state y = 1\nlet g = 2*g\ny' = -g\n", 2, 11, "'g' is used before its definition on line 2");
    }

    void bounds()
    {
        EXPECT_ONE_ERROR("param a = 1 [2, 2]\nstate y\ny' = -a*y\n", 1, 14,
                         "the bounds of a must satisfy lower < upper");
        EXPECT_ONE_ERROR("param a = 1 [3, 2]\nstate y\ny' = -a*y\n", 1, 14, "lower < upper");
        EXPECT_ONE_ERROR("param a = 5 [0, 1]\nstate y\ny' = -a*y\n", 1, 11,
                         "the initial value of a lies outside its bounds [0, 1]");
        EXPECT_ONE_ERROR("param a = -0.5 [0, 1]\nstate y\ny' = -a*y\n", 1, 11, "outside its bounds");
        // a value on a bound is inside
        QVERIFY(!errorOf("param a = 1 [0, 1]\nparam b = 0 [0, 1]\nstate y\ny' = -a*b*y\n"));
    }

    void priors()
    {
        const Model m = model::parseModel("param a = 1 [0, 5] prior 1.2, 0.3 fixed\nparam b = 2 prior 2*pi, 1/4\n"
                                          "param c = 3\nstate y\ny' = -a*b*c*y\n");
        QVERIFY(m.parameters[0].prior);
        QCOMPARE(m.parameters[0].prior->mean, 1.2);
        QCOMPARE(m.parameters[0].prior->sd, 0.3);
        QVERIFY(m.parameters[0].fixed);
        QCOMPARE(m.parameters[0].upper, 5.0);
        QVERIFY(std::abs(m.parameters[1].prior->mean - 2 * M_PI) < 1e-14);
        QCOMPARE(m.parameters[1].prior->sd, 0.25);
        QVERIFY(!m.parameters[2].prior);
        EXPECT_ONE_ERROR("param a = 1 prior 1, 0\nstate y\ny' = -a*y\n", 1, 22,
                         "the prior standard deviation of a must be > 0");
        EXPECT_ONE_ERROR("param a = 1 prior 1\nstate y\ny' = -a*y\n", 1, 20,
                         "',' between the prior mean and its standard deviation");
        EXPECT_ONE_ERROR("param a = 1 prior 1, k\nstate y\ny' = -a*y\n", 1, 22, "k");
    }

    void nonRealOrInfiniteParameterValues()
    {
        EXPECT_ONE_ERROR("param a = sqrt(-1)\nstate y\ny' = -y\n", 1, 11, "must be a real number");
        EXPECT_ONE_ERROR("param a = 1/0\nstate y\ny' = -y\n", 1, 12, "division by zero");
    }

    void initialValueForUnknownState()
    {
        EXPECT_ONE_ERROR("state y = 1\ny' = -y\nw(0) = 1\n", 3, 1, "initial value for unknown state w");
        EXPECT_ONE_ERROR("param a = 1\nstate y\ny' = -y\na(0) = 1\n", 4, 1,
                         "a is a parameter; initial values belong to states");
        EXPECT_ONE_ERROR("state y = 1\ny' = -y\ny(0) = 2\n", 3, 1, "the initial value of y is already given on line 1");
        EXPECT_ONE_ERROR("state y\ny' = -y\ny(0) = 2, 3\n", 3, 11, "y is a first-order state: give one initial value");
        EXPECT_ONE_ERROR("x'' = -x\nx(0) = 1, 2, 3\n", 2, 14, "x(0) takes a position and a velocity, not more");
        EXPECT_ONE_ERROR("x'' = -x\nx(0) = 1\nx(0) = 2\n", 3, 1, "the initial values of x are already given on line 2");
    }

    void lagrangianStatementsOutOfPlace()
    {
        EXPECT_ONE_ERROR("state y = 1\ny' = -y\nkinetic T = y^2\n", 3, 1, "needs Lagrangian coordinates");
        EXPECT_ONE_ERROR("coord q\nq(0) = 1, 0\n", 1, 7, "Lagrangian coordinate q needs a kinetic energy");
        EXPECT_ONE_ERROR("x'' = -x\nforce x = 1\n", 2, 7, "'force x' needs a Lagrangian coordinate");
        EXPECT_ONE_ERROR("coord q\nkinetic T = q'^2/2\nforce p = 1\n", 3, 7, "'force p' needs a Lagrangian coordinate");
        EXPECT_ONE_ERROR("coord q\nkinetic T = q'^2/2\nq'' = -q\n", 3, 1, "q is a Lagrangian coordinate");
        EXPECT_ONE_ERROR("coord q\nkinetic T = q'^2/2\nkinetic U = q'^2\n", 3, 1, "a second kinetic energy");
        EXPECT_ONE_ERROR("coord q\nkinetic T = q'^2/2\nforce q = 1\nforce q = 2\n", 4, 7, "a second force on q");
    }

    void modelWithoutStates()
    {
        EXPECT_ONE_ERROR("param a = 1\n", 1, 1, "the model has no states");
        EXPECT_ONE_ERROR("", 1, 1, "the model has no states");
        EXPECT_ONE_ERROR("# only a comment\n\n", 1, 1, "the model has no states");
    }

    void severalErrorsReportedInLineOrder()
    {
        // Errors found in different phases (parameters, equations, declarations) come out sorted.
        const auto e = errorOf("state y = 1\n"  // 1
                               "let f = -foo\n"  // 2 unknown symbol
                               "param a = 5 [0, 1]\n"  // 3 outside bounds
                               "z' = sin(y, y)\n"  // 4 undeclared state
                               "state w\n"  // 5 no equation
                               "y' = f\n");  // 6 fine
        QVERIFY(e);
        const auto& ds = e->diagnostics();
        QVERIFY2(ds.size() == 4, describe(ds).c_str());
        const int lines[] = {2, 3, 4, 5};
        const int columns[] = {10, 11, 1, 7};
        for (std::size_t i = 0; i < 4; ++i) {
            QVERIFY2(ds[i].where.line == lines[i] && ds[i].where.column == columns[i], describe(ds).c_str());
        }
        QVERIFY(contains(ds[0].message, "foo"));
        QVERIFY(contains(ds[1].message, "outside its bounds"));
        QVERIFY(contains(ds[2].message, "undeclared state z"));
        QVERIFY(contains(ds[3].message, "state w has no equation"));
        // what() lists them one per line, in the same order
        const std::string what = e->what();
        QVERIFY(what.find("m.model:2:10:") < what.find("m.model:3:11:"));
        QVERIFY(what.find("m.model:3:11:") < what.find("m.model:4:1:"));
        QVERIFY(what.find("m.model:4:1:") < what.find("m.model:5:7:"));

        // Lexer errors (found first) and parser errors are merged into line order too.
        const auto s = errorOf("param a 1\nstate y = $1\ny' = (y\nx''' = 1\n");
        QVERIFY(s);
        const auto& sd = s->diagnostics();
        QVERIFY2(sd.size() == 4, describe(sd).c_str());
        for (std::size_t i = 0; i < sd.size(); ++i)
            QVERIFY2(sd[i].where.line == static_cast<int>(i) + 1, describe(sd).c_str());
        // two problems on one line, a lexer error after a parser error: by column
        const auto c = errorOf("state y\ny' = ) + $\n");
        QVERIFY(c);
        QVERIFY2(c->diagnostics().size() == 2, describe(c->diagnostics()).c_str());
        QCOMPARE(c->diagnostics()[0].where.column, 6);
        QVERIFY(contains(c->diagnostics()[0].message, "found ')'"));
        QCOMPARE(c->diagnostics()[1].where.column, 10);
        QVERIFY(contains(c->diagnostics()[1].message, "'$'"));
    }

    void everyBrokenModelThrows()
    {
        // A model with an error never gets as far as a Model (and so never compiles).
        const char* broken[] = {
            "state y\ny' = -y\n$",           "state y\ny' = -y\noutput nosuch\n",
            "state y\ny' = -y\noutput x'\n", "state y = 1 estimate estimate\ny' = -y\n",
            "input u\nstate y\ny' = u'\n",   "x'' = -x\noutput x'''\n",
        };
        for (const char* text : broken)
            QVERIFY2(errorOf(text).has_value(), text);
    }

    void formatDiagnosticConvention()
    {
        QCOMPARE(model::formatDiagnostic("a.model", {{3, 8}, "msg"}), std::string("a.model:3:8: msg"));
        QCOMPARE(model::formatDiagnostic("a.model", {{3, 0}, "msg"}), std::string("a.model:3: msg"));
        QCOMPARE(model::formatDiagnostic("a.model", {{0, 0}, "msg"}), std::string("a.model: msg"));
    }
};

QTEST_APPLESS_MAIN(TestModelParser)
#include "test_model_parser.moc"
