#pragma once

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/Simulator.h"
#include "engine/model/ModelBuilder.h"

#include <memory>
#include <string>

namespace sysid::test {

// A model compiled from text, ready to simulate.
inline std::unique_ptr<eval::CompiledModel> compiled(const std::string& text)
{
    return std::make_unique<eval::CompiledModel>(eval::compileModel(model::parseModel(text)));
}

// The compiled source of a model text, for the engine calls that take it (fit, CompiledModel).
inline std::shared_ptr<const eval::CompiledModelSource> compiledSource(const std::string& text)
{
    return eval::compileModel(model::parseModel(text, "<test>"));
}

inline integrate::IntegratorSettings tight(integrate::IntegrationMethod method = integrate::IntegrationMethod::Dopri5,
                                           double rtol = 1e-11, double atol = 1e-13)
{
    integrate::IntegratorSettings s;
    s.method = method;
    s.relativeTolerance = rtol;
    s.absoluteTolerance = atol;
    return s;
}

inline std::size_t parameter(const eval::CompiledModelSource& source, const std::string& name)
{
    const auto& names = source.parameterNames;
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name)
            return i;
    throw std::invalid_argument("no parameter " + name);
}

inline std::size_t parameter(const eval::CompiledModel& m, const std::string& name)
{
    return parameter(m.source(), name);
}

}  // namespace sysid::test
