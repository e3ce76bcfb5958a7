#pragma once

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/Constraints.h"
#include "engine/integrate/Discontinuities.h"
#include "engine/integrate/InputSignals.h"
#include "engine/integrate/OdeSystem.h"

#include <Eigen/Dense>

#include <memory>
#include <string_view>
#include <vector>

namespace sysid::integrate {

// A compiled model (with its current parameters) as an OdeSystem: f, its exact derivatives and
// second derivatives from the model's symbolic ones, the model's parameters as the sensitivity
// parameters, and the model's inputs read from `inputs` (which must outlive this object and its
// clones). It evaluates the caller's `model` (which must outlive it); each clone owns a copy,
// since compiled evaluators are not thread-safe. Its switches and resets are located by the
// integrator through the Discontinuities interface; the algebraic variables and invariants of a
// model with constraints through the Constraints interface.
class ModelSystem final : public OdeSystem, public Discontinuities, public Constraints {
public:
    // Throws std::invalid_argument when the model has inputs and `inputs` does not give one signal
    // per model input.
    explicit ModelSystem(eval::CompiledModel& model, const InputSignals* inputs = nullptr);

    std::size_t dimension() const override { return model_->stateCount(); }
    std::unique_ptr<OdeSystem> clone() const override;

    void rhs(double t, const double* x, double* f) override;
    void jacobian(double t, const double* x, double* J, double* dfdt) override;
    void rhsAndStateJacobian(double t, const double* x, double* f, double* J) override;

    const JacobianPattern& statePattern() const override { return statePattern_; }
    void rhsAndJacobianValues(double t, const double* x, double* f, double* stateValues,
                              double* parameterValues) override;

    std::size_t parameterCount() const override { return model_->parameterCount(); }
    const JacobianPattern& parameterPattern() const override { return parameterPattern_; }
    void rhsAndJacobians(double t, const double* x, double* f, double* J, double* Jp) override;
    // Both throw core::InternalError when the model was compiled without them (eval::CompileOptions).
    void secondDerivatives(double t, const double* x, SecondDerivatives& out) override;
    void requireSecondDerivatives(std::string_view user) const override;
    bool sensitivityRhs(double t, const double* x, const double* S, std::size_t columns, const int* columnOfParameter,
                        bool parameters, double* f, double* dS) override;
    const SensitivityKernel* sensitivityKernel() override { return &kernel_; }

    bool dependsOnTime() const override;
    std::vector<double> breakpoints(double t0, double t1) const override;  // the inputs' sample times
    bool continuousAtBreakpoints() const override;  // no input is held (zero-order hold)
    void beginSegment(double start, double end) override;
    void releaseSegment() override;
    std::string stateName(std::size_t i) const override;
    Discontinuities* discontinuities() override;

    std::size_t switchCount() const override { return model_->switchCount(); }
    std::size_t eventCount() const override { return model_->eventCount(); }
    void holdModes(const std::vector<double>& modes, const std::vector<char>& sliding) override;
    void releaseModes() override;
    void switchingFunctions(double t, const double* x, double* g) override;
    void currentModes(double t, const double* x, double* m) override;
    void rates(double t, const double* x, const std::vector<double>& m, double* a) override;
    double switchingGradient(double t, const double* x, std::size_t i, double* gx, double* gp) override;
    void eventConditions(double t, const double* x, double* g) override;
    int eventDirection(std::size_t k) const override { return model_->source().events[k].direction; }
    double eventGradient(double t, const double* x, std::size_t k, double* gx, double* gp) override;
    void reset(double t, const double* x, std::size_t k, double* next, double* hx, double* hp, double* ht) override;
    std::string switchName(std::size_t i) const override;
    std::string eventName(std::size_t k) const override;

    Constraints* constraints() override;
    std::size_t algebraicCount() const override { return model_->source().constraints.algebraic; }
    std::size_t invariantCount() const override { return model_->invariantCount(); }
    void invariants(double t, const double* x, double* G, double* Gx, double* Gp) override;
    std::string invariantName(std::size_t i) const override;
    std::vector<char> heldInitialState() const override { return model_->source().constraints.heldInitial; }
    void stabilise(double alpha, double beta) override;

    // Sets the model at (t, x, u(t)), e.g. for evaluating its outputs.
    void setPoint(double t, const double* x);
    eval::CompiledModel& model() { return *model_; }
    const eval::CompiledModel& model() const { return *model_; }
    const InputSignals* inputs() const { return inputs_; }

private:
    ModelSystem(std::unique_ptr<eval::CompiledModel> owned, const InputSignals* inputs);
    void inputValues(double t, double* u, double* du);
    // The model evaluated at (t, x) directly (CompiledModel's calls at a point): no sliding modes
    // to solve and no Baumgarte terms that read the model's point.
    bool direct() const { return slidingList_.empty() && G_.empty(); }
    void setInputsAt(double t)
    {
        if (!u_.empty()) {
            inputValues(t, u_.data(), nullptr);
            model_->setInputs(u_.data());
        }
    }
    // kernel_ from the model's native code on its held modes, where the point needs no more than the
    // variables and the inputs' lines on the held segment: no sliding modes, no Baumgarte terms, no
    // spline input and no input read outside a held segment.
    void updateKernel();
    // setPoint, and the sliding switches' modes solved there (with their derivatives in x and p
    // when `derivatives`).
    void prepare(double t, const double* x, bool derivatives);
    void solveSliding(double t, bool derivatives);
    // a_i = L_i + dg_i/du du/dt on the held modes, with dL/dx, dL/dp, dL/dm when asked.
    void slidingRates(bool derivatives);
    // df/dx += df/dm dm/dx and df/dp += df/dm dm/dp for the sliding modes (dense, column-major).
    void addSlidingTerms(double* J, double* Jp);
    void addSlidingTermsToValues(double* stateValues, double* parameterValues);
    // Row i of a dense (rows x columns) column-major array.
    void gradientRow(std::size_t i, std::size_t rows, double t, const std::vector<double>& gx,
                     const std::vector<double>& gp, const std::vector<double>& gtu, double* outX, double* outP,
                     double& outT) const;

    std::unique_ptr<eval::CompiledModel> owned_;
    eval::CompiledModel* model_;
    const InputSignals* inputs_;
    JacobianPattern statePattern_, parameterPattern_;
    std::vector<double> u_, du_, timeInput_, parameterScratch_, hessian_, mixed_;
    std::vector<std::size_t> hints_;  // per input: the sample segment last read
    SensitivityKernel kernel_;
    InputPieces held_;  // the inputs' pieces on the current segment, if held

    // Switches held by the integrator (Discontinuities).
    double time_ = 0.0;  // of the last setPoint, for messages
    bool switchesOnInputs_ = false;  // a switching function depends on an input (its slope enters the rates)
    std::vector<double> modes_;
    std::vector<char> sliding_;
    std::vector<std::size_t> slidingList_;
    Eigen::VectorXd lie_, rate_;
    Eigen::MatrixXd lieX_, lieP_, lieM_, gradTU_, modeJacobian_, slidingX_, slidingP_;
    std::vector<double> gx_, gp_, gtu_, h_, hx_, hp_, htu_;
    std::vector<int> stateEntry_, parameterEntry_;  // dense index -> pattern entry, or -1 (built when sliding)

    // Baumgarte's terms on the algebraic rows of a model with constraints (Constraints::stabilise).
    // The patterns hold the model's own entries first, then those the terms add.
    void addBaumgarte(double* f, double* J, double* Jp, double* dfdt, double* stateValues, double* parameterValues);
    struct BaumgarteEntry {
        std::size_t position;  // in the pattern's values
        std::size_t invariant, column;
        bool first;  // 2 alpha G^(k-1), else beta^2 G^(k-2)
    };
    double alpha_ = 0.0, beta_ = 0.0;
    std::size_t ownStateEntries_ = 0, ownParameterEntries_ = 0;
    std::vector<BaumgarteEntry> baumgarteState_, baumgarteParameter_;
    std::vector<double> G_, Gx_, Gp_, Gtu_;
};

}  // namespace sysid::integrate
