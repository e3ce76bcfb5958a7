#include "engine/estimate/NormalMatrix.h"

namespace sysid::estimate {

Eigen::MatrixXd normalMatrix(const Eigen::MatrixXd& jacobian)
{
    const Eigen::Index p = jacobian.cols();
    Eigen::MatrixXd normal = Eigen::MatrixXd::Zero(p, p);
    normal.selfadjointView<Eigen::Lower>().rankUpdate(jacobian.transpose());
    normal.triangularView<Eigen::StrictlyUpper>() = normal.transpose();
    return normal;
}

}  // namespace sysid::estimate
