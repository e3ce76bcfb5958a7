#pragma once

#include <mutex>

namespace sysid::model {

// GiNaC's reference counts (also of its shared constants such as 0 and 1) are not atomic, so
// all symbolic work in the process, parsing, deriving and destroying a Model, holds this lock
// whenever more than one thread may do it (the GUI's editor and a job, two jobs).
std::mutex& symbolicMutex();

}  // namespace sysid::model
