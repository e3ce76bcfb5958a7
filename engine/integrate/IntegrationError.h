#pragma once

#include <stdexcept>
#include <string>

namespace sysid::integrate {

// An integration that could not reach the end; `timeReached` is the last time it got to.
class IntegrationError : public std::runtime_error {
public:
    enum class Reason { StepSizeUnderflow, NonFiniteState, TooManySteps, Cancelled, SolverFailure };

    IntegrationError(Reason reason, double timeReached, const std::string& message)
        : std::runtime_error(message), reason_(reason), timeReached_(timeReached)
    {
    }

    Reason reason() const { return reason_; }
    double timeReached() const { return timeReached_; }

private:
    Reason reason_;
    double timeReached_;
};

}  // namespace sysid::integrate
