#include "ui/settings/EstimatorPanel.h"

#include "ui/settings/EnumCombo.h"
#include "ui/settings/IntersampleTable.h"
#include "ui/settings/NumberField.h"
#include "ui/settings/ToolTip.h"
#include "ui/settings/EquationErrorSettingsWidget.h"
#include "ui/settings/OptimalEstimationSettingsWidget.h"

#include "engine/estimate/FitSettingFields.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/eval/NativeCode.h"
#include "engine/shooting/JacobianReuse.h"

#include <QBrush>
#include <QColor>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
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

const core::Field<estimate::FitSettings, estimate::MethodInput>* fieldOf(std::string_view key)
{
    return core::findField(estimate::fitSettingFields(), key);
}

// The rule of the number (or NAME -> number) setting `key` (estimate::fitSettingFields).
core::NumberRule ruleOf(std::string_view key)
{
    const auto* field = fieldOf(key);
    const auto rule = field ? numberRuleOf(*field) : std::nullopt;
    return rule.value_or(core::NumberRule{});
}

// The tooltip of setting `key`: its help, rule and command-line option.
QString helpOf(std::string_view key)
{
    using S = estimate::FitSettings;
    const auto* field = fieldOf(key);
    if (!field)
        return {};
    QString rule;
    if (const auto number = numberRuleOf(*field))
        rule = QString::fromStdString(number->describe());
    else if (const auto* count = std::get_if<core::CountAccess<S>>(&field->access))
        rule = QString::fromStdString(core::countRule(count->minimum));
    return fieldToolTip(field->names, rule);
}

// A form row whose label explains the field as the field does.
void addRow(QFormLayout* form, const QString& label, QWidget* field, const QString& help = {})
{
    form->addRow(label, field);
    if (QWidget* l = form->labelForField(field))
        l->setToolTip(help.isEmpty() ? field->toolTip() : wrappedToolTip(help));
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
    explainChoice(method_, tr("How the parameters are estimated."));

    shootingIntervals_ = new QSpinBox(this);
    shootingIntervals_->setObjectName(QStringLiteral("shootingIntervalsSpin"));
    shootingIntervals_->setRange(1, 100000);
    shootingIntervals_->setToolTip(wrappedToolTip(helpOf("shooting_intervals")));
    gain_ = addNumberField("steepest_descent_gain", QStringLiteral("gainEdit"));

    sensitivity_ = new QComboBox(this);
    sensitivity_->setObjectName(QStringLiteral("sensitivityCombo"));
    fillCombo(sensitivity_, estimate::kSensitivityMethods);
    explainChoice(sensitivity_, helpOf("sensitivity"));

    integrator_ = new QComboBox(this);
    integrator_->setObjectName(QStringLiteral("integratorCombo"));
    fillCombo(integrator_, integrate::kIntegrationMethods);

    rtol_ = addNumberField("integrator.rtol", QStringLiteral("rtolEdit"));
    atol_ = addNumberField("integrator.atol", QStringLiteral("atolEdit"));
    maxStep_ = addNumberField("integrator.max_step", QStringLiteral("maxStepEdit"));
    switches_ = new QComboBox(this);
    switches_->setObjectName(QStringLiteral("switchesCombo"));
    fillCombo(switches_, integrate::kSwitchHandlings);
    explainChoice(switches_, helpOf("integrator.switches"));
    modelCode_ = new QComboBox(this);
    modelCode_->setObjectName(QStringLiteral("modelCodeCombo"));
    fillCombo(modelCode_, eval::kModelCodes);
    explainChoice(modelCode_, helpOf("integrator.model_code"));
    sensitivityError_ = new QComboBox(this);
    sensitivityError_->setObjectName(QStringLiteral("sensitivityErrorCombo"));
    fillCombo(sensitivityError_, integrate::kSensitivityErrorControls);
    explainChoice(sensitivityError_, helpOf("integrator.sensitivity_error_control"));
    stabilisation_ = new QComboBox(this);
    stabilisation_->setObjectName(QStringLiteral("stabilisationCombo"));
    fillCombo(stabilisation_, integrate::kConstraintStabilisations);
    explainChoice(stabilisation_, helpOf("integrator.stabilisation"));
    baumgarteAlpha_ = addNumberField("integrator.baumgarte_alpha", QStringLiteral("baumgarteAlphaEdit"));
    baumgarteBeta_ = addNumberField("integrator.baumgarte_beta", QStringLiteral("baumgarteBetaEdit"));

    maxIterations_ = new QSpinBox(this);
    maxIterations_->setObjectName(QStringLiteral("maxIterationsSpin"));
    maxIterations_->setRange(0, 1000000);
    maxIterations_->setToolTip(wrappedToolTip(helpOf("max_iterations")));
    costTol_ = addNumberField("cost_tolerance", QStringLiteral("costToleranceEdit"));
    stepTol_ = addNumberField("step_tolerance", QStringLiteral("stepToleranceEdit"));
    gradTol_ = addNumberField("gradient_tolerance", QStringLiteral("gradientToleranceEdit"));

    weights_ = new QTableWidget(0, 2, this);
    weights_->setObjectName(QStringLiteral("weightTable"));
    weights_->setHorizontalHeaderLabels({tr("Output"), tr("Weight")});
    weights_->verticalHeader()->setVisible(false);
    weights_->horizontalHeader()->setStretchLastSection(true);
    weights_->setToolTip(wrappedToolTip(
        tr("Empty = automatic weight 1/σ² with σ estimated from the data.\n%1").arg(helpOf("output_weights"))));

    period_ = addNumberField("periodic.period", QStringLiteral("periodEdit"));
    frequencyParameter_ = new QLineEdit(this);
    frequencyParameter_->setObjectName(QStringLiteral("frequencyParameterEdit"));
    frequencyParameter_->setPlaceholderText(tr("e.g. w: T = 2π / w"));
    frequencyParameter_->setToolTip(wrappedToolTip(helpOf("periodic.frequency_parameter")));
    periods_ = new QSpinBox(this);
    periods_->setObjectName(QStringLiteral("periodsSpin"));
    periods_->setRange(1, 1000);
    periods_->setToolTip(wrappedToolTip(helpOf("periodic.periods")));
    periodicSolver_ = new QComboBox(this);
    periodicSolver_->setObjectName(QStringLiteral("periodicSolverCombo"));
    fillCombo(periodicSolver_, discretise::kPeriodicSolvers);
    explainChoice(periodicSolver_, helpOf("periodic.solver"));
    periodicIntervals_ = new QSpinBox(this);
    periodicIntervals_->setObjectName(QStringLiteral("periodicIntervalsSpin"));
    periodicIntervals_->setRange(1, 10000);
    periodicIntervals_->setToolTip(wrappedToolTip(helpOf("periodic.intervals")));
    nodes_ = new QSpinBox(this);
    nodes_->setObjectName(QStringLiteral("nodesSpin"));
    nodes_->setRange(4, 100000);
    nodes_->setToolTip(wrappedToolTip(helpOf("periodic.nodes")));
    scheme_ = new QComboBox(this);
    scheme_->setObjectName(QStringLiteral("schemeCombo"));
    fillCombo(scheme_, discretise::kPeriodicSchemes);
    explainChoice(scheme_, helpOf("periodic.scheme"));
    settle_ = new QSpinBox(this);
    settle_->setObjectName(QStringLiteral("settleSpin"));
    settle_->setRange(1, 100000);
    settle_->setToolTip(wrappedToolTip(helpOf("periodic.settle_periods")));
    jacobianReuse_ = new QComboBox(this);
    jacobianReuse_->setObjectName(QStringLiteral("jacobianReuseCombo"));
    fillCombo(jacobianReuse_, shooting::kJacobianReuse);
    explainChoice(jacobianReuse_, helpOf("periodic.jacobian_reuse"));

    run_ = new QPushButton(tr("Run"), this);
    run_->setObjectName(QStringLiteral("runButton"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName(QStringLiteral("cancelButton"));
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("progressBar"));
    progress_->setTextVisible(false);

    auto* methodBox = new QGroupBox(tr("Method"), this);
    auto* methodForm = new QFormLayout(methodBox);
    addRow(methodForm, tr("Estimator"), method_, tr("How the parameters are estimated."));
    addRow(methodForm, tr("Shooting intervals"), shootingIntervals_);
    addRow(methodForm, tr("Gain K"), gain_, gain_->help());
    gainLabel_ = methodForm->labelForField(gain_);
    addRow(methodForm, tr("Sensitivities"), sensitivity_, helpOf("sensitivity"));
    sensitivityLabel_ = methodForm->labelForField(sensitivity_);

    periodicBox_ = new QGroupBox(tr("Periodic response"), this);
    periodicBox_->setObjectName(QStringLiteral("periodicBox"));
    auto* periodicForm = new QFormLayout(periodicBox_);
    addRow(periodicForm, tr("Frequency parameter"), frequencyParameter_);
    addRow(periodicForm, tr("Period"), period_, period_->help());
    addRow(periodicForm, tr("Periods (n·T)"), periods_);
    addRow(periodicForm, tr("Solver"), periodicSolver_, helpOf("periodic.solver"));
    addRow(periodicForm, tr("Shooting intervals"), periodicIntervals_);
    addRow(periodicForm, tr("Nodes per period"), nodes_);
    addRow(periodicForm, tr("Scheme"), scheme_, helpOf("periodic.scheme"));
    addRow(periodicForm, tr("Settling periods"), settle_);
    addRow(periodicForm, tr("Jacobian re-use"), jacobianReuse_, helpOf("periodic.jacobian_reuse"));

    auto* integratorBox = new QGroupBox(tr("Integrator"), this);
    integratorBox_ = integratorBox;
    auto* integratorForm = new QFormLayout(integratorBox);
    addRow(integratorForm, tr("Method"), integrator_, helpOf("integrator.method"));
    addRow(integratorForm, tr("Relative tolerance"), rtol_, rtol_->help());
    addRow(integratorForm, tr("Absolute tolerance"), atol_, atol_->help());
    addRow(integratorForm, tr("Max step"), maxStep_, maxStep_->help());
    addRow(integratorForm, tr("Switches"), switches_, helpOf("integrator.switches"));
    addRow(integratorForm, tr("Model code"), modelCode_, helpOf("integrator.model_code"));
    addRow(integratorForm, tr("Sensitivity error"), sensitivityError_, helpOf("integrator.sensitivity_error_control"));
    addRow(integratorForm, tr("Constraints"), stabilisation_, helpOf("integrator.stabilisation"));
    addRow(integratorForm, tr("Baumgarte α"), baumgarteAlpha_, baumgarteAlpha_->help());
    addRow(integratorForm, tr("Baumgarte β"), baumgarteBeta_, baumgarteBeta_->help());
    integratorForm_ = integratorForm;
    setConstrained(false);

    auto* stopBox = new QGroupBox(tr("Stopping"), this);
    auto* stopForm = new QFormLayout(stopBox);
    addRow(stopForm, tr("Max iterations"), maxIterations_);
    addRow(stopForm, tr("Cost tolerance"), costTol_, costTol_->help());
    addRow(stopForm, tr("Step tolerance"), stepTol_, stepTol_->help());
    addRow(stopForm, tr("Gradient tolerance"), gradTol_, gradTol_->help());

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
    connect(switches_, &QComboBox::currentIndexChanged, this, &EstimatorPanel::emitChanged);
    connect(modelCode_, &QComboBox::currentIndexChanged, this, &EstimatorPanel::emitChanged);
    connect(sensitivityError_, &QComboBox::currentIndexChanged, this, &EstimatorPanel::emitChanged);
    connect(jacobianReuse_, &QComboBox::currentIndexChanged, this, &EstimatorPanel::emitChanged);
    connect(stabilisation_, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
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

NumberField* EstimatorPanel::addNumberField(const std::string& key, const QString& objectName)
{
    auto* field = new NumberField(this);
    field->setObjectName(objectName);
    field->describe(estimate::fitSettingFields(), key);
    numbers_.push_back(field);
    connect(field, &NumberField::valueChanged, this, &EstimatorPanel::emitChanged);
    return field;
}

QStringList EstimatorPanel::inputProblems() const
{
    QStringList problems;
    // A field applies while the method shows it (hidden or greyed out: it is not used).
    const auto applies = [this](const QWidget* w) { return w->isEnabled() && w->isVisibleTo(this); };
    if (optimalSelected()) {
        for (const QString& problem : optimal_->problems())
            problems << tr("optimal estimation: %1").arg(problem);
        return problems;
    }
    for (const NumberField* field : numbers_)
        if (!field->isValid() && applies(field))
            problems << field->problem();
    if (applies(weights_))
        for (const auto& [name, problem] : weightProblems_)
            if (!problem.isEmpty() && (outputs_.isEmpty() || outputs_.contains(QString::fromStdString(name))))
                problems << problem;
    if (applies(equationErrorBox_))
        problems << equationError_->inputProblems();
    return problems;
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

void EstimatorPanel::setInputs(const QStringList& inputs, const std::map<std::string, integrate::Intersample>& declared)
{
    intersample_->setInputs(inputs, declared);
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
        auto* weightItem =
            new QTableWidgetItem(it == weightValues_.end() ? QString() : NumberField::format(it->second));
        weightProblems_.erase(name.toStdString());
        weights_->setItem(row, 1, weightItem);
    }
}

std::map<std::string, double> EstimatorPanel::shownWeights() const
{
    std::map<std::string, double> shown;
    for (const auto& [name, weight] : weightValues_)
        if (outputs_.isEmpty() || outputs_.contains(QString::fromStdString(name)))
            shown[name] = weight;
    return shown;
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
    QString problem;
    if (entry.isEmpty()) {
        weightValues_.erase(name);
    } else {
        double value = 0.0;
        problem = NumberField::problemOf(tr("weight of output %1").arg(nameItem->text()), entry,
                                         NumberField::checkOf(ruleOf("output_weights")), &value);
        if (problem.isEmpty())
            weightValues_[name] = value;
    }
    weightProblems_[name] = problem;
    item->setBackground(problem.isEmpty() ? QBrush() : QBrush(QColor(255, 200, 200)));
    item->setToolTip(problem.isEmpty() ? QString() : problem + QLatin1Char('.'));
    if (problem.isEmpty())
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

void EstimatorPanel::setConstrained(bool constrained)
{
    constrained_ = constrained;
    for (QWidget* w : {static_cast<QWidget*>(stabilisation_), static_cast<QWidget*>(baumgarteAlpha_),
                       static_cast<QWidget*>(baumgarteBeta_)})
        integratorForm_->setRowVisible(w, constrained);
    if (!integratorChosen_)
        showIntegrator(defaultIntegrator_);
}

void EstimatorPanel::showIntegrator(integrate::IntegrationMethod method)
{
    integrator_->setCurrentIndex(std::max(0, integrator_->findData(static_cast<int>(method))));
    const QString name = QString::fromStdString(integrate::methodName(defaultIntegrator_));
    QString why;
    if (integratorChosen_) {
        why = tr("Chosen by hand: kept when the model changes (the model's default would be %1).").arg(name);
    } else if (defaultIntegrator_ == integrate::IntegrationMethod::SparseImplicit && constrained_) {
        why = tr("Not chosen, so the model decides: %1, because a model with constraints has algebraic variables, "
                 "which only the implicit methods (sparse-implicit, implicit-euler, crank-nicolson) integrate. Pick "
                 "another method to keep it.")
                  .arg(name);
    } else if (defaultIntegrator_ == integrate::IntegrationMethod::SparseImplicit) {
        why = tr("Not chosen, so the model decides: %1, because a model with fields (a PDE by the method of "
                 "lines) is stiff and its Jacobian sparse. Pick another method to keep it.")
                  .arg(name);
    } else {
        why = tr("Not chosen, so the model decides: %1 (models with fields get sparse-implicit). "
                 "Pick another method to keep it.")
                  .arg(name);
    }
    // What the method shown does (its table's description), then why it is the one shown.
    const QString does = integrator_->currentData(Qt::ToolTipRole).toString();
    integrator_->setToolTip(wrappedToolTip(
        does.isEmpty() ? why : QStringLiteral("%1: %2\n\n%3").arg(integrator_->currentText(), does, why)));
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
    rtol_->setValue(settings.integrator.relativeTolerance);
    atol_->setValue(settings.integrator.absoluteTolerance);
    maxStep_->setValue(settings.integrator.maxStep);
    showComboValue(switches_, settings.integrator.switches);
    showComboValue(modelCode_, settings.integrator.modelCode);
    showComboValue(sensitivityError_, settings.integrator.sensitivityErrorControl);
    showComboValue(stabilisation_, settings.integrator.stabilisation);
    baumgarteAlpha_->setValue(settings.integrator.baumgarteAlpha);
    baumgarteBeta_->setValue(settings.integrator.baumgarteBeta);
    maxIterations_->setValue(static_cast<int>(
        std::min<std::size_t>(settings.maxIterations, static_cast<std::size_t>(maxIterations_->maximum()))));
    costTol_->setValue(settings.costTolerance);
    gain_->setValue(settings.steepestDescentGain);
    stepTol_->setValue(settings.stepTolerance);
    gradTol_->setValue(settings.gradientTolerance);
    period_->setValue(settings.periodic.period);
    frequencyParameter_->setText(QString::fromStdString(settings.periodic.frequencyParameter));
    periods_->setValue(static_cast<int>(std::min<std::size_t>(settings.periodic.periods, 1000)));
    showComboValue(periodicSolver_, settings.periodic.solver);
    periodicIntervals_->setValue(static_cast<int>(std::min<std::size_t>(settings.periodic.intervals, 10000)));
    nodes_->setValue(static_cast<int>(std::clamp<std::size_t>(settings.periodic.nodes, 4, 100000)));
    showComboValue(scheme_, settings.periodic.scheme);
    settle_->setValue(static_cast<int>(std::clamp<std::size_t>(settings.periodic.settlePeriods, 1, 100000)));
    showComboValue(jacobianReuse_, settings.periodic.jacobianReuse);
    // The project giving back the weights the panel reported keeps the cells as typed (an invalid
    // entry stays marked); other weights replace them.
    if (settings.outputWeights != shownWeights()) {
        weightValues_ = settings.outputWeights;
        weightProblems_.clear();
        rebuildWeightTable();
    }
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
    s.integrator.relativeTolerance = rtol_->value();
    s.integrator.absoluteTolerance = atol_->value();
    s.integrator.maxStep = maxStep_->value();
    s.integrator.switches = comboValue<integrate::SwitchHandling>(switches_);
    s.integrator.modelCode = comboValue<eval::ModelCode>(modelCode_);
    s.integrator.sensitivityErrorControl = comboValue<integrate::SensitivityErrorControl>(sensitivityError_);
    s.integrator.stabilisation = comboValue<integrate::ConstraintStabilisation>(stabilisation_);
    s.integrator.baumgarteAlpha = baumgarteAlpha_->value();
    s.integrator.baumgarteBeta = baumgarteBeta_->value();
    s.maxIterations = static_cast<std::size_t>(maxIterations_->value());
    s.costTolerance = costTol_->value();
    s.steepestDescentGain = gain_->value();
    s.stepTolerance = stepTol_->value();
    s.gradientTolerance = gradTol_->value();
    s.periodic.period = period_->value();
    s.periodic.frequencyParameter = frequencyParameter_->text().trimmed().toStdString();
    s.periodic.periods = static_cast<std::size_t>(periods_->value());
    s.periodic.solver = comboValue<discretise::PeriodicSolver>(periodicSolver_);
    s.periodic.intervals = static_cast<std::size_t>(periodicIntervals_->value());
    s.periodic.nodes = static_cast<std::size_t>(nodes_->value());
    s.periodic.scheme = comboValue<discretise::PeriodicScheme>(scheme_);
    s.periodic.settlePeriods = static_cast<std::size_t>(settle_->value());
    s.periodic.jacobianReuse = comboValue<shooting::JacobianReuse>(jacobianReuse_);
    s.equationError = equationError_->settings();
    s.equationError.differentiation = base_.equationError.differentiation;  // a preprocessing setting
    s.outputWeights = shownWeights();
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
    // Baumgarte's rates apply only where his terms are added.
    const auto stabilisation = comboValue<integrate::ConstraintStabilisation>(stabilisation_);
    const bool baumgarte = stabilisation == integrate::ConstraintStabilisation::Baumgarte ||
        stabilisation == integrate::ConstraintStabilisation::Both;
    baumgarteAlpha_->setEnabled(baumgarte);
    baumgarteBeta_->setEnabled(baumgarte);
    // Hidden, not only disabled: the periodic settings mean nothing to the other methods.
    periodicBox_->setVisible(takes(In::PeriodicResponse));
    // A named frequency parameter sets the period per experiment; the fixed period is then unused.
    period_->setEnabled(frequencyParameter_->text().trimmed().isEmpty());
    const bool discretisation =
        comboValue<discretise::PeriodicSolver>(periodicSolver_) == discretise::PeriodicSolver::Discretisation;
    nodes_->setEnabled(discretisation);
    scheme_->setEnabled(discretisation);
    jacobianReuse_->setEnabled(!discretisation);
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
