#pragma once

#include <cstddef>
#include <vector>

namespace sysid::parallel {

// Which of the indices 0 .. count - 1 process `rank` of `ranks` computes: every ranks-th one,
// starting at its rank (round robin). Deterministic, so every process knows every owner without
// asking; interleaved rather than in blocks, because neighbouring indices often cost alike (the
// rows of a cost surface near a valley, the realisations of a study do not) and blocks would give
// one process all the expensive ones.
std::vector<std::size_t> indicesOf(std::size_t count, int rank, int ranks);

// How many indices process `rank` computes, and its k-th one, without listing them (a study of
// 10^8 realisations must not hold 10^8 indices before it starts).
std::size_t countOf(std::size_t count, int rank, int ranks);
std::size_t indexOf(std::size_t k, int rank, int ranks);

// The rank that computes `index`.
int ownerOf(std::size_t index, int ranks);

}  // namespace sysid::parallel
