#pragma once

#include "app/mpi/MpiModule.h"

#include <string>
#include <vector>

namespace sysid::cli {

// The ranks of MPI_COMM_WORLD as a parallel::ProcessGroup. The only code that includes <mpi.h>;
// MPI is called from the main thread only (MPI_THREAD_FUNNELED), between the parallel parts.
class MpiProcessGroup final : public MpiProcesses {
public:
    MpiProcessGroup(int& argc, char**& argv);  // MPI_Init_thread
    ~MpiProcessGroup() override;  // MPI_Finalize
    MpiProcessGroup(const MpiProcessGroup&) = delete;
    MpiProcessGroup& operator=(const MpiProcessGroup&) = delete;

    int rank() const override { return rank_; }
    int size() const override { return size_; }
    // Each rank sends its text to rank 0, which receives them in rank order: one message per rank,
    // so only a single rank's text is bound by MPI's int count (2 GiB), not the sum.
    std::vector<std::string> gather(const std::string& mine) const override;

    int ranksOnThisNode() const override { return ranksOnNode_; }
    [[noreturn]] void abort(int code) const override;

private:
    int rank_ = 0, size_ = 1, ranksOnNode_ = 1;
};

}  // namespace sysid::cli
