#pragma once

#include <Eigen/Dense>

#include <initializer_list>
#include <random>

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

// A matrix of standard normal entries, the same for the same seed.
inline Eigen::MatrixXd randomMatrix(Eigen::Index rows, Eigen::Index cols, unsigned seed)
{
    std::mt19937 generator(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index i = 0; i < rows; ++i)
        for (Eigen::Index k = 0; k < cols; ++k)
            m(i, k) = normal(generator);
    return m;
}

}  // namespace sysid::test
