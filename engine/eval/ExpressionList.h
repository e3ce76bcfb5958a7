#pragma once

#include <memory>
#include <string>
#include <vector>

namespace mu { class Parser; }

namespace sysid::eval {

// Several muParser expressions compiled to bytecode and evaluated in one call: one program,
// or a few when the joined text would exceed muParser's length limit (large models, e.g. PDEs
// by the method of lines). Variables are bound by address; the object is confined to one thread.
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

private:
    struct Program {
        std::unique_ptr<mu::Parser> parser;
        std::size_t count;  // expressions in this program
    };
    std::vector<Program> programs_;
    std::size_t size_ = 0;
};

}  // namespace sysid::eval
