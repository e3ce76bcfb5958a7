#pragma once

#include <stdexcept>
#include <string>

namespace sysid::job {

// Why a job could not run, with the message to show the user as it is. Model, data and
// integration problems keep their "FILE:LINE:COLUMN: message" text.
class JobError : public std::runtime_error {
public:
    enum class Kind {
        Model,  // the model text does not parse or compile
        Data,  // a data table or its mapping / preprocessing is unusable
        Settings,  // a parameter, prior, weight or setting names something the model lacks
        Integration,  // the model cannot be integrated (at the starting point)
        Fit,  // the estimator cannot start
    };

    JobError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}

    Kind kind() const { return kind_; }

private:
    Kind kind_;
};

}  // namespace sysid::job
