#include "engine/data/Text.h"
#include "engine/integrate/Simulator.h"

#include "engine/integrate/DenseSegmentLoop.h"
#include "engine/integrate/ExplicitEulerStability.h"
#include "engine/integrate/RosenbrockIntegration.h"
#include "engine/integrate/SensitivitySystem.h"
#include "engine/integrate/SparseImplicitIntegration.h"
#include "engine/integrate/ThetaMethodIntegration.h"

#include <Eigen/SparseCore>

#include <boost/numeric/odeint/integrate/integrate.hpp>
#include <boost/numeric/odeint/stepper/euler.hpp>
#include <boost/numeric/odeint/stepper/generation.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>

#include <cmath>
#include <sstream>

namespace sysid::integrate {

namespace odeint = boost::numeric::odeint;

namespace {

class Recorder {
public:
    Recorder(eval::CompiledModel& model, SensitivitySystem& system, const SimulationRequest& request) :
        model_(model), system_(system), request_(request)
    {
        const auto n = static_cast<Eigen::Index>(model.stateCount());
        const auto samples = static_cast<Eigen::Index>(request.times.size());
        trajectory_.times = request.times;
        trajectory_.states.resize(samples, n);
        trajectory_.outputs.resize(samples, static_cast<Eigen::Index>(model.outputCount()));
        trajectory_.sensitivityParameters = request.sensitivityParameters;
        y_.resize(model.outputCount());
        gx_.resize(static_cast<Eigen::Index>(model.outputCount()), n);
        gp_.resize(static_cast<Eigen::Index>(model.outputCount()), static_cast<Eigen::Index>(model.parameterCount()));
    }

    void record(std::size_t k, const double* z)
    {
        const std::size_t n = model_.stateCount();
        const auto row = static_cast<Eigen::Index>(k);
        for (std::size_t i = 0; i < n; ++i)
            trajectory_.states(row, static_cast<Eigen::Index>(i)) = z[i];
        system_.setPointFor(request_.times[k], z);
        model_.outputs(y_.data());
        for (std::size_t i = 0; i < y_.size(); ++i)
            trajectory_.outputs(row, static_cast<Eigen::Index>(i)) = y_[i];
        if (system_.columnCount() == 0 || (request_.sensitivityAtEndOnly && k + 1 < request_.times.size()))
            return;
        const auto nn = static_cast<Eigen::Index>(n);
        Eigen::Map<const Eigen::MatrixXd> S(z + n, nn, static_cast<Eigen::Index>(system_.columnCount()));
        model_.outputStateJacobian(gx_.data());
        Eigen::Index c = 0;
        if (system_.initialStateColumns()) {
            if (request_.recordStateSensitivity)
                trajectory_.stateInitialSensitivity.push_back(S.leftCols(nn));
            trajectory_.outputInitialSensitivity.push_back(outputProduct(S.leftCols(nn)));
            c = nn;
        }
        const auto m = static_cast<Eigen::Index>(request_.sensitivityParameters.size());
        if (m == 0)
            return;
        if (request_.recordStateSensitivity)
            trajectory_.stateParameterSensitivity.push_back(S.middleCols(c, m));
        model_.outputParameterJacobian(gp_.data());
        Eigen::MatrixXd dy = outputProduct(S.middleCols(c, m));
        for (Eigen::Index l = 0; l < m; ++l)
            dy.col(l) +=
                gp_.col(static_cast<Eigen::Index>(request_.sensitivityParameters[static_cast<std::size_t>(l)]));
        trajectory_.outputParameterSensitivity.push_back(std::move(dy));
    }

    Trajectory take() { return std::move(trajectory_); }

private:
    // dy/dx S. Outputs of a large model (a field sampled at its nodes) touch few states each:
    // a dense product would cost outputs x states x columns per sample.
    template <class Block>
    Eigen::MatrixXd outputProduct(const Block& S) const
    {
        if (gx_.cols() < 64)
            return gx_ * S;
        // Materialised: a product with the lazy sparseView() rescans the dense matrix per column.
        const Eigen::SparseMatrix<double> sparse = gx_.sparseView();
        return sparse * S;
    }

public:
    Trajectory& trajectory() { return trajectory_; }

private:
    eval::CompiledModel& model_;
    SensitivitySystem& system_;
    const SimulationRequest& request_;
    Trajectory trajectory_;
    std::vector<double> y_;
    Eigen::MatrixXd gx_, gp_;
};

class StepGuard {
public:
    StepGuard(const SensitivitySystem& system, const std::vector<std::string>& stateNames,
              const IntegratorSettings& settings, const SimulationRequest& request) :
        system_(system),
        stateNames_(stateNames), settings_(settings), request_(request)
    {
    }

    void afterStep(double t, const double* z, double dt)
    {
        if (request_.stop.stop_requested())
            throw IntegrationError(IntegrationError::Reason::Cancelled, t,
                                   "integration cancelled at t = " + data::formatNumber(t, 10));
        for (std::size_t i = 0; i < system_.size(); ++i)
            if (!std::isfinite(z[i]))
                throw IntegrationError(IntegrationError::Reason::NonFiniteState, t, nonFiniteMessage(t, i));
        if (++steps_ > settings_.maxSteps)
            throw IntegrationError(
                IntegrationError::Reason::TooManySteps, t,
                "integration stopped at t = " + data::formatNumber(t, 10) + " after the maximum of " +
                    std::to_string(settings_.maxSteps) +
                    " steps; the system may be stiff "
                    "(try rosenbrock4, or sparse-implicit for a large model) or the tolerances too tight");
        if (isAdaptive(settings_.method) && std::abs(dt) < 1e-14 * std::max(1.0, std::abs(t)))
            throw IntegrationError(IntegrationError::Reason::StepSizeUnderflow, t,
                                   "integration failed at t = " + data::formatNumber(t, 10) +
                                       ": the step size fell to " + data::formatNumber(dt, 10) +
                                       " (step size underflow); the solution may blow up or have "
                                       "a discontinuity here");
    }

    std::size_t steps() const { return steps_; }

private:
    std::string nonFiniteMessage(double t, std::size_t i) const
    {
        const std::size_t n = system_.stateCount();
        const std::string what = (i < n ? "state " : "a sensitivity of state ") + stateNames_[i % n];
        return "integration failed at t = " + data::formatNumber(t, 10) + ": " + what +
            " became infinite or NaN (the solution blows up, or an expression such as log, sqrt or a division "
            "left its domain)";
    }

    const SensitivitySystem& system_;
    const std::vector<std::string>& stateNames_;
    const IntegratorSettings& settings_;
    const SimulationRequest& request_;
    std::size_t steps_ = 0;
};

double initialStep(const SimulationRequest& request, const IntegratorSettings& settings)
{
    const auto& times = request.times;
    const double span = times.back() - times.front();
    const double first = times.size() > 1 ? times[1] - times[0] : span;
    double dt = request.initialStep > 0 && std::isfinite(request.initialStep)
        ? request.initialStep
        : std::min(1e-4 * std::max(span, 1.0), first);
    if (settings.maxStep > 0)
        dt = std::min(dt, settings.maxStep);
    return dt > 0 ? dt : 1e-6;
}

const double* vectorData(const std::vector<double>& v)
{
    return v.data();
}

// Explicit Euler on a PDE model (method of lines) beyond its stability limit only amplifies the
// fastest spatial modes until the solution is noise or overflows: refused before integrating,
// with the limit in the user's terms. df/dx is taken at the start state.
void checkExplicitEulerStability(eval::CompiledModel& model, SensitivitySystem& system, const std::vector<double>& x0,
                                 const std::vector<double>& times, const IntegratorSettings& settings)
{
    if (model.source().fields.empty())
        return;
    double step = 0.0;
    for (std::size_t k = 1; k < times.size(); ++k)
        step = std::max(step, fixedSteps(times[k] - times[k - 1], settings.maxStep).size);
    system.setPointFor(times.front(), x0.data());
    const ExplicitEulerLimit limit = explicitEulerLimit(model);
    // The relative slack lets a step typed from the message's rounded limit pass.
    if (step > limit.largestStep * (1 + 1e-6))
        throw IntegrationError(IntegrationError::Reason::UnstableStep, times.front(),
                               explicitEulerLimitMessage(model.source(), limit, step));
}

}  // namespace

std::vector<double> uniformGrid(double t0, double tEnd, double dt)
{
    if (!(dt > 0) || !(tEnd > t0) || !std::isfinite(t0) || !std::isfinite(tEnd))
        throw std::invalid_argument("the time grid needs dt > 0 and t_end > t_start");
    const auto count = static_cast<std::size_t>(std::floor((tEnd - t0) / dt * (1 + 1e-12))) + 1;
    if (count > 100000000)
        throw std::invalid_argument("the time grid would have more than 1e8 samples; choose a larger dt");
    std::vector<double> grid(count);
    for (std::size_t i = 0; i < count; ++i)
        grid[i] = t0 + static_cast<double>(i) * dt;
    return grid;
}

Trajectory simulate(eval::CompiledModel& model, const SimulationRequest& request, const IntegratorSettings& settings)
{
    const auto& times = request.times;
    if (times.empty())
        throw std::invalid_argument("no output times requested");
    for (std::size_t i = 1; i < times.size(); ++i)
        if (!(times[i] > times[i - 1]))
            throw std::invalid_argument("output times must be strictly increasing (sample " + std::to_string(i + 1) +
                                        ")");
    if (model.inputCount() > 0 && (!request.inputs || request.inputs->size() != model.inputCount()))
        throw std::invalid_argument("the model has " + std::to_string(model.inputCount()) +
                                    " input(s); give a signal for each");
    for (std::size_t p : request.sensitivityParameters)
        if (p >= model.parameterCount())
            throw std::invalid_argument("sensitivity requested for a parameter that does not exist");
    if (!(settings.relativeTolerance > 0) || !(settings.absoluteTolerance > 0))
        throw std::invalid_argument("tolerances must be positive");

    SensitivitySystem system(model, request.inputs, request.sensitivityParameters, request.initialStateSensitivity);
    std::vector<double> x0(model.stateCount());
    if (request.initialState) {
        if (request.initialState->size() != model.stateCount())
            throw std::invalid_argument("the initial state needs " + std::to_string(model.stateCount()) + " values");
        x0 = *request.initialState;
    } else {
        model.initialState(x0.data());
    }
    std::vector<double> z(system.size());
    system.initialState(x0.data(), !request.initialState, z.data());
    for (std::size_t i = 0; i < model.stateCount(); ++i)
        if (!std::isfinite(x0[i]))
            throw IntegrationError(IntegrationError::Reason::NonFiniteState, times.front(),
                                   "the initial value of state " + model.source().stateNames[i] + " is not finite");

    std::vector<double> boundaries{times.front()};
    for (double b : system.inputBreakpoints(times.front(), times.back()))
        boundaries.push_back(b);
    boundaries.push_back(times.back());

    Recorder recorder(model, system, request);
    StepGuard guard(system, model.source().stateNames, settings, request);
    auto rhs = [&system](const std::vector<double>& x, std::vector<double>& dx, double t) {
        system.rhs(t, x.data(), dx.data());
    };

    double lastStep = 0.0;
    switch (settings.method) {
    case IntegrationMethod::Dopri5: {
        using Stepper = odeint::runge_kutta_dopri5<std::vector<double>>;
        auto stepper = settings.maxStep > 0
            ? odeint::make_dense_output(settings.absoluteTolerance, settings.relativeTolerance, settings.maxStep,
                                        Stepper())
            : odeint::make_dense_output(settings.absoluteTolerance, settings.relativeTolerance, Stepper());
        try {
            integrateOverSegments(
                stepper, rhs, z, times, boundaries, initialStep(request, settings), &vectorData,
                [&system](double start, double end) { system.holdInputsOnSegment(start, end); },
                [&recorder](std::size_t k, const double* x) { recorder.record(k, x); },
                [&guard](double t, const double* x, double dt) { guard.afterStep(t, x, dt); });
        } catch (const IntegrationError&) {
            throw;
        } catch (const std::exception& e) {
            const double t = stepper.current_time();
            throw IntegrationError(IntegrationError::Reason::SolverFailure, t,
                                   "integration failed at t = " + data::formatNumber(t, 10) + ": " + e.what());
        }
        lastStep = stepper.current_time_step();
        break;
    }
    case IntegrationMethod::Rosenbrock4: {
        RosenbrockProblem problem;
        problem.size = system.size();
        problem.rhs = [&system](double t, const double* x, double* dx) { system.rhs(t, x, dx); };
        problem.jacobian = [&system](double t, const double* x, double* J, double* dFdt) {
            system.jacobian(t, x, J, dFdt);
        };
        problem.record = [&recorder](std::size_t k, const double* x) { recorder.record(k, x); };
        problem.afterStep = [&guard](double t, const double* x, double dt) { guard.afterStep(t, x, dt); };
        problem.onFailure = [](double t, const char* what) {
            throw IntegrationError(IntegrationError::Reason::SolverFailure, t,
                                   "integration failed at t = " + data::formatNumber(t, 10) + ": " + what);
        };
        problem.boundaries = boundaries;
        problem.beginSegment = [&system](double start, double end) { system.holdInputsOnSegment(start, end); };
        integrateRosenbrock(problem, z, times, settings.absoluteTolerance, settings.relativeTolerance, settings.maxStep,
                            initialStep(request, settings));
        break;
    }
    case IntegrationMethod::SparseImplicit: {
        SparseImplicitCallbacks callbacks;
        callbacks.record = [&recorder](std::size_t k, const double* x) { recorder.record(k, x); };
        callbacks.afterStep = [&guard](double t, const double* x, double dt) { guard.afterStep(t, x, dt); };
        callbacks.onFailure = [](double t, const std::string& what) {
            throw IntegrationError(IntegrationError::Reason::StepSizeUnderflow, t,
                                   "integration failed at t = " + data::formatNumber(t, 10) + ": " + what);
        };
        integrateSparseImplicit(model, system, z, times, boundaries, settings, initialStep(request, settings),
                                callbacks);
        break;
    }
    case IntegrationMethod::ImplicitEuler:
    case IntegrationMethod::CrankNicolson: {
        ThetaMethodCallbacks callbacks;
        callbacks.record = [&recorder](std::size_t k, const double* x) { recorder.record(k, x); };
        callbacks.afterStep = [&guard](double t, const double* x, double dt) { guard.afterStep(t, x, dt); };
        callbacks.onFailure = [](double t, const std::string& what) {
            throw IntegrationError(IntegrationError::Reason::SolverFailure, t,
                                   "integration failed at t = " + data::formatNumber(t, 10) + ": " + what);
        };
        integrateThetaMethod(settings.method == IntegrationMethod::ImplicitEuler ? 1.0 : 0.5, model, system, z, times,
                             settings, callbacks);
        break;
    }
    case IntegrationMethod::RK4:
    case IntegrationMethod::Euler: {
        if (settings.method == IntegrationMethod::Euler)
            checkExplicitEulerStability(model, system, x0, times, settings);
        odeint::runge_kutta4<std::vector<double>> rk4;
        odeint::euler<std::vector<double>> euler;
        recorder.record(0, z.data());
        for (std::size_t k = 1; k < times.size(); ++k) {
            const auto [substeps, h] = fixedSteps(times[k] - times[k - 1], settings.maxStep);
            for (std::size_t s = 0; s < substeps; ++s) {
                const double t = times[k - 1] + static_cast<double>(s) * h;
                if (settings.method == IntegrationMethod::RK4)
                    rk4.do_step(rhs, z, t, h);
                else
                    euler.do_step(rhs, z, t, h);
                guard.afterStep(t + h, z.data(), h);
            }
            recorder.record(k, z.data());
        }
        break;
    }
    }
    Trajectory result = recorder.take();
    result.steps = guard.steps();
    result.lastStep = lastStep;
    return result;
}

}  // namespace sysid::integrate
