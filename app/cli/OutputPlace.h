#pragma once

#include <boost/program_options.hpp>

#include <string>

namespace sysid::cli {

// Remembers the files a command's arguments name (the model, the project, --data, --path, ...),
// so that an output can be compared with them; parseArguments calls it.
void recordArguments(const boost::program_options::variables_map& vm);

// Checks an output file (given with `option`; "-" is standard output) before the work, not after
// it: it must not be a folder, a link or a device, its folder must exist and take a new file, and
// it must not be one of the command's inputs (the model, the project, a project's data or model
// file, a --data file; the same file by device and inode, whatever its name). Each problem is a
// UserError naming the file.
void checkOutputPlace(const std::string& path, const char* option = "-o");

}  // namespace sysid::cli
