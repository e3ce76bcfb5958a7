#include "app/cli/Processes.h"

#include "app/cli/CommonOptions.h"

#include "engine/eval/NativeCode.h"

#ifdef SYSID_WITH_MPI
#include "app/mpi/MpiModule.h"

#include <dlfcn.h>
#endif

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

namespace sysid::cli {

namespace {

#ifdef SYSID_WITH_MPI
std::unique_ptr<MpiProcesses> mpi;
#endif
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kLeakCheckAtExit = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
constexpr bool kLeakCheckAtExit = true;
#else
constexpr bool kLeakCheckAtExit = false;
#endif
#else
constexpr bool kLeakCheckAtExit = false;
#endif

int startedStderr = -1;  // a rank other than 0: the standard error it started with

// This process's rank as a launcher set it in the environment (OpenMPI's mpirun, MPICH's mpiexec,
// Slurm's srun with a PMI or PMIx plugin); -1 when no launcher started it.
int launcherRank()
{
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
        if (const char* value = std::getenv(name))
            return std::atoi(value);
    return -1;
}

#ifdef SYSID_WITH_MPI
// MPI from its module: beside the executable (the build tree), else where `cmake --install` puts it
// relative to bin/. Loaded with RTLD_GLOBAL: OpenMPI's own plugins need its symbols. Returns
// nullptr with `why` set when it cannot.
MpiProcesses* startMpi(int& argc, char**& argv, std::string& why)
{
    void* module = nullptr;
    for (const std::string& candidate : helperPlaces("sysid-mpi.so")) {
        module = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL);
        if (module)
            break;
        if (why.empty())
            why = ::dlerror();
    }
    if (!module) {
        if (why.empty())
            why = "this executable's own place is unknown";
        return nullptr;
    }
    const auto start = reinterpret_cast<MpiStart>(::dlsym(module, kMpiStartSymbol));
    if (!start) {
        why = std::string("sysid-mpi.so has no ") + kMpiStartSymbol;
        return nullptr;
    }
    char error[512] = "";
    MpiProcesses* group = start(&argc, &argv, error, sizeof error);
    if (!group)
        why = error;
    return group;  // the module stays loaded until the process ends
}

// The cores this process may run on (its affinity mask: mpirun's or Slurm's binding).
unsigned boundCores()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
    return std::max(1u, std::thread::hardware_concurrency());
}
#endif

}  // namespace

bool startedByLauncher()
{
    return launcherRank() >= 0;
}

std::vector<std::string> helperPlaces(const std::string& name)
{
    char path[4096];
    const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
        return {};
    const std::string exe(path, static_cast<std::size_t>(n));
    const std::string dir = exe.substr(0, exe.find_last_of('/'));
    return {dir + "/" + name, dir + "/../" SYSID_HELPER_INSTALL_DIR "/" + name};
}

void startProcesses([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv)
{
#ifndef SYSID_WITH_MPI
    // Without MPI the processes of an mpirun job cannot share the work: say so once.
    if (launcherRank() == 0)
        std::cerr << "sysid: note: built without MPI: every process started by the launcher runs the whole "
                     "command\n";
#else
    if (launcherRank() < 0)
        return;
    std::string why;
    mpi.reset(startMpi(argc, argv, why));
    if (!mpi) {
        if (launcherRank() == 0)
            std::cerr << "sysid: note: MPI could not be loaded (" << why
                      << "): every process started by the launcher runs the whole command\n";
        return;
    }
    std::atexit([] { mpi.reset(); });
    if (mpi->rank() != 0) {
        startedStderr = ::dup(STDERR_FILENO);
        const int null = ::open("/dev/null", O_WRONLY);
        if (null >= 0) {
            ::dup2(null, STDOUT_FILENO);
            ::dup2(null, STDERR_FILENO);
            ::close(null);
        }
    }
#endif
}

const parallel::ProcessGroup& processes()
{
#ifdef SYSID_WITH_MPI
    if (mpi)
        return *mpi;
#endif
    return parallel::singleProcess();
}

unsigned threadsOption(const boost::program_options::variables_map& vm)
{
    if (vm.count("threads"))
        return static_cast<unsigned>(countOption(vm, "threads", 1));
#ifdef SYSID_WITH_MPI
    if (mpi) {
        const unsigned online = std::max(1u, std::thread::hardware_concurrency());
        const auto ranks = static_cast<unsigned>(std::max(1, mpi->ranksOnThisNode()));
        return std::max(1u, std::min(boundCores(), online / ranks));
    }
#endif
    return 0;
}

std::string onProcesses()
{
    const int size = processes().size();
    return size > 1 ? ", on " + std::to_string(size) + " processes" : std::string();
}

int failure(int code, const std::string& message)
{
    const parallel::ProcessGroup& group = processes();
    if (group.isRoot()) {
        std::cerr << message << "\n" << std::flush;
    } else if (startedStderr >= 0) {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        const std::string text = "sysid (process " + std::to_string(group.rank()) + " of " +
            std::to_string(group.size()) + "): " + message + "\n";
        [[maybe_unused]] const auto written = ::write(startedStderr, text.data(), text.size());
    }
#ifdef SYSID_WITH_MPI
    if (mpi && mpi->size() > 1)
        mpi->abort(code);
#endif
    return code;
}

int finishProcess(int status)
{
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    bool mpiStarted = false;
#ifdef SYSID_WITH_MPI
    mpiStarted = mpi != nullptr;
#endif
    if (!kLeakCheckAtExit && !mpiStarted && !eval::nativeBuildsInFlight())
        std::_Exit(status);
    return status;
}

}  // namespace sysid::cli
