#pragma once

#include "engine/integrate/Intersample.h"

#include <map>
#include <string>

namespace sysid::integrate {

// The one rule for how an input behaves between its samples: the user's choice (a project's
// settings.intersample, --intersample u=...) over the model's declaration (input u hold) over
// linear. Simulation, fit, validation and the GUI's table all ask here.
Intersample intersampleOf(const std::string& input, const std::map<std::string, Intersample>& declared,
                          const std::map<std::string, Intersample>& chosen);

// Every input named in either map with the behaviour intersampleOf gives it (absent: linear).
std::map<std::string, Intersample> intersampleChoices(const std::map<std::string, Intersample>& declared,
                                                      const std::map<std::string, Intersample>& chosen);

}  // namespace sysid::integrate
