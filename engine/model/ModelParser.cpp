#include "engine/model/ModelParser.h"

#include "engine/integrate/Intersample.h"
#include "engine/model/BondGraphParser.h"
#include "engine/model/Lexer.h"

#include <algorithm>
#include <string_view>

namespace sysid::model {

namespace {

struct SyntaxError {
    ModelDiagnostic diagnostic;
};

class Parser : TokenReader {
public:
    Parser(std::vector<Token> tokens, std::string_view text) : tokens_(std::move(tokens))
    {
        for (std::size_t start = 0; start <= text.size();) {
            const std::size_t end = std::min(text.find('\n', start), text.size());
            lines_.push_back(text.substr(start, end - start));
            start = end + 1;
        }
    }

    ModelSyntax parse(std::vector<ModelDiagnostic>& errors)
    {
        ModelSyntax model;
        while (peek().kind != TokenKind::End) {
            if (peek().kind == TokenKind::Separator) {
                ++pos_;
                continue;
            }
            try {
                model.statements.push_back(statement());
                if (peek().kind != TokenKind::Separator && peek().kind != TokenKind::End)
                    fail(peek(), "unexpected " + describe(peek()) + " after the end of the statement");
            } catch (const SyntaxError& e) {
                if (!addDiagnostic(errors, e.diagnostic))
                    return model;
                while (peek().kind != TokenKind::Separator && peek().kind != TokenKind::End)
                    ++pos_;
            }
        }
        return model;
    }

private:
    const Token& peekToken(std::size_t ahead) const override { return peek(ahead); }
    const Token& nextToken() override { return next(); }
    ExpressionPtr readExpression() override { return expression(); }
    [[noreturn]] void failAt(const Token& at, std::string message) override { fail(at, std::move(message)); }

    const Token& peek(std::size_t ahead = 0) const
    {
        const std::size_t i = std::min(pos_ + ahead, tokens_.size() - 1);
        return tokens_[i];
    }
    const Token& next() { return tokens_[std::min(pos_++, tokens_.size() - 1)]; }

    [[noreturn]] static void fail(const Token& at, std::string message)
    {
        throw SyntaxError{{at.where, std::move(message)}};
    }

    const Token& expect(TokenKind kind, const std::string& what)
    {
        if (peek().kind != kind)
            fail(peek(), "expected " + what + ", found " + describe(peek()));
        return next();
    }

    bool accept(TokenKind kind)
    {
        if (peek().kind != kind)
            return false;
        ++pos_;
        return true;
    }

    bool isKeyword(const Token& t, std::string_view word) const
    {
        return t.kind == TokenKind::Identifier && t.primes == 0 && t.text == word;
    }

    NamedPlace plainName(const std::string& what)
    {
        const Token& t = expect(TokenKind::Identifier, what);
        if (t.primes != 0)
            fail(t, "expected " + what + " without primes, found " + describe(t));
        return {t.text, t.where};
    }

    // A name being declared: crank.x is the x of the sub-model included as crank and spring.e the
    // effort of the bond-graph element spring, so a declared name has no dot.
    NamedPlace declaredName(const std::string& what)
    {
        const Token& t = peek();
        NamedPlace n = plainName(what);
        if (n.name.find('.') != std::string::npos)
            fail(t,
                 "'" + n.name +
                     "': a dot names a part of an included sub-model (crank.x) or a variable of a bond-graph "
                     "element (spring.e); declare names without '.'");
        return n;
    }

    std::vector<NamedPlace> nameList(const std::string& what)
    {
        std::vector<NamedPlace> names{declaredName(what)};
        while (accept(TokenKind::Comma))
            names.push_back(declaredName(what));
        return names;
    }

    Statement statement()
    {
        const Token& first = peek();
        if (startsBondGraphStatement(first, peek(1)))
            return parseBondGraphStatement(*this);
        if (first.kind != TokenKind::Identifier)
            fail(first,
                 "expected a statement (param, state, input, let, output, coord, kinetic, potential, "
                 "dissipation, force, constraint, algebraic, include, when, a bond-graph element, an equation "
                 "like x' = ... or an initial value like x(0) = ...), found " +
                     describe(first));
        if (first.primes > 0) {
            next();
            expect(TokenKind::Equals, "'=' after " + describe(first));
            return DerivativeStatement{{first.text, first.where}, first.primes, expression()};
        }
        const std::string& word = first.text;
        // `when (x - 1) < 0 : ...` is an event, `when(0) = 1, 0` the initial value of a name spelled
        // like the keyword: only an event holds a ':'.
        if (word == "when" && peek(1).kind != TokenKind::Equals &&
            (peek(1).kind != TokenKind::LeftParen || statementHas(TokenKind::Colon)))
            return whenStatement();
        // `constraint (x - a)^2 + y^2 = l^2` is a constraint, `constraint(0) = 1` the initial value of a
        // name spelled like the keyword.
        if (word == "constraint" && peek(1).kind != TokenKind::Equals && !initialValueForm())
            return constraintStatement();
        if (word == "include" && peek(1).kind == TokenKind::String)
            return includeStatement();
        if (word == "algebraic" && peek(1).kind == TokenKind::Identifier)
            return algebraicStatement();
        // `output (x + y)/2` declares an output; `output(0) = 1` is the initial value of a name
        // spelled like the keyword: only the '=' tells them apart.
        if (peek(1).kind == TokenKind::LeftParen && !(word == "output" && !statementHas(TokenKind::Equals)))
            return hasTopLevelComma(pos_ + 1) ? fieldConditionStatement() : initialStatement();
        if (word == "field" && peek(1).kind == TokenKind::Identifier)
            return fieldStatement();
        if (peek(1).kind == TokenKind::Equals && word.size() > 2 && word.ends_with("_t")) {
            next();
            next();
            return FieldEquationStatement{{word.substr(0, word.size() - 2), first.where}, expression()};
        }
        if (word == "param")
            return paramStatement();
        if (word == "state")
            return stateStatement();
        if (word == "input")
            return inputStatement();
        if (word == "coord") {
            next();
            CoordStatement c{nameList("a coordinate name"), {}};
            c.unit = unitClause();
            return c;
        }
        if (word == "let") {
            next();
            NamedPlace name = declaredName("a name after 'let'");
            expect(TokenKind::Equals, "'=' after the name");
            return LetStatement{name, expression()};
        }
        if (word == "output")
            return outputStatement();
        if (word == "kinetic" || word == "potential" || word == "dissipation") {
            next();
            const EnergyKind kind = word == "kinetic" ? EnergyKind::Kinetic
                : word == "potential"                 ? EnergyKind::Potential
                                                      : EnergyKind::Dissipation;
            NamedPlace name = declaredName("a name after '" + word + "' (e.g. " + word + " T = ...)");
            expect(TokenKind::Equals, "'=' after the name");
            return EnergyStatement{kind, first.where, name, expression()};
        }
        if (word == "force") {
            next();
            NamedPlace coordinate = plainName("the coordinate the force acts on (force q = ...)");
            expect(TokenKind::Equals, "'=' after the coordinate");
            return ForceStatement{coordinate, expression()};
        }
        if (peek(1).kind == TokenKind::Equals)
            fail(first,
                 "'" + word + " = ...' is not a statement; write " + word +
                     "' = ... for an equation, "
                     "let " +
                     word + " = ... for an intermediate or param " + word + " = ... for a parameter");
        fail(first,
             "unknown statement '" + word +
                 "' (expected param, state, input, let, output, coord, kinetic, "
                 "potential, dissipation, force, constraint, algebraic, include, field, when, a bond-graph element (" +
                 bondNodeTable.choices(" ") + ") or an equation)");
    }

    // NAME(0) = ...: the initial value of a name, whatever word it is spelled like.
    bool initialValueForm() const
    {
        return peek(1).kind == TokenKind::LeftParen && peek(2).kind == TokenKind::Number && peek(2).number == 0.0 &&
            peek(3).kind == TokenKind::RightParen && peek(4).kind == TokenKind::Equals;
    }

    // constraint [NAME :] LHS = RHS
    Statement constraintStatement()
    {
        const Token& keyword = next();
        ConstraintStatement c;
        c.keyword = keyword.where;
        static const std::string example = " (constraint x^2 + y^2 = l^2, or constraint rod: x^2 + y^2 = l^2)";
        if (peek().kind == TokenKind::Separator || peek().kind == TokenKind::End)
            fail(peek(), "expected an equation after 'constraint'" + example + ", found " + describe(peek()));
        if (peek().kind == TokenKind::Identifier && peek(1).kind == TokenKind::Colon) {
            const Token& name = next();
            if (name.primes != 0 || name.text.find('.') != std::string::npos)
                fail(name, "a constraint is named without primes or dots" + example);
            c.multiplier = {name.text, name.where};
            next();
        }
        const Token& first = peek();
        c.lhs = expression();
        if (peek().kind != TokenKind::Equals)
            fail(peek(), "expected '=' in the constraint" + example + ", found " + describe(peek()));
        next();
        c.rhs = expression();
        c.text = writtenFrom(first);
        return c;
    }

    // algebraic NAME [= GUESS] [unit U]
    Statement algebraicStatement()
    {
        next();
        AlgebraicStatement a;
        a.name = declaredName("an algebraic variable's name");
        if (accept(TokenKind::Equals))
            a.guess = expression();
        a.unit = unitClause();
        return a;
    }

    // include "FILE" as NAME [(NAME = EXPR, ...)]
    Statement includeStatement()
    {
        const Token& keyword = next();
        IncludeStatement in;
        in.keyword = keyword.where;
        const Token& file = next();
        in.file = file.text;
        in.fileWhere = file.where;
        static const std::string example = " (include \"bar.model\" as crank, or ... as crank (m = m1, L = r))";
        if (!isKeyword(peek(), "as"))
            fail(peek(),
                 "expected 'as' and a name for the sub-model after the file name" + example + ", found " +
                     describe(peek()));
        next();
        in.name = declaredName("a name for the sub-model" + example);
        if (accept(TokenKind::LeftParen)) {
            do {
                IncludeStatement::Binding b;
                b.name = plainName("a parameter or input of the sub-model to bind (NAME = EXPR)");
                expect(TokenKind::Equals, "'=' after " + b.name.name + " (a binding is NAME = EXPR)");
                b.value = expression();
                in.bindings.push_back(std::move(b));
            } while (accept(TokenKind::Comma));
            expect(TokenKind::RightParen, "')' or ',' after the bindings of " + in.name.name);
        }
        return in;
    }

    // when LHS < RHS : STATE = EXPR[, STATE = EXPR ...]; which names may stand where is the
    // builder's business.
    Statement whenStatement()
    {
        const Token& keyword = next();
        WhenStatement w;
        w.keyword = keyword.where;
        static const std::string example = " (when x < 0 : x' = -e*x')";
        if (peek().kind == TokenKind::Separator || peek().kind == TokenKind::End)
            fail(peek(), "expected a condition after 'when'" + example + ", found " + describe(peek()));
        w.lhs = expression();
        const Token& comparison = peek();
        if (comparison.kind != TokenKind::Less && comparison.kind != TokenKind::Greater)
            fail(comparison,
                 "expected '<' or '>' in the condition of 'when'" + example +
                     ": the event fires when the condition becomes true, found " + describe(comparison));
        next();
        w.direction = comparison.kind == TokenKind::Less ? -1 : 1;
        w.rhs = expression();
        w.condition = writtenFrom(keyword);
        const Token& colon = peek();
        if (colon.kind != TokenKind::Colon)
            fail(colon, "expected ':' after the condition of 'when'" + example + ", found " + describe(colon));
        next();
        const Token& firstReset = peek();
        do {
            const Token& name = peek();
            if (name.kind != TokenKind::Identifier)
                fail(name, "expected a state to reset (STATE = EXPR)" + example + ", found " + describe(name));
            next();
            expect(TokenKind::Equals, "'=' after " + describe(name) + " (a reset is written STATE = EXPR)");
            w.resets.push_back({{name.text, name.where}, name.primes, expression()});
        } while (accept(TokenKind::Comma));
        w.resetText = writtenFrom(firstReset);
        return w;
    }

    // The text of the current line from token `from` through the last token read, as written.
    std::string writtenFrom(const Token& from) const
    {
        const Token& last = tokens_[pos_ - 1];
        const auto line = static_cast<std::size_t>(from.where.line - 1);
        if (last.where.line != from.where.line || line >= lines_.size())
            return {};
        const std::string_view text = lines_[line];
        const auto begin = static_cast<std::size_t>(from.where.column - 1);
        const auto end =
            static_cast<std::size_t>(last.where.column - 1) + last.text.size() + static_cast<std::size_t>(last.primes);
        if (begin >= end || end > text.size())
            return {};
        return std::string(text.substr(begin, end - begin));
    }

    Statement paramStatement()
    {
        next();
        ParamStatement p;
        p.name = declaredName("a parameter name");
        if (accept(TokenKind::LeftParen)) {
            p.over = nameList("the field variable of a per-node parameter (param alpha(x) = ...)");
            expect(TokenKind::RightParen, "')' after the field variable");
        }
        expect(TokenKind::Equals, "'=' and an initial value after the parameter name");
        p.value = expression();
        if (accept(TokenKind::LeftBracket)) {
            p.lower = expression();
            expect(TokenKind::Comma, "',' between the lower and upper bound");
            p.upper = expression();
            expect(TokenKind::RightBracket, "']' after the upper bound");
        }
        if (isKeyword(peek(), "prior")) {
            next();
            p.priorMean = expression();
            expect(TokenKind::Comma, "',' between the prior mean and its standard deviation (prior MEAN, SD)");
            p.priorSd = expression();
        }
        if (isKeyword(peek(), "fixed")) {
            next();
            p.fixed = true;
        }
        p.unit = unitClause();
        return p;
    }

    // `[LOW, HIGH]` after an initial value to be estimated, as after a parameter's value.
    void initialBounds(ExpressionPtr& lower, ExpressionPtr& upper)
    {
        if (!accept(TokenKind::LeftBracket))
            return;
        lower = expression();
        expect(TokenKind::Comma, "',' between the lower and upper bound");
        upper = expression();
        expect(TokenKind::RightBracket, "']' after the upper bound");
    }

    Statement stateStatement()
    {
        next();
        StateStatement s;
        s.name = declaredName("a state name");
        if (accept(TokenKind::Equals)) {
            s.initial = expression();
            initialBounds(s.lower, s.upper);
            if (isKeyword(peek(), "estimate")) {
                next();
                s.estimate = true;
            } else if (s.lower) {
                fail(peek(),
                     "bounds [LOW, HIGH] after an initial value are those of its estimate: add 'estimate' "
                     "after them, found " +
                         describe(peek()));
            } else if (isKeyword(peek(), "guess")) {
                next();
                s.guess = true;
            }
        }
        s.unit = unitClause();
        return s;
    }

    // `input u, v [hold|linear|spline] [unit V]`: the intersample behaviour is a word only in
    // this slot, spelled as integrate::intersampleTable spells it.
    Statement inputStatement()
    {
        next();
        InputStatement in{nameList("an input name"), {}, {}};
        const Token& word = peek();
        if (word.kind == TokenKind::Identifier && word.primes == 0 && !isKeyword(word, "unit")) {
            const auto behaviour = integrate::intersampleTable.parse(word.text);
            if (!behaviour)
                fail(word,
                     "expected how the input behaves between samples (" + integrate::intersampleTable.choices(", ") +
                         "), 'unit' or ',' after " + in.names.back().name + ", found " + describe(word));
            next();
            in.intersample = *behaviour;
        }
        in.unit = unitClause(true);
        return in;
    }

    Statement outputStatement()
    {
        next();
        const Token& first = peek();
        if (first.kind == TokenKind::Separator || first.kind == TokenKind::End)
            fail(first,
                 "expected what to output after 'output' (a state, NAME = EXPR or an expression), found " +
                     describe(first));
        const ExpressionPtr written = expression();
        OutputStatement o;
        o.name.where = first.where;
        if (written->kind == ExpressionSyntax::Kind::Name) {
            o.name.name = written->name;
            o.primes = written->primes;
            if (peek().kind == TokenKind::Equals) {
                if (written->primes != 0)
                    fail(first, "an output defined by an expression needs a plain name (output NAME = ...)");
                next();
                o.value = expression();
            }
        } else if (peek().kind == TokenKind::Equals) {
            fail(first, "the name of an output comes alone before '=' (output NAME = ...)");
        } else {
            // output s(0.4) is a field at a point when s is a field, else an expression like sin(x):
            // the builder knows which.
            if (written->kind == ExpressionSyntax::Kind::Call) {
                o.name.name = written->name;
                o.at = written->operands;
            }
            o.anonymous = written;
        }
        o.unit = unitClause();
        return o;
    }

    bool statementHas(TokenKind kind) const
    {
        for (std::size_t i = pos_; i < tokens_.size(); ++i) {
            if (tokens_[i].kind == kind)
                return true;
            if (tokens_[i].kind == TokenKind::Separator || tokens_[i].kind == TokenKind::End)
                return false;
        }
        return false;
    }

    // `unit TEXT` closing a declaration: the rest of the statement as written (kg, m/s^2, N*s/m,
    // 1/s, - for dimensionless), kept as text. `unit` is a keyword only here, so it stays free
    // as a name elsewhere.
    std::string unitClause(bool input = false)
    {
        if (!isKeyword(peek(), "unit"))
            return {};
        const Token& keyword = next();
        if (peek().kind == TokenKind::Separator || peek().kind == TokenKind::End)
            fail(keyword, "'unit' needs a unit after it (e.g. unit kg, unit m/s^2, or unit - when dimensionless)");
        std::string text;
        SourceLocation end{};  // just after the previous token, to keep a space written between tokens
        while (peek().kind != TokenKind::Separator && peek().kind != TokenKind::End) {
            const Token& t = next();
            if (isKeyword(t, "fixed") || isKeyword(t, "prior") || isKeyword(t, "estimate") || isKeyword(t, "guess") ||
                (input && t.primes == 0 && integrate::intersampleTable.parse(t.text)))
                fail(t, "'" + t.text + "' must come before 'unit': the unit runs to the end of the statement");
            const std::string spelling = t.text + std::string(static_cast<std::size_t>(t.primes), '\'');
            if (!text.empty() && t.where.column > end.column)
                text += ' ';
            text += spelling;
            end = {t.where.line, t.where.column + static_cast<int>(spelling.size())};
        }
        return text;
    }

    // Whether the parenthesis at `open` holds a comma at its own depth: s(0, t) rather than x(0).
    bool hasTopLevelComma(std::size_t open) const
    {
        int depth = 0;
        for (std::size_t i = open; i < tokens_.size(); ++i) {
            const TokenKind k = tokens_[i].kind;
            if (k == TokenKind::LeftParen)
                ++depth;
            else if (k == TokenKind::RightParen && --depth == 0)
                return false;
            else if (k == TokenKind::Comma && depth == 1)
                return true;
            else if (k == TokenKind::Separator || k == TokenKind::End)
                return false;
        }
        return false;
    }

    std::vector<ExpressionPtr> argumentList(const std::string& name)
    {
        std::vector<ExpressionPtr> arguments;
        do {
            arguments.push_back(expression());
        } while (accept(TokenKind::Comma));
        expect(TokenKind::RightParen, "')' or ',' after the arguments of " + name + "(...)");
        return arguments;
    }

    Statement fieldStatement()
    {
        next();
        FieldStatement f;
        f.name = declaredName("a field name");
        const Token& on = peek();
        if (!isKeyword(on, "on"))
            fail(on,
                 "expected 'on' after the field name (field " + f.name.name + " on x in [0, 1] nodes 10), found " +
                     describe(on));
        next();
        do {
            FieldAxisSyntax axis;
            axis.variable = plainName("a spatial variable (field " + f.name.name + " on x in [0, 1] nodes 10)");
            if (!isKeyword(peek(), "in"))
                fail(peek(),
                     "expected 'in' and an interval after " + axis.variable.name + ", found " + describe(peek()));
            next();
            expect(TokenKind::LeftBracket, "'[' to open the interval of " + axis.variable.name);
            axis.lower = expression();
            expect(TokenKind::Comma, "',' between the ends of the interval of " + axis.variable.name);
            axis.upper = expression();
            expect(TokenKind::RightBracket, "']' to close the interval of " + axis.variable.name);
            if (!isKeyword(peek(), "nodes"))
                fail(peek(),
                     "expected 'nodes' and the number of interior nodes along " + axis.variable.name + ", found " +
                         describe(peek()));
            next();
            axis.nodes = expression();
            f.axes.push_back(std::move(axis));
        } while (accept(TokenKind::Comma));
        if (isKeyword(peek(), "order")) {
            next();
            f.order = expression();
        }
        return f;
    }

    Statement fieldConditionStatement()
    {
        const Token& nameToken = next();
        if (nameToken.primes != 0)
            fail(nameToken, "a field condition is written s(x, t) = ... or s_x(x, t) = ..., without primes");
        next();  // (
        FieldConditionStatement s;
        s.name = {nameToken.text, nameToken.where};
        s.arguments = argumentList(nameToken.text);
        expect(TokenKind::Equals, "'=' after " + nameToken.text + "(...)");
        s.value = expression();
        return s;
    }

    Statement initialStatement()
    {
        const Token& nameToken = next();
        if (nameToken.primes != 0)
            fail(nameToken, "initial values are written for the coordinate itself: " + nameToken.text + "(0) = ...");
        next();  // (
        const Token& zero = peek();
        if (zero.kind != TokenKind::Number || zero.number != 0.0)
            fail(zero, "expected 0 in " + nameToken.text + "(0) = ...; initial values are given at t = 0");
        next();
        expect(TokenKind::RightParen, "')' after " + nameToken.text + "(0");
        expect(TokenKind::Equals, "'=' after " + nameToken.text + "(0)");
        InitialStatement s{{nameToken.text, nameToken.where}, {}};
        do {
            InitialValue v;
            v.where = peek().where;
            v.value = expression();
            initialBounds(v.lower, v.upper);
            if (isKeyword(peek(), "estimate")) {
                next();
                v.estimate = true;
            } else if (v.lower) {
                fail(peek(),
                     "bounds [LOW, HIGH] after an initial value are those of its estimate: add 'estimate' "
                     "after them, found " +
                         describe(peek()));
            } else if (isKeyword(peek(), "guess")) {
                next();
                v.guess = true;
            }
            s.values.push_back(std::move(v));
        } while (accept(TokenKind::Comma));
        return s;
    }

    static ExpressionPtr make(ExpressionSyntax::Kind kind, SourceLocation where, std::vector<ExpressionPtr> operands)
    {
        auto e = std::make_shared<ExpressionSyntax>();
        e->kind = kind;
        e->where = where;
        e->operands = std::move(operands);
        return e;
    }

    // Parentheses, function calls and powers nest; each level is a few stack frames here and in
    // every later walk of the expression, so the depth is bounded (sums and products of any
    // length are flat and do not nest).
    class Nesting {
    public:
        Nesting(Parser& parser, const Token& at) : parser_(parser)
        {
            if (++parser_.depth_ > kMaxNesting)
                fail(at,
                     "expression nested deeper than " + std::to_string(kMaxNesting) +
                         " levels (parentheses, function calls and powers); split it with let");
        }
        ~Nesting() { --parser_.depth_; }
        Nesting(const Nesting&) = delete;
        Nesting& operator=(const Nesting&) = delete;

    private:
        Parser& parser_;
    };

    // a + b - c + ...: one node with the subtracted terms negated, however long the sum.
    ExpressionPtr expression()
    {
        const Nesting nesting(*this, peek());
        ExpressionPtr first = term();
        if (peek().kind != TokenKind::Plus && peek().kind != TokenKind::Minus)
            return first;
        std::vector<ExpressionPtr> terms{first};
        while (peek().kind == TokenKind::Plus || peek().kind == TokenKind::Minus) {
            const Token& op = next();
            ExpressionPtr t = term();
            terms.push_back(op.kind == TokenKind::Plus ? t : make(ExpressionSyntax::Kind::Negate, op.where, {t}));
        }
        return make(ExpressionSyntax::Kind::Add, first->where, std::move(terms));
    }

    // a * b / c * ...: one node with the divisors as reciprocals.
    ExpressionPtr term()
    {
        ExpressionPtr first = unary();
        if (peek().kind != TokenKind::Star && peek().kind != TokenKind::Slash)
            return first;
        std::vector<ExpressionPtr> factors{first};
        while (peek().kind == TokenKind::Star || peek().kind == TokenKind::Slash) {
            const Token& op = next();
            ExpressionPtr f = unary();
            factors.push_back(op.kind == TokenKind::Star ? f : make(ExpressionSyntax::Kind::Reciprocal, op.where, {f}));
        }
        return make(ExpressionSyntax::Kind::Multiply, first->where, std::move(factors));
    }

    // Signs in a row (- - -x) are counted rather than nested.
    ExpressionPtr unary()
    {
        bool negative = false;
        SourceLocation where;
        while (peek().kind == TokenKind::Minus || peek().kind == TokenKind::Plus) {
            const Token& op = next();
            if (op.kind == TokenKind::Minus) {
                if (!negative)
                    where = op.where;
                negative = !negative;
            }
        }
        ExpressionPtr operand = power();
        return negative ? make(ExpressionSyntax::Kind::Negate, where, {operand}) : operand;
    }

    ExpressionPtr power()
    {
        ExpressionPtr base = primary();
        if (peek().kind == TokenKind::Caret) {
            const Token& op = next();
            const Nesting nesting(*this, op);
            return make(ExpressionSyntax::Kind::Power, op.where, {base, unary()});
        }
        return base;
    }

    ExpressionPtr primary()
    {
        const Token& t = peek();
        if (t.kind == TokenKind::Number) {
            next();
            auto e = std::make_shared<ExpressionSyntax>();
            e->kind = ExpressionSyntax::Kind::Number;
            e->number = t.number;
            e->name = t.text;  // the spelling, so the literal can be turned into an exact rational
            e->where = t.where;
            return e;
        }
        if (t.kind == TokenKind::Identifier) {
            next();
            auto e = std::make_shared<ExpressionSyntax>();
            e->name = t.text;
            e->primes = t.primes;
            e->where = t.where;
            if (peek().kind == TokenKind::LeftParen && t.primes == 0) {
                next();
                e->kind = ExpressionSyntax::Kind::Call;
                if (peek().kind != TokenKind::RightParen) {
                    do {
                        e->operands.push_back(expression());
                    } while (accept(TokenKind::Comma));
                }
                expect(TokenKind::RightParen, "')' or ',' in the arguments of " + t.text + "(...)");
                return e;
            }
            e->kind = ExpressionSyntax::Kind::Name;
            return e;
        }
        if (t.kind == TokenKind::LeftParen) {
            next();
            ExpressionPtr inner = expression();
            expect(TokenKind::RightParen, "')'");
            return inner;
        }
        fail(t, "expected a number, a name or '(' in an expression, found " + describe(t));
    }

    std::vector<Token> tokens_;
    std::vector<std::string_view> lines_;  // of the text, for statements kept as written
    std::size_t pos_ = 0;
    int depth_ = 0;  // of the expression being read (Nesting)
};

}  // namespace

std::string normalizedModelText(std::string_view text)
{
    // A byte-order mark is how some editors on Windows begin a UTF-8 file.
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    // Lines may end in CR LF (Windows) or in CR alone (old Mac editors), as in data files.
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\r') {
            if (i + 1 < text.size() && text[i + 1] == '\n')
                continue;
            out += '\n';
        } else {
            out += text[i];
        }
    }
    return out;
}

ModelSyntax parseModelSyntax(std::string_view text, std::vector<ModelDiagnostic>& errors)
{
    const std::string normalized = normalizedModelText(text);
    std::vector<Token> tokens = tokenize(normalized, errors);
    if (errors.size() > kMaxDiagnostics)
        return {};
    return Parser(std::move(tokens), normalized).parse(errors);
}

}  // namespace sysid::model
