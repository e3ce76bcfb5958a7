#include "engine/estimate/MethodTraits.h"

namespace sysid::estimate {

const MethodTraits& traitsOf(EstimationMethod method)
{
    for (const auto& row : kMethodTraits)
        if (row.method == method)
            return row;
    return kMethodTraits.front();  // unreachable for a complete table (tests check completeness)
}

bool takes(EstimationMethod method, MethodInput input)
{
    return traitsOf(method).takes(input);
}

std::string methodsTaking(MethodInput input, std::string_view last)
{
    return methodsTaking(std::vector<MethodInput>{input}, last);
}

std::string methodsTaking(const std::vector<MethodInput>& inputs, std::string_view last)
{
    const auto takesAny = [&](const MethodTraits& row) {
        for (const auto input : inputs)
            if (row.takes(input))
                return true;
        return false;
    };
    std::size_t total = 0;
    for (const auto& row : kMethodTraits)
        total += takesAny(row) ? 1 : 0;
    std::string out;
    std::size_t i = 0;
    for (const auto& row : kMethodTraits) {
        if (!takesAny(row))
            continue;
        if (i > 0)
            out += i + 1 == total ? std::string(last) : std::string(", ");
        out += methodName(row.method);
        ++i;
    }
    return out;
}

std::string notTakenMessage(std::string_view subject, const std::vector<MethodInput>& inputs, EstimationMethod method)
{
    return std::string(subject) + " is for --method " + methodsTaking(inputs) + ", not " + methodName(method);
}

}  // namespace sysid::estimate
