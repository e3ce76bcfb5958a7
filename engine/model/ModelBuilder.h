#pragma once

#include "engine/model/Model.h"
#include "engine/model/ModelError.h"

#include <string>
#include <string_view>

namespace sysid::model {

// Parses and checks model text; throws ModelError listing every problem with line:column.
Model parseModel(std::string_view text, const std::string& source = "<model>");

// Reads a .model file; an unreadable file is a ModelError too.
Model loadModel(const std::string& path);

}  // namespace sysid::model
