#include "app/cli/PreprocessingOptions.h"

#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/ParameterOverrides.h"

#include "engine/core/SettingError.h"

#include <utility>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

// "A:B" as two numbers (the parts of `form` named in the usage error).
std::pair<double, double> numberPair(const std::string& text, const std::string& option, const char* form)
{
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        throw UsageError(option + " takes " + form + ", got '" + text + "'");
    return {parseNumber(text.substr(0, colon), option), parseNumber(text.substr(colon + 1), option)};
}

}  // namespace

void addPreprocessingOptions(po::options_description& options, const NamedOptions& named)
{
    static const std::string ends = "how the low-pass treats the record's ends: " + data::kFilterEnds.choices() +
        " (default " + std::string(data::kFilterEnds.name(data::FilterEnds::LeastSquares)) + "). " +
        data::kFilterEnds.help();
    // clang-format off
    NamedOptionsInit(options, named)
        ("low-pass", po::value<std::string>(), "HZ[:ORDER]: a zero-phase Butterworth low-pass on every data column "
                                               "before the fit (order 1 to 10, default 4)")
        ("filter-ends", po::value<std::string>(), ends.c_str())
        ("window", po::value<std::string>(), "START:END: fit only the samples with START <= t <= END")
        ("window-after-filter", "cut the window from the filtered record (the whole record is filtered, so a window "
                                "that starts later leaves the filter's start transient out)");
    // clang-format on
}

data::Preprocessing::LowPass parseLowPass(const std::string& text, const std::string& option)
{
    data::Preprocessing::LowPass lowPass;
    const auto colon = text.find(':');
    lowPass.cutoffHz = parseNumber(text.substr(0, colon), option);
    if (colon != std::string::npos) {
        const double order = parseNumber(text.substr(colon + 1), option + " order");
        if (order != static_cast<int>(order))
            throw UsageError(option + " order must be a whole number from 1 to 10, got '" + text.substr(colon + 1) +
                             "'");
        lowPass.order = static_cast<int>(order);
    }
    return lowPass;
}

void applyPreprocessingOptions(const po::variables_map& vm, data::Preprocessing& p)
{
    if (vm.count("low-pass")) {
        const data::FilterEnds ends = p.lowPass ? p.lowPass->ends : data::FilterEnds::LeastSquares;
        p.lowPass = parseLowPass(vm["low-pass"].as<std::string>(), "--low-pass");
        p.lowPass->ends = ends;
    }
    if (vm.count("filter-ends")) {
        const std::string text = vm["filter-ends"].as<std::string>();
        const auto ends = data::kFilterEnds.parse(text);
        if (!ends)
            throw UsageError(data::kFilterEnds.mustBe("--filter-ends", text));
        if (!p.lowPass)
            throw UsageError("--filter-ends applies to a low-pass: give --low-pass HZ too");
        p.lowPass->ends = *ends;
    }
    if (vm.count("window")) {
        const auto [start, end] = numberPair(vm["window"].as<std::string>(), "--window", "START:END");
        p.window = std::make_pair(start, end);
    }
    if (vm.count("window-after-filter")) {
        if (!p.window)
            throw UsageError("--window-after-filter cuts a time window: give --window START:END too");
        p.windowAfterFilter = true;
    }
    try {
        p.validate();
    } catch (const core::SettingError& e) {
        const std::string key = e.key();
        const std::string option = key == "window" ? "--window" : key.rfind("low_pass", 0) == 0 ? "--low-pass" : "";
        throw UsageError(option.empty() ? std::string(e.what()) : option + ": " + e.expectation());
    }
}

}  // namespace sysid::cli
