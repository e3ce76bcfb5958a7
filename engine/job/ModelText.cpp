#include "engine/job/ModelText.h"

#include "engine/data/Text.h"
#include "engine/eval/CompiledModelCache.h"
#include "engine/eval/NativeCode.h"
#include "engine/job/JobError.h"
#include "engine/model/ExpressionLimits.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/SymbolicLock.h"

#include <cmath>
#include <mutex>

namespace sysid::job {

namespace {

std::shared_ptr<const eval::CompiledModelSource> compileSymbolic(const std::string& text, const std::string& source,
                                                                 eval::CompileOptions options)
{
    const std::lock_guard lock(model::symbolicMutex());
    try {
        const model::Model model = model::parseModel(text, source);
        return eval::compileModel(model, options);
    } catch (const model::ModelError& e) {
        throw JobError(JobError::Kind::Model, e.what());
    } catch (const JobError&) {
        throw;
    } catch (const std::exception& e) {
        // GiNaC can fail while deriving (e.g. a pole found when differentiating).
        throw JobError(JobError::Kind::Model,
                       model::quoted(source, 200) +
                           ": the model cannot be compiled: " + model::describeSymbolicFailure(e));
    }
}

}  // namespace

std::shared_ptr<const eval::CompiledModelSource> compileModelText(const std::string& text, const std::string& source,
                                                                  eval::CompileOptions options, eval::ModelCode code)
{
    const eval::CompiledModelCache cache(text, source, options);
    std::shared_ptr<eval::CompiledModelSource> compiled = cache.find();
    if (!compiled) {
        // Nobody else holds the model yet: naming it below changes nothing another thread reads.
        compiled = std::const_pointer_cast<eval::CompiledModelSource>(compileSymbolic(text, source, options));
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
