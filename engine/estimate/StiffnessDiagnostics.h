#pragma once

#include "engine/integrate/OdeSystem.h"

#include <Eigen/Dense>

#include <cstddef>
#include <string>
#include <vector>

namespace sysid::estimate {

// The stiffness of a boundary value problem along a trajectory (Rutten 1993, §5.3): at each point
// the eigenvalues of the local Jacobian df/dx and kappa = min Re(lambda). A shooting interval of
// length dt is tame while kappa*dt is about -2 or above (the seed's tuning of the manipulator:
// dt = 0.01 with kappa = -200), which gives the suggested number of shooting points.
struct StiffnessDiagnostics {
    std::vector<double> times;  // where the Jacobian was taken
    std::vector<double> kappa;  // min Re(lambda) there
    // Every eigenvalue there (rows: times; columns: the eigenvalues by increasing real part).
    Eigen::MatrixXcd eigenvalues;
    double kappaMin = 0.0;  // the smallest kappa along the trajectory
    double kappaMinTime = 0.0;  // where it is
    double span = 0.0;  // b - a
    std::size_t points = 0;  // the shooting points of the run
    std::size_t suggestedPoints = 0;  // equidistant points with kappaMin*dt >= -2 (at least 2)

    bool empty() const { return times.empty(); }
    double intervalLength() const { return points > 1 ? span / static_cast<double>(points - 1) : span; }
    // kappaMin times the interval length of the run: well below -2 means stiff intervals.
    double kappaStep() const { return kappaMin * intervalLength(); }
};

// The equidistant shooting points over `span` for which kappa*dt >= -2 (Rutten 1993, §5.3);
// 2 when kappa >= 0.
std::size_t suggestedShootingPoints(double kappaMin, double span);

// The diagnostics of `system` along `states` (one row per entry of `times`, one column per state
// of the system), for a run with `points` shooting points on [times.front(), times.back()].
StiffnessDiagnostics stiffnessAlong(integrate::OdeSystem& system, const std::vector<double>& times,
                                    const Eigen::MatrixXd& states, std::size_t points);

// One line for logs: "kappa = min Re(lambda) = -8024 at t = 0.35; with 401 shooting points kappa*dt
// = -20; kappa*dt >= -2 takes 4013 points (Rutten 1993, sec. 5.3)".
std::string describeStiffness(const StiffnessDiagnostics& d);

}  // namespace sysid::estimate
