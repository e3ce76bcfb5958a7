#pragma once

#include "engine/core/EnumTable.h"

#include <array>

namespace sysid::project {

// What a project's data set is for: fitted, or kept aside to judge the fitted model on data it
// has not seen (Ljung 1999, "System Identification", section 16.6: cross-validation).
enum class DataRole { Estimation, Validation };

inline constexpr core::EnumTable kDataRoles{
    "data set role",
    std::array{
        core::EnumSpelling<DataRole>{
            DataRole::Estimation, "estimation", "fitted: the parameters are estimated from it", {}, "Estimation"},
        core::EnumSpelling<DataRole>{DataRole::Validation,
                                     "validation",
                                     "not fitted: the model at the estimate is compared with it",
                                     {},
                                     "Validation"},
    }};

}  // namespace sysid::project
