#pragma once

#include "engine/parallel/ProcessGroup.h"

#include <boost/program_options/variables_map.hpp>

#include <string>
#include <vector>

namespace sysid::cli {

// The processes a command runs in: this one alone, or, when sysid is built with MPI and a launcher
// (mpirun, srun) started it, every rank of the MPI job. Rank 0 reads, computes its share, gathers
// and writes; the other ranks compute their share and stay silent (their standard output and error
// go to /dev/null), so a command's output is the same as in one process.

// True when a launcher (mpirun, srun) started this process, whether or not sysid can use MPI.
bool startedByLauncher();

// Where a helper of this executable (sysid-mpi.so, sysid-symbolic) may be, in the order to try: beside
// the executable (the build tree), then where `cmake --install` puts it relative to bin/. Empty when
// the executable's own place is unknown.
std::vector<std::string> helperPlaces(const std::string& name);

// Called first in main (MPI_Init when launched by mpirun); the processes end when main returns.
void startProcesses(int& argc, char**& argv);

const parallel::ProcessGroup& processes();

// --threads K, else the threads per process by default: 0 (every core) in one process; over MPI
// the cores of this node shared among its ranks, at most the cores this rank is bound to.
unsigned threadsOption(const boost::program_options::variables_map& vm);

// ", on N processes" when there are several, for a command's first progress line; else empty.
std::string onProcesses();

// Prints a failure (message ends without a newline) and gives the exit status. In one process, or
// on rank 0, to standard error. Over several processes every rank then ends the whole job with that
// status, so no rank waits for one that failed; a rank other than 0 writes its message too (to the
// standard error it started with, naming itself) a second later, unless rank 0 has ended the job by
// then, as it has when every rank failed alike.
int failure(int code, const std::string& message);

// The end of main: flushes the standard streams and, when nothing needs them, ends the process at once
// without running the static destructors (tens of thousands of GiNaC's objects: 5 % of a small fit's
// whole run). They are needed under MPI (MPI_Finalize), while a native-code compiler still runs (it is
// stopped), and in a sanitized build (the leak check). Otherwise returns `status` for main to return.
int finishProcess(int status);

}  // namespace sysid::cli
