#include "engine/model/SymbolicLock.h"

namespace sysid::model {

std::mutex& symbolicMutex()
{
    static std::mutex mutex;
    return mutex;
}

}  // namespace sysid::model
