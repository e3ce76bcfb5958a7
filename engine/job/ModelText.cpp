#include "engine/job/ModelText.h"

#include "engine/data/Text.h"
#include "engine/eval/CompiledModelCache.h"
#include "engine/eval/NativeCode.h"
#include "engine/job/JobError.h"
#include "engine/job/SymbolicCompile.h"

#include <cmath>

namespace sysid::job {

std::shared_ptr<const eval::CompiledModelSource> compileModelText(const std::string& text, const std::string& source,
                                                                  eval::CompileOptions options, eval::ModelCode code)
{
    const eval::CompiledModelCache cache(text, source, options);
    std::shared_ptr<eval::CompiledModelSource> compiled = cache.find();
    if (!compiled) {
        // Nobody else holds the model yet: naming it below changes nothing another thread reads.
        compiled = compileSymbolic(text, source, options);
        cache.keep(*compiled);
    }
    compiled->cacheName = cache.name();
    eval::requestNativeCode(compiled, code);
    return compiled;
}

std::vector<double> startingValues(const eval::CompiledModelSource& model,
                                   const std::map<std::string, double>& overrides)
{
    std::vector<double> values = model.parameterValues;
    for (const auto& [name, value] : overrides) {
        std::size_t index = model.parameterNames.size();
        for (std::size_t i = 0; i < model.parameterNames.size(); ++i)
            if (model.parameterNames[i] == name)
                index = i;
        if (index == model.parameterNames.size())
            throw JobError(JobError::Kind::Settings,
                           "starting value for '" + name + "': the model has no parameter '" + name +
                               "' (parameters: " + data::nameList(model.parameterNames) + ")");
        if (!std::isfinite(value))
            throw JobError(JobError::Kind::Settings, "starting value for '" + name + "' is not a finite number");
        values[index] = value;
    }
    return values;
}

}  // namespace sysid::job
