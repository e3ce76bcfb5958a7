#pragma once

#include <stdexcept>
#include <string>

namespace sysid::integrate {

// An integration that could not reach the end; `timeReached` is the last time it got to.
class IntegrationError : public std::runtime_error {
public:
    // UnstableStep: a fixed step beyond the explicit method's stability limit, refused before integrating.
    // Zeno: an event fired again and again at one instant (impacts accumulating).
    // Constraints: no state satisfies a DAE's constraints near the one given (initial values), or its
    // algebraic variables cannot be solved (a singular position of a mechanism).
    enum class Reason {
        StepSizeUnderflow,
        NonFiniteState,
        TooManySteps,
        Cancelled,
        SolverFailure,
        UnstableStep,
        Zeno,
        Constraints
    };

    IntegrationError(Reason reason, double timeReached, const std::string& message) :
        std::runtime_error(message), reason_(reason), timeReached_(timeReached)
    {
    }

    Reason reason() const { return reason_; }
    double timeReached() const { return timeReached_; }

private:
    Reason reason_;
    double timeReached_;
};

}  // namespace sysid::integrate
