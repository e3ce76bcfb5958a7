#include "engine/parallel/ProcessGroup.h"

namespace sysid::parallel {

namespace {

class SingleProcess final : public ProcessGroup {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    std::vector<std::string> gather(const std::string& mine) const override { return {mine}; }
};

}  // namespace

const ProcessGroup& singleProcess()
{
    static const SingleProcess group;
    return group;
}

}  // namespace sysid::parallel
