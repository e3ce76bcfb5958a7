#include "app/cli/Processes.h"

#include "app/cli/CommonOptions.h"

#ifdef SYSID_WITH_MPI
#include "app/mpi/MpiProcessGroup.h"
#endif

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <thread>

namespace sysid::cli {

namespace {

#ifdef SYSID_WITH_MPI
std::unique_ptr<MpiProcessGroup> mpi;
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
    mpi = std::make_unique<MpiProcessGroup>(argc, argv);
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

}  // namespace sysid::cli
