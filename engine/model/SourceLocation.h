#pragma once

namespace sysid::model {

// 1-based line and column in the model text; 0 means "not tied to a place". A statement from a
// sub-model (include "bar.model" as crank) carries the place in its own file and that file's
// origin, 1-based into ModelSyntax::origins; 0 is the model text itself.
struct SourceLocation {
    int line = 0;
    int column = 0;
    int origin = 0;
};

}  // namespace sysid::model
