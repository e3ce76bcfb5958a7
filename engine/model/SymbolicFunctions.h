#pragma once

#include <ginac/ginac.h>

namespace sysid::model {

// Our own abs/sign/min/max: GiNaC's abs differentiates to v/abs(v), NaN at v = 0, and it
// has no sign. These use the almost-everywhere derivatives d|v| = sign(v), d sign(v) = 0,
// so a drag term c*v*abs(v) differentiates to 2c|v| everywhere, including v = 0.
DECLARE_FUNCTION_1P(sysid_abs)
DECLARE_FUNCTION_1P(sysid_sign)
DECLARE_FUNCTION_2P(sysid_min)
DECLARE_FUNCTION_2P(sysid_max)

}  // namespace sysid::model
