#include "ui/settings/OptimalEstimationSettingsWidget.h"

#include "ui/settings/NumberField.h"
#include "ui/settings/StageScheduleTable.h"
#include "ui/settings/ToolTip.h"

#include <QBrush>
#include <QColor>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
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

// The tooltip of a setting of optimalEstimationSettingFields().
QString toolTipOf(std::string_view key)
{
    const auto* field = core::findField(estimate::optimalEstimationSettingFields(), key);
    if (!field)
        return {};
    QString rule;
    if (const auto* count = std::get_if<core::CountAccess<estimate::OptimalEstimationSettings>>(&field->access))
        rule = QString::fromStdString(core::countRule(count->minimum));
    return wrappedToolTip(fieldToolTip(field->names, rule));
}

}  // namespace

OptimalEstimationSettingsWidget::OptimalEstimationSettingsWidget(QWidget* parent) : QWidget(parent)
{
    table_ = new QTableWidget(0, 5, this);
    table_->setObjectName(QStringLiteral("optimalWeightTable"));
    table_->setHorizontalHeaderLabels({tr("Name"), tr("W or V"), tr("q_a"), tr("W_a"), tr("Initial guess")});
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setToolTip(wrappedToolTip(
        tr("W > 0: weight of the model residual ξ of an augmented state; V ≥ 0: weight of a measurement residual ε; "
           "q_a, W_a ≥ 0: prior on the state's value at the start. Initial guess: the state's starting trajectory "
           "as an expression of t, the measured signals (outputs and inputs by name) and the parameters, e.g. "
           "s4/3 (Rutten 1993, ch. 5). Empty = W = V = 1, no prior, the guess from the data.")));

    points_ = new QSpinBox(this);
    points_->setObjectName(QStringLiteral("shootingPointsSpin"));
    points_->setRange(2, 100000);
    points_->setValue(static_cast<int>(values_.shootingPoints));
    points_->setToolTip(toolTipOf("shooting_points"));
    check_ = new QPushButton(tr("Check stiffness"), this);
    check_->setObjectName(QStringLiteral("checkStiffnessButton"));
    check_->setToolTip(wrappedToolTip(
        tr("Eigenvalues of the local Jacobian along the starting guess: κ = min Re λ, and the shooting points that "
           "keep κ·Δt ≥ −2 (Rutten 1993, §5.3). Plotted in the Optimal estimation tab. Command line: --diagnose")));
    stiffness_ = new QLabel(this);
    stiffness_->setObjectName(QStringLiteral("stiffnessLabel"));
    stiffness_->setWordWrap(true);
    useSuggestion_ = new QPushButton(tr("Use suggested"), this);
    useSuggestion_->setObjectName(QStringLiteral("useSuggestionButton"));
    useSuggestion_->setToolTip(tr("Set the shooting points to the suggested number"));
    useSuggestion_->setEnabled(false);
    maxIterations_ = new QSpinBox(this);
    maxIterations_->setObjectName(QStringLiteral("optimalMaxIterationsSpin"));
    maxIterations_->setRange(1, 100000);
    maxIterations_->setValue(static_cast<int>(values_.bvp.newton.maxIterations));
    maxIterations_->setToolTip(toolTipOf("max_iterations"));
    startFrom_ = new QComboBox(this);
    startFrom_->setObjectName(QStringLiteral("startFromCombo"));
    startFrom_->setToolTip(toolTipOf("guess_from"));
    stages_ = new StageScheduleTable(this);
    stages_->setObjectName(QStringLiteral("stageSchedule"));

    auto* pointsRow = new QHBoxLayout;
    pointsRow->addWidget(points_, 1);
    pointsRow->addWidget(useSuggestion_);
    auto* suggestionRow = new QHBoxLayout;
    suggestionRow->addWidget(check_);
    suggestionRow->addWidget(stiffness_, 1);
    auto* form = new QFormLayout;
    form->addRow(tr("Shooting points"), pointsRow);
    form->addRow(suggestionRow);
    form->addRow(tr("Newton iterations"), maxIterations_);
    form->addRow(tr("Start from"), startFrom_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    const auto heading = [this](const QString& text) {
        auto* label = new QLabel(text, this);
        label->setWordWrap(true);
        return label;
    };
    layout->addWidget(heading(tr("Tolerance schedule (loose to tight)")));
    layout->addWidget(stages_);
    layout->addWidget(heading(tr("Weights, priors and initial guesses (ξ: states, ε: residuals)")));
    layout->addWidget(table_, 1);
    showStartFrom();
    setStiffness(std::nullopt);

    connect(table_, &QTableWidget::itemChanged, this, &OptimalEstimationSettingsWidget::cellEdited);
    connect(points_, &QSpinBox::valueChanged, this, [this](int value) {
        values_.shootingPoints = static_cast<std::size_t>(value);
        changed();
    });
    connect(maxIterations_, &QSpinBox::valueChanged, this, [this](int value) {
        values_.bvp.newton.maxIterations = static_cast<std::size_t>(value);
        changed();
    });
    connect(startFrom_, &QComboBox::activated, this, &OptimalEstimationSettingsWidget::startFromChosen);
    connect(stages_, &StageScheduleTable::stagesChanged, this, [this] {
        values_.stages = stages_->stages();
        changed();
    });
    connect(check_, &QPushButton::clicked, this, &OptimalEstimationSettingsWidget::stiffnessCheckRequested);
    connect(useSuggestion_, &QPushButton::clicked, this, [this] {
        if (suggested_ >= 2)
            points_->setValue(static_cast<int>(std::min<std::size_t>(suggested_, 100000)));
    });
}

void OptimalEstimationSettingsWidget::changed()
{
    if (!updating_)
        emit settingsChanged();
}

void OptimalEstimationSettingsWidget::showStartFrom()
{
    const bool blocked = startFrom_->blockSignals(true);
    startFrom_->clear();
    startFrom_->addItem(tr("The data (measured signals)"), StartFromData);
    startFrom_->setItemData(0,
                            tr("Positions from the measurements, velocities by central differences, parameters at "
                               "their starting values, costates 0 (Rutten 1993, §3.4)"),
                            Qt::ToolTipRole);
    startFrom_->addItem(tr("The last result"), StartFromLastResult);
    startFrom_->setItemData(1,
                            tr("The states, parameters and costates of the last optimal estimation "
                               "(saved with the project)"),
                            Qt::ToolTipRole);
    const QString& from = QString::fromStdString(values_.guessFrom);
    const bool file = !from.isEmpty() && values_.guessFrom != estimate::kLastOptimalResult;
    startFrom_->addItem(file ? tr("File: %1").arg(QFileInfo(from).fileName()) : tr("A result file…"), StartFromFile);
    startFrom_->setItemData(2, file ? from : tr("A RESULT.json written by sysid optimal"), Qt::ToolTipRole);
    startFrom_->setCurrentIndex(values_.guessFrom.empty() ? 0 : file ? 2 : 1);
    startFrom_->blockSignals(blocked);
}

void OptimalEstimationSettingsWidget::startFromChosen()
{
    const int choice = startFrom_->currentData().toInt();
    if (choice == StartFromData)
        values_.guessFrom.clear();
    else if (choice == StartFromLastResult)
        values_.guessFrom = estimate::kLastOptimalResult;
    else {
        const QString path = QFileDialog::getOpenFileName(this, tr("Start from a result"), QString(),
                                                          tr("Results of optimal estimation (*.json)"));
        if (!path.isEmpty())
            values_.guessFrom = path.toStdString();
    }
    showStartFrom();
    changed();
}

void OptimalEstimationSettingsWidget::setStiffness(const std::optional<estimate::StiffnessDiagnostics>& d)
{
    suggested_ = 0;
    if (!d || d->empty() || std::isnan(d->kappaMin)) {
        stiffness_->setText(d && !d->empty() ? tr("κ unknown: the Jacobian is not finite along the guess")
                                             : tr("κ·Δt ≥ −2: check the stiffness for a suggestion"));
        useSuggestion_->setEnabled(false);
        return;
    }
    suggested_ = d->suggestedPoints;
    if (!(d->kappaMin < 0))
        stiffness_->setText(tr("κ = %1 ≥ 0: not stiff").arg(d->kappaMin, 0, 'g', 4));
    else
        stiffness_->setText(tr("κ = %1 (t = %2), κ·Δt = %3 with %4 points; suggested: %5")
                                .arg(d->kappaMin, 0, 'g', 4)
                                .arg(d->kappaMinTime, 0, 'g', 3)
                                .arg(d->kappaStep(), 0, 'g', 3)
                                .arg(d->points)
                                .arg(d->suggestedPoints));
    stiffness_->setToolTip(QString::fromStdString(estimate::describeStiffness(*d)));
    useSuggestion_->setEnabled(suggested_ >= 2 && suggested_ != static_cast<std::size_t>(points_->value()));
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
    points_->setValue(static_cast<int>(std::min<std::size_t>(settings.shootingPoints, 100000)));
    maxIterations_->setValue(static_cast<int>(std::min<std::size_t>(settings.bvp.newton.maxIterations, 100000)));
    stages_->setStages(settings.stages);
    showStartFrom();
    updating_ = false;
    rebuild();
}

estimate::OptimalEstimationSettings OptimalEstimationSettingsWidget::settings() const
{
    estimate::OptimalEstimationSettings s = values_;
    s.shootingPoints = static_cast<std::size_t>(points_->value());
    s.bvp.newton.maxIterations = static_cast<std::size_t>(maxIterations_->value());
    s.stages = stages_->stages();
    return s;
}

bool OptimalEstimationSettingsWidget::isValid() const
{
    return problems().isEmpty();
}

QStringList OptimalEstimationSettingsWidget::problems() const
{
    QStringList out = stages_->problems();
    for (const auto& [cell, bad] : invalid_)
        if (bad)
            if (const QTableWidgetItem* item = table_->item(cell.first, cell.second))
                out << tr("%1 of %2: %3")
                           .arg(table_->horizontalHeaderItem(cell.second)->text(),
                                table_->item(cell.first, NameColumn)->text().mid(3), item->toolTip());
    return out;
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
        const auto guess = values_.guessExpressions.find(name);
        table_->setItem(row, GuessColumn,
                        new QTableWidgetItem(guess == values_.guessExpressions.end()
                                                 ? QString()
                                                 : QString::fromStdString(guess->second)));
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
        table_->setItem(row, GuessColumn, fixedItem(QString()));
        ++row;
    }
    table_->resizeColumnsToContents();
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
    if (item->column() == GuessColumn) {
        // The expression is read when the estimate runs, against the model and the data.
        if (text.isEmpty())
            values_.guessExpressions.erase(name);
        else
            values_.guessExpressions[name] = text.toStdString();
        emit settingsChanged();
        return;
    }
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
