#pragma once

#include "engine/core/Termination.h"
#include "engine/core/EnumTable.h"
#include "engine/eval/CompiledModel.h"
#include "engine/shooting/PeriodicShooting.h"

#include <Eigen/Dense>

#include <array>
#include <complex>
#include <cstddef>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::shooting {

enum class ContinuationMethod {
    Natural,  // step the parameter, correct the orbit at fixed parameter (stops at a fold)
    PseudoArclength,  // Keller's method: step along the branch tangent, passes turning points
};

inline constexpr core::EnumTable kContinuationMethods{
    "continuation method",
    std::to_array<core::EnumSpelling<ContinuationMethod>>({
        {.value = ContinuationMethod::Natural,
         .name = "natural",
         .description = "steps the parameter and corrects the orbit at that parameter; stops at a fold",
         .label = "Natural (stops at folds)"},
        {.value = ContinuationMethod::PseudoArclength,
         .name = "pseudo-arclength",
         .description = "steps along the branch's tangent (Keller 1977), so it passes turning points",
         .label = "Pseudo-arclength (passes folds)"},
    })};

enum class BranchPointType {
    Regular,
    Fold,  // a real Floquet multiplier crosses +1 (turning point / saddle-node)
    PeriodDoubling,  // a real Floquet multiplier crosses -1
};
std::string describe(BranchPointType type);

struct ContinuationSettings {
    std::size_t parameter = 0;  // model parameter index that is continued
    double start = 0.0,
           end = 1.0;  // parameter range; the branch starts at `start` and stops when it leaves [start, end]
    double initialStep = 0.01;  // parameter step (Natural) or arclength step (PseudoArclength)
    double minStep = 1e-6, maxStep = 0.1;
    std::size_t maxPoints = 200;
    std::size_t amplitudeState = 0;  // amplitude = (max - min)/2 of this state over the orbit
    ContinuationMethod method = ContinuationMethod::PseudoArclength;
    // Forced orbits: the forcing period as a function of the parameter (for example
    // forcingPeriodOfFrequency() when the parameter is the frequency w of cos(w*t)); empty:
    // periodic.period is fixed. Its derivative is taken by central differences unless given.
    std::function<double(double)> periodOf;
    std::function<double(double)> periodDerivative;
    std::size_t correctorIterations = 8;  // Newton iterations per corrector before the step is halved
                                          // (correctors also give up below a damping of 0.05)
    PeriodicSettings periodic;  // shooting settings (intervals, integrator, Newton tolerance, samples)
};

// T(w) = 2 pi / w: the forcing period when the continued parameter is the angular frequency.
std::function<double(double)> forcingPeriodOfFrequency();

struct BranchPoint {
    double parameter = 0.0;
    double amplitude = 0.0;  // (max - min)/2 of the amplitude state (peaks refined by parabolas through the samples)
    double period = 0.0;  // orbit period
    std::vector<std::complex<double>> multipliers;  // Floquet multipliers, decreasing modulus
    bool stable = false;
    BranchPointType type = BranchPointType::Regular;
    Eigen::VectorXd initialState;  // x(t0)
    std::size_t iterations = 0;  // corrector Newton iterations
};

struct ContinuationResult {
    std::vector<BranchPoint> points;  // in branch order; Fold / PeriodDoubling points inserted where found
    // Why it stopped: converged (parameter_range) when the branch left the parameter range, the
    // iteration limit at maxPoints, cancelled, or failed (step_too_small, invalid_setting, or the
    // first orbit's Newton failure).
    core::Termination termination;
    bool completed() const { return termination.converged(); }
};

// Continuation of periodic solutions in one model parameter, from the orbit near `guess`
// (x(t0)) at parameter `start`. Pseudo-arclength continuation after Keller (1977); see Seydel,
// "Practical Bifurcation and Stability Analysis", 3rd ed., 2010, §4.4-4.5: predictor along the
// normalised tangent of F(z, p) = 0, corrector on F = 0 plus the arclength condition
// tau·(y - y_k) = ds, tangent from the bordered system [F_z F_p; tau_k^T] tau = e. Test
// functions prod(mu_i - 1) and prod(mu_i + 1) over the (non-trivial) multipliers change sign at
// folds and period doublings; the point is then located by regula falsi along the arclength
// (Seydel §5.3). The model's parameter is left at its value on entry.
ContinuationResult continuePeriodicSolutions(eval::CompiledModel& model, const Eigen::VectorXd& guess,
                                             const ContinuationSettings& settings,
                                             const std::function<void(const BranchPoint&)>& progress = {},
                                             std::stop_token stop = {});

}  // namespace sysid::shooting
