#pragma once

#include "engine/estimate/FitResult.h"

#include <string>

namespace sysid::project {

// The estimates of a fit as CSV for spreadsheets: the line "name,value,sd,lower95,upper95,unit",
// then one line per parameter in the result's order (the unit last, so the numbers keep their
// columns; empty when the model gives none). Numbers carry 17 significant digits (printf
// %.17g, so they read back as the same double) or are nan, inf, -inf; a name or unit holding ',', '"'
// or a line break is put in double quotes with '"' doubled. Lines end with '\n'.
std::string parameterCsv(const estimate::FitResult& result);

}  // namespace sysid::project
