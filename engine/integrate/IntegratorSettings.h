#pragma once

#include "engine/core/EnumTable.h"
#include "engine/core/SettingField.h"
#include "engine/eval/NativeCode.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace sysid::model {
struct Model;
}
namespace sysid::eval {
struct CompiledModelSource;
}

namespace sysid::integrate {

enum class IntegrationMethod {
    Dopri5,  // adaptive explicit Runge-Kutta 5(4), dense output; the default without fields
    Dop853,  // adaptive explicit Runge-Kutta of order 8 (error estimate 5 and 3), dense output of order 7
    Rosenbrock4,  // adaptive linearly implicit, for stiff systems
    RK4,  // classical fixed-step Runge-Kutta
    Euler,  // explicit Euler, fixed step
    // Adaptive linearly implicit (Rosenbrock-W) with a sparse LU of I - gamma h df/dx shared by
    // the sensitivities: large stiff models such as PDEs by the method of lines.
    SparseImplicit,
    // Fixed-step implicit schemes of seed 003 ch. 2 (its eqs. 2.10 and 2.18), each step's equation
    // solved by Newton with a sparse LU of I - theta h df/dx that the sensitivities share.
    ImplicitEuler,  // backward differences in time: order 1, L-stable
    CrankNicolson,  // the trapezoidal average: order 2, A-stable but not L-stable (stiff modes oscillate)
};

inline constexpr core::EnumTable kIntegrationMethods{
    "integrator",
    std::to_array<core::EnumSpelling<IntegrationMethod>>({
        {IntegrationMethod::Dopri5, "dopri5",
         "adaptive explicit Runge-Kutta 5(4) of Dormand and Prince (1980) with dense output"},
        {IntegrationMethod::Dop853, "dop853",
         "adaptive explicit Runge-Kutta of order 8 of Dormand and Prince (DOP853, Hairer, Norsett and Wanner 1993) "
         "with dense output of order 7: fewer steps at tight tolerances"},
        {IntegrationMethod::Rosenbrock4, "rosenbrock4", "adaptive linearly implicit Rosenbrock method: stiff systems"},
        {IntegrationMethod::RK4, "rk4", "classical Runge-Kutta, fixed step (max step; 0 = one step per sample)"},
        {IntegrationMethod::Euler, "euler",
         "explicit Euler, fixed step (max step; 0 = one step per sample). On a PDE model it refuses a step above its "
         "stability limit dx^2/(2 max alpha) and names the limit"},
        {IntegrationMethod::SparseImplicit, "sparse-implicit",
         "adaptive linearly implicit Rosenbrock-W method of Rang and Angermann (2005) with a sparse LU: large stiff "
         "models, PDEs"},
        {IntegrationMethod::ImplicitEuler, "implicit-euler",
         "implicit Euler (backward differences in time), fixed step (max step; 0 = one step per sample): order 1, no "
         "step limit, damps stiff modes"},
        {IntegrationMethod::CrankNicolson, "crank-nicolson",
         "Crank and Nicolson (1947), fixed step (max step; 0 = one step per sample): order 2 and no step limit, but "
         "not L-stable: with a large step the stiff modes of a PDE oscillate instead of decaying"},
    })};

// What the integrator does at the switches of sign, abs, min and max whose arguments vary along
// a solution.
enum class SwitchHandling {
    Locate,  // find each crossing on the dense output and restart there (events)
    StepAcross,  // evaluate them as written at every stage, as a smooth right-hand side
};

inline constexpr core::EnumTable kSwitchHandlings{
    "switches",
    std::to_array<core::EnumSpelling<SwitchHandling>>({
        {SwitchHandling::Locate, "locate",
         "locate every crossing of a switching surface (sign, abs, min, max) and restart there, with sliding "
         "where both sides push into the surface (Filippov) and exact sensitivities"},
        {SwitchHandling::StepAcross, "step-across",
         "evaluate sign, abs, min and max as written and let the step size control cope (slow at a jump, and "
         "the sensitivities miss it); resets of 'when' are located all the same"},
    })};

// How the integration of a model with constraints keeps its solution on the constraints (the
// hidden ones included), which the index-1 equations alone let drift away.
enum class ConstraintStabilisation {
    Projection,  // after every step, onto the position and velocity constraints (post-stabilisation)
    Baumgarte,  // Baumgarte's (1972) feedback terms in the index-1 equations
    Both,
    None,  // as reduced: the drift grows with time
};

inline constexpr core::EnumTable kConstraintStabilisations{
    "stabilisation",
    std::to_array<core::EnumSpelling<ConstraintStabilisation>>({
        {ConstraintStabilisation::Projection, "projection",
         "project the solution onto the constraints and their time derivatives after every step "
         "(post-stabilisation, Ascher and Petzold 1998): the drift stays at rounding level"},
        {ConstraintStabilisation::Baumgarte, "baumgarte",
         "add Baumgarte's (1972) terms 2 alpha dPhi/dt + beta^2 Phi to the differentiated constraints: the drift "
         "decays with the rates alpha and beta instead of growing"},
        {ConstraintStabilisation::Both, "both", "Baumgarte's terms and the projection"},
        {ConstraintStabilisation::None, "none",
         "integrate the differentiated constraints as they are: the constraints drift (for comparison)"},
    })};

// Whether the forward sensitivities take part in the step-size control of the adaptive methods
// (dopri5, dop853, rosenbrock4), as CVODES' errconS (Hindmarsh et al. 2005) decides for its BDF steps.
enum class SensitivityErrorControl {
    Include,  // the local error of x and of every sensitivity column within the tolerances
    Exclude,  // the steps chosen for x alone; the sensitivities are computed on the same steps
};

inline constexpr core::EnumTable kSensitivityErrorControls{
    "sensitivity error control",
    std::to_array<core::EnumSpelling<SensitivityErrorControl>>({
        {SensitivityErrorControl::Include, "include",
         "choose the steps so that the local error of the states and of their sensitivities meets the tolerances "
         "(CVODES: errconS true)"},
        {SensitivityErrorControl::Exclude, "exclude",
         "choose the steps for the states alone and compute the sensitivities on the same steps (CVODES: errconS "
         "false): fewer steps, sensitivities only as accurate as those steps make them"},
    })};

// Whether the method integrates algebraic variables (the implicit ones with a mass matrix).
bool takesAlgebraicVariables(IntegrationMethod method);
// Whether the method, integrating forward sensitivities, evaluates the model's second derivatives:
// rosenbrock4 factorises the exact Jacobian of the state with its sensitivities
// (SensitivitySystem::jacobian), whose coupling blocks are d2f/dx dz and d2f/dp dz.
bool usesSecondDerivatives(IntegrationMethod method);

std::optional<IntegrationMethod> parseIntegrationMethod(std::string_view name);
std::string methodName(IntegrationMethod method);
bool isAdaptive(IntegrationMethod method);

struct IntegratorSettings {
    IntegrationMethod method = IntegrationMethod::Dopri5;
    // False: nobody chose `method`; whoever knows the model (the jobs, the CLI, the GUI) sets
    // it to defaultMethodFor(model) and a project file leaves it out. True keeps `method`.
    bool methodChosen = false;
    double relativeTolerance = 1e-8;
    double absoluteTolerance = 1e-10;
    // Adaptive methods: largest step allowed (0 = no limit). Fixed-step methods: the step;
    // 0 = one step per output interval. Output intervals are always hit exactly.
    double maxStep = 0.0;
    std::size_t maxSteps = 1000000;
    SwitchHandling switches = SwitchHandling::Locate;
    // Models with constraints only.
    ConstraintStabilisation stabilisation = ConstraintStabilisation::Projection;
    double baumgarteAlpha = 10.0;  // 1/s: damping of the drift (2 alpha dPhi/dt)
    double baumgarteBeta = 10.0;  // 1/s: its stiffness (beta^2 Phi)
    // How the model is evaluated (the model's native code is requested by whoever compiles it).
    eval::ModelCode modelCode = eval::ModelCode::Native;
    // dopri5, dop853 and rosenbrock4 with forward sensitivities (the sparse-implicit method controls x alone).
    SensitivityErrorControl sensitivityErrorControl = SensitivityErrorControl::Include;

    bool projects() const
    {
        return stabilisation == ConstraintStabilisation::Projection || stabilisation == ConstraintStabilisation::Both;
    }
    bool baumgarte() const
    {
        return stabilisation == ConstraintStabilisation::Baumgarte || stabilisation == ConstraintStabilisation::Both;
    }

    // Throws core::SettingError for a setting that breaks its rule in integratorSettingFields().
    void validate() const;
};

// Key ("rtol"), command-line option ("--rtol"), help and rule of every integrator setting.
// Setting the method marks it chosen; a file records it only when it was chosen.
const core::FieldTable<IntegratorSettings>& integratorSettingFields();

// The integrator a model gets when none was chosen: sparse-implicit for a model with fields
// (the method of lines is stiff, its df/dx sparse) or with constraints (only the implicit methods
// take algebraic variables), dopri5 otherwise.
IntegrationMethod defaultMethodFor(bool modelHasFields, bool modelHasConstraints = false);
IntegrationMethod defaultMethodFor(const model::Model& model);
IntegrationMethod defaultMethodFor(const eval::CompiledModelSource& model);
// settings.method = defaultMethodFor(model) unless settings.methodChosen; methodChosen stays.
void resolveMethod(IntegratorSettings& settings, const model::Model& model);
void resolveMethod(IntegratorSettings& settings, const eval::CompiledModelSource& model);

// Whether integrating forward sensitivities (fits, shooting) with these settings may evaluate the
// model's second derivatives: the method's need, and before resolveMethod also that of any method
// defaultMethodFor can pick. Decides what the model is compiled with (eval::CompileOptions).
bool sensitivitiesNeedSecondDerivatives(const IntegratorSettings& settings);

}  // namespace sysid::integrate
