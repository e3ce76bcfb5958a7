#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace sysid::cli {

// Exit status: 0 success, 1 user error (a message naming the file and place), 2 bad arguments.
enum ExitCode { Success = 0, UserErrorExit = 1, UsageErrorExit = 2 };

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class UserError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

using Arguments = std::vector<std::string>;  // the arguments after the command name

int runCheck(const Arguments& args);
int runSimulate(const Arguments& args);
int runFit(const Arguments& args);
int runPeriodic(const Arguments& args);
int runOptimal(const Arguments& args);
int runStudy(const Arguments& args);
int runContour(const Arguments& args);
int runReport(const Arguments& args);
int runCompare(const Arguments& args);
int runSpectrum(const Arguments& args);

}  // namespace sysid::cli
