#pragma once

namespace sysid::model {

// 1-based line and column in the model text; 0 means "not tied to a place".
struct SourceLocation {
    int line = 0;
    int column = 0;
};

}  // namespace sysid::model
