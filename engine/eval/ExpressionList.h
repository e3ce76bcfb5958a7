#pragma once

#include <memory>
#include <string>
#include <vector>

namespace sysid::eval {

class ExpressionTape;

// Several expressions (MuParserPrinter's syntax) compiled into one program and evaluated in one
// call (an ExpressionTape: shared subexpressions computed once). Variables are bound by
// address; the object is confined to one thread.
class ExpressionList {
public:
    struct Variable {
        std::string name;
        double* address;
    };

    ExpressionList();
    ExpressionList(const std::vector<std::string>& expressions, const std::vector<Variable>& variables);
    ~ExpressionList();
    ExpressionList(ExpressionList&&) noexcept;
    ExpressionList& operator=(ExpressionList&&) noexcept;
    ExpressionList(const ExpressionList&) = delete;
    ExpressionList& operator=(const ExpressionList&) = delete;

    std::size_t size() const { return size_; }
    void evaluate(double* out) const;
    std::size_t instructionCount() const;

private:
    std::unique_ptr<ExpressionTape> tape_;
    std::size_t size_ = 0;
};

}  // namespace sysid::eval
