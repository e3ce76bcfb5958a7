#pragma once

#include "engine/core/EnumTable.h"

#include <array>

namespace sysid::shooting {

// Whether the shooting Newton re-uses its Jacobian while the rule of Vankan (1992, eq. 4.42) allows
// (NewtonSettings::reuseJacobian), also from one solve to the next through a ShootingJacobianStore.
enum class JacobianReuse {
    // When the Jacobian is by finite differences of the flow (2n integrations per interval and
    // Jacobian). A variational Jacobian comes with the residual's own integration for about the cost
    // of a second one, and the extra chord steps of re-using it cost as much as they save
    // (measured, docs/DECISIONS.md).
    Automatic,
    Always,
    Never,
};

inline constexpr core::EnumTable kJacobianReuse{
    "Jacobian re-use",
    std::to_array<core::EnumSpelling<JacobianReuse>>({
        {.value = JacobianReuse::Automatic,
         .name = "auto",
         .description = "re-use a shooting Jacobian made by finite differences of the flow (Vankan 1992, eq. 4.42); "
                        "build a variational one at every Newton iteration",
         .label = "Automatic"},
        {.value = JacobianReuse::Always,
         .name = "on",
         .description = "re-use the Jacobian while the simplified Newton correction shrinks sixteen-fold per step "
                        "(Vankan 1992, eq. 4.42)",
         .label = "Re-use"},
        {.value = JacobianReuse::Never,
         .name = "off",
         .description = "build the Jacobian at every Newton iteration",
         .label = "Every iteration"},
    })};

}  // namespace sysid::shooting
