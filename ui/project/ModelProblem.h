#pragma once

#include "ui/project/ModelSummary.h"

#include <QString>

namespace sysid::ui {

// The problem a model text poses, as text to compare: the starting values of estimated
// parameters (and of estimated initial values) written as 0, comments dropped and spacing
// collapsed. Two texts that differ only there pose the same problem (a fit from elsewhere, the
// same result to expect). The text as it is when it does not parse.
QString modelProblem(const QString& text, const ModelSummary& summary);

}  // namespace sysid::ui
