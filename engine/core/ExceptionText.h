#pragma once

#include <exception>
#include <string>

namespace sysid::core {

// What a front end shows for an exception that ended a run: its message, except where the
// library's text means nothing to a user ("std::bad_alloc" becomes what ran out and what to do).
std::string exceptionText(const std::exception& e);

}  // namespace sysid::core
