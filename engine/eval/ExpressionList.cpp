#include "engine/eval/ExpressionList.h"

#include "engine/eval/ExpressionTape.h"

namespace sysid::eval {

ExpressionList::ExpressionList() = default;
ExpressionList::~ExpressionList() = default;
ExpressionList::ExpressionList(ExpressionList&&) noexcept = default;
ExpressionList& ExpressionList::operator=(ExpressionList&&) noexcept = default;

ExpressionList::ExpressionList(const std::vector<std::string>& expressions, const std::vector<Variable>& variables) :
    size_(expressions.size())
{
    std::vector<ExpressionTape::Variable> bound;
    bound.reserve(variables.size());
    for (const auto& v : variables)
        bound.push_back({v.name, v.address});
    tape_ = std::make_unique<ExpressionTape>(expressions, bound);
}

void ExpressionList::evaluate(double* out) const
{
    if (tape_)
        tape_->evaluate(out);
}

std::size_t ExpressionList::instructionCount() const
{
    return tape_ ? tape_->instructionCount() : 0;
}

}  // namespace sysid::eval
