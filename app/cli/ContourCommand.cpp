// sysid contour: the output-error cost over a grid of two parameters, with a fit's iteration
// path on top (seed 003, Figures 4.3-4.6), written as JSON or CSV for redrawing.
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/Interrupt.h"
#include "app/cli/FieldOptions.h"
#include "app/cli/ParameterOverrides.h"
#include "app/cli/Processes.h"

#include "engine/data/CsvReader.h"
#include "engine/data/Text.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/job/CostSurface.h"
#include "engine/project/AtomicFile.h"
#include "engine/project/CostSurfaceJson.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"
#include "engine/project/ResultJson.h"

#include <boost/program_options.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <utility>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

using Strings = std::vector<std::string>;

// NAME=FROM:TO
job::SurfaceAxis parseAxis(const std::string& item, const std::string& option)
{
    const auto [name, range] = splitAssignment(item, option, "NAME=FROM:TO");
    const auto colon = range.find(':');
    if (colon == std::string::npos)
        throw UsageError(option + " expects NAME=FROM:TO, got '" + item + "'");
    job::SurfaceAxis axis;
    axis.parameter = name;
    axis.from = parseNumber(range.substr(0, colon), option + " " + name + " (from)");
    axis.to = parseNumber(range.substr(colon + 1), option + " " + name + " (to)");
    return axis;
}

}  // namespace

int runContour(const Arguments& args)
{
    const NamedOptions named(args);
    po::options_description options(
        "sysid contour PROJECT.sysid|MODEL [--data DATA.csv]... --x NAME=FROM:TO --y NAME=FROM:TO [--grid N]\n"
        "              [--path RESULT.json] [options] -o FILE.json|FILE.csv\n"
        "The output-error cost (1/2 sum of weighted squared residuals, as `sysid fit` minimises it; for ml -ln L\n"
        "with each output's noise variance estimated at the point; with priors plus 1/2 sum ((p - mean)/sd)^2) at\n"
        "every point of an N x N grid over two parameters. The "
        "other parameters keep their starting values, or with\n"
        "--path the fit's final estimates; --set overrides both. With --path the fit's iterates are written\n"
        "too (in FILE.json, or next to FILE.csv as FILE.path.csv)");
    // clang-format off
    NamedOptionsInit(options, named, "input")
        ("help,h", "show this help")
        ("input", po::value<std::string>(), "the .sysid project or the .model file")
        ("data", po::value<Strings>()->composing(), "CSV file of one experiment (repeatable; MODEL form)")
        ("time", po::value<std::string>(), "name of the time column (MODEL form)")
        ("map", po::value<Strings>()->composing(), "NAME=COLUMN: read a model output or input from another column (MODEL form)")
        ("x", po::value<std::string>(), "NAME=FROM:TO: the parameter along x and its range")
        ("y", po::value<std::string>(), "NAME=FROM:TO: the parameter along y and its range")
        ("grid", po::value<long long>(), "grid points per axis (default 41)")
        ("path", po::value<std::string>(), "RESULT.json of `sysid fit`: its iteration path over the surface")
        ("set", po::value<Strings>()->composing(), "NAME=VALUE: value of a parameter held fixed (repeatable)")
        ("method", po::value<std::string>(),
         estimationMethodHelp("the fit's method (default: the project's, else output-error); " +
                              estimate::methodsTaking(estimate::MethodInput::Priors, " and ") +
                              " add the prior terms").c_str())
        ("prior", po::value<Strings>()->composing(),
         ("NAME=MEAN,SD: Gaussian prior of a parameter for " +
          estimate::methodsTaking(estimate::MethodInput::Priors) +
          " (repeatable; overrides the model's `prior`)").c_str())
        ("threads", po::value<long long>(), "worker threads (default: all cores; under mpirun, per process: the node's cores shared among its processes)")
        ("quiet,q", "no progress lines on stderr")
        ("output,o", po::value<std::string>(), "FILE.json or FILE.csv (- for JSON on standard output)");
    // clang-format on
    addCsvFormatOptions(options, named);
    // The contour is the output-error cost whatever the method: its weights and integrator apply.
    const auto fields = core::selectFields(estimate::fitSettingFields(), [](const estimate::FitField& f) {
        return f.names.key == "output_weights" || f.names.key.starts_with("integrator.");
    });
    FieldOptionPolicy<estimate::MethodInput> policy;
    policy.otherOptions = {{"priors", "prior"}};
    addFieldOptions(options, named, nullptr, fields, policy);
    const auto parsed = parseArguments(args, options, "input");
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    const std::string input = inputArgument(vm);
    if (!vm.count("x") || !vm.count("y"))
        throw UsageError("give both axes: --x NAME=FROM:TO --y NAME=FROM:TO");
    if (!vm.count("output"))
        throw UsageError("missing -o FILE.json or FILE.csv (- for standard output)");
    const bool isProject = isProjectFile(input);
    const std::string output = vm["output"].as<std::string>();
    const std::string extension = std::filesystem::path(output).extension().string();
    if (output != "-" && extension != ".json" && extension != ".csv")
        throw UsageError("-o: the file must end in .json or .csv, not '" + output + "'");
    checkOutputPlace(output);
    if (extension == ".csv" && vm.count("path"))  // the path goes beside the surface
        checkOutputPlace(std::filesystem::path(output).replace_extension(".path.csv").string());

    job::CostSurface surface;
    surface.x = parseAxis(vm["x"].as<std::string>(), "--x");
    surface.y = parseAxis(vm["y"].as<std::string>(), "--y");
    surface.x.points = surface.y.points = vm.count("grid") ? countOption(vm, "grid", 0) : 41;
    surface.threads = threadsOption(vm);
    surface.processes = &processes();
    for (const auto& [axis, option] : {std::pair{&surface.x, "--x "}, std::pair{&surface.y, "--y "}}) {
        try {
            axis->validate();
        } catch (const core::SettingError& e) {
            if (e.key() == "points")
                throw UsageError("--grid: " + e.expectation());
            throw UsageError(option + axis->parameter + ": " + e.what());
        }
    }
    if (const std::string problem = surface.gridProblem(); !problem.empty())
        throw UsageError("--grid: " + problem + "; use a smaller grid");
    {
        estimate::FitSettings checked;  // option errors come before anything is read
        applyFieldOptions(vm, fields, checked, policy);
    }

    if (isProject) {
        refuseModelFormOptions(vm, input);
        const project::Project project = project::loadProject(input);
        surface.fit = project::makeFitJob(project);
    } else {
        if (!vm.count("data"))
            throw UsageError("missing --data DATA.csv (a MODEL needs data; or give a PROJECT.sysid)");
        const auto mapping = columnMapping(vm);
        surface.fit.modelText = readModelText(input);
        surface.fit.modelSource = input;
        surface.fit.experiments = dataExperiments(vm, mapping);
    }
    if (const auto method = estimationMethodOption(vm))
        surface.fit.settings.method = *method;
    for (const auto& [name, prior] : priorOptions(vm))
        surface.fit.settings.priors[name] = prior;
    applyFieldOptions(vm, fields, surface.fit.settings, policy);

    std::vector<job::PathPoint> path;
    if (vm.count("path")) {
        const estimate::FitResult result = readFitResult(vm["path"].as<std::string>(), "--path");
        path = job::iterationPath(result, surface.x.parameter, surface.y.parameter);
        for (const auto& p : result.parameters)
            if (p.name.find('#') == std::string::npos && std::isfinite(p.value))
                surface.fit.parameterValues[p.name] = p.value;
    }
    for (const auto& [name, value] : namedValues(vm, "set"))
        surface.fit.parameterValues[name] = value;

    const bool quiet = vm.count("quiet") > 0;
    std::size_t lastPercent = 0;
    const job::CostSurfaceResult result = surface.run(
        [&](std::size_t done, std::size_t total) {
            const std::size_t percent = 100 * done / total;
            if (quiet || (percent < lastPercent + 10 && done < total))
                return;
            lastPercent = percent;
            std::cerr << "contour: " << done << "/" << total << " points\n" << std::flush;
        },
        interruptToken());
    if (!processes().isRoot())
        return Success;  // rank 0 has every row and writes the result
    if (result.failedPoints > 0)
        std::cerr << "contour: the model could not be integrated at " << result.failedPoints
                  << " point(s) (cost left empty), first at " << result.firstFailure << "\n";
    if (!quiet && std::isfinite(result.minimum()))
        std::cerr << "contour: smallest cost on the grid " << data::formatNumber(result.minimum(), 8) << "\n";

    if (extension == ".csv") {
        project::writeFileAtomically(output, project::costSurfaceCsv(result));
        if (vm.count("path")) {
            const auto pathFile = std::filesystem::path(output).replace_extension(".path.csv").string();
            project::writeFileAtomically(pathFile, project::iterationPathCsv(result, path));
            if (!quiet)
                std::cerr << "contour: iteration path written to " << pathFile << "\n";
        }
    } else {
        writeResult(output, project::costSurfaceToJson(result, path).dump(2) + "\n");
    }
    return Success;
}

}  // namespace sysid::cli
