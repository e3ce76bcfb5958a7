// sysid's DAE integration (ROS34PW2 with a mass matrix, consistent values and projection after every
// step) against SUNDIALS IDAS (variable-order BDF with forward sensitivities) on the damped pendulum
// in natural coordinates with the sensitivities to l and c: steps, evaluations, CPU time, the error
// against the pendulum in its angle (and its sensitivities) and the constraint drift.
//
// Not part of the build (IDAS is not a dependency of sysid): tests/bench/run_dae_idas_comparison.sh
// compiles it against Debian's libsundials-dev when installed. IDAS runs two formulations:
//   index1: the same index-1 equations as sysid (the constraint differentiated twice), no projection;
//   ggl:    Gear, Gupta and Leimkuhler's (1985) stabilised index-2 form (position and velocity
//           constraints with a second multiplier), algebraic variables out of the error test.
// A second case drives the bob by a measured force u(t) sampled every 0.01 s (linear between samples,
// a kink at every sample), as sysid's models are driven by measured inputs: sysid restarts its one-step
// method at every sample; IDAS either steps across the kinks or restarts (IDAReInit) at each, which
// sends the BDF back to order 1.

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/Simulator.h"
#include "engine/model/ModelBuilder.h"

#include <idas/idas.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

using namespace sysid;

namespace {

constexpr double m = 1, g = 9.81;
constexpr double tEnd = 10, dt = 0.05;

// The measured force: a sum of sines sampled every 0.01 s, linear in between.
constexpr double inputStep = 0.01;
double forceSample(double t)
{
    return 2 * std::sin(1.3 * t) + 0.7 * std::sin(4.1 * t + 0.3) + 0.3 * std::sin(9.7 * t);
}
double force(double t)
{
    const double k = std::floor(t / inputStep);
    const double t0 = k * inputStep, t1 = t0 + inputStep;
    return forceSample(t0) + (forceSample(t1) - forceSample(t0)) * (t - t0) / inputStep;
}

struct Parameters {
    double l = 1, c = 0.1;
    bool ggl = false;
    bool driven = false;
};

double cpuSeconds()
{
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

// The reference: the angle form q'' = -(g/l) sin q - c/(m l^2) q' with q(0) = 1 (x = l sin q), its
// sensitivities dx/dl = sin q + l cos q dq/dl and dx/dc = l cos q dq/dc, by dopri5 at 1e-13.
struct Reference {
    std::vector<double> x, dxdl, dxdc;
};

Reference reference()
{
    const auto source = eval::compileModel(model::parseModel(
        "param m = 1\nparam l = 1\nparam g = 9.81\nparam c = 0.1\ncoord q\nq(0) = 1, 0\n"
        "kinetic T = 1/2*m*l^2*q'^2\npotential V = -m*g*l*cos(q)\ndissipation D = 1/2*c*q'^2\n"));
    eval::CompiledModel model(source);
    integrate::SimulationRequest request;
    request.times = integrate::uniformGrid(0, tEnd, dt);
    request.sensitivityParameters = {1, 3};
    integrate::IntegratorSettings s;
    s.relativeTolerance = 1e-13;
    s.absoluteTolerance = 1e-15;
    const auto tr = integrate::simulate(model, request, s);
    Reference r;
    for (Eigen::Index k = 0; k < tr.states.rows(); ++k) {
        const double q = tr.states(k, 0);
        r.x.push_back(std::sin(q));
        r.dxdl.push_back(std::sin(q) + std::cos(q) * tr.stateParameterSensitivity[static_cast<std::size_t>(k)](0, 0));
        r.dxdc.push_back(std::cos(q) * tr.stateParameterSensitivity[static_cast<std::size_t>(k)](0, 1));
    }
    return r;
}

struct Row {
    std::string solver;
    double rtol = 0, seconds = 0, error = 0, sensitivityError = 0, drift = 0;
    long steps = 0, residuals = 0, jacobians = 0;
};

void print(const Row& r)
{
    std::printf("%-28s rtol %-6.0e steps %7ld  f/res %8ld  jac %7ld  cpu %8.4f s  |x-ref| %.1e  |S-ref|/|S| %.1e  drift %.1e\n",
                r.solver.c_str(), r.rtol, r.steps, r.residuals, r.jacobians, r.seconds, r.error, r.sensitivityError,
                r.drift);
}

// --- sysid ------------------------------------------------------------------------------------

integrate::InputSignals forceSignal()
{
    std::vector<double> times, values;
    for (double t = 0; t <= tEnd + 1e-9; t += inputStep) {
        times.push_back(t);
        values.push_back(forceSample(t));
    }
    return integrate::InputSignals({data::Signal(times, values)});
}

Row runSysid(double rtol, integrate::ConstraintStabilisation stabilisation, const Reference& ref, int repeats,
             bool driven = false)
{
    std::string text =
        "param m = 1 fixed\nparam l = 1\nparam g = 9.81 fixed\nparam c = 0.1\ncoord x, y\n"
        "kinetic T = 1/2*m*(x'^2 + y'^2)\npotential V = m*g*y\ndissipation D = 1/2*c*(x'^2 + y'^2)/l^2\n"
        "constraint rod: x^2 + y^2 = l^2\nx(0) = l*sin(1), 0\ny(0) = -0.5 guess\n";
    if (driven)
        text += "input u\nforce x = u\n";
    const auto source = eval::compileModel(model::parseModel(text));
    eval::CompiledModel model(source);
    const integrate::InputSignals inputs = forceSignal();
    integrate::SimulationRequest request;
    request.times = integrate::uniformGrid(0, tEnd, dt);
    request.sensitivityParameters = {1, 3};  // l, c
    if (driven)
        request.inputs = &inputs;
    integrate::IntegratorSettings s;
    s.method = integrate::IntegrationMethod::SparseImplicit;
    s.methodChosen = true;
    s.relativeTolerance = rtol;
    s.absoluteTolerance = rtol * 1e-2;
    s.stabilisation = stabilisation;
    integrate::Trajectory tr;
    const double start = cpuSeconds();
    for (int i = 0; i < repeats; ++i)
        tr = integrate::simulate(model, request, s);
    Row row;
    row.solver = std::string("sysid ROS34PW2 ") + (stabilisation == integrate::ConstraintStabilisation::Projection
                                                       ? "projection"
                                                       : "none");
    if (driven)
        row.solver = "sysid ROS34PW2 restarts";
    row.rtol = rtol;
    row.seconds = (cpuSeconds() - start) / repeats;
    row.steps = static_cast<long>(tr.statistics.steps);
    row.residuals = static_cast<long>(tr.statistics.rhsEvaluations);
    row.jacobians = static_cast<long>(tr.statistics.jacobianEvaluations);
    double scale = 0;
    for (std::size_t k = 0; k < ref.x.size(); ++k)
        scale = std::max({scale, std::abs(ref.dxdl[k]), std::abs(ref.dxdc[k])});
    for (std::size_t k = 0; k < ref.x.size(); ++k) {
        const auto row_ = static_cast<Eigen::Index>(k);
        row.drift = std::max(row.drift, std::abs(tr.invariants(row_, 0)));
        if (driven) {
            row.error = std::max(row.error, std::abs(tr.states(row_, 0) - ref.x[k]));
            row.sensitivityError =
                std::max({row.sensitivityError, std::abs(tr.stateParameterSensitivity[k](0, 0) - ref.dxdl[k]) / scale,
                          std::abs(tr.stateParameterSensitivity[k](0, 1) - ref.dxdc[k]) / scale});
            continue;
        }
        row.error = std::max(row.error, std::abs(tr.states(row_, 0) - ref.x[k]));
        row.sensitivityError =
            std::max({row.sensitivityError, std::abs(tr.stateParameterSensitivity[k](0, 0) - ref.dxdl[k]) / scale,
                      std::abs(tr.stateParameterSensitivity[k](0, 1) - ref.dxdc[k]) / scale});
        row.drift = std::max(row.drift, std::abs(tr.invariants(row_, 0)));
    }
    return row;
}

// --- IDAS -------------------------------------------------------------------------------------
// index1: y = [x, y, u, v, lambda]; ggl: y = [x, y, u, v, lambda, mu].

int residual(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, void* data)
{
    const auto& p = *static_cast<Parameters*>(data);
    const double* z = N_VGetArrayPointer(yy);
    const double* d = N_VGetArrayPointer(yp);
    double* r = N_VGetArrayPointer(rr);
    const double x = z[0], y = z[1], u = z[2], v = z[3], lam = z[4], k = p.c / (p.l * p.l);
    const double mu = p.ggl ? z[5] : 0.0;
    r[0] = d[0] - u + 2 * x * mu;
    r[1] = d[1] - v + 2 * y * mu;
    r[2] = m * d[2] + k * u + 2 * x * lam - (p.driven ? force(t) : 0.0);
    r[3] = m * d[3] + k * v + m * g + 2 * y * lam;
    if (p.ggl) {
        r[4] = x * u + y * v;
        r[5] = x * x + y * y - p.l * p.l;
    } else {
        // the second time derivative of x^2 + y^2 - l^2 with u', v' from the equations of motion
        r[4] = 2 * (u * u + v * v) -
            2 * (k * (x * u + y * v) + 2 * lam * (x * x + y * y) + m * g * y - (p.driven ? force(t) * x : 0.0)) / m;
    }
    return 0;
}

// dF/dy + cj dF/dy'
int jacobian(realtype t, realtype cj, N_Vector yy, N_Vector, N_Vector, SUNMatrix J, void* data, N_Vector, N_Vector,
             N_Vector)
{
    const auto& p = *static_cast<Parameters*>(data);
    const double* z = N_VGetArrayPointer(yy);
    const double x = z[0], y = z[1], u = z[2], v = z[3], lam = z[4], k = p.c / (p.l * p.l);
    const double mu = p.ggl ? z[5] : 0.0;
    SUNMatZero(J);
    auto at = [&](int i, int j) -> double& { return SM_ELEMENT_D(J, i, j); };
    at(0, 0) = cj + 2 * mu;
    at(0, 2) = -1;
    at(1, 1) = cj + 2 * mu;
    at(1, 3) = -1;
    at(2, 0) = 2 * lam;
    at(2, 2) = m * cj + k;
    at(2, 4) = 2 * x;
    at(3, 1) = 2 * lam;
    at(3, 3) = m * cj + k;
    at(3, 4) = 2 * y;
    if (p.ggl) {
        at(0, 5) = 2 * x;
        at(1, 5) = 2 * y;
        at(4, 0) = u;
        at(4, 1) = v;
        at(4, 2) = x;
        at(4, 3) = y;
        at(5, 0) = 2 * x;
        at(5, 1) = 2 * y;
    } else {
        at(4, 0) = -2 * (k * u + 4 * lam * x - (p.driven ? force(t) : 0.0)) / m;
        at(4, 1) = -2 * (k * v + 4 * lam * y + m * g) / m;
        at(4, 2) = 4 * u - 2 * k * x / m;
        at(4, 3) = 4 * v - 2 * k * y / m;
        at(4, 4) = -4 * (x * x + y * y) / m;
    }
    return 0;
}

// dF/dy s + dF/dy' s' + dF/dp for p = (l, c).
int sensitivityResidual(int ns, realtype t, N_Vector yy, N_Vector yp, N_Vector, N_Vector* yS, N_Vector* ypS,
                        N_Vector* rS, void* data, N_Vector, N_Vector, N_Vector)
{
    const auto& p = *static_cast<Parameters*>(data);
    const long n = p.ggl ? 6 : 5;
    SUNMatrix J = SUNDenseMatrix(n, n, yy->sunctx);
    SUNMatrix M = SUNDenseMatrix(n, n, yy->sunctx);
    jacobian(t, 0.0, yy, yp, nullptr, J, data, nullptr, nullptr, nullptr);  // dF/dy
    SUNMatZero(M);
    for (long i = 0; i < 2; ++i)
        SM_ELEMENT_D(M, i, i) = 1;
    SM_ELEMENT_D(M, 2, 2) = SM_ELEMENT_D(M, 3, 3) = m;
    const double* z = N_VGetArrayPointer(yy);
    const double x = z[0], y = z[1], u = z[2], v = z[3], lam = z[4], l = p.l;
    for (int s = 0; s < ns; ++s) {
        const double* sy = N_VGetArrayPointer(yS[s]);
        const double* sp = N_VGetArrayPointer(ypS[s]);
        double* r = N_VGetArrayPointer(rS[s]);
        for (long i = 0; i < n; ++i) {
            double sum = 0;
            for (long j = 0; j < n; ++j)
                sum += SM_ELEMENT_D(J, i, j) * sy[j] + SM_ELEMENT_D(M, i, j) * sp[j];
            r[i] = sum;
        }
        // dk/dl = -2 c / l^3, dk/dc = 1 / l^2 with k = c / l^2.
        const double dk = s == 0 ? -2 * p.c / (l * l * l) : 1 / (l * l);
        r[2] += dk * u;
        r[3] += dk * v;
        if (p.ggl) {
            if (s == 0)
                r[5] += -2 * l;
        } else {
            r[4] += -2 * dk * (x * u + y * v) / m;
        }
        (void)lam;
    }
    SUNMatDestroy(J);
    SUNMatDestroy(M);
    return 0;
}

// restart: a driven run that stops at every input sample and re-initialises there (IDAReInit).
Row runIdas(double rtol, bool ggl, const Reference& ref, int repeats, bool driven = false, bool restart = false)
{
    Row row;
    row.solver = ggl ? "IDAS BDF GGL index 2" : "IDAS BDF index 1";
    if (driven)
        row.solver = restart ? "IDAS index 1 restarts" : "IDAS index 1 steps across";
    row.rtol = rtol;
    const long n = ggl ? 6 : 5;
    double seconds = 0;
    for (int repeat = 0; repeat < repeats; ++repeat) {
        SUNContext ctx;
        SUNContext_Create(nullptr, &ctx);
        Parameters p;
        p.ggl = ggl;
        p.driven = driven;
        N_Vector yy = N_VNew_Serial(n, ctx), yp = N_VNew_Serial(n, ctx), id = N_VNew_Serial(n, ctx);
        N_VConst(0.0, yy);
        N_VConst(0.0, yp);
        double* z = N_VGetArrayPointer(yy);
        z[0] = std::sin(1.0);
        z[1] = -std::cos(1.0);
        z[4] = m * g * std::cos(1.0) / (2 * p.l);  // at rest
        double* d = N_VGetArrayPointer(yp);
        d[2] = -2 * z[0] * z[4] / m;
        d[3] = -g - 2 * z[1] * z[4] / m;
        double* ids = N_VGetArrayPointer(id);
        for (long i = 0; i < n; ++i)
            ids[i] = i < 4 ? 1.0 : 0.0;
        N_Vector* yS = N_VCloneVectorArray(2, yy);
        N_Vector* ypS = N_VCloneVectorArray(2, yy);
        for (int s = 0; s < 2; ++s) {
            N_VConst(0.0, yS[s]);
            N_VConst(0.0, ypS[s]);
        }
        // x(0) = l sin 1, y(0) = -l cos 1: their derivatives by l; the rest from IDACalcIC.
        N_VGetArrayPointer(yS[0])[0] = std::sin(1.0);
        N_VGetArrayPointer(yS[0])[1] = -std::cos(1.0);

        void* mem = IDACreate(ctx);
        IDAInit(mem, residual, 0.0, yy, yp);
        IDASStolerances(mem, rtol, rtol * 1e-2);
        IDASetUserData(mem, &p);
        SUNMatrix A = SUNDenseMatrix(n, n, ctx);
        SUNLinearSolver LS = SUNLinSol_Dense(yy, A, ctx);
        IDASetLinearSolver(mem, LS, A);
        IDASetJacFn(mem, jacobian);
        IDASetId(mem, id);
        if (ggl)
            IDASetSuppressAlg(mem, SUNTRUE);
        IDASetMaxNumSteps(mem, 1000000);
        IDASensInit(mem, 2, IDA_STAGGERED, sensitivityResidual, yS, ypS);
        IDASensEEtolerances(mem);
        IDASetSensErrCon(mem, SUNTRUE);
        const double start = cpuSeconds();
        if (IDACalcIC(mem, IDA_YA_YDP_INIT, dt) < 0)
            std::printf("IDACalcIC failed\n");
        double scale = 0;
        for (std::size_t k = 0; k < ref.x.size(); ++k)
            scale = std::max({scale, std::abs(ref.dxdl[k]), std::abs(ref.dxdc[k])});
        double t = 0;
        row.error = row.sensitivityError = row.drift = 0;
        long restartedSteps = 0, restartedResiduals = 0, restartedJacobians = 0;
        for (std::size_t k = 1; k < ref.x.size(); ++k) {
            const double tout = static_cast<double>(k) * dt;
            if (restart) {
                // to every input sample before tout, re-initialising there
                while (t < tout - 1e-12) {
                    const double stop = std::min(tout, (std::floor(t / inputStep + 1e-9) + 1) * inputStep);
                    IDASetStopTime(mem, stop);
                    if (const int flag = IDASolve(mem, stop, &t, yy, yp, IDA_NORMAL); flag < 0) {
                        std::printf("IDASolve failed at %g (flag %d)\n", t, flag);
                        break;
                    }
                    long a = 0, b = 0, c = 0, e = 0;
                    IDAGetNumSteps(mem, &a);
                    IDAGetNumResEvals(mem, &b);
                    IDAGetNumResEvalsSens(mem, &e);
                    IDAGetNumJacEvals(mem, &c);
                    restartedSteps += a;
                    restartedResiduals += b + e;
                    restartedJacobians += c;
                    IDAGetSens(mem, &t, yS);
                    IDAGetSensDky(mem, t, 1, ypS);
                    IDAReInit(mem, t, yy, yp);
                    IDASensReInit(mem, IDA_STAGGERED, yS, ypS);
                }
                IDAGetSens(mem, &t, yS);
            } else if (IDASolve(mem, tout, &t, yy, yp, IDA_NORMAL) < 0) {
                std::printf("IDASolve failed at %g\n", t);
                break;
            }
            IDAGetSens(mem, &t, yS);
            const double x = z[0], y = z[1];
            row.error = std::max(row.error, std::abs(x - ref.x[k]));
            row.drift = std::max(row.drift, std::abs(x * x + y * y - p.l * p.l));
            row.sensitivityError = std::max({row.sensitivityError,
                                             std::abs(N_VGetArrayPointer(yS[0])[0] - ref.dxdl[k]) / scale,
                                             std::abs(N_VGetArrayPointer(yS[1])[0] - ref.dxdc[k]) / scale});
        }
        seconds += cpuSeconds() - start;
        long steps = 0, residuals = 0, sensitivityResiduals = 0, jacobians = 0;
        IDAGetNumSteps(mem, &steps);
        IDAGetNumResEvals(mem, &residuals);
        IDAGetNumResEvalsSens(mem, &sensitivityResiduals);
        IDAGetNumJacEvals(mem, &jacobians);
        row.steps = steps + restartedSteps;
        row.residuals = residuals + sensitivityResiduals + restartedResiduals;
        row.jacobians = jacobians + restartedJacobians;
        IDAFree(&mem);
        SUNLinSolFree(LS);
        SUNMatDestroy(A);
        N_VDestroyVectorArray(yS, 2);
        N_VDestroyVectorArray(ypS, 2);
        N_VDestroy(yy);
        N_VDestroy(yp);
        N_VDestroy(id);
        SUNContext_Free(&ctx);
    }
    row.seconds = seconds / repeats;
    return row;
}

}  // namespace

// The driven case's reference: the index-1 equations at rtol 1e-12 by IDAS (its x and sensitivities).
Reference drivenReference()
{
    Reference none;
    none.x.assign(static_cast<std::size_t>(tEnd / dt + 1.5), 0.0);
    none.dxdl = none.dxdc = none.x;
    return none;
}

int main()
{
    const Reference ref = reference();
    std::printf("damped pendulum in natural coordinates, 0..%g s, %zu samples, sensitivities to l and c\n", tEnd,
                ref.x.size());
    for (const double rtol : {1e-6, 1e-8, 1e-10}) {
        const int repeats = rtol > 1e-9 ? 20 : 5;
        print(runSysid(rtol, integrate::ConstraintStabilisation::Projection, ref, repeats));
        print(runSysid(rtol, integrate::ConstraintStabilisation::None, ref, repeats));
        print(runIdas(rtol, false, ref, repeats));
        print(runIdas(rtol, true, ref, repeats));
    }
    // Driven by the measured force: the reference is sysid's own run at rtol 1e-12 (restarted at every
    // sample, which is exact for a piecewise-linear input).
    const Row tight = runSysid(1e-12, integrate::ConstraintStabilisation::Projection, drivenReference(), 1, true);
    Reference driven;
    {
        std::string text =
            "param m = 1 fixed\nparam l = 1\nparam g = 9.81 fixed\nparam c = 0.1\ncoord x, y\n"
            "kinetic T = 1/2*m*(x'^2 + y'^2)\npotential V = m*g*y\ndissipation D = 1/2*c*(x'^2 + y'^2)/l^2\n"
            "constraint rod: x^2 + y^2 = l^2\nx(0) = l*sin(1), 0\ny(0) = -0.5 guess\ninput u\nforce x = u\n";
        eval::CompiledModel model(eval::compileModel(model::parseModel(text)));
        const integrate::InputSignals inputs = forceSignal();
        integrate::SimulationRequest request;
        request.times = integrate::uniformGrid(0, tEnd, dt);
        request.sensitivityParameters = {1, 3};
        request.inputs = &inputs;
        integrate::IntegratorSettings s;
        s.method = integrate::IntegrationMethod::SparseImplicit;
        s.methodChosen = true;
        s.relativeTolerance = 1e-12;
        s.absoluteTolerance = 1e-14;
        const auto tr = integrate::simulate(model, request, s);
        for (Eigen::Index k = 0; k < tr.states.rows(); ++k) {
            driven.x.push_back(tr.states(k, 0));
            driven.dxdl.push_back(tr.stateParameterSensitivity[static_cast<std::size_t>(k)](0, 0));
            driven.dxdc.push_back(tr.stateParameterSensitivity[static_cast<std::size_t>(k)](0, 1));
        }
    }
    (void)tight;
    std::printf("driven by a measured force sampled every %g s (%d kinks)\n", inputStep,
                static_cast<int>(tEnd / inputStep));
    for (const double rtol : {1e-6, 1e-8}) {
        print(runSysid(rtol, integrate::ConstraintStabilisation::Projection, driven, 3, true));
        print(runIdas(rtol, false, driven, 3, true, false));
        print(runIdas(rtol, false, driven, 3, true, true));
    }
}
