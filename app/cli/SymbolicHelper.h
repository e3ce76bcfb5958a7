#pragma once

#include "app/cli/CommandLine.h"

#include <string>

namespace sysid::cli {

// The command line comes as two executables built from the same sources (docs/DECISIONS.md, "The
// command line without GiNaC"): `sysid`, which holds no GiNaC, so that its start does not pay for
// GiNaC's initialisation, and its symbolic helper `sysid-symbolic`, the whole command line with
// GiNaC, beside it in the build folder and in lib/sysid/ after `cmake --install`. sysid hands the
// helper what needs the symbolic engine: a model its cache of compiled models does not hold
// (job::compileSymbolic, answered by the helper's `compile-model`) and the commands that work on
// the symbolic model (check, simulate, optimal, report), which the helper runs in sysid's place.

// Where the helper is; throws UserError naming the places looked at when it is in none.
std::string symbolicHelperPath();

// Replaces this process with the helper, given the same arguments. Returns only by throwing
// UserError when the helper cannot be started.
[[noreturn]] void runInSymbolicHelper(char** argv);

// The helper's own command `sysid-symbolic compile-model SOURCE [--second-derivatives]`: the
// model text on standard input, the compiled model (eval::encodeCompiledModel) on standard
// output; a model error's message on standard error with exit status 1.
int runCompileModel(const Arguments& args);

}  // namespace sysid::cli
