// Model text as the editor and `sysid check` see it: parsed and built (parseModel), then
// differentiated and printed for evaluation (compileModel). ModelError is the one documented
// outcome of bad text at either stage; any other exception escapes and is a finding. Second
// derivatives are skipped: they repeat the first derivatives' code at many times the cost
// (slider_crank_reduced.model alone takes over 10 s with them under the sanitizers).
#include "engine/eval/CompiledModelSource.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/ModelError.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const sysid::model::Model model = sysid::model::parseModel(text, "fuzz.model");
        sysid::eval::compileModel(model, {.secondDerivatives = false});
    } catch (const sysid::model::ModelError&) {
    }
    return 0;
}
