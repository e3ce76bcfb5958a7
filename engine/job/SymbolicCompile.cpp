#include "engine/job/SymbolicCompile.h"

#include "engine/job/JobError.h"
#include "engine/model/ExpressionLimits.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/SymbolicLock.h"

#include <mutex>

namespace sysid::job {

std::shared_ptr<eval::CompiledModelSource> compileSymbolic(const std::string& text, const std::string& source,
                                                           eval::CompileOptions options)
{
    const std::lock_guard lock(model::symbolicMutex());
    try {
        const model::Model model = model::parseModel(text, source);
        // Nobody else holds the model yet: the caller names it (its cache entry) before sharing it.
        return std::const_pointer_cast<eval::CompiledModelSource>(eval::compileModel(model, options));
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

}  // namespace sysid::job
