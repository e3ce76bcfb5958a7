#pragma once

#include <stdexcept>
#include <string>

namespace sysid::core {

// A part of sysid asked another for something its own set-up left out (a model compiled without
// the second derivatives a run then evaluates): a defect of sysid, not of the user's model, data
// or settings. Derived from std::logic_error, so the integrators' and solvers' handlers of
// std::runtime_error (a failed step, a singular matrix) never mistake it for a numerical failure
// and retry; the message names what was missing and who asked.
class InternalError : public std::logic_error {
public:
    explicit InternalError(const std::string& what) : std::logic_error("internal error: " + what) {}
};

}  // namespace sysid::core
