#include "app/cli/CommonOptions.h"

#include <iostream>

namespace po = boost::program_options;

namespace sysid::cli {

std::optional<po::variables_map> parseArguments(const Arguments& args, const po::options_description& options,
                                                const char* positional)
{
    po::positional_options_description positions;
    positions.add(positional, 1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(options).positional(positions).run(), vm);
    if (vm.count("help")) {
        std::cout << options;
        return std::nullopt;
    }
    return vm;
}

void addIntegratorOptions(po::options_description& options)
{
    options.add_options()
        ("method", po::value<std::string>()->default_value("dopri5"), "integrator: dopri5 | rosenbrock4 | rk4 | euler")
        ("rtol", po::value<double>()->default_value(1e-8), "relative tolerance (adaptive methods)")
        ("atol", po::value<double>()->default_value(1e-10), "absolute tolerance (adaptive methods)")
        ("max-step", po::value<double>()->default_value(0.0),
         "largest step (adaptive) or the step (rk4, euler); 0 = no limit / one step per sample")
        ("max-steps", po::value<std::size_t>()->default_value(1000000), "give up after this many steps");
}

integrate::IntegratorSettings integratorSettings(const po::variables_map& vm)
{
    integrate::IntegratorSettings settings;
    const auto method = integrate::parseIntegrationMethod(vm["method"].as<std::string>());
    if (!method)
        throw UsageError("--method must be dopri5, rosenbrock4, rk4 or euler, not '" + vm["method"].as<std::string>() + "'");
    settings.method = *method;
    settings.relativeTolerance = vm["rtol"].as<double>();
    settings.absoluteTolerance = vm["atol"].as<double>();
    settings.maxStep = vm["max-step"].as<double>();
    settings.maxSteps = vm["max-steps"].as<std::size_t>();
    if (!(settings.relativeTolerance > 0) || !(settings.absoluteTolerance > 0) || !(settings.maxStep >= 0))
        throw UsageError("--rtol and --atol must be positive and --max-step not negative");
    return settings;
}

}  // namespace sysid::cli
