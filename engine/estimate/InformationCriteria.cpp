#include "engine/estimate/InformationCriteria.h"

#include <cmath>
#include <limits>

namespace sysid::estimate {

InformationCriteria informationCriteria(double minusTwoLogLikelihood, std::size_t parameters, std::size_t residuals)
{
    const double k = static_cast<double>(parameters);
    const double n = static_cast<double>(residuals);
    InformationCriteria c;
    c.aic = minusTwoLogLikelihood + 2.0 * k;
    c.aicc = n > k + 1.0 ? c.aic + 2.0 * k * (k + 1.0) / (n - k - 1.0) : std::numeric_limits<double>::quiet_NaN();
    c.bic = minusTwoLogLikelihood + k * (n > 0 ? std::log(n) : std::numeric_limits<double>::quiet_NaN());
    return c;
}

}  // namespace sysid::estimate
