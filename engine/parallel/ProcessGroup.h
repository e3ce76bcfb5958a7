#pragma once

#include <string>
#include <vector>

namespace sysid::parallel {

// The processes a job is spread over: one (the desktop application, a command started without
// mpirun) or the ranks of an MPI job. The engine sees only this interface; the MPI implementation
// lives with the command line (app/mpi), so no engine header includes <mpi.h>.
//
// Every member is called by every process of the group in the same order (collective), from the
// thread that started the job.
class ProcessGroup {
public:
    virtual ~ProcessGroup() = default;

    virtual int rank() const = 0;  // 0 .. size() - 1; process 0 assembles and writes the result
    virtual int size() const = 0;
    bool isRoot() const { return rank() == 0; }

    // Process 0 receives every process's text, in rank order (its own first); the others receive
    // nothing. Collective.
    virtual std::vector<std::string> gather(const std::string& mine) const = 0;
};

// The group of this process alone: rank 0 of 1; gather returns {mine}.
const ProcessGroup& singleProcess();

}  // namespace sysid::parallel
