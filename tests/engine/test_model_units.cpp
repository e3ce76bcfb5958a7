// Units in the model language: `unit TEXT` closing a param, state, input, coord or output
// declaration, kept as written; `unit` stays free as a name; a unit that is missing or put
// before `fixed`/`prior`/`estimate` is an error at its line and column.

#include "ModelTestSupport.h"
#include "TextTestSupport.h"

#include "engine/model/Model.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/ModelDescription.h"
#include "engine/model/ModelError.h"

#include <QtTest>

#include <string>

using namespace sysid;
using model::Model;
using sysid::test::contains;
using test::errorOf;
using test::state;

namespace {

const model::Parameter& parameter(const Model& m, const std::string& name)
{
    const std::size_t i = m.parameterIndex(name);
    if (i >= m.parameters.size())
        throw std::runtime_error("no parameter " + name);
    return m.parameters[i];
}

const model::Output& output(const Model& m, const std::string& name)
{
    for (const auto& o : m.outputs)
        if (o.name == name)
            return o;
    throw std::runtime_error("no output " + name);
}

const model::Input& input(const Model& m, const std::string& name)
{
    const std::size_t i = m.inputIndex(name);
    if (i >= m.inputs.size())
        throw std::runtime_error("no input " + name);
    return m.inputs[i];
}

}  // namespace

class TestModelUnits : public QObject {
    Q_OBJECT

private slots:
    void everyDeclarationKindTakesAUnit()
    {
        const Model m = model::parseModel("param M = 80 [10, 500] unit kg\n"
                                          "param c = 2 prior 2, 1 fixed unit N*s/m\n"
                                          "param k = 3\n"
                                          "state v = 0 estimate unit m/s\n"
                                          "state w unit 1/s\n"
                                          "input F, G unit N\n"
                                          "coord q unit rad\n"
                                          "kinetic T = M*q'^2/2\n"
                                          "v' = (F + G - c*v - k*w)/M\n"
                                          "w' = -w\n"
                                          "output v\n"
                                          "output p = M*v unit kg*m/s\n"
                                          "output w unit Hz\n"
                                          "output q\n");
        QCOMPARE(parameter(m, "M").unit, std::string("kg"));
        QCOMPARE(parameter(m, "M").upper, 500.0);
        QCOMPARE(parameter(m, "c").unit, std::string("N*s/m"));
        QVERIFY(parameter(m, "c").fixed);
        QVERIFY(parameter(m, "c").prior);
        QCOMPARE(parameter(m, "k").unit, std::string());
        QCOMPARE(state(m, "v").unit, std::string("m/s"));
        QCOMPARE(parameter(m, "v(0)").unit, std::string("m/s"));  // the estimated initial value
        QCOMPARE(state(m, "w").unit, std::string("1/s"));
        QCOMPARE(input(m, "F").unit, std::string("N"));
        QCOMPARE(input(m, "G").unit, std::string("N"));
        QCOMPARE(state(m, "q").unit, std::string("rad"));
        QCOMPARE(state(m, "q'").unit, std::string());  // no unit algebra for the velocity
        QCOMPARE(output(m, "v").unit, std::string("m/s"));  // taken from the state
        QCOMPARE(output(m, "p").unit, std::string("kg*m/s"));
        QCOMPARE(output(m, "w").unit, std::string("Hz"));  // its own unit, though the state has another
        QCOMPARE(state(m, "w").unit, std::string("1/s"));
        QCOMPARE(output(m, "q").unit, std::string("rad"));
    }

    void anOutputGivesItsStateAUnit()
    {
        // x'' = ... declares no state statement: the output's unit names the position.
        const Model m =
            model::parseModel("param k = 1 unit N/m\nx'' = -k*x\nx(0) = 1 estimate, 0\noutput x unit m\noutput x'\n");
        QCOMPARE(state(m, "x").unit, std::string("m"));
        QCOMPARE(parameter(m, "x(0)").unit, std::string("m"));
        QCOMPARE(output(m, "x'").unit, std::string());
        // Without outputs, every state is an output with the state's unit.
        const Model all = model::parseModel("state y = 1 unit m\ny' = -y\n");
        QCOMPARE(output(all, "y").unit, std::string("m"));
    }

    void unitTextIsKeptAsWritten()
    {
        const char* units[] = {"kg",     "m/s^2", "N*s/m",      "1/s",    "kg*m^2", "-",
                               "kg m/N", "s/rad", "N m (peak)", "1e-3*m", "deg"};
        for (const char* unit : units) {
            const Model m = model::parseModel(std::string("param a = 1 unit ") + unit + "\nstate y\ny' = -a*y\n");
            QCOMPARE(m.parameters[0].unit, std::string(unit));
        }
        // Spaces around the text and a comment after it are not part of it; ';' ends it.
        const Model m =
            model::parseModel("param a = 1 unit   m / s   # speed\nparam b = 2 unit kg; state y\ny' = -a*b*y\n");
        QCOMPARE(m.parameters[0].unit, std::string("m / s"));
        QCOMPARE(m.parameters[1].unit, std::string("kg"));
    }

    void unitIsStillAName()
    {
        const Model m = model::parseModel("param unit = 2 unit kg\nstate unit_y unit m\nlet units = unit\n"
                                          "unit_y' = -unit*units*unit_y\noutput unit_y\n");
        QCOMPARE(parameter(m, "unit").unit, std::string("kg"));
        QCOMPARE(parameter(m, "unit").value, 2.0);
        QCOMPARE(state(m, "unit_y").unit, std::string("m"));
        const Model s = model::parseModel("param a = 1\nstate unit = 1 unit m\nunit' = -a*unit\n");
        QCOMPARE(state(s, "unit").unit, std::string("m"));
        const Model in = model::parseModel("input unit unit V\nstate y\ny' = unit - y\n");
        QCOMPARE(input(in, "unit").unit, std::string("V"));
    }

    void errorsNameLineAndColumn()
    {
        EXPECT_ONE_ERROR("param a = 1 unit\nstate y\ny' = -a*y\n", 1, 13, "'unit' needs a unit after it");
        EXPECT_ONE_ERROR("param a = 1\nstate y unit # nothing\ny' = -a*y\n", 2, 9, "'unit' needs a unit");
        EXPECT_ONE_ERROR("state y\ny' = -y\noutput y unit; output y'\n", 3, 10, "'unit' needs a unit");
        EXPECT_ONE_ERROR("param a = 1 unit kg fixed\nstate y\ny' = -a*y\n", 1, 21, "'fixed' must come before 'unit'");
        EXPECT_ONE_ERROR("state y = 1 unit m estimate\ny' = -y\n", 1, 20, "'estimate' must come before 'unit'");
        EXPECT_ONE_ERROR("state y\ny' = -y\noutput y unit m/$\n", 3, 17, "unexpected '$'");
        // A unit after an equation or a let is not a declaration's unit.
        EXPECT_ONE_ERROR("state y\ny' = -y unit m\n", 2, 9, "unexpected 'unit' after the end of the statement");
    }

    void descriptionListsUnits()
    {
        const Model m = model::parseModel("param M = 80 [10, 500] unit kg\ninput F unit N\nstate s unit m\n"
                                          "s' = F/M\noutput s\n");
        const std::string text = model::describeModel(m);
        QVERIFY2(contains(text, "in [10, 500] unit kg"), text.c_str());
        QVERIFY2(contains(text, "initial 0 unit m"), text.c_str());
        QVERIFY2(contains(text, "inputs (1): F [N]"), text.c_str());
        QVERIFY2(contains(text, "outputs (1): s [m]"), text.c_str());
    }
};

QTEST_APPLESS_MAIN(TestModelUnits)
#include "test_model_units.moc"
