#pragma once

#include "engine/core/EnumTable.h"

#include <array>

#include <string>

namespace sysid::core {

// Why a solver stopped, in one shape for every solver (Levenberg-Marquardt, the damped
// Gauss-Newton of multiple shooting, damped Newton, the equation-error Newton, steepest descent,
// continuation), after Ceres' Solver::Summary (termination_type and message).
enum class TerminationKind {
    Converged,  // a convergence test passed (criterion says which)
    IterationLimit,  // the iteration (or point) limit was reached first
    Cancelled,  // the stop token ended it; the result is the best point so far
    Failed,  // it could not go on (criterion says why)
};

inline constexpr EnumTable terminationKinds{
    "termination kind",
    std::to_array<EnumSpelling<TerminationKind>>({
        {TerminationKind::Converged, "converged", "a convergence test passed"},
        {TerminationKind::IterationLimit, "iteration_limit", "the iteration limit was reached before convergence"},
        {TerminationKind::Cancelled, "cancelled", "stopped on request"},
        {TerminationKind::Failed, "failed", "the solver could not continue"},
    })};

// For Converged: which test passed. For Failed: the reason. None for the iteration limit and
// a cancel (and for results stored before the termination was recorded).
enum class TerminationCriterion {
    None,
    CostTolerance,
    StepTolerance,
    GradientTolerance,
    ResidualTolerance,
    ExactFit,
    NothingToEstimate,
    RoundingLevel,
    ParameterRange,
    SingularJacobian,
    LineSearch,
    EvaluationFailed,
    GainTooLarge,
    StepTooSmall,
    InvalidSetting,
};

inline constexpr EnumTable terminationCriteria{
    "termination criterion",
    std::to_array<EnumSpelling<TerminationCriterion>>({
        {TerminationCriterion::None, "none", "no criterion applies (iteration limit or cancel)"},
        {TerminationCriterion::CostTolerance, "cost_tolerance",
         "the relative decrease of the cost fell below the cost tolerance"},
        {TerminationCriterion::StepTolerance, "step_tolerance", "the relative step fell below the step tolerance"},
        {TerminationCriterion::GradientTolerance, "gradient_tolerance",
         "the scaled gradient fell below the gradient tolerance"},
        {TerminationCriterion::ResidualTolerance, "residual_tolerance",
         "the residual of the equations fell below the residual tolerance"},
        {TerminationCriterion::ExactFit, "exact_fit", "the cost is zero"},
        {TerminationCriterion::NothingToEstimate, "nothing_to_estimate", "there are no unknowns"},
        {TerminationCriterion::RoundingLevel, "rounding_level", "no further decrease: the step is at rounding level"},
        {TerminationCriterion::ParameterRange, "parameter_range", "the branch left the parameter range"},
        {TerminationCriterion::SingularJacobian, "singular_jacobian",
         "the Jacobian (or the normal equations) is singular"},
        {TerminationCriterion::LineSearch, "line_search",
         "the line search or the damping found no step that decreases the cost"},
        {TerminationCriterion::EvaluationFailed, "evaluation_failed",
         "the model or the residual could not be evaluated"},
        {TerminationCriterion::GainTooLarge, "gain_too_large", "the cost rose: the fixed gain is too large"},
        {TerminationCriterion::StepTooSmall, "step_too_small", "the step fell below its minimum"},
        {TerminationCriterion::InvalidSetting, "invalid_setting", "a setting or the starting guess cannot be used"},
    })};

struct Termination {
    TerminationKind kind = TerminationKind::Failed;
    TerminationCriterion criterion = TerminationCriterion::None;
    std::string message;  // for the user: what happened, with numbers and names

    bool converged() const { return kind == TerminationKind::Converged; }
    bool cancelled() const { return kind == TerminationKind::Cancelled; }

    static Termination convergence(TerminationCriterion criterion, std::string message);
    static Termination iterationLimit(std::string message);
    static Termination cancel(std::string message = "cancelled");
    static Termination failure(TerminationCriterion criterion, std::string message);
};

bool operator==(const Termination& a, const Termination& b);

// "converged (cost_tolerance): relative cost change below tolerance"
std::string describe(const Termination& termination);

}  // namespace sysid::core
