#pragma once

// C++17 only: Boost 1.74's uBLAS, which rosenbrock4 needs, does not compile as C++20 (see
// RosenbrockStepper.h).
#include "engine/integrate/SensitivitySystem.h"

#include <boost/numeric/ublas/matrix.hpp>
#include <boost/numeric/ublas/vector.hpp>

#include <cstddef>
#include <vector>

namespace sysid::integrate {

using UblasVector = boost::numeric::ublas::vector<double>;
using UblasMatrix = boost::numeric::ublas::matrix<double>;

// A sensitivity system in the autonomous form rosenbrock4 integrates it in (RosenbrockStepper.cpp
// says why): time as the last component, tau' = 1, so dF/dt is the Jacobian's last column, its last
// row is zero and the form's own df/dt is zero.
class Rosenbrock4AutonomousForm {
public:
    explicit Rosenbrock4AutonomousForm(SensitivitySystem& system) :
        system_(system), size_(system.size()), J_(size_ * size_), dFdt_(size_)
    {
    }

    void rhs(const UblasVector& x, UblasVector& dx) const
    {
        system_.rhs(x(size_), &x.data()[0], &dx.data()[0]);
        dx(size_) = 1.0;
    }

    void jacobian(const UblasVector& x, UblasMatrix& M, UblasVector& dfdt)
    {
        const std::size_t N = size_;
        system_.jacobian(x(N), &x.data()[0], J_.data(), dFdt_.data());
        for (std::size_t i = 0; i < N; ++i) {
            for (std::size_t j = 0; j < N; ++j)
                M(i, j) = J_[i * N + j];
            M(i, N) = dFdt_[i];
            M(N, i) = 0.0;
            dfdt(i) = 0.0;
        }
        M(N, N) = 0.0;
        dfdt(N) = 0.0;
    }

private:
    SensitivitySystem& system_;
    std::size_t size_;
    std::vector<double> J_, dFdt_;
};

}  // namespace sysid::integrate
