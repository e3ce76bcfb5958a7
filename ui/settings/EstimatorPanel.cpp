#include "ui/settings/IntersampleTable.h"
#include "ui/settings/EstimatorPanel.h"

#include "ui/settings/EnumCombo.h"
#include "ui/settings/EquationErrorSettingsWidget.h"
#include "ui/settings/OptimalEstimationSettingsWidget.h"

#include "engine/estimate/FitSettingFields.h"
#include "engine/estimate/MethodTraits.h"

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

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// The rule of the number (or NAME -> number) setting `key` (estimate::fitSettingFields).
core::NumberRule ruleOf(const std::string& key)
{
    using S = estimate::FitSettings;
    const auto* field = core::findField(estimate::fitSettingFields(), key);
    if (const auto* number = field ? std::get_if<core::NumberAccess<S>>(&field->access) : nullptr)
        return number->rule;
    if (const auto* map = field ? std::get_if<core::NumberMapAccess<S>>(&field->access) : nullptr)
        return map->rule;
    return {};
}

// The reason text is invalid, empty when it is valid; *value receives the number.
QString checkNumber(const QString& entry, const core::NumberRule& rule, double* value)
{
    bool ok = false;
    const double v = entry.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        return QObject::tr("Not a finite number.");
    }
    if (!rule.accepts(v)) {
        return QObject::tr("Expected %1.").arg(QString::fromStdString(rule.describe()));
    }
    *value = v;
    return {};
}

// The help line of setting `key`, as a tooltip.
QString helpOf(const std::string& key)
{
    const auto* field = core::findField(estimate::fitSettingFields(), key);
    return field ? text(field->names.help) : QString();
}

}  // namespace

EstimatorPanel::EstimatorPanel(QWidget* parent) : QWidget(parent)
{
    const estimate::FitSettings defaults;

    method_ = new QComboBox(this);
    method_->setObjectName(QStringLiteral("methodCombo"));
    fillCombo(method_, estimate::kEstimationMethods);
    method_->addItem(tr("Optimal estimation (TPBVP)"), kOptimalMethod);
    method_->setItemData(method_->count() - 1,
                         tr("States, inputs and parameters of one record as a two-point boundary value problem "
                            "(Rutten 1993)"),
                         Qt::ToolTipRole);

    shootingIntervals_ = new QSpinBox(this);
    shootingIntervals_->setObjectName(QStringLiteral("shootingIntervalsSpin"));
    shootingIntervals_->setRange(1, 100000);
    shootingIntervals_->setToolTip(helpOf("shooting_intervals"));
    gain_ = addNumberField("steepest_descent_gain", defaults.steepestDescentGain, QStringLiteral("gainEdit"));
    gain_->setToolTip(helpOf("steepest_descent_gain"));

    sensitivity_ = new QComboBox(this);
    sensitivity_->setObjectName(QStringLiteral("sensitivityCombo"));
    fillCombo(sensitivity_, estimate::kSensitivityMethods);

    integrator_ = new QComboBox(this);
    integrator_->setObjectName(QStringLiteral("integratorCombo"));
    fillCombo(integrator_, integrate::kIntegrationMethods);

    rtol_ = addNumberField("integrator.rtol", defaults.integrator.relativeTolerance, QStringLiteral("rtolEdit"));
    atol_ = addNumberField("integrator.atol", defaults.integrator.absoluteTolerance, QStringLiteral("atolEdit"));
    maxStep_ = addNumberField("integrator.max_step", defaults.integrator.maxStep, QStringLiteral("maxStepEdit"));
    maxStep_->setPlaceholderText(tr("0 = no limit"));

    maxIterations_ = new QSpinBox(this);
    maxIterations_->setObjectName(QStringLiteral("maxIterationsSpin"));
    maxIterations_->setRange(0, 1000000);
    maxIterations_->setToolTip(helpOf("max_iterations"));
    costTol_ = addNumberField("cost_tolerance", defaults.costTolerance, QStringLiteral("costToleranceEdit"));
    stepTol_ = addNumberField("step_tolerance", defaults.stepTolerance, QStringLiteral("stepToleranceEdit"));
    gradTol_ =
        addNumberField("gradient_tolerance", defaults.gradientTolerance, QStringLiteral("gradientToleranceEdit"));

    weights_ = new QTableWidget(0, 2, this);
    weights_->setObjectName(QStringLiteral("weightTable"));
    weights_->setHorizontalHeaderLabels({tr("Output"), tr("Weight")});
    weights_->verticalHeader()->setVisible(false);
    weights_->horizontalHeader()->setStretchLastSection(true);
    weights_->setToolTip(tr("Empty = automatic weight 1/σ² with σ estimated from the data."));

    period_ = addNumberField("periodic.period", defaults.periodic.period, QStringLiteral("periodEdit"));
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
    fillCombo(periodicSolver_, discretise::kPeriodicSolvers);
    periodicIntervals_ = new QSpinBox(this);
    periodicIntervals_->setObjectName(QStringLiteral("periodicIntervalsSpin"));
    periodicIntervals_->setRange(1, 10000);
    nodes_ = new QSpinBox(this);
    nodes_->setObjectName(QStringLiteral("nodesSpin"));
    nodes_->setRange(4, 100000);
    nodes_->setToolTip(helpOf("periodic.nodes"));
    scheme_ = new QComboBox(this);
    scheme_->setObjectName(QStringLiteral("schemeCombo"));
    fillCombo(scheme_, discretise::kPeriodicSchemes);
    settle_ = new QSpinBox(this);
    settle_->setObjectName(QStringLiteral("settleSpin"));
    settle_->setRange(1, 100000);
    settle_->setToolTip(helpOf("periodic.settle_periods"));

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
    periodicForm->addRow(tr("Scheme"), scheme_);
    periodicForm->addRow(tr("Settling periods"), settle_);

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

    intersample_ = new IntersampleTable(this);
    intersampleBox_ = new QGroupBox(tr("Inputs between samples"), this);
    intersampleBox_->setObjectName(QStringLiteral("intersampleBox"));
    auto* intersampleLayout = new QVBoxLayout(intersampleBox_);
    intersampleLayout->addWidget(intersample_);
    intersampleBox_->setVisible(false);

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
    connect(intersample_, &IntersampleTable::changed, this, [this] { emitChanged(); });

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
    layout->addWidget(intersampleBox_);
    layout->addWidget(optimalBox_, 1);
    layout->addLayout(buttons);

    connect(method_, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        emitChanged();
    });
    connect(integrator_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_) {
            integratorChosen_ = true;  // a pick by hand: the model no longer decides
            showIntegrator(comboValue<integrate::IntegrationMethod>(integrator_));
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
    connect(scheme_, &QComboBox::currentIndexChanged, this, &EstimatorPanel::emitChanged);
    connect(settle_, &QSpinBox::valueChanged, this, &EstimatorPanel::emitChanged);
    connect(weights_, &QTableWidget::itemChanged, this, &EstimatorPanel::weightEdited);
    connect(optimal_, &OptimalEstimationSettingsWidget::settingsChanged, this, &EstimatorPanel::optimalSettingsChanged);
    connect(equationError_, &EquationErrorSettingsWidget::settingsChanged, this, &EstimatorPanel::emitChanged);
    connect(run_, &QPushButton::clicked, this, &EstimatorPanel::runRequested);
    connect(cancel_, &QPushButton::clicked, this, &EstimatorPanel::cancelRequested);

    setSettings(defaults);
    setRunning(false);
}

QLineEdit* EstimatorPanel::addNumberField(const std::string& key, double value, const QString& objectName)
{
    auto* edit = new QLineEdit(this);
    edit->setObjectName(objectName);
    fields_[edit] = NumberField{edit, ruleOf(key), value, true};
    edit->setText(formatValue(value));
    connect(edit, &QLineEdit::textEdited, this, [this, edit] { numberEdited(edit); });
    return edit;
}

void EstimatorPanel::numberEdited(QLineEdit* edit)
{
    NumberField& field = fields_.at(edit);
    double value = field.value;
    const QString problem = checkNumber(edit->text(), field.rule, &value);
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
    if (checkNumber(formatValue(value), field.rule, &checked).isEmpty()) {
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

void EstimatorPanel::setInputs(const QStringList& inputs)
{
    intersample_->setInputs(inputs);
    intersampleBox_->setVisible(!inputs.isEmpty() && !optimalSelected());
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
    const QString entry = item->text().trimmed();
    if (entry.isEmpty()) {
        weightValues_.erase(name);
        weightInvalid_[name] = false;
        item->setBackground(QBrush());
        item->setToolTip(QString());
    } else {
        double value = 0.0;
        const QString problem = checkNumber(entry, ruleOf("output_weights"), &value);
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
    intersample_->setChoices(settings.intersample);
    if (!optimalSelected()) {
        showComboValue(method_, settings.method);
    }
    shootingIntervals_->setValue(static_cast<int>(
        std::min<std::size_t>(settings.shootingIntervals, static_cast<std::size_t>(shootingIntervals_->maximum()))));
    showComboValue(sensitivity_, settings.sensitivity);
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
    showComboValue(periodicSolver_, settings.periodic.solver);
    periodicIntervals_->setValue(static_cast<int>(std::min<std::size_t>(settings.periodic.intervals, 10000)));
    nodes_->setValue(static_cast<int>(std::clamp<std::size_t>(settings.periodic.nodes, 4, 100000)));
    showComboValue(scheme_, settings.periodic.scheme);
    settle_->setValue(static_cast<int>(std::clamp<std::size_t>(settings.periodic.settlePeriods, 1, 100000)));
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
    s.intersample = intersample_->choices();
    if (!optimalSelected()) {
        s.method = comboValue<estimate::EstimationMethod>(method_);
    }
    s.shootingIntervals = static_cast<std::size_t>(shootingIntervals_->value());
    // The choice stays in the combo while another method is shown, but only applies where it can.
    s.sensitivity =
        structuralSelected() ? estimate::SensitivityMethod::Structural : estimate::SensitivityMethod::Forward;
    s.integrator.method = comboValue<integrate::IntegrationMethod>(integrator_);
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
    s.periodic.solver = comboValue<discretise::PeriodicSolver>(periodicSolver_);
    s.periodic.intervals = static_cast<std::size_t>(periodicIntervals_->value());
    s.periodic.nodes = static_cast<std::size_t>(nodes_->value());
    s.periodic.scheme = comboValue<discretise::PeriodicScheme>(scheme_);
    s.periodic.settlePeriods = static_cast<std::size_t>(settle_->value());
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

bool EstimatorPanel::takes(estimate::MethodInput input) const
{
    return !optimalSelected() && estimate::takes(comboValue<estimate::EstimationMethod>(method_), input);
}

bool EstimatorPanel::structuralSelected() const
{
    return takes(estimate::MethodInput::SensitivityMethod) &&
        comboValue<estimate::SensitivityMethod>(sensitivity_) == estimate::SensitivityMethod::Structural;
}

// What is shown is what the method's row in estimate::kMethodTraits says it takes.
void EstimatorPanel::updateEnabled()
{
    using In = estimate::MethodInput;
    const bool optimal = optimalSelected();
    const auto method = comboValue<estimate::EstimationMethod>(method_);
    shootingIntervals_->setEnabled(takes(In::ShootingIntervals));
    const bool gain = takes(In::Gain);
    gain_->setVisible(gain);
    if (gainLabel_)
        gainLabel_->setVisible(gain);
    const bool takesSensitivity = takes(In::SensitivityMethod);
    sensitivity_->setVisible(takesSensitivity);
    if (sensitivityLabel_)
        sensitivityLabel_->setVisible(takesSensitivity);
    // The structural method propagates by the matrix exponential: no integrator runs.
    integratorBox_->setEnabled(!structuralSelected());
    integratorBox_->setToolTip(structuralSelected() ? tr("Not used: the structural-sensitivity method propagates the "
                                                         "linear model exactly by the matrix exponential.")
                                                    : QString());
    // Hidden, not only disabled: the periodic settings mean nothing to the other methods.
    periodicBox_->setVisible(takes(In::PeriodicResponse));
    // A named frequency parameter sets the period per experiment; the fixed period is then unused.
    period_->setEnabled(frequencyParameter_->text().trimmed().isEmpty());
    const bool discretisation =
        comboValue<discretise::PeriodicSolver>(periodicSolver_) == discretise::PeriodicSolver::Discretisation;
    nodes_->setEnabled(discretisation);
    scheme_->setEnabled(discretisation);
    optimalBox_->setVisible(optimal);
    for (QWidget* box : fitOnly_) {
        box->setVisible(!optimal);
    }
    equationError_->setMethod(method);
    equationErrorBox_->setVisible(takes(In::OneStepFormula) || takes(In::MultistepFormula));
    // The equation error weighs states, not outputs.
    weightBox_->setVisible(takes(In::OutputWeights));
    // Every fit method reads its inputs between samples; optimal estimation has its own settings.
    intersampleBox_->setVisible(!optimal && !intersample_->inputs().isEmpty());
}

void EstimatorPanel::emitChanged()
{
    if (!updating_) {
        emit settingsChanged();
    }
}

}  // namespace sysid::ui
