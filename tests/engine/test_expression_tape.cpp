// The model evaluator (ExpressionTape) against muParser, the independent interpreter of the
// same syntax: hand-written expressions over every operation, and every program of every
// example model as MuParserPrinter writes it.
#include "engine/eval/CompiledModelSource.h"
#include "engine/eval/ExpressionTape.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/SymbolicLock.h"

#include <QtTest>

#include <muParser.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace sysid;

namespace {

// Evaluates `expressions` with the tape and with muParser at `points` random variable values in
// [lo, hi] (with a random sign each when `eitherSign`); returns the largest difference relative to
// max(1, |muParser value|).
double largestDifference(const std::vector<std::string>& expressions, std::size_t variableCount, int points, double lo,
                         double hi, unsigned seed = 1, bool eitherSign = false, std::size_t* skipped = nullptr)
{
    if (expressions.empty())
        return 0.0;
    std::vector<double> values(variableCount, 0.0);
    std::vector<eval::ExpressionTape::Variable> bound;
    for (std::size_t i = 0; i < variableCount; ++i)
        bound.push_back({"v" + std::to_string(i), &values[i]});
    // muParser takes at most 20000 characters per call: one parser per chunk of expressions, in
    // order. A single longer expression (the accelerations of a mechanism written in one angle) has
    // no muParser reference and is left out of the comparison (counted in *skipped).
    std::vector<std::unique_ptr<mu::Parser>> parsers;
    std::vector<std::vector<std::size_t>> chunks;
    std::string joined;
    std::vector<std::size_t> members;
    const auto flush = [&] {
        if (joined.empty())
            return;
        auto parser = std::make_unique<mu::Parser>();
        for (std::size_t i = 0; i < variableCount; ++i)
            parser->DefineVar("v" + std::to_string(i), &values[i]);
        parser->SetExpr(joined);
        parsers.push_back(std::move(parser));
        chunks.push_back(members);
        joined.clear();
        members.clear();
    };
    for (std::size_t i = 0; i < expressions.size(); ++i) {
        const std::string& e = expressions[i];
        if (e.size() > 19000) {
            if (skipped)
                ++*skipped;
            continue;
        }
        if (!joined.empty() && joined.size() + e.size() > 15000)
            flush();
        joined += (joined.empty() ? "" : ",") + e;
        members.push_back(i);
    }
    flush();
    const eval::ExpressionTape tape(expressions, bound);
    std::vector<double> out(expressions.size());
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> draw(lo, hi);
    double worst = 0.0;
    for (int k = 0; k < points; ++k) {
        for (auto& v : values)
            v = eitherSign && random() % 2 ? -draw(random) : draw(random);
        tape.evaluate(out.data());
        std::vector<double> reference(out.size(), NAN);
        std::vector<char> compared(out.size(), 0);
        for (std::size_t c = 0; c < parsers.size(); ++c) {
            int n = 0;
            const double* part = parsers[c]->Eval(n);
            for (std::size_t j = 0; j < chunks[c].size(); ++j) {
                reference[chunks[c][j]] = part[j];
                compared[chunks[c][j]] = 1;
            }
        }
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (!compared[i])
                continue;
            if (std::isnan(reference[i]) && std::isnan(out[i]))
                continue;
            const double d = std::abs(out[i] - reference[i]) / std::max(1.0, std::abs(reference[i]));
            worst = std::max(worst, std::isfinite(d) ? d : 1e300);
        }
    }
    return worst;
}

}  // namespace

class TestExpressionTape : public QObject {
    Q_OBJECT
private slots:
    void everyOperationAgreesWithMuParser()
    {
        const std::vector<std::string> expressions{
            "v0 + v1*v2 - v0/v1",
            "(-2)*v0 + (-v1)",
            "((v0)^(2)) + ((v1)^(3)) - ((v2)^(5))",
            "(1/(v0)^4) + (1/v1)",
            "sqrt(abs(v0)) + (1/sqrt(abs(v1) + 1))",
            "((abs(v0) + 1)^(1.7)) + ((abs(v1) + 0.5)^(v2))",
            "sin(v0) + cos(v1) + tan(0.3*v2)",
            "asin(0.4*sign(v0)) + acos(0.2*v1/(abs(v1) + 1)) + atan(v2) + atan2(v0, v1)",
            "sinh(v0) + cosh(v1) + tanh(v2) + exp(0.5*v0) + ln(abs(v1) + 1)",
            "sign(v0) + sign(v1 - v1) + min(v0, v1) + max(v0, v1, v2) + min(v2, 1, v0)",
            "v0*v1*v2*(v0 + v1)*(v0 + v1)",
            "2.5e-3*v0 + 1e+05 + 0.125",
        };
        const double d = largestDifference(expressions, 3, 200, -2.0, 2.0);
        QVERIFY2(d < 1e-14, qPrintable(QString::number(d)));
    }

    // Every program of every example model, as compiled: f, its derivatives, outputs, x0.
    void exampleModelsAgreeWithMuParser()
    {
        std::size_t models = 0, programs = 0, skipped = 0;
        std::set<std::string> tooLong;  // models with expressions muParser cannot take
        for (const auto& entry :
             std::filesystem::directory_iterator(std::string(SYSID_SOURCE_DIR) + "/resources/examples")) {
            if (entry.path().extension() != ".model")
                continue;
            std::shared_ptr<const eval::CompiledModelSource> s;
            {
                std::lock_guard lock(model::symbolicMutex());
                s = eval::compileModel(model::loadModel(entry.path().string()));
            }
            const std::size_t variables = 1 + s->stateCount() + s->parameterCount() + s->inputCount();
            // The points drawn for a model depend on its name only, so adding an example leaves the
            // others' points alone. They stay 0.5 or more away from zero: a parameter near zero in a
            // denominator (the EMPS model's tanh(q'/v0), differentiated twice) makes terms of 1e4 and
            // more that cancel, and the two evaluators' different rounding of them reached 1e-9.
            unsigned seed = 2166136261u;  // FNV-1a of the file name
            for (const char c : entry.path().filename().string())
                seed = (seed ^ static_cast<unsigned char>(c)) * 16777619u;
            for (const auto* list : {&s->rhs, &s->rhsStateJacobian.expressions, &s->rhsParamJacobian.expressions,
                                     &s->rhsTimeInputJacobian.expressions, &s->rhsStateHessian.expressions,
                                     &s->rhsMixedHessian.expressions, &s->rhsParamHessian.expressions, &s->outputs,
                                     &s->initialState, &s->initialStateJacobian.expressions}) {
                // Integer powers are products on the tape and pow() in muParser: a few ulps apart.
                double d = 0.0;
                try {
                    const std::size_t before = skipped;
                    d = largestDifference(*list, variables, 20, 0.5, 1.5, seed++, true, &skipped);
                    if (skipped > before)
                        tooLong.insert(entry.path().filename().string());
                } catch (const mu::ParserError& e) {
                    QFAIL(qPrintable(QString("%1: muParser: %2")
                                         .arg(QString::fromStdString(entry.path().filename().string()),
                                              QString::fromStdString(e.GetMsg()))));
                }
                // The reduced slider-crank's expanded accelerations cancel large terms, so the two
                // evaluators' roundings differ by up to 2.2e-12 there, with GiNaC's term order.
                QVERIFY2(
                    d < 1e-11,
                    qPrintable(QString("%1: %2").arg(QString::fromStdString(entry.path().filename().string())).arg(d)));
                ++programs;
            }
            ++models;
        }
        QVERIFY(models >= 15);
        qInfo("%zu example models, %zu programs agree with muParser (%zu expressions beyond its 20000 characters "
              "not compared)",
              models, programs, skipped);
        // Only the slider-crank in its crank angle (the accelerations of a closed loop in one angle,
        // square roots expanded) has them; every other model is compared whole.
        QVERIFY(tooLong.size() <= 1);
        QVERIFY(tooLong.empty() || *tooLong.begin() == "slider_crank_reduced.model");
    }

    void sharedSubexpressionsAreComputedOnce()
    {
        double x = 0.7, y = -0.2;
        const std::vector<eval::ExpressionTape::Variable> bound{{"v0", &x}, {"v1", &y}};
        // sin, product, sum: the second sin(v0) and the copy in the second expression are shared.
        const eval::ExpressionTape tape({"sin(v0)*sin(v0) + sin(v0)", "sin(v0)"}, bound);
        QCOMPARE(tape.instructionCount(), std::size_t(3));
        double out[2];
        tape.evaluate(out);
        QCOMPARE(out[1], std::sin(0.7));
        QVERIFY(std::abs(out[0] - (std::sin(0.7) * std::sin(0.7) + std::sin(0.7))) < 1e-16);
        // Constants fold; x^4 is two squarings; the variables are read at every evaluation.
        const eval::ExpressionTape folded({"(2*3 + 1)*((v1)^(4))"}, bound);
        QCOMPARE(folded.instructionCount(), std::size_t(3));  // square, square, times 7
        y = 2.0;
        folded.evaluate(out);
        QCOMPARE(out[0], 112.0);
        // The printer's products with -1 become negations, and sums with them differences.
        const eval::ExpressionTape signs({"((-1)*v0) + v1 + ((-1)*v1*v0)"}, bound);
        QCOMPARE(signs.instructionCount(), std::size_t(3));  // v1 - v0, v1*v0, subtract
        signs.evaluate(out);
        QCOMPARE(out[0], -0.7 + 2.0 - 2.0 * 0.7);
    }

    void malformedTextNamesThePlace()
    {
        double x = 1.0;
        const std::vector<eval::ExpressionTape::Variable> bound{{"v0", &x}};
        for (const auto& [text, part] :
             std::vector<std::pair<std::string, std::string>>{{"v0 +", "unexpected end"},
                                                              {"foo(v0)", "unknown function 'foo'"},
                                                              {"v0 + v7", "unknown variable 'v7'"},
                                                              {"min(v0)", "min called with 1 arguments"},
                                                              {"(v0 + 1", "missing ')'"},
                                                              {"v0 $ 2", "unexpected '$'"}}) {
            try {
                eval::ExpressionTape tape({text}, bound);
                QFAIL(("accepted: " + text).c_str());
            } catch (const std::invalid_argument& e) {
                const std::string message = e.what();
                QVERIFY2(message.find(part) != std::string::npos && message.find("position") != std::string::npos,
                         message.c_str());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestExpressionTape)
#include "test_expression_tape.moc"
