#include "engine/parallel/IndexSplit.h"

#include <algorithm>

namespace sysid::parallel {

std::vector<std::size_t> indicesOf(std::size_t count, int rank, int ranks)
{
    const auto stride = static_cast<std::size_t>(std::max(ranks, 1));
    std::vector<std::size_t> mine;
    for (auto i = static_cast<std::size_t>(std::max(rank, 0)); i < count; i += stride)
        mine.push_back(i);
    return mine;
}

std::size_t countOf(std::size_t count, int rank, int ranks)
{
    const auto stride = static_cast<std::size_t>(std::max(ranks, 1));
    const auto first = static_cast<std::size_t>(std::max(rank, 0));
    return first < count ? (count - first + stride - 1) / stride : 0;
}

std::size_t indexOf(std::size_t k, int rank, int ranks)
{
    return static_cast<std::size_t>(std::max(rank, 0)) + k * static_cast<std::size_t>(std::max(ranks, 1));
}

int ownerOf(std::size_t index, int ranks)
{
    return static_cast<int>(index % static_cast<std::size_t>(std::max(ranks, 1)));
}

}  // namespace sysid::parallel
