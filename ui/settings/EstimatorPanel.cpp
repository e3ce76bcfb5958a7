#include "ui/settings/EstimatorPanel.h"

#include "ui/settings/EquationErrorSettingsWidget.h"
#include "ui/settings/OptimalEstimationSettingsWidget.h"

#include <QBrush>
#include <QColor>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QTableWidgetItem>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace sysid::ui {

namespace {

const char* const kInvalidStyle = "QLineEdit { border: 2px solid #d00000; }";

QString formatValue(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

// The reason text is invalid, empty when it is valid; *value receives the number.
QString checkNumber(const QString& text, bool positive, double* value)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        return QObject::tr("Not a finite number.");
    }
    if (positive && !(v > 0)) {
        return QObject::tr("Must be greater than 0.");
    }
    if (!positive && !(v >= 0)) {
        return QObject::tr("Must be 0 or greater.");
    }
    *value = v;
    return {};
}

}  // namespace

EstimatorPanel::EstimatorPanel(QWidget* parent) : QWidget(parent)
{
    const estimate::FitSettings defaults;

    method_ = new QComboBox(this);
    method_->setObjectName(QStringLiteral("methodCombo"));
    method_->addItem(tr("Output error"), static_cast<int>(estimate::EstimationMethod::OutputError));
    method_->addItem(tr("Multiple shooting"), static_cast<int>(estimate::EstimationMethod::MultipleShooting));
    method_->addItem(tr("Bayes"), static_cast<int>(estimate::EstimationMethod::Bayes));
    method_->addItem(tr("Periodic response"), static_cast<int>(estimate::EstimationMethod::PeriodicResponse));
    method_->addItem(tr("Single-step (equation error)"), static_cast<int>(estimate::EstimationMethod::SingleStep));
    method_->addItem(tr("Multistep (equation error)"), static_cast<int>(estimate::EstimationMethod::Multistep));
    method_->addItem(tr("Steepest descent (seed 003)"), static_cast<int>(estimate::EstimationMethod::SteepestDescent));
    method_->addItem(tr("Optimal estimation (TPBVP)"), kOptimalMethod);

    shootingIntervals_ = new QSpinBox(this);
    shootingIntervals_->setObjectName(QStringLiteral("shootingIntervalsSpin"));
    shootingIntervals_->setRange(1, 100000);
    gain_ = addNumberField(Rule::Positive, defaults.steepestDescentGain, QStringLiteral("gainEdit"));
    gain_->setToolTip(tr("K in θ ← θ − K ∫ Σ (model − measured) ∂model/∂θ dt = θ − (K/2) ∂J/∂θ (seed 003 eq. 4.22), "
                         "J = ∫ Σ (measured − model)² dt (unit weights unless set below); "
                         "seed 003 uses K = 0.02. Too large a gain makes J rise: the fit then stops."));

    sensitivity_ = new QComboBox(this);
    sensitivity_->setObjectName(QStringLiteral("sensitivityCombo"));
    sensitivity_->addItem(tr("Forward (Meissinger)"), static_cast<int>(estimate::SensitivityMethod::Forward));
    sensitivity_->setItemData(0, tr("The parameter-sensitivity equations, integrated with the model: any model."),
                              Qt::ToolTipRole);
    sensitivity_->addItem(tr("Structural (linear models)"), static_cast<int>(estimate::SensitivityMethod::Structural));
    sensitivity_->setItemData(
        1,
        tr("Seed 003's structural-sensitivity method: one sensitivity model of the system's own "
           "structure, driven at each parameter's sensitivity points and propagated by the matrix "
           "exponential. Only for models linear in the states with constant coefficients (e.g. a "
           "linear PDE by the method of lines); the integrator settings do not apply."),
        Qt::ToolTipRole);

    integrator_ = new QComboBox(this);
    integrator_->setObjectName(QStringLiteral("integratorCombo"));
    integrator_->addItem(QStringLiteral("dopri5"), static_cast<int>(integrate::IntegrationMethod::Dopri5));
    integrator_->addItem(QStringLiteral("rosenbrock4"), static_cast<int>(integrate::IntegrationMethod::Rosenbrock4));
    integrator_->addItem(QStringLiteral("rk4"), static_cast<int>(integrate::IntegrationMethod::RK4));
    integrator_->addItem(QStringLiteral("euler"), static_cast<int>(integrate::IntegrationMethod::Euler));
    integrator_->setItemData(
        integrator_->count() - 1,
        tr("Explicit Euler, fixed step (Max step; 0 = one step per sample). On a PDE model it refuses a "
           "step above its stability limit Δx²/(2·max α) and names the limit."),
        Qt::ToolTipRole);
    integrator_->addItem(QStringLiteral("sparse-implicit"),
                         static_cast<int>(integrate::IntegrationMethod::SparseImplicit));
    integrator_->setItemData(integrator_->count() - 1,
                             tr("Adaptive linearly implicit (sparse LU): large stiff models, PDEs."), Qt::ToolTipRole);
    integrator_->addItem(QStringLiteral("implicit-euler"),
                         static_cast<int>(integrate::IntegrationMethod::ImplicitEuler));
    integrator_->setItemData(
        integrator_->count() - 1,
        tr("Implicit Euler (seed 003 eq. 2.18), fixed step (Max step; 0 = one step per sample): order 1, "
           "no step limit, damps stiff modes."),
        Qt::ToolTipRole);
    integrator_->addItem(QStringLiteral("crank-nicolson"),
                         static_cast<int>(integrate::IntegrationMethod::CrankNicolson));
    integrator_->setItemData(
        integrator_->count() - 1,
        tr("Crank–Nicolson, fixed step (Max step; 0 = one step per sample): order 2 and no step limit, "
           "but not L-stable: with a large step the stiff modes of a PDE oscillate instead of decaying."),
        Qt::ToolTipRole);

    rtol_ = addNumberField(Rule::Positive, defaults.integrator.relativeTolerance, QStringLiteral("rtolEdit"));
    atol_ = addNumberField(Rule::Positive, defaults.integrator.absoluteTolerance, QStringLiteral("atolEdit"));
    maxStep_ = addNumberField(Rule::NonNegative, defaults.integrator.maxStep, QStringLiteral("maxStepEdit"));
    maxStep_->setPlaceholderText(tr("0 = no limit"));

    maxIterations_ = new QSpinBox(this);
    maxIterations_->setObjectName(QStringLiteral("maxIterationsSpin"));
    maxIterations_->setRange(0, 1000000);
    costTol_ = addNumberField(Rule::NonNegative, defaults.costTolerance, QStringLiteral("costToleranceEdit"));
    stepTol_ = addNumberField(Rule::NonNegative, defaults.stepTolerance, QStringLiteral("stepToleranceEdit"));
    gradTol_ = addNumberField(Rule::NonNegative, defaults.gradientTolerance, QStringLiteral("gradientToleranceEdit"));

    weights_ = new QTableWidget(0, 2, this);
    weights_->setObjectName(QStringLiteral("weightTable"));
    weights_->setHorizontalHeaderLabels({tr("Output"), tr("Weight")});
    weights_->verticalHeader()->setVisible(false);
    weights_->horizontalHeader()->setStretchLastSection(true);
    weights_->setToolTip(tr("Empty = automatic weight 1/σ² with σ estimated from the data."));

    period_ = addNumberField(Rule::NonNegative, defaults.periodic.period, QStringLiteral("periodEdit"));
    period_->setToolTip(tr("Forcing period T; used when no frequency parameter is named."));
    frequencyParameter_ = new QLineEdit(this);
    frequencyParameter_->setObjectName(QStringLiteral("frequencyParameterEdit"));
    frequencyParameter_->setPlaceholderText(tr("e.g. w: T = 2π / w"));
    periods_ = new QSpinBox(this);
    periods_->setObjectName(QStringLiteral("periodsSpin"));
    periods_->setRange(1, 1000);
    periods_->setToolTip(tr("n for an n·T-periodic (subharmonic) response."));
    periodicSolver_ = new QComboBox(this);
    periodicSolver_->setObjectName(QStringLiteral("periodicSolverCombo"));
    periodicSolver_->addItem(tr("Shooting"), static_cast<int>(estimate::PeriodicSolver::Shooting));
    periodicSolver_->addItem(tr("Time discretisation"), static_cast<int>(estimate::PeriodicSolver::Discretisation));
    periodicIntervals_ = new QSpinBox(this);
    periodicIntervals_->setObjectName(QStringLiteral("periodicIntervalsSpin"));
    periodicIntervals_->setRange(1, 10000);
    nodes_ = new QSpinBox(this);
    nodes_->setObjectName(QStringLiteral("nodesSpin"));
    nodes_->setRange(4, 100000);

    run_ = new QPushButton(tr("Run"), this);
    run_->setObjectName(QStringLiteral("runButton"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName(QStringLiteral("cancelButton"));
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("progressBar"));
    progress_->setTextVisible(false);

    auto* methodBox = new QGroupBox(tr("Method"), this);
    auto* methodForm = new QFormLayout(methodBox);
    methodForm->addRow(tr("Estimator"), method_);
    methodForm->addRow(tr("Shooting intervals"), shootingIntervals_);
    methodForm->addRow(tr("Gain K"), gain_);
    gainLabel_ = methodForm->labelForField(gain_);
    methodForm->addRow(tr("Sensitivities"), sensitivity_);
    sensitivityLabel_ = methodForm->labelForField(sensitivity_);

    periodicBox_ = new QGroupBox(tr("Periodic response"), this);
    periodicBox_->setObjectName(QStringLiteral("periodicBox"));
    auto* periodicForm = new QFormLayout(periodicBox_);
    periodicForm->addRow(tr("Frequency parameter"), frequencyParameter_);
    periodicForm->addRow(tr("Period"), period_);
    periodicForm->addRow(tr("Periods (n·T)"), periods_);
    periodicForm->addRow(tr("Solver"), periodicSolver_);
    periodicForm->addRow(tr("Shooting intervals"), periodicIntervals_);
    periodicForm->addRow(tr("Nodes per period"), nodes_);

    auto* integratorBox = new QGroupBox(tr("Integrator"), this);
    integratorBox_ = integratorBox;
    auto* integratorForm = new QFormLayout(integratorBox);
    integratorForm->addRow(tr("Method"), integrator_);
    integratorForm->addRow(tr("Relative tolerance"), rtol_);
    integratorForm->addRow(tr("Absolute tolerance"), atol_);
    integratorForm->addRow(tr("Max step"), maxStep_);

    auto* stopBox = new QGroupBox(tr("Stopping"), this);
    auto* stopForm = new QFormLayout(stopBox);
    stopForm->addRow(tr("Max iterations"), maxIterations_);
    stopForm->addRow(tr("Cost tolerance"), costTol_);
    stopForm->addRow(tr("Step tolerance"), stepTol_);
    stopForm->addRow(tr("Gradient tolerance"), gradTol_);

    auto* weightBox = new QGroupBox(tr("Output weights"), this);
    auto* weightLayout = new QVBoxLayout(weightBox);
    weightLayout->addWidget(weights_);
    weightBox_ = weightBox;

    equationError_ = new EquationErrorSettingsWidget(this);
    equationError_->setObjectName(QStringLiteral("equationErrorSettings"));
    equationErrorBox_ = new QGroupBox(tr("Equation error"), this);
    equationErrorBox_->setObjectName(QStringLiteral("equationErrorBox"));
    auto* equationErrorLayout = new QVBoxLayout(equationErrorBox_);
    equationErrorLayout->addWidget(equationError_);

    optimal_ = new OptimalEstimationSettingsWidget(this);
    optimal_->setObjectName(QStringLiteral("optimalSettings"));
    optimalBox_ = new QGroupBox(tr("Optimal estimation"), this);
    optimalBox_->setObjectName(QStringLiteral("optimalBox"));
    auto* optimalLayout = new QVBoxLayout(optimalBox_);
    optimalLayout->addWidget(optimal_);
    fitOnly_ = {integratorBox, stopBox, weightBox};

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    buttons->addWidget(progress_, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(methodBox);
    layout->addWidget(periodicBox_);
    layout->addWidget(equationErrorBox_, 1);
    layout->addWidget(integratorBox);
    layout->addWidget(stopBox);
    layout->addWidget(weightBox, 1);
    layout->addWidget(optimalBox_, 1);
    layout->addLayout(buttons);

    connect(method_, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        emitChanged();
    });
    connect(integrator_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_) {
            integratorChosen_ = true;  // a pick by hand: the model no longer decides
            showIntegrator(static_cast<integrate::IntegrationMethod>(integrator_->currentData().toInt()));
        }
        emitChanged();
    });
    connect(sensitivity_, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        emitChanged();
    });
    connect(shootingIntervals_, &QSpinBox::valueChanged, this, &EstimatorPanel::emitChanged);
    connect(maxIterations_, &QSpinBox::valueChanged, this, &EstimatorPanel::emitChanged);
    connect(frequencyParameter_, &QLineEdit::textEdited, this, [this] {
        updateEnabled();
        emitChanged();
    });
    connect(periods_, &QSpinBox::valueChanged, this, &EstimatorPanel::emitChanged);
    connect(periodicSolver_, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        emitChanged();
    });
    connect(periodicIntervals_, &QSpinBox::valueChanged, this, &EstimatorPanel::emitChanged);
    connect(nodes_, &QSpinBox::valueChanged, this, &EstimatorPanel::emitChanged);
    connect(weights_, &QTableWidget::itemChanged, this, &EstimatorPanel::weightEdited);
    connect(optimal_, &OptimalEstimationSettingsWidget::settingsChanged, this, &EstimatorPanel::optimalSettingsChanged);
    connect(equationError_, &EquationErrorSettingsWidget::settingsChanged, this, &EstimatorPanel::emitChanged);
    connect(run_, &QPushButton::clicked, this, &EstimatorPanel::runRequested);
    connect(cancel_, &QPushButton::clicked, this, &EstimatorPanel::cancelRequested);

    setSettings(defaults);
    setRunning(false);
}

QLineEdit* EstimatorPanel::addNumberField(Rule rule, double value, const QString& objectName)
{
    auto* edit = new QLineEdit(this);
    edit->setObjectName(objectName);
    fields_[edit] = NumberField{edit, rule, value, true};
    edit->setText(formatValue(value));
    connect(edit, &QLineEdit::textEdited, this, [this, edit] { numberEdited(edit); });
    return edit;
}

void EstimatorPanel::numberEdited(QLineEdit* edit)
{
    NumberField& field = fields_.at(edit);
    double value = field.value;
    const QString problem = checkNumber(edit->text(), field.rule == Rule::Positive, &value);
    field.valid = problem.isEmpty();
    if (field.valid) {
        field.value = value;
        edit->setStyleSheet(QString());
        edit->setToolTip(QString());
    } else {
        edit->setStyleSheet(QString::fromLatin1(kInvalidStyle));
        edit->setToolTip(tr("%1 The last valid value %2 is used.").arg(problem, formatValue(field.value)));
    }
    emitChanged();
}

void EstimatorPanel::setNumber(QLineEdit* edit, double value)
{
    NumberField& field = fields_.at(edit);
    double checked = field.value;
    if (checkNumber(formatValue(value), field.rule == Rule::Positive, &checked).isEmpty()) {
        field.value = checked;
    }
    field.valid = true;
    edit->setText(formatValue(field.value));
    edit->setStyleSheet(QString());
    edit->setToolTip(QString());
}

double EstimatorPanel::number(QLineEdit* edit) const
{
    return fields_.at(edit).value;
}

bool EstimatorPanel::isValid() const
{
    for (const auto& [edit, field] : fields_) {
        if (!field.valid) {
            return false;
        }
    }
    if (optimalSelected() && !optimal_->isValid()) {
        return false;
    }
    if (!equationError_->isValid()) {
        return false;
    }
    for (const auto& [name, invalid] : weightInvalid_) {
        if (invalid && (outputs_.isEmpty() || outputs_.contains(QString::fromStdString(name)))) {
            return false;
        }
    }
    return true;
}

void EstimatorPanel::setOutputs(const QStringList& outputs)
{
    outputs_ = outputs;
    rebuildWeightTable();
    emitChanged();
}

void EstimatorPanel::setStates(const QStringList& states)
{
    equationError_->setStates(states);
}

void EstimatorPanel::rebuildWeightTable()
{
    const QSignalBlocker blocker(weights_);
    weights_->setRowCount(static_cast<int>(outputs_.size()));
    for (int row = 0; row < static_cast<int>(outputs_.size()); ++row) {
        const QString& name = outputs_[row];
        auto* nameItem = new QTableWidgetItem(name);
        nameItem->setFlags(nameItem->flags() & ~Qt::ItemIsEditable);
        weights_->setItem(row, 0, nameItem);
        const auto it = weightValues_.find(name.toStdString());
        auto* weightItem = new QTableWidgetItem(it == weightValues_.end() ? QString() : formatValue(it->second));
        weightInvalid_[name.toStdString()] = false;
        weights_->setItem(row, 1, weightItem);
    }
}

void EstimatorPanel::weightEdited(QTableWidgetItem* item)
{
    if (!item || item->column() != 1) {
        return;
    }
    const QTableWidgetItem* nameItem = weights_->item(item->row(), 0);
    if (!nameItem) {
        return;
    }
    const std::string name = nameItem->text().toStdString();
    const QSignalBlocker blocker(weights_);
    const QString text = item->text().trimmed();
    if (text.isEmpty()) {
        weightValues_.erase(name);
        weightInvalid_[name] = false;
        item->setBackground(QBrush());
        item->setToolTip(QString());
    } else {
        double value = 0.0;
        const QString problem = checkNumber(text, false, &value);
        if (problem.isEmpty()) {
            weightValues_[name] = value;
            weightInvalid_[name] = false;
            item->setBackground(QBrush());
            item->setToolTip(QString());
        } else {
            weightInvalid_[name] = true;
            item->setBackground(QBrush(QColor(255, 200, 200)));
            const auto it = weightValues_.find(name);
            item->setToolTip(tr("%1 The last valid weight (%2) is used.")
                                 .arg(problem, it == weightValues_.end() ? tr("automatic") : formatValue(it->second)));
        }
    }
    emitChanged();
}

void EstimatorPanel::setDefaultIntegrator(integrate::IntegrationMethod method)
{
    defaultIntegrator_ = method;
    if (!integratorChosen_) {
        updating_ = true;
        showIntegrator(method);
        updating_ = false;
    }
}

void EstimatorPanel::showIntegrator(integrate::IntegrationMethod method)
{
    integrator_->setCurrentIndex(std::max(0, integrator_->findData(static_cast<int>(method))));
    const QString name = QString::fromStdString(integrate::methodName(defaultIntegrator_));
    if (integratorChosen_) {
        integrator_->setToolTip(
            tr("Chosen by hand: kept when the model changes (the model's default would be %1).").arg(name));
    } else if (defaultIntegrator_ == integrate::IntegrationMethod::SparseImplicit) {
        integrator_->setToolTip(
            tr("Not chosen, so the model decides: %1, because a model with fields (a PDE by the method of "
               "lines) is stiff and its Jacobian sparse. Pick another method to keep it.")
                .arg(name));
    } else {
        integrator_->setToolTip(tr("Not chosen, so the model decides: %1 (models with fields get sparse-implicit). "
                                   "Pick another method to keep it.")
                                    .arg(name));
    }
}

void EstimatorPanel::setSettings(const estimate::FitSettings& settings)
{
    updating_ = true;
    base_ = settings;
    if (!optimalSelected()) {
        method_->setCurrentIndex(std::max(0, method_->findData(static_cast<int>(settings.method))));
    }
    shootingIntervals_->setValue(static_cast<int>(
        std::min<std::size_t>(settings.shootingIntervals, static_cast<std::size_t>(shootingIntervals_->maximum()))));
    sensitivity_->setCurrentIndex(std::max(0, sensitivity_->findData(static_cast<int>(settings.sensitivity))));
    integratorChosen_ = settings.integrator.methodChosen;
    showIntegrator(integratorChosen_ ? settings.integrator.method : defaultIntegrator_);
    setNumber(rtol_, settings.integrator.relativeTolerance);
    setNumber(atol_, settings.integrator.absoluteTolerance);
    setNumber(maxStep_, settings.integrator.maxStep);
    maxIterations_->setValue(static_cast<int>(
        std::min<std::size_t>(settings.maxIterations, static_cast<std::size_t>(maxIterations_->maximum()))));
    setNumber(costTol_, settings.costTolerance);
    setNumber(gain_, settings.steepestDescentGain);
    setNumber(stepTol_, settings.stepTolerance);
    setNumber(gradTol_, settings.gradientTolerance);
    setNumber(period_, settings.periodic.period);
    frequencyParameter_->setText(QString::fromStdString(settings.periodic.frequencyParameter));
    periods_->setValue(static_cast<int>(std::min<std::size_t>(settings.periodic.periods, 1000)));
    periodicSolver_->setCurrentIndex(
        std::max(0, periodicSolver_->findData(static_cast<int>(settings.periodic.solver))));
    periodicIntervals_->setValue(static_cast<int>(std::min<std::size_t>(settings.periodic.intervals, 10000)));
    nodes_->setValue(static_cast<int>(std::clamp<std::size_t>(settings.periodic.nodes, 4, 100000)));
    weightValues_ = settings.outputWeights;
    weightInvalid_.clear();
    rebuildWeightTable();
    equationError_->setSettings(settings.equationError);
    updateEnabled();
    updating_ = false;
    emit settingsChanged();
}

estimate::FitSettings EstimatorPanel::settings() const
{
    estimate::FitSettings s = base_;
    if (!optimalSelected()) {
        s.method = static_cast<estimate::EstimationMethod>(method_->currentData().toInt());
    }
    s.shootingIntervals = static_cast<std::size_t>(shootingIntervals_->value());
    // The choice stays in the combo while another method is shown, but only applies where it can.
    s.sensitivity =
        structuralSelected() ? estimate::SensitivityMethod::Structural : estimate::SensitivityMethod::Forward;
    s.integrator.method = static_cast<integrate::IntegrationMethod>(integrator_->currentData().toInt());
    s.integrator.methodChosen = integratorChosen_;
    s.integrator.relativeTolerance = number(rtol_);
    s.integrator.absoluteTolerance = number(atol_);
    s.integrator.maxStep = number(maxStep_);
    s.maxIterations = static_cast<std::size_t>(maxIterations_->value());
    s.costTolerance = number(costTol_);
    s.steepestDescentGain = number(gain_);
    s.stepTolerance = number(stepTol_);
    s.gradientTolerance = number(gradTol_);
    s.periodic.period = number(period_);
    s.periodic.frequencyParameter = frequencyParameter_->text().trimmed().toStdString();
    s.periodic.periods = static_cast<std::size_t>(periods_->value());
    s.periodic.solver = static_cast<estimate::PeriodicSolver>(periodicSolver_->currentData().toInt());
    s.periodic.intervals = static_cast<std::size_t>(periodicIntervals_->value());
    s.periodic.nodes = static_cast<std::size_t>(nodes_->value());
    s.equationError = equationError_->settings();
    s.equationError.differentiation = base_.equationError.differentiation;  // a preprocessing setting
    s.outputWeights.clear();
    for (const auto& [name, weight] : weightValues_) {
        if (outputs_.isEmpty() || outputs_.contains(QString::fromStdString(name))) {
            s.outputWeights[name] = weight;
        }
    }
    return s;
}

void EstimatorPanel::setRunning(bool running)
{
    running_ = running;
    run_->setEnabled(!running);
    cancel_->setEnabled(running);
    if (running) {
        progress_->setRange(0, 0);  // busy indicator
    } else {
        progress_->setRange(0, 1);
        progress_->setValue(0);
    }
}

bool EstimatorPanel::optimalSelected() const
{
    return method_->currentData().toInt() == kOptimalMethod;
}

bool EstimatorPanel::structuralSelected() const
{
    return !optimalSelected() &&
        estimate::acceptsSensitivityMethod(static_cast<estimate::EstimationMethod>(method_->currentData().toInt())) &&
        static_cast<estimate::SensitivityMethod>(sensitivity_->currentData().toInt()) ==
        estimate::SensitivityMethod::Structural;
}

void EstimatorPanel::updateEnabled()
{
    const bool optimal = optimalSelected();
    const auto method = static_cast<estimate::EstimationMethod>(method_->currentData().toInt());
    shootingIntervals_->setEnabled(!optimal && method == estimate::EstimationMethod::MultipleShooting);
    const bool steepest = !optimal && method == estimate::EstimationMethod::SteepestDescent;
    gain_->setVisible(steepest);
    if (gainLabel_)
        gainLabel_->setVisible(steepest);
    const bool takesSensitivity = !optimal && estimate::acceptsSensitivityMethod(method);
    sensitivity_->setVisible(takesSensitivity);
    if (sensitivityLabel_)
        sensitivityLabel_->setVisible(takesSensitivity);
    // The structural method propagates by the matrix exponential: no integrator runs.
    integratorBox_->setEnabled(!structuralSelected());
    integratorBox_->setToolTip(structuralSelected() ? tr("Not used: the structural-sensitivity method propagates the "
                                                         "linear model exactly by the matrix exponential.")
                                                    : QString());
    // Hidden, not only disabled: the periodic settings mean nothing to the other methods.
    periodicBox_->setVisible(!optimal && method == estimate::EstimationMethod::PeriodicResponse);
    // A named frequency parameter sets the period per experiment; the fixed period is then unused.
    period_->setEnabled(frequencyParameter_->text().trimmed().isEmpty());
    const bool discretisation = static_cast<estimate::PeriodicSolver>(periodicSolver_->currentData().toInt()) ==
        estimate::PeriodicSolver::Discretisation;
    nodes_->setEnabled(discretisation);
    optimalBox_->setVisible(optimal);
    for (QWidget* box : fitOnly_) {
        box->setVisible(!optimal);
    }
    const bool equationError = !optimal && estimate::isEquationError(method);
    equationError_->setMethod(method);
    equationErrorBox_->setVisible(equationError);
    // The equation error weighs states, not outputs.
    weightBox_->setVisible(!optimal && !equationError);
}

void EstimatorPanel::emitChanged()
{
    if (!updating_) {
        emit settingsChanged();
    }
}

}  // namespace sysid::ui
