#include "engine/discretise/SecondOrderPairs.h"

#include <string>

namespace sysid::discretise {

namespace {

// The printed right-hand side without blanks and redundant outer parentheses.
std::string bare(const std::string& expression)
{
    std::string s;
    for (char c : expression)
        if (c != ' ')
            s += c;
    while (s.size() >= 2 && s.front() == '(' && s.back() == ')')
        s = s.substr(1, s.size() - 2);
    return s;
}

}  // namespace

std::vector<SecondOrderPair> findSecondOrderPairs(const eval::CompiledModelSource& source)
{
    const std::size_t n = source.stateCount();
    std::vector<bool> used(n, false);
    std::vector<SecondOrderPair> pairs;
    for (std::size_t q = 0; q < n; ++q) {
        if (used[q])
            continue;
        const std::string rhs = bare(source.rhs[q]);
        for (std::size_t v = 0; v < n; ++v) {
            // CompiledModelSource names state k "v<1+k>" (variables [t, x, p, u]).
            if (v == q || used[v] || rhs != "v" + std::to_string(1 + v))
                continue;
            pairs.push_back({q, v});
            used[q] = used[v] = true;
            break;
        }
    }
    return pairs;
}

}  // namespace sysid::discretise
