#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"

#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/ModelDescription.h"

#include <boost/program_options.hpp>

#include <iostream>

namespace po = boost::program_options;

namespace sysid::cli {

int runCheck(const Arguments& args)
{
    const NamedOptions named(args);
    po::options_description options("sysid check MODEL [--equations]");
    // clang-format off
    NamedOptionsInit(options, named, "model")
        ("help,h", "show this help")
        ("equations", "also print the derived equations (Lagrange's equations, the descriptor system, index and hidden constraints of a model with constraints, first-order form, outputs)")
        ("model", po::value<std::string>(), "the .model file");
    // clang-format on
    const auto parsed = parseArguments(args, options, "model");
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    if (!vm.count("model"))
        throw UsageError("give a model file: sysid check MODEL");
    const model::Model m = model::loadModel(vm["model"].as<std::string>());
    // Builds the evaluators too: the proof that the model can be evaluated, not only parsed
    // (a very large PDE model can exceed what muParser compiles).
    eval::CompiledModel evaluator(eval::compileModel(m, {.secondDerivatives = false}));
    std::cout << model::describeModel(m);
    if (vm.count("equations"))
        std::cout << model::describeEquations(m);
    return Success;
}

}  // namespace sysid::cli
