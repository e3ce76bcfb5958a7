#pragma once

#include "engine/parallel/ProcessGroup.h"

namespace sysid::cli {

// The ranks of an MPI job as the command line uses them. MPI lives in a module of its own
// (sysid-mpi.so, loaded with dlopen only when a launcher started sysid), so that a run in one
// process does not load and initialise the MPI libraries: docs/DECISIONS.md, "Against CVODES".
// Every call goes through the vtable; the command line links no symbol of the module.
class MpiProcesses : public parallel::ProcessGroup {
public:
    virtual int ranksOnThisNode() const = 0;  // of MPI_COMM_TYPE_SHARED
    // Ends every rank of the job with `code` (MPI_Abort): a rank that failed must not leave the
    // others waiting for its results.
    [[noreturn]] virtual void abort(int code) const = 0;
};

}  // namespace sysid::cli

// The module's one entry point (MPI_Init_thread inside); nullptr and `error` set when MPI cannot
// start. The command line finds it with dlsym (kMpiStartSymbol), never by linking.
extern "C" __attribute__((visibility("default"))) sysid::cli::MpiProcesses* sysid_mpi_start(
    int* argc, char*** argv, char* error, unsigned long errorSize);

namespace sysid::cli {
using MpiStart = decltype(&sysid_mpi_start);
inline constexpr const char* kMpiStartSymbol = "sysid_mpi_start";
}  // namespace sysid::cli
