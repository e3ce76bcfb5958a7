#include "engine/estimate/OptimalEstimationGuess.h"

#include "engine/data/Text.h"
#include "engine/estimate/OptimalEstimationError.h"
#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/integrate/InputSignals.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/ModelError.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

namespace sysid::estimate {

namespace {

bool isPlainName(const std::string& name)
{
    if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
        return false;
    for (const char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return false;
    return true;
}

std::string exactText(double v)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

// A name of the form `base`, `base_2`, ... that none of `taken` is.
std::string freshName(const std::string& base, const std::set<std::string>& taken)
{
    std::string name = base;
    for (int k = 2; taken.count(name); ++k)
        name = base + "_" + std::to_string(k);
    return name;
}

}  // namespace

std::map<std::string, std::vector<double>> evaluateGuessExpressions(
    const std::map<std::string, std::string>& expressions, const model::Model& model, const Experiment& experiment)
{
    std::map<std::string, std::vector<double>> values;
    if (expressions.empty())
        return values;

    // The expressions become the outputs of a small model whose inputs are the measured signals
    // and whose parameters are the model's, so that they are read, checked and evaluated exactly
    // as a model's outputs are.
    std::set<std::string> taken;
    std::string text;
    int line = 0;
    std::vector<std::string> known{"t"};
    for (const auto& p : model.parameters) {
        if (p.isInitialValue || !isPlainName(p.name))
            continue;
        const auto fixed = experiment.fixedValues.find(p.name);
        text += "param " + p.name + " = " + exactText(fixed == experiment.fixedValues.end() ? p.value : fixed->second) +
            "\n";
        ++line;
        taken.insert(p.name);
        known.push_back(p.name);
    }
    std::vector<data::Signal> signals;
    for (std::size_t j = 0; j < model.outputs.size(); ++j) {
        const std::string& name = model.outputs[j].name;
        if (j >= experiment.outputMeasured.size() || !experiment.outputMeasured[j] || !isPlainName(name) ||
            taken.count(name))
            continue;
        const auto column = experiment.measured.col(static_cast<Eigen::Index>(j));
        signals.emplace_back(experiment.times, std::vector<double>(column.data(), column.data() + column.size()));
        text += "input " + name + "\n";
        ++line;
        taken.insert(name);
        known.push_back(name);
    }
    for (std::size_t r = 0; r < model.inputs.size() && r < experiment.inputs.size(); ++r) {
        const std::string& name = model.inputs[r].name;
        if (taken.count(name))
            continue;
        signals.push_back(experiment.inputs.signal(r));
        text += "input " + name + "\n";
        ++line;
        taken.insert(name);
        known.push_back(name);
    }
    const std::string state = freshName("guess_state", taken);
    taken.insert(state);
    text += "state " + state + " = 0\n" + state + "' = 0\n";
    line += 2;
    std::map<int, std::pair<std::string, std::size_t>> lineOf;  // line -> (guessed state, prefix length)
    for (const auto& [name, expression] : expressions) {
        if (expression.find_first_of("\n\r;") != std::string::npos)
            throw OptimalEstimationError("the initial guess of " + name + " is not one expression: \"" + expression +
                                         "\" holds a line break or ';'");
        const std::string output = freshName("guess", taken);
        taken.insert(output);
        const std::string prefix = "output " + output + " = ";
        text += prefix + expression + "\n";
        lineOf[++line] = {name, prefix.size()};
    }

    const std::string may =
        " (an initial guess may use t, the measured signals and the parameters: " + data::nameList(known, "") + ")";
    std::shared_ptr<const eval::CompiledModelSource> source;
    try {
        const model::Model guesses = model::parseModel(text, "initial guess");
        source = eval::compileModel(guesses, {.secondDerivatives = false});
    } catch (const model::ModelError& e) {
        for (const auto& d : e.diagnostics())
            if (const auto it = lineOf.find(d.where.line); it != lineOf.end()) {
                const int column = d.where.column - static_cast<int>(it->second.second);
                throw OptimalEstimationError(
                    "the initial guess of " + it->second.first + " (\"" + expressions.at(it->second.first) + "\")" +
                    (column > 0 ? ", column " + std::to_string(column) : std::string()) + ": " + d.message + may);
            }
        throw OptimalEstimationError(std::string("an initial guess cannot be read: ") + e.what());
    } catch (const std::exception& e) {
        throw OptimalEstimationError(std::string("an initial guess cannot be evaluated: ") + e.what());
    }

    eval::CompiledModel compiled(source);
    const integrate::InputSignals inputs(std::move(signals));
    std::vector<double> u(inputs.size()), y(compiled.outputCount());
    const double x = 0.0;
    for (const auto& [name, expression] : expressions)
        values[name].reserve(experiment.times.size());
    for (const double t : experiment.times) {
        inputs.values(t, u.data());
        compiled.setPoint(t, &x, u.data());
        compiled.outputs(y.data());
        std::size_t k = 0;
        for (const auto& [name, expression] : expressions) {
            if (!std::isfinite(y[k]))
                throw OptimalEstimationError("the initial guess of " + name + " (\"" + expression +
                                             "\") is not a finite number at t = " + data::formatNumber(t, 6));
            values[name].push_back(y[k++]);
        }
    }
    return values;
}

}  // namespace sysid::estimate
