#pragma once

#include <Eigen/Dense>

#include <initializer_list>

namespace sysid::test {

// A vector written as a list of its entries: vec({1.0, -2.0, 0.5}).
inline Eigen::VectorXd vec(std::initializer_list<double> values)
{
    Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
    Eigen::Index i = 0;
    for (double x : values)
        v(i++) = x;
    return v;
}

}  // namespace sysid::test
