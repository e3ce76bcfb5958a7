#include "app/mpi/MpiProcessGroup.h"

#include <mpi.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>

namespace sysid::cli {

namespace {

constexpr int kResultTag = 21;

}  // namespace

MpiProcessGroup::MpiProcessGroup(int& argc, char**& argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &ranksOnNode_);
    MPI_Comm_free(&node);
}

MpiProcessGroup::~MpiProcessGroup()
{
    MPI_Finalize();
}

std::vector<std::string> MpiProcessGroup::gather(const std::string& mine) const
{
    if (mine.size() > static_cast<std::size_t>(INT_MAX))
        throw std::length_error("the results of one process exceed 2 GiB: spread the work over more processes");
    if (rank_ != 0) {
        MPI_Send(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, 0, kResultTag, MPI_COMM_WORLD);
        return {};
    }
    std::vector<std::string> all{mine};
    for (int other = 1; other < size_; ++other) {
        MPI_Status status;
        MPI_Probe(other, kResultTag, MPI_COMM_WORLD, &status);
        int length = 0;
        MPI_Get_count(&status, MPI_CHAR, &length);
        std::string text(static_cast<std::size_t>(length), '\0');
        MPI_Recv(text.data(), length, MPI_CHAR, other, kResultTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        all.push_back(std::move(text));
    }
    return all;
}

void MpiProcessGroup::abort(int code) const
{
    MPI_Abort(MPI_COMM_WORLD, code);
    std::exit(code);  // MPI_Abort does not return; this tells the compiler so
}

}  // namespace sysid::cli

sysid::cli::MpiProcesses* sysid_mpi_start(int* argc, char*** argv, char* error, unsigned long errorSize)
{
    try {
        return new sysid::cli::MpiProcessGroup(*argc, *argv);
    } catch (const std::exception& e) {
        std::snprintf(error, errorSize, "%s", e.what());
        return nullptr;
    }
}
