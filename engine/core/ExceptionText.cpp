#include "engine/core/ExceptionText.h"

#include <new>

namespace sysid::core {

std::string exceptionText(const std::exception& e)
{
    if (dynamic_cast<const std::bad_alloc*>(&e))
        return "out of memory: the run needs more memory than this machine gives it; use smaller settings "
               "(fewer samples, points, intervals or realisations) or a shorter record";
    return e.what();
}

}  // namespace sysid::core
