#include "engine/eval/ExpressionList.h"

#include <muParser.h>

#include <algorithm>
#include <stdexcept>

namespace sysid::eval {

ExpressionList::ExpressionList() = default;
ExpressionList::~ExpressionList() = default;
ExpressionList::ExpressionList(ExpressionList&&) noexcept = default;
ExpressionList& ExpressionList::operator=(ExpressionList&&) noexcept = default;

ExpressionList::ExpressionList(const std::vector<std::string>& expressions, const std::vector<Variable>& variables)
    : size_(expressions.size())
{
    if (expressions.empty())
        return;
    parser_ = std::make_unique<mu::Parser>();
    try {
        for (const auto& v : variables)
            parser_->DefineVar(v.name, v.address);
        std::string joined;
        for (const auto& e : expressions) {
            if (!joined.empty())
                joined += ',';
            joined += e;
        }
        parser_->SetExpr(joined);
        int n = 0;
        parser_->Eval(n);  // compiles to bytecode now, so errors surface here and not mid-integration
        if (static_cast<std::size_t>(n) != size_)
            throw std::logic_error("muParser returned " + std::to_string(n) + " values for " + std::to_string(size_) +
                                   " expressions");
    } catch (const mu::Parser::exception_type& e) {
        throw std::invalid_argument("internal error compiling the model for evaluation: " + e.GetMsg() +
                                    " in: " + e.GetExpr().substr(0, 200));
    }
}

void ExpressionList::evaluate(double* out) const
{
    if (size_ == 0)
        return;
    int n = 0;
    const double* values = parser_->Eval(n);
    std::copy(values, values + size_, out);
}

}  // namespace sysid::eval
