#include "engine/model/BondGraphParser.h"

#include <optional>

namespace sysid::model {

namespace {

std::optional<BondNodeKind> kindOf(const Token& t)
{
    if (t.kind == TokenKind::Number && (t.text == "0" || t.text == "1"))
        return bondNodeTable.parse(t.text);
    if (t.kind != TokenKind::Identifier || t.primes != 0 || t.text == "0" || t.text == "1")
        return std::nullopt;
    return bondNodeTable.parse(t.text);
}

class StatementParser {
public:
    explicit StatementParser(TokenReader& in) : in_(in) {}

    BondGraphStatement parse()
    {
        const Token& keyword = in_.nextToken();
        BondGraphStatement s;
        s.kind = *kindOf(keyword);
        s.keyword = keyword.where;
        title_ = std::string(bondNodeTable.name(s.kind)) + (isJunction(s.kind) ? "-junction" : "");
        s.name = name("the name of the " + std::string(bondNodeTable.label(s.kind)) + " after '" + title_ + "'");
        if (isJunction(s.kind)) {
            expect(TokenKind::Colon, "':' and the elements it joins (" + title_ + " " + s.name.text + " : a, b, c)");
            do
                s.members.push_back(name("an element or junction joined by " + title_ + " " + s.name.text));
            while (accept(TokenKind::Comma));
            return s;
        }
        if (isTwoPort(s.kind)) {
            const std::string form = "(" + title_ + " " + s.name.text + " = MODULUS : FROM -> TO)";
            expect(TokenKind::Equals, "'=' and the modulus " + form);
            s.value = in_.readExpression();
            expect(TokenKind::Colon, "':' and the bonds of its two ports " + form);
            s.from = name("the junction or element at the input port " + form);
            expect(TokenKind::Minus, "'->' between the two ports " + form);
            expect(TokenKind::Greater, "'->' between the two ports " + form);
            s.to = name("the junction or element at the output port " + form);
            return s;
        }
        if (isSource(s.kind)) {
            const std::string what = s.kind == BondNodeKind::EffortSource ? "effort" : "flow";
            expect(TokenKind::Equals,
                   "'=' and the " + what + " it imposes (" + title_ + " " + s.name.text + " = EXPR)");
            s.value = in_.readExpression();
            return s;
        }
        const Token& next = in_.peekToken();
        if (next.kind == TokenKind::Equals) {
            in_.nextToken();
            s.value = in_.readExpression();
            return s;
        }
        if (next.kind != TokenKind::Colon)
            in_.failAt(next, "expected '= " + linearWord(s.kind) + "' or ': " + lawExample(s.kind) + "' after " +
                                 title_ + " " + s.name.text + ", found " + describe(next));
        in_.nextToken();
        const Token& subject = in_.peekToken();
        if (subject.kind != TokenKind::Identifier || subject.primes != 0 ||
            (subject.text != "e" && subject.text != "f"))
            in_.failAt(subject, "expected the constitutive law " + lawExample(s.kind) + " after ':', found " +
                                    describe(subject));
        in_.nextToken();
        s.law = BondLawSyntax{{subject.text, subject.where}, nullptr};
        expect(TokenKind::Equals, "'=' after " + subject.text + " in the law " + lawExample(s.kind));
        s.law->value = in_.readExpression();
        return s;
    }

private:
    static std::string linearWord(BondNodeKind k)
    {
        return k == BondNodeKind::Capacitor ? "COMPLIANCE" : k == BondNodeKind::Inertia ? "INERTANCE" : "RESISTANCE";
    }

    static std::string lawExample(BondNodeKind k)
    {
        return k == BondNodeKind::Capacitor ? "e = ...(q)" : k == BondNodeKind::Inertia ? "f = ...(p)" : "e = ...(f)";
    }

    BondName name(const std::string& what)
    {
        const Token& t = in_.peekToken();
        if (t.kind != TokenKind::Identifier)
            in_.failAt(t, "expected " + what + ", found " + describe(t));
        if (t.primes != 0)
            in_.failAt(t, "expected " + what + " without primes, found " + describe(t));
        if (t.text.find('.') != std::string::npos)
            in_.failAt(t, "'" + t.text + "' names a variable of an element; " + what + " is a plain name");
        in_.nextToken();
        return {t.text, t.where};
    }

    void expect(TokenKind kind, const std::string& what)
    {
        const Token& t = in_.peekToken();
        if (t.kind != kind)
            in_.failAt(t, "expected " + what + ", found " + describe(t));
        in_.nextToken();
    }

    bool accept(TokenKind kind)
    {
        if (in_.peekToken().kind != kind)
            return false;
        in_.nextToken();
        return true;
    }

    TokenReader& in_;
    std::string title_;  // "C", "1-junction": the keyword as messages show it
};

}  // namespace

bool startsBondGraphStatement(const Token& first, const Token& second)
{
    return kindOf(first).has_value() && second.kind == TokenKind::Identifier;
}

BondGraphStatement parseBondGraphStatement(TokenReader& in)
{
    return StatementParser(in).parse();
}

}  // namespace sysid::model
