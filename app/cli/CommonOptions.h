#pragma once

#include "app/cli/CommandLine.h"

#include "engine/integrate/IntegratorSettings.h"

#include <boost/program_options.hpp>

#include <optional>

namespace sysid::cli {

// Parses a command's arguments with one positional argument (the model or project file).
// Returns nothing when --help was asked for and printed.
std::optional<boost::program_options::variables_map> parseArguments(
    const Arguments& args, const boost::program_options::options_description& options, const char* positional);

// --method, --rtol, --atol, --max-step, --max-steps: the same for every command that integrates.
void addIntegratorOptions(boost::program_options::options_description& options);
integrate::IntegratorSettings integratorSettings(const boost::program_options::variables_map& vm);

}  // namespace sysid::cli
