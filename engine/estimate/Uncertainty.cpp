#include "engine/estimate/Uncertainty.h"

#include "engine/estimate/Distributions.h"
#include "engine/estimate/NormalMatrix.h"

#include <cmath>
#include <limits>

namespace sysid::estimate {

Uncertainty uncertainty(const Eigen::MatrixXd& dataJacobian, const Eigen::VectorXd& dataResiduals,
                        const Eigen::VectorXd& priorPrecision)
{
    return uncertaintyFromNormalEquations(normalMatrix(dataJacobian), dataResiduals.squaredNorm(),
                                          static_cast<std::size_t>(dataJacobian.rows()), priorPrecision);
}

namespace {

Eigen::Index degreesOfFreedom(std::size_t residuals, Eigen::Index parameters)
{
    return std::max<Eigen::Index>(static_cast<Eigen::Index>(residuals) - parameters, 1);
}

Uncertainty fromInformation(const Eigen::MatrixXd& information, Eigen::Index dof);

}  // namespace

Uncertainty uncertaintyFromNormalEquations(const Eigen::MatrixXd& normalMatrix, double residualSquares,
                                           std::size_t residuals, const Eigen::VectorXd& priorPrecision)
{
    const Eigen::Index dof = degreesOfFreedom(residuals, normalMatrix.cols());
    const double s2 = residualSquares / static_cast<double>(dof);
    Eigen::MatrixXd information = normalMatrix;
    if (s2 > 0)
        information /= s2;
    information.diagonal() += priorPrecision;
    return fromInformation(information, dof);
}

Uncertainty uncertaintyWithEstimatedNoise(const Eigen::MatrixXd& weightedJacobian,
                                          const Eigen::VectorXd& priorPrecision)
{
    Eigen::MatrixXd information = normalMatrix(weightedJacobian);
    information.diagonal() += priorPrecision;
    return fromInformation(information,
                           degreesOfFreedom(static_cast<std::size_t>(weightedJacobian.rows()), information.cols()));
}

namespace {

Uncertainty fromInformation(const Eigen::MatrixXd& information, Eigen::Index dof)
{
    const Eigen::Index p = information.cols();
    Uncertainty u;
    // The rank decision is made on the information matrix scaled to unit diagonal, D I D with
    // D = diag(I)^-1/2: its eigenvalues do not change with the parameters' units, while those of I
    // span the squares of their magnitudes; this scaling is within a factor p of the best diagonal
    // one for the condition number (van der Sluis 1969). A parameter without information is
    // undetermined whatever the others do.
    Eigen::VectorXd scale = Eigen::VectorXd::Zero(p);
    for (Eigen::Index i = 0; i < p; ++i) {
        const double d = information(i, i);
        if (std::isfinite(d) && d > 0)
            scale(i) = 1.0 / std::sqrt(d);
    }
    Eigen::MatrixXd scaled = scale.asDiagonal() * information * scale.asDiagonal();
    // Uncoupled from the rest, so that the null directions of the others do not mix with it.
    for (Eigen::Index i = 0; i < p; ++i)
        if (scale(i) == 0.0)
            scaled(i, i) = 1.0;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(scaled);
    const Eigen::VectorXd values = eigen.eigenvalues();
    const double largest = values.size() ? values.cwiseAbs().maxCoeff() : 0.0;
    Eigen::VectorXd inverse = Eigen::VectorXd::Zero(p);
    u.sd = Eigen::VectorXd::Zero(p);
    for (Eigen::Index i = 0; i < p; ++i)
        if (values(i) > 1e-13 * largest && values(i) > 0)
            inverse(i) = 1.0 / values(i);
    u.covariance = scale.asDiagonal() *
        (eigen.eigenvectors() * inverse.asDiagonal() * eigen.eigenvectors().transpose()) * scale.asDiagonal();
    for (Eigen::Index i = 0; i < p; ++i) {
        u.sd(i) = std::sqrt(std::max(u.covariance(i, i), 0.0));
        if (scale(i) == 0.0) {
            u.sd(i) = std::numeric_limits<double>::infinity();
            u.undeterminedDirections.push_back(Eigen::VectorXd::Unit(p, i));
        }
        // A parameter with a component along a null direction of the information is not determined.
        for (Eigen::Index k = 0; k < p; ++k)
            if (inverse(k) == 0.0 && std::abs(eigen.eigenvectors()(i, k)) > 1e-8)
                u.sd(i) = std::numeric_limits<double>::infinity();
    }
    for (Eigen::Index k = 0; k < p; ++k)
        if (inverse(k) == 0.0) {
            Eigen::VectorXd direction = scale.cwiseProduct(eigen.eigenvectors().col(k));
            u.undeterminedDirections.push_back(direction / direction.cwiseAbs().maxCoeff());
        }
    u.correlation = Eigen::MatrixXd::Zero(p, p);
    for (Eigen::Index i = 0; i < p; ++i)
        for (Eigen::Index k = 0; k < p; ++k)
            u.correlation(i, k) = std::isfinite(u.sd(i)) && std::isfinite(u.sd(k)) && u.sd(i) > 0 && u.sd(k) > 0
                ? u.covariance(i, k) / (u.sd(i) * u.sd(k))
                : std::numeric_limits<double>::quiet_NaN();
    for (Eigen::Index i = 0; i < p; ++i)
        if (std::isfinite(u.correlation(i, i)))
            u.correlation(i, i) = 1.0;  // exactly, not 1 - 1 ulp from the division
    u.halfWidthFactor = studentTQuantile(0.975, static_cast<double>(dof));
    return u;
}

}  // namespace

}  // namespace sysid::estimate
