#pragma once

#include <boost/program_options.hpp>

#include <optional>
#include <string>
#include <vector>

namespace sysid::cli {

// The arguments parsed without program_options' parser when every one is plain: a whole long name
// (--name, --name=VALUE, --name VALUE), a one-letter short name (-o VALUE), or a positional value
// (at most `positionalCount` of them, -1 for any number), each option given once unless it composes,
// and a value that does not start with '-' (but "-"). Anything else (an abbreviation, grouped short
// names, an unknown name, a repeat, --, a value program_options' validator refuses) gives nothing:
// program_options then parses the arguments and reports what is wrong in its own words. The map is
// the one program_options' store makes: the values the options' own semantics parse, and the
// defaults of the options not given (docs/DECISIONS.md, "Arguments parsed without program_options").
std::optional<boost::program_options::variables_map> parsePlainArguments(
    const std::vector<std::string>& args,
    const std::vector<const boost::program_options::options_description*>& descriptions, const char* positional,
    int positionalCount);

}  // namespace sysid::cli
