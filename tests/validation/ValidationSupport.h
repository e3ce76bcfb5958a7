#pragma once
// Shared helpers of the validation suites (seed cases with known answers): loading the
// example models, simulating "measured" records with seed 004's noise model, looking up
// estimates by name and printing result tables into the ctest log.

#include "../engine/EstimateTestSupport.h"

#include "engine/data/CsvReader.h"
#include "engine/data/Noise.h"
#include "engine/estimate/Fit.h"
#include "engine/eval/CompiledModel.h"
#include "engine/integrate/Simulator.h"
#include "engine/model/ModelBuilder.h"

#include <QString>
#include <QtGlobal>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace sysid::validation {

inline std::string examplePath(const std::string& file)
{
    return std::string(SYSID_SOURCE_DIR) + "/resources/examples/" + file;
}

inline std::string readText(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot read " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Replaces the first occurrence of `from` (which must occur) in `text`.
inline std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    if (at == std::string::npos)
        throw std::invalid_argument("'" + from + "' does not occur in the model text");
    return text.replace(at, from.size(), to);
}

inline std::shared_ptr<const eval::CompiledModelSource> compiledText(const std::string& text, const std::string& name)
{
    return eval::compileModel(model::parseModel(text, name));
}

inline std::shared_ptr<const eval::CompiledModelSource> compiledExample(const std::string& file)
{
    return eval::compileModel(model::loadModel(examplePath(file)));
}

inline std::size_t parameterIndex(const eval::CompiledModelSource& source, const std::string& name)
{
    for (std::size_t i = 0; i < source.parameterNames.size(); ++i)
        if (source.parameterNames[i] == name)
            return i;
    throw std::invalid_argument("the model has no parameter " + name);
}

// The model's parameter values with some of them replaced by name.
inline std::vector<double> valuesWith(const eval::CompiledModelSource& source,
                                      const std::vector<std::pair<std::string, double>>& changes)
{
    std::vector<double> values = source.parameterValues;
    for (const auto& [name, value] : changes)
        values[parameterIndex(source, name)] = value;
    return values;
}

// Data and reference integrations are far tighter than the fits' tolerances.
inline integrate::IntegratorSettings referenceIntegrator()
{
    integrate::IntegratorSettings s;
    s.relativeTolerance = 1e-11;
    s.absoluteTolerance = 1e-13;
    return s;
}

inline integrate::IntegratorSettings fitIntegrator()
{
    integrate::IntegratorSettings s;
    s.relativeTolerance = 1e-10;
    s.absoluteTolerance = 1e-12;
    return s;
}

// A record simulated with parameters `truth` and sampled at `times`; every output gets
// independent noise of `percent` % of its RMS (seed 004: uniform in [-p %, +p %] of the RMS).
inline estimate::Experiment simulatedRecord(const std::shared_ptr<const eval::CompiledModelSource>& source,
                                            const std::vector<double>& truth, const std::vector<double>& times,
                                            double percent, std::uint64_t seed, data::NoiseDistribution distribution,
                                            const integrate::InputSignals* inputs = nullptr)
{
    return test::simulatedExperiment(source, truth, times, percent, seed, distribution, inputs);
}

// estimate::fit, with an exception turned into a result that is not converged and says why,
// so one failing case fails its row instead of aborting the whole suite.
inline estimate::FitResult fitOrReport(std::shared_ptr<const eval::CompiledModelSource> model,
                                       const std::vector<double>& initialValues,
                                       const std::vector<estimate::Experiment>& experiments,
                                       const estimate::FitSettings& settings)
{
    try {
        return estimate::fit(std::move(model), initialValues, experiments, settings);
    } catch (const std::exception& e) {
        estimate::FitResult failed;
        failed.termination.message = std::string("the fit threw: ") + e.what();
        return failed;
    }
}

// Seed 004's record: 5 s, 335 samples (t = 0, 5/334, ..., 5).
inline std::vector<double> seed004Times()
{
    return integrate::uniformGrid(0.0, 5.0, 5.0 / 334.0);
}

inline const estimate::ParameterEstimate& estimateOf(const estimate::FitResult& r, const std::string& name)
{
    for (const auto& p : r.parameters)
        if (p.name == name)
            return p;
    throw std::invalid_argument("the fit has no estimate " + name);
}

inline double relativeError(double value, double truth)
{
    return std::abs(value - truth) / std::abs(truth);
}

inline QString fixed(double value, int decimals)
{
    return QString::number(value, 'f', decimals);
}

// FNV-1a hash of a case label: a noise seed of its own per case that does not depend on
// which test rows run.
inline std::uint64_t seedFor(const QString& label)
{
    std::uint64_t h = 14695981039346656037ull;
    for (const char c : label.toStdString()) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    return h;
}

inline QString errorText(double value, double truth)
{
    const double percent = 100.0 * (value - truth) / std::abs(truth);
    return std::abs(percent) < 0.01 ? QString::number(percent, 'e', 1) : QString::number(percent, 'f', 2);
}

// One line per case: "label | name estimate +- sd (error %, z sd) | ...", z = (estimate - truth)/sd;
// z is left out for noise-free data (where sd ~ 0 says nothing).
inline QString resultLine(const QString& label, const estimate::FitResult& r,
                          const std::vector<std::pair<std::string, double>>& truths, bool noisy, int labelWidth = 28)
{
    QString line = label.leftJustified(labelWidth);
    for (const auto& [name, truth] : truths) {
        const auto& p = estimateOf(r, name);
        line += QStringLiteral(" | %1 %2 +- %3 (%4 %")
                    .arg(QString::fromStdString(name))
                    .arg(QString::number(p.value, 'g', 6), 8)
                    .arg(QString::number(p.sd, 'g', 2), 7)
                    .arg(errorText(p.value, truth), 7);
        if (noisy)
            line += QStringLiteral(", %1 sd)").arg(QString::number((p.value - truth) / p.sd, 'f', 2), 5);
        else
            line += QStringLiteral(")");
    }
    line += QStringLiteral(" | %1 it").arg(r.iterations);
    return line;
}

}  // namespace sysid::validation
