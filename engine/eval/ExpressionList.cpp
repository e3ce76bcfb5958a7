#include "engine/eval/ExpressionList.h"

#include <muParser.h>

#include <algorithm>
#include <stdexcept>

namespace sysid::eval {

namespace {

// muParser rejects expressions longer than 20000 characters (MaxLenExpression); the list is
// split into programs that stay below this with a margin.
constexpr std::size_t kMaxProgramLength = 15000;

}  // namespace

ExpressionList::ExpressionList() = default;
ExpressionList::~ExpressionList() = default;
ExpressionList::ExpressionList(ExpressionList&&) noexcept = default;
ExpressionList& ExpressionList::operator=(ExpressionList&&) noexcept = default;

ExpressionList::ExpressionList(const std::vector<std::string>& expressions, const std::vector<Variable>& variables)
    : size_(expressions.size())
{
    std::size_t next = 0;
    while (next < expressions.size()) {
        std::string joined = expressions[next];
        std::size_t count = 1;
        while (next + count < expressions.size() &&
               joined.size() + 1 + expressions[next + count].size() <= kMaxProgramLength) {
            joined += ',';
            joined += expressions[next + count];
            ++count;
        }
        auto parser = std::make_unique<mu::Parser>();
        try {
            for (const auto& v : variables)
                parser->DefineVar(v.name, v.address);
            parser->SetExpr(joined);
            int n = 0;
            parser->Eval(n);  // compiles to bytecode now, so errors surface here and not mid-integration
            if (static_cast<std::size_t>(n) != count)
                throw std::logic_error("muParser returned " + std::to_string(n) + " values for " + std::to_string(count) +
                                       " expressions");
        } catch (const mu::Parser::exception_type& e) {
            throw std::invalid_argument("internal error compiling the model for evaluation: " + e.GetMsg() +
                                        " in: " + e.GetExpr().substr(0, 200));
        }
        programs_.push_back({std::move(parser), count});
        next += count;
    }
}

void ExpressionList::evaluate(double* out) const
{
    for (const auto& program : programs_) {
        int n = 0;
        const double* values = program.parser->Eval(n);
        out = std::copy(values, values + program.count, out);
    }
}

}  // namespace sysid::eval
