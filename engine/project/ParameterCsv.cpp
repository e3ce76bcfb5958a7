#include "engine/project/ParameterCsv.h"

#include "engine/data/CsvWriter.h"

#include <cmath>
#include <cstdio>

namespace sysid::project {

namespace {

std::string fullPrecision(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return buffer;
}

}  // namespace

std::string parameterCsv(const estimate::FitResult& result)
{
    std::string text = "name,value,sd,lower95,upper95,unit\n";
    for (const estimate::ParameterEstimate& p : result.parameters)
        text += data::csvField(p.name) + ',' + fullPrecision(p.value) + ',' + fullPrecision(p.sd) + ',' +
            fullPrecision(p.lower95) + ',' + fullPrecision(p.upper95) + ',' + data::csvField(p.unit) + '\n';
    return text;
}

}  // namespace sysid::project
