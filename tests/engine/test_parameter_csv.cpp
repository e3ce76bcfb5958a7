// project::parameterCsv: the parameter table the desktop application exports for spreadsheets.
#include "engine/project/ParameterCsv.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <string>

using namespace sysid;

namespace {

estimate::ParameterEstimate parameterEstimate(std::string name, double value, double sd, double lower, double upper)
{
    estimate::ParameterEstimate p;
    p.name = std::move(name);
    p.value = value;
    p.sd = sd;
    p.lower95 = lower;
    p.upper95 = upper;
    return p;
}

}  // namespace

class TestParameterCsv : public QObject {
    Q_OBJECT

private slots:
    void format()
    {
        const double inf = std::numeric_limits<double>::infinity();
        estimate::FitResult result;
        result.parameters = {
            parameterEstimate("k", 0.1, 1e-3, 0.098, 0.102),
            parameterEstimate("x(0)#2", -2.5, std::nan(""), -inf, inf),
            parameterEstimate("a,b", 1.0 / 3.0, 0, 1e-300, 1e300),
            parameterEstimate("say \"hi\"", 0, 0, 0, 0),
        };
        result.parameters[0].unit = "N/m";
        result.parameters[1].unit = "m";
        result.parameters[2].unit = "kg,m";  // quoted like a name
        const std::string expected = "name,value,sd,lower95,upper95,unit\n"
                                     "k,0.10000000000000001,0.001,0.098000000000000004,0.10199999999999999,N/m\n"
                                     "x(0)#2,-2.5,nan,-inf,inf,m\n"
                                     "\"a,b\",0.33333333333333331,0,1e-300,1.0000000000000001e+300,\"kg,m\"\n"
                                     "\"say \"\"hi\"\"\",0,0,0,0,\n";
        QCOMPARE(project::parameterCsv(result), expected);
    }

    void numbersReadBackExactly()
    {
        estimate::FitResult result;
        result.parameters = {parameterEstimate("p", 0.1 + 0.2, 2.0 / 3.0, -1e-17, 123456789.123456789)};
        const std::string text = project::parameterCsv(result);
        const std::string row = text.substr(text.find('\n') + 1);
        double values[4] = {};
        QCOMPARE(std::sscanf(row.c_str(), "p,%lf,%lf,%lf,%lf", &values[0], &values[1], &values[2], &values[3]), 4);
        QCOMPARE(values[0], 0.1 + 0.2);
        QCOMPARE(values[1], 2.0 / 3.0);
        QCOMPARE(values[2], -1e-17);
        QCOMPARE(values[3], 123456789.123456789);
    }

    void noParametersIsTheHeaderOnly()
    {
        QCOMPARE(project::parameterCsv({}), std::string("name,value,sd,lower95,upper95,unit\n"));
    }
};

QTEST_APPLESS_MAIN(TestParameterCsv)
#include "test_parameter_csv.moc"
