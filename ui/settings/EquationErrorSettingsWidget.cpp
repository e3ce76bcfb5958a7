#include "ui/settings/EquationErrorSettingsWidget.h"

#include "ui/settings/EnumCombo.h"
#include "ui/settings/NumberField.h"

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

EquationErrorSettingsWidget::EquationErrorSettingsWidget(QWidget* parent) : QWidget(parent)
{
    formula_ = new QComboBox(this);
    formula_->setObjectName(QStringLiteral("equationErrorFormulaCombo"));
    explainChoice(formula_,
                  tr("The integration formula whose one-step mismatch on the measured states is minimised "
                     "(Normann 1989)."));
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
        weights_->setItem(
            row, 1,
            new QTableWidgetItem(it == values_.stateWeights.end() ? QString() : NumberField::format(it->second)));
        problems_.erase(states_[row].toStdString());
    }
}

void EquationErrorSettingsWidget::weightEdited(QTableWidgetItem* item)
{
    if (!item || item->column() != 1 || !weights_->item(item->row(), 0))
        return;
    const QString state = weights_->item(item->row(), 0)->text();
    const std::string name = state.toStdString();
    const QSignalBlocker blocker(weights_);
    const QString text = item->text().trimmed();
    // The rule of a state weight is its entry's in estimate::equationErrorFields().
    const auto* field = core::findField(estimate::equationErrorFields(), "state_weights");
    const auto& rule = std::get<core::NumberMapAccess<estimate::EquationErrorSettings>>(field->access).rule;
    QString problem;
    if (text.isEmpty()) {
        values_.stateWeights.erase(name);
    } else {
        double value = 0.0;
        problem = NumberField::problemOf(tr("weight of state %1").arg(state), text, NumberField::checkOf(rule), &value);
        if (problem.isEmpty())
            values_.stateWeights[name] = value;
    }
    problems_[name] = problem;
    item->setBackground(problem.isEmpty() ? QBrush() : QBrush(QColor(255, 200, 200)));
    item->setToolTip(problem.isEmpty() ? QString() : tr("%1; the last valid weight is used.").arg(problem));
    emit settingsChanged();
}

void EquationErrorSettingsWidget::setSettings(const estimate::EquationErrorSettings& settings)
{
    updating_ = true;
    // The weights the widget reported, given back: the cells stay as typed (an invalid one marked).
    const bool sameWeights = settings.stateWeights == this->settings().stateWeights;
    values_ = settings;
    fillFormulas();
    simulate_->setChecked(settings.simulateFit);
    if (!sameWeights) {
        problems_.clear();
        rebuildWeights();
    }
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

QStringList EquationErrorSettingsWidget::inputProblems() const
{
    QStringList problems;
    for (const auto& [name, problem] : problems_)
        if (!problem.isEmpty() && (states_.isEmpty() || states_.contains(QString::fromStdString(name))))
            problems << problem;
    return problems;
}

}  // namespace sysid::ui
