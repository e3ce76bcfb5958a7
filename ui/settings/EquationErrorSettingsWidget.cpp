#include "ui/settings/EquationErrorSettingsWidget.h"

#include "ui/settings/EnumCombo.h"

#include "engine/estimate/FitSettingFields.h"
#include "engine/estimate/MethodTraits.h"

#include <QBrush>
#include <QCheckBox>
#include <QColor>
#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLocale>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QTableWidgetItem>
#include <QVBoxLayout>

#include <cmath>

namespace sysid::ui {

namespace {

QString formatValue(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

}  // namespace

EquationErrorSettingsWidget::EquationErrorSettingsWidget(QWidget* parent) : QWidget(parent)
{
    formula_ = new QComboBox(this);
    formula_->setObjectName(QStringLiteral("equationErrorFormulaCombo"));
    formula_->setToolTip(tr("The integration formula whose one-step mismatch on the measured states is minimised."));
    weights_ = new QTableWidget(0, 2, this);
    weights_->setObjectName(QStringLiteral("stateWeightTable"));
    weights_->setHorizontalHeaderLabels({tr("State"), tr("Weight")});
    weights_->horizontalHeader()->setStretchLastSection(true);
    weights_->verticalHeader()->setVisible(false);
    weights_->setToolTip(tr("Empty = Normann's (1989) scaling: 1/T² for a coordinate whose velocity is a state "
                            "(T the record length), 1 for the others."));
    simulate_ = new QCheckBox(tr("Simulate the fitted model"), this);
    simulate_->setObjectName(QStringLiteral("simulateFitCheck"));
    simulate_->setToolTip(tr("Integrate the model from the first measured sample to draw its response and "
                             "report output residuals. Turn off for models that cannot be simulated stably."));

    auto* form = new QFormLayout;
    form->addRow(tr("Formula"), formula_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(weights_, 1);
    layout->addWidget(simulate_);

    connect(formula_, &QComboBox::currentIndexChanged, this, [this] {
        if (updating_ || formula_->currentIndex() < 0)
            return;
        const auto f = static_cast<estimate::EquationErrorFormula>(formula_->currentData().toInt());
        (estimate::isOneStep(f) ? values_.oneStep : values_.multistep) = f;
        emit settingsChanged();
    });
    connect(weights_, &QTableWidget::itemChanged, this, &EquationErrorSettingsWidget::weightEdited);
    connect(simulate_, &QCheckBox::toggled, this, [this](bool on) {
        values_.simulateFit = on;
        if (!updating_)
            emit settingsChanged();
    });
    setSettings(values_);
}

void EquationErrorSettingsWidget::setMethod(estimate::EstimationMethod method)
{
    using In = estimate::MethodInput;
    if (!(estimate::takes(method, In::OneStepFormula) || estimate::takes(method, In::MultistepFormula)) ||
        method == method_)
        return;
    method_ = method;
    fillFormulas();
}

void EquationErrorSettingsWidget::fillFormulas()
{
    const bool wasUpdating = updating_;
    updating_ = true;
    formula_->clear();
    const bool oneStep = estimate::takes(method_, estimate::MethodInput::OneStepFormula);
    fillCombo(formula_, estimate::kEquationErrorFormulas, oneStep ? estimate::isOneStep : estimate::isMultistep);
    showComboValue(formula_, oneStep ? values_.oneStep : values_.multistep);
    updating_ = wasUpdating;
}

void EquationErrorSettingsWidget::setStates(const QStringList& states)
{
    states_ = states;
    rebuildWeights();
}

void EquationErrorSettingsWidget::rebuildWeights()
{
    const QSignalBlocker blocker(weights_);
    weights_->setRowCount(static_cast<int>(states_.size()));
    for (int row = 0; row < static_cast<int>(states_.size()); ++row) {
        auto* name = new QTableWidgetItem(states_[row]);
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        weights_->setItem(row, 0, name);
        const auto it = values_.stateWeights.find(states_[row].toStdString());
        weights_->setItem(row, 1,
                          new QTableWidgetItem(it == values_.stateWeights.end() ? QString() : formatValue(it->second)));
        invalid_[states_[row].toStdString()] = false;
    }
}

void EquationErrorSettingsWidget::weightEdited(QTableWidgetItem* item)
{
    if (!item || item->column() != 1 || !weights_->item(item->row(), 0))
        return;
    const std::string name = weights_->item(item->row(), 0)->text().toStdString();
    const QSignalBlocker blocker(weights_);
    const QString text = item->text().trimmed();
    bool ok = true;
    const double value = text.toDouble(&ok);
    // The rule of a state weight is its entry's in estimate::equationErrorFields().
    const auto* field = core::findField(estimate::equationErrorFields(), "state_weights");
    const auto& rule = std::get<core::NumberMapAccess<estimate::EquationErrorSettings>>(field->access).rule;
    if (text.isEmpty()) {
        values_.stateWeights.erase(name);
        invalid_[name] = false;
    } else if (ok && rule.accepts(value)) {
        values_.stateWeights[name] = value;
        invalid_[name] = false;
    } else {
        invalid_[name] = true;
    }
    item->setBackground(invalid_[name] ? QBrush(QColor(255, 200, 200)) : QBrush());
    item->setToolTip(
        invalid_[name]
            ? tr("A weight is %1; the last valid weight is used.").arg(QString::fromStdString(rule.describe()))
            : QString());
    emit settingsChanged();
}

void EquationErrorSettingsWidget::setSettings(const estimate::EquationErrorSettings& settings)
{
    updating_ = true;
    values_ = settings;
    invalid_.clear();
    fillFormulas();
    simulate_->setChecked(settings.simulateFit);
    rebuildWeights();
    updating_ = false;
}

estimate::EquationErrorSettings EquationErrorSettingsWidget::settings() const
{
    estimate::EquationErrorSettings s = values_;
    s.stateWeights.clear();
    for (const auto& [name, weight] : values_.stateWeights)
        if (states_.isEmpty() || states_.contains(QString::fromStdString(name)))
            s.stateWeights[name] = weight;
    return s;
}

bool EquationErrorSettingsWidget::isValid() const
{
    for (const auto& [name, invalid] : invalid_)
        if (invalid)
            return false;
    return true;
}

}  // namespace sysid::ui
