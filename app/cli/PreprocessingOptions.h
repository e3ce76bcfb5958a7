#pragma once

// The command-line options of the preprocessing a fit applies to its data (data::Preprocessing):
// a low-pass, how it treats the record's ends, and a time window cut before or after filtering.
// They override a project's preprocessing.
#include "engine/data/Preprocessing.h"

#include <boost/program_options.hpp>

#include <string>

namespace sysid::cli {

class NamedOptions;

void addPreprocessingOptions(boost::program_options::options_description& options, const NamedOptions& named);

// Applies the options given to `p`; a value that cannot be read, --filter-ends without a low-pass
// or --window-after-filter without a window (from the options or in `p`) is a UsageError naming the
// option, and so is a rule of Preprocessing::validate that the result breaks.
void applyPreprocessingOptions(const boost::program_options::variables_map& vm, data::Preprocessing& p);

// "HZ[:ORDER]" as given to `option`: a low-pass with the default ends.
data::Preprocessing::LowPass parseLowPass(const std::string& text, const std::string& option);

}  // namespace sysid::cli
