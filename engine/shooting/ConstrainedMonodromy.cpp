#include "engine/shooting/ConstrainedMonodromy.h"

#include <vector>

namespace sysid::shooting {

Eigen::MatrixXd onConstraints(eval::CompiledModel& model, double t, const Eigen::VectorXd& x,
                              const Eigen::MatrixXd& monodromy)
{
    if (!model.source().isDae())
        return monodromy;
    const auto n = static_cast<Eigen::Index>(model.stateCount());
    const auto d = n - static_cast<Eigen::Index>(model.source().constraints.algebraic);
    const auto m = static_cast<Eigen::Index>(model.invariantCount());
    Eigen::MatrixXd tangent = Eigen::MatrixXd::Identity(d, d);
    if (m > 0) {
        const std::vector<double> inputs(model.inputCount(), 0.0);  // the invariants hold no input
        model.setPoint(t, x.data(), inputs.empty() ? nullptr : inputs.data());
        Eigen::VectorXd G(m);
        Eigen::MatrixXd Gx(m, n);
        model.invariants(G.data(), Gx.data(), nullptr, nullptr);
        const Eigen::JacobiSVD<Eigen::MatrixXd> svd(Gx.leftCols(d), Eigen::ComputeFullV);
        Eigen::Index rank = 0;
        const auto& s = svd.singularValues();
        for (Eigen::Index i = 0; i < s.size(); ++i)
            if (s(i) > 1e-10 * s(0))
                ++rank;
        tangent = svd.matrixV().rightCols(d - rank);
    }
    return tangent.transpose() * monodromy.topLeftCorner(d, d) * tangent;
}

}  // namespace sysid::shooting
