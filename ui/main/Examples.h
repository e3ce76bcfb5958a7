#pragma once

#include <QString>

namespace sysid::ui {

// The folder of the bundled examples (models, data, projects): in an installation the one the
// install rules put beside the executable (bin/../share/sysid/examples), so an installed
// sysid-gui needs no source tree; in a build-tree run, which has no such folder, the source
// tree's resources/examples.
QString examplesDir();

}  // namespace sysid::ui
