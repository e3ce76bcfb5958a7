#include "ui/settings/OptimalEstimationSettingsWidget.h"

#include "ui/settings/EnumCombo.h"

#include <QBrush>
#include <QColor>
#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QTableWidget>
#include <QTableWidgetItem>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace sysid::ui {

namespace {

QString formatValue(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QTableWidgetItem* fixedItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

}  // namespace

OptimalEstimationSettingsWidget::OptimalEstimationSettingsWidget(QWidget* parent) : QWidget(parent)
{
    table_ = new QTableWidget(0, 4, this);
    table_->setObjectName(QStringLiteral("optimalWeightTable"));
    table_->setHorizontalHeaderLabels({tr("Name"), tr("Weight (W or V)"), tr("q_a"), tr("W_a")});
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setToolTip(tr("W > 0: weight of the model residual ξ of an augmented state; V ≥ 0: weight of a "
                          "measurement residual ε; q_a, W_a ≥ 0: prior on the state's value at the start. "
                          "Empty = W = V = 1, no prior."));
    points_ = new QSpinBox(this);
    points_->setObjectName(QStringLiteral("shootingPointsSpin"));
    points_->setRange(2, 100000);
    points_->setValue(static_cast<int>(values_.shootingPoints));
    points_->setToolTip(tr("Shooting points, equidistant over the record, at which the boundary value problem is "
                           "split for multiple shooting (Rutten 1993)."));

    firstStage_ = new QComboBox(this);
    firstStage_->setObjectName(QStringLiteral("firstStageCombo"));
    fillCombo(firstStage_, integrate::kIntegrationMethods, estimate::isFirstStageMethod);
    firstStage_->setToolTip(tr("Method of the loose first stage of the tolerance schedule (Rutten 1993, §5.4): one "
                               "explicit Euler step per interval by default. A stiff problem needs more steps "
                               "(h·λ ≥ −2 for Euler) or an implicit scheme."));
    firstStageSteps_ = new QSpinBox(this);
    firstStageSteps_->setObjectName(QStringLiteral("firstStageStepsSpin"));
    firstStageSteps_->setRange(1, 10000);
    firstStageSteps_->setToolTip(tr("Fixed steps per shooting interval in the first stage"));
    setFirstStage(values_);

    auto* form = new QFormLayout;
    form->addRow(tr("Shooting points"), points_);
    form->addRow(tr("First stage"), firstStage_);
    form->addRow(tr("Steps per interval"), firstStageSteps_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Weights (ξ: augmented states, ε: residuals)"), this));
    layout->addWidget(table_, 1);

    connect(table_, &QTableWidget::itemChanged, this, &OptimalEstimationSettingsWidget::cellEdited);
    connect(points_, &QSpinBox::valueChanged, this, [this](int value) {
        values_.shootingPoints = static_cast<std::size_t>(value);
        if (!updating_)
            emit settingsChanged();
    });
    connect(firstStage_, &QComboBox::currentIndexChanged, this, [this] {
        values_.firstStageMethod = static_cast<integrate::IntegrationMethod>(firstStage_->currentData().toInt());
        if (!updating_)
            emit settingsChanged();
    });
    connect(firstStageSteps_, &QSpinBox::valueChanged, this, [this](int value) {
        values_.firstStageSteps = static_cast<std::size_t>(value);
        if (!updating_)
            emit settingsChanged();
    });
}

void OptimalEstimationSettingsWidget::setFirstStage(const estimate::OptimalEstimationSettings& settings)
{
    const int index = firstStage_->findData(static_cast<int>(settings.firstStageMethod));
    firstStage_->setCurrentIndex(index >= 0 ? index : 0);
    firstStageSteps_->setValue(static_cast<int>(std::min<std::size_t>(settings.firstStageSteps, 10000)));
}

void OptimalEstimationSettingsWidget::setNames(const QStringList& augmentedStates, const QStringList& residuals)
{
    states_.clear();
    residuals_.clear();
    for (const auto& n : augmentedStates)
        states_.push_back(n.toStdString());
    for (const auto& n : residuals)
        residuals_.push_back(n.toStdString());
    rebuild();
}

void OptimalEstimationSettingsWidget::setSettings(const estimate::OptimalEstimationSettings& settings)
{
    values_ = settings;
    updating_ = true;
    points_->setValue(static_cast<int>(settings.shootingPoints));
    setFirstStage(settings);
    updating_ = false;
    rebuild();
}

estimate::OptimalEstimationSettings OptimalEstimationSettingsWidget::settings() const
{
    estimate::OptimalEstimationSettings s = values_;
    s.shootingPoints = static_cast<std::size_t>(points_->value());
    s.firstStageMethod = static_cast<integrate::IntegrationMethod>(firstStage_->currentData().toInt());
    s.firstStageSteps = static_cast<std::size_t>(firstStageSteps_->value());
    return s;
}

bool OptimalEstimationSettingsWidget::isValid() const
{
    for (const auto& [cell, bad] : invalid_)
        if (bad)
            return false;
    return true;
}

void OptimalEstimationSettingsWidget::rebuild()
{
    updating_ = true;
    invalid_.clear();
    table_->setRowCount(static_cast<int>(states_.size() + residuals_.size()));
    int row = 0;
    for (const auto& name : states_) {
        table_->setItem(row, NameColumn, fixedItem(QStringLiteral("ξ  ") + QString::fromStdString(name)));
        const auto w = values_.stateWeights.find(name);
        table_->setItem(row, WeightColumn,
                        new QTableWidgetItem(w == values_.stateWeights.end() ? QString() : formatValue(w->second)));
        const auto prior = values_.initialPrior.find(name);
        const bool hasPrior = prior != values_.initialPrior.end();
        table_->setItem(row, PriorValueColumn,
                        new QTableWidgetItem(hasPrior ? formatValue(prior->second.first) : QString()));
        table_->setItem(row, PriorWeightColumn,
                        new QTableWidgetItem(hasPrior ? formatValue(prior->second.second) : QString()));
        ++row;
    }
    for (const auto& name : residuals_) {
        table_->setItem(row, NameColumn, fixedItem(QStringLiteral("ε  ") + QString::fromStdString(name)));
        const auto v = values_.measurementWeights.find(name);
        table_->setItem(
            row, WeightColumn,
            new QTableWidgetItem(v == values_.measurementWeights.end() ? QString() : formatValue(v->second)));
        table_->setItem(row, PriorValueColumn, fixedItem(QString()));
        table_->setItem(row, PriorWeightColumn, fixedItem(QString()));
        ++row;
    }
    updating_ = false;
}

void OptimalEstimationSettingsWidget::cellEdited(QTableWidgetItem* item)
{
    if (updating_ || !item || item->column() == NameColumn)
        return;
    const int row = item->row();
    const bool isState = row < static_cast<int>(states_.size());
    const std::string name =
        isState ? states_[static_cast<std::size_t>(row)] : residuals_[static_cast<std::size_t>(row) - states_.size()];
    const QString text = item->text().trimmed();
    bool ok = text.isEmpty();
    double value = 0.0;
    QString reason;
    if (!text.isEmpty()) {
        value = text.toDouble(&ok);
        if (!ok) {
            reason = tr("Not a number.");
        } else {
            // The rules are OptimalEstimationSettings::validate's: the entry with the others.
            estimate::OptimalEstimationSettings candidate = values_;
            if (item->column() == WeightColumn)
                (isState ? candidate.stateWeights : candidate.measurementWeights)[name] = value;
            else if (item->column() == PriorWeightColumn)
                candidate.initialPrior[name] = {0.0, value};
            else
                candidate.initialPrior[name] = {value, 0.0};
            try {
                candidate.validate();
            } catch (const core::SettingError& e) {
                ok = false;
                reason = QString::fromStdString(e.what());
            }
        }
    }
    updating_ = true;
    item->setBackground(ok ? QBrush() : QBrush(QColor(255, 200, 200)));
    item->setToolTip(reason);
    updating_ = false;
    invalid_[{row, item->column()}] = !ok;
    if (!ok)
        return;
    if (item->column() == WeightColumn) {
        auto& map = isState ? values_.stateWeights : values_.measurementWeights;
        if (text.isEmpty())
            map.erase(name);
        else
            map[name] = value;
    } else {
        // A prior needs both numbers; with either cell empty there is none.
        const QString q = table_->item(row, PriorValueColumn)->text().trimmed();
        const QString wa = table_->item(row, PriorWeightColumn)->text().trimmed();
        bool okQ = false, okW = false;
        const double qv = q.toDouble(&okQ), wv = wa.toDouble(&okW);
        values_.initialPrior.erase(name);
        if (okQ && okW) {
            estimate::OptimalEstimationSettings candidate = values_;
            candidate.initialPrior[name] = {qv, wv};
            try {
                candidate.validate();
                values_.initialPrior[name] = {qv, wv};
            } catch (const core::SettingError&) {
                // an entry the cell check has marked
            }
        }
    }
    emit settingsChanged();
}

}  // namespace sysid::ui
