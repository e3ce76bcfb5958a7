// sysid: the command line over the engine. Every command is a thin layer: parse arguments,
// call the engine, print or write the result.
#include "app/cli/CommandLine.h"
#include "app/cli/Processes.h"
#include "app/cli/Interrupt.h"
#include "app/cli/SymbolicHelper.h"
#include "app/cli/TerminalText.h"

#include "engine/core/ExceptionText.h"
#include "engine/data/DataError.h"
#include "engine/eval/NativeCode.h"
#include "engine/model/ModelError.h"

#include <boost/program_options/errors.hpp>

#include <iostream>
#include <map>
#include <set>
#include <new>
#include <string>

namespace {

const char* usage =
    "usage: sysid COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  check MODEL [--equations]        parse a model, list states, parameters, inputs, outputs\n"
    "  simulate MODEL --t-end T --dt DT [options] -o OUT.csv\n"
    "                                   simulate on a time grid and write t,<outputs> as CSV\n"
    "  fit PROJECT.sysid [-o RESULT.json] [--quiet]\n"
    "  fit MODEL --data DATA.csv [--data MORE.csv]... [--method NAME] [options] -o RESULT.json\n"
    "                                   estimate parameters from data; progress on stderr\n"
    "  periodic MODEL --period T [--shooting-intervals N] [options] -o ORBIT.json\n"
    "  periodic MODEL --sweep NAME=FROM:TO [--frequency] [options] -o BRANCH.json\n"
    "                                   periodic steady state, Floquet multipliers, frequency response\n"
    "  optimal PROJECT.sysid [-o RESULT.json] [--residuals RESIDUALS.csv]\n"
    "  optimal MODEL --data DATA.csv [--state-weight NAME=W]... [options] -o RESULT.json\n"
    "                                   optimal estimation (TPBVP) of states, inputs, parameters\n"
    "                                   and residual traces; exit 1 when it does not converge\n"
    "  study PROJECT.sysid [--realisations N] [--noise P] [--distribution uniform|gaussian] [--seed S]\n"
    "        [--threads K] [--method M] [-o RESULT.json|RESULT.csv]\n"
    "                                   Monte Carlo noise study: mean, sd and bias of the estimates\n"
    "  contour PROJECT.sysid|MODEL [--data DATA.csv] --x NAME=FROM:TO --y NAME=FROM:TO [--grid N]\n"
    "          [--path RESULT.json] -o FILE.json|FILE.csv\n"
    "                                   the fit's cost over a grid of two parameters, with a fit's path\n"
    "  profile PROJECT.sysid|MODEL [--data DATA.csv] [--parameter NAME]... [--range [NAME=]LOW:HIGH]\n"
    "          [--points N] [-o PROFILE.json]\n"
    "                                   profile likelihood: each parameter's likelihood-based interval and\n"
    "                                   whether the data determine it\n"
    "  compare RESULT.json|PROJECT.sysid [--data DATA.csv] [--initial result|estimate[:S]|model]\n"
    "          [-o OUT.json|OUT.csv]\n"
    "                                   a fit's model simulated on a record: rmse, nrmse and fit % per output;\n"
    "                                   several results: the models side by side (cost, AIC, AICc, BIC)\n"
    "  report PROJECT.sysid -o FOLDER [--force] [--fit]\n"
    "                                   the project's fit as a report: FOLDER/report.html and the parameters\n"
    "  spectrum DATA.csv [--column NAME]... [--low-pass HZ[:ORDER]] [-o SPECTRUM.csv]\n"
    "                                   each column's spectral peak (a starting natural frequency) and a\n"
    "                                   low-pass cutoff to start from\n"
    "\n"
    "Run 'sysid COMMAND --help' for the options of a command.\n";

// A command that works on the symbolic model: sysid has no code of its own for it (null) and runs it
// in its symbolic helper (SymbolicHelper.h).
#ifdef SYSID_CLI_SYMBOLIC_HELPER
#define SYSID_SYMBOLIC_COMMAND(run) nullptr
#else
#define SYSID_SYMBOLIC_COMMAND(run) run
#endif

// The commands that spread their work over the ranks of an MPI job (parallel::distributedFor).
const std::set<std::string> kDistributedCommands{"fit", "study", "profile", "contour"};

}  // namespace

namespace {

int runCommand(int argc, char** argv)
{
    using namespace sysid::cli;
#ifdef SYSID_CLI_SYMBOLIC_HELPER
    // Under a launcher every rank runs in the helper, so that none starts a process of its own
    // after MPI is initialised (which some MPI libraries forbid).
    if (startedByLauncher()) {
        try {
            runInSymbolicHelper(argv);
        } catch (const UserError& e) {
            std::cerr << "sysid: " << terminalText(e.what()) << "\n";
            return UserErrorExit;
        }
    }
#endif
    startProcesses(argc, argv);
    if (argc < 2) {
        std::cerr << usage;
        return UsageErrorExit;
    }
    const std::string command = argv[1];
    const Arguments args(argv + 2, argv + argc);
    // A run waits for its model's native code (compiled once, then loaded from the cache), so that
    // every evaluation of a run is the same code: docs/DECISIONS.md, "Native model code". The
    // process ends soon after its run: the library is not unloaded before.
    sysid::eval::setNativeCodeWaits(true);
    sysid::eval::setNativeLibrariesKept(true);
    sysid::eval::setNativeCodeNotices([](const std::string& line) { std::cerr << "sysid: note: " << line << "\n"; });
    const std::map<std::string, int (*)(const Arguments&)> commands{
        {"check", SYSID_SYMBOLIC_COMMAND(runCheck)},
        {"simulate", SYSID_SYMBOLIC_COMMAND(runSimulate)},
        {"optimal", SYSID_SYMBOLIC_COMMAND(runOptimal)},
        {"report", SYSID_SYMBOLIC_COMMAND(runReport)},
#ifndef SYSID_CLI_SYMBOLIC_HELPER
        {"compile-model", runCompileModel},  // the helper's own, for sysid (not in the usage)
#endif
        {"fit", runFit},
        {"periodic", runPeriodic},
        {"study", runStudy},
        {"contour", runContour},
        {"compare", runCompare},
        {"spectrum", runSpectrum},
        {"profile", runProfile}};
    const auto usageError = [&](const char* what) {
        return failure(UsageErrorExit,
                       terminalText("sysid " + command + ": " + what) + "\n(see 'sysid " + terminalText(command) +
                           " --help')");
    };
    // An error printed after Ctrl-C is a consequence of the interruption: the exit says so.
    const auto failed = [&](const std::string& message) {
        return failure(interrupted() ? InterruptedExit : UserErrorExit, terminalText(message));
    };
    installInterruptHandling();
    try {
        if (const auto it = commands.find(command); it != commands.end()) {
            if (!it->second)
                runInSymbolicHelper(argv);
            // Under mpirun the other ranks help only where a command spreads its work over them;
            // elsewhere rank 0 runs the command alone.
            if (!processes().isRoot() && !kDistributedCommands.contains(command))
                return Success;
            const int status = it->second(args);
            return interrupted() ? InterruptedExit : status;
        }
        if (command == "--help" || command == "-h" || command == "help") {
            std::cout << usage;
            return Success;
        }
        if (command == "--version") {
            std::cout << "sysid " SYSID_VERSION "\n";
            return Success;
        }
        std::cerr << "sysid: unknown command '" << terminalText(command) << "'\n\n" << usage;
        return UsageErrorExit;
    } catch (const UsageError& e) {
        return usageError(e.what());
    } catch (const boost::program_options::error& e) {
        return usageError(e.what());
    } catch (const sysid::model::ModelError& e) {  // the message names the file, line and column
        return failed(e.what());
    } catch (const sysid::data::DataError& e) {  // the message names the file, line and column
        return failed(e.what());
    } catch (const std::bad_alloc& e) {
        return failed("sysid " + command + ": " + sysid::core::exceptionText(e));
    } catch (const std::exception& e) {  // UserError, integrate::IntegrationError and the rest
        return failed("sysid " + command + ": " + e.what());
    }
}

}  // namespace

int main(int argc, char** argv)
{
    return sysid::cli::finishProcess(runCommand(argc, argv));
}
