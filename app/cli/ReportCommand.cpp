// sysid report: a project's fit as a report folder (report.html, parameters.json and .csv), the
// same HTML the graphical program writes, with the figures it can draw without a screen.
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/Interrupt.h"
#include "app/cli/StderrProgress.h"

#include "engine/project/AtomicFile.h"
#include "engine/project/HtmlReport.h"
#include "engine/project/ParameterCsv.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"
#include "engine/project/ReportFigures.h"
#include "engine/project/ResultJson.h"

#include <boost/program_options.hpp>

#include <filesystem>
#include <iostream>
#include <system_error>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace sysid::cli {

namespace {

// Refuses a folder that holds anything unless `force`: the message lists the files the report
// would replace, so nothing is overwritten unasked.
void checkFolder(const fs::path& folder, const std::vector<std::string>& files, bool force)
{
    std::error_code ec;
    if (fs::exists(folder, ec) && !fs::is_directory(folder, ec))
        throw UserError(folder.string() + ": exists and is not a folder");
    if (force || !fs::exists(folder, ec) || fs::is_empty(folder, ec))
        return;
    std::string replaced;
    for (const auto& file : files)
        if (fs::exists(folder / file, ec))
            replaced += (replaced.empty() ? "" : ", ") + file;
    throw UserError(folder.string() + ": the folder is not empty" +
                    (replaced.empty() ? std::string(" (the report would be written among its files)")
                                      : " (the report would replace " + replaced + ")") +
                    "; give --force to write it there anyway, or name a new folder");
}

}  // namespace

int runReport(const Arguments& args)
{
    const NamedOptions named(args);
    po::options_description options(
        "sysid report PROJECT.sysid -o FOLDER [--force] [--fit] [--quiet]\n"
        "Writes FOLDER/report.html (model, data sets, preprocessing, estimator settings, estimates with\n"
        "standard deviations and correlation, why the fit stopped, residual RMS, the cost and parameter\n"
        "history as SVG figures), parameters.json and parameters.csv. The fit reported is the project's\n"
        "last result (as the graphical program saves it); without one, or with --fit, it is run first");
    // clang-format off
    NamedOptionsInit(options, named, "input")
        ("help,h", "show this help")
        ("input", po::value<std::string>(), "the .sysid project")
        ("output,o", po::value<std::string>(), "FOLDER: created if needed; a folder that is not empty is refused "
                                                "unless --force")
        ("force", "write into a folder that is not empty, replacing the report's files there")
        ("fit", "run the fit with the project's settings even when the project holds a result")
        ("quiet,q", "no progress lines on stderr while fitting");
    // clang-format on
    const auto parsed = parseArguments(args, options, "input");
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    const std::string input = inputArgument(vm, "missing the PROJECT.sysid file");
    if (!isProjectFile(input))
        throw UsageError("sysid report takes a project (.sysid), got '" + input + "'");
    if (!vm.count("output"))
        throw UsageError("missing -o FOLDER");
    const fs::path folder = vm["output"].as<std::string>();

    std::vector<std::string> files{"report.html", "parameters.json", "parameters.csv"};
    for (const auto& figure : project::historyFigureFiles())
        files.push_back(figure);
    checkFolder(folder, files, vm.count("force") > 0);

    const project::Project project = project::loadProject(input);
    estimate::FitResult result;
    if (project.lastResult && !vm.count("fit")) {
        try {
            result = project::resultFromJson(*project.lastResult);
        } catch (const std::exception& e) {
            throw UserError(input + ": last_result: " + e.what() + " (give --fit to run the fit again)");
        }
        result.settings = project.settings;  // a stored result keeps no settings: they are the project's
    } else {
        StderrProgress progress(vm.count("quiet") > 0);
        result = project::makeFitJob(project).run(progress, interruptToken());
    }

    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec)
        throw UserError(folder.string() + ": cannot create the folder: " + ec.message());
    const std::vector<project::ReportFigure> figures = project::writeHistoryFigures(result, folder.string());
    project::ReportHeading heading;
    heading.projectFile = fs::path(input).filename().string();
    heading.version = SYSID_VERSION;
    heading.date = project::reportDate();
    project::writeFileAtomically((folder / "parameters.json").string(),
                                 project::resultToJson(result, project::trueValues(project)).dump(2) + "\n");
    project::writeFileAtomically((folder / "parameters.csv").string(), project::parameterCsv(result));
    project::writeFileAtomically((folder / "report.html").string(),
                                 project::htmlReport(project, result, heading, figures));
    std::cerr << "report written to " << (folder / "report.html").string() << "\n";
    return Success;
}

}  // namespace sysid::cli
