#include "ui/settings/StageScheduleTable.h"

#include "ui/settings/NumberField.h"
#include "ui/settings/ToolTip.h"
#include "ui/settings/Utf8.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <variant>

namespace sysid::ui {

namespace {

using Stage = estimate::OptimalEstimationStage;
using StageField = core::Field<Stage>;

QString capitalised(QString text)
{
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

QString toolTipOf(const StageField& field)
{
    QStringList lines;
    lines << capitalised(toQString(field.names.help)) + QLatin1Char('.');
    if (const auto* number = std::get_if<core::NumberAccess<Stage>>(&field.access))
        lines << QObject::tr("Allowed: %1.").arg(QString::fromStdString(number->rule.describe()));
    if (const auto* count = std::get_if<core::CountAccess<Stage>>(&field.access))
        lines << QObject::tr("Allowed: %1.").arg(QString::fromStdString(core::countRule(count->minimum)));
    lines << QObject::tr("Command line: --stage K:%1=VALUE").arg(toQString(field.names.option));
    return wrappedToolTip(lines.join(QLatin1Char('\n')));
}

}  // namespace

StageScheduleTable::StageScheduleTable(QWidget* parent) : QWidget(parent)
{
    const auto& fields = estimate::optimalEstimationStageFields();
    table_ = new QTableWidget(static_cast<int>(fields.size()), 0, this);
    table_->setObjectName(QStringLiteral("stageScheduleTable"));
    table_->setToolTip(wrappedToolTip(
        tr("The loose-to-tight schedule (Rutten 1993, §5.4): Newton runs to each stage's tolerance with its "
           "integrator, then the next stage starts from its solution. A run from a previous result skips the "
           "fixed-step stages. Command line: --stage K:NAME=VALUE, --stages N")));
    // Rows named as on the command line (--stage K:NAME=VALUE), which keeps the table narrow
    // enough for the estimator column; the tooltip gives the setting in words.
    QStringList rows;
    for (int r = 0; r < static_cast<int>(fields.size()); ++r) {
        const StageField& field = fields[static_cast<std::size_t>(r)];
        rows << toQString(field.names.option);
    }
    table_->setVerticalHeaderLabels(rows);
    for (int r = 0; r < static_cast<int>(fields.size()); ++r)
        table_->verticalHeaderItem(r)->setToolTip(
            capitalised(toQString(fields[static_cast<std::size_t>(r)].names.label)) + QStringLiteral(": ") +
            toolTipOf(fields[static_cast<std::size_t>(r)]));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(60);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);

    add_ = new QPushButton(tr("Add stage"), this);
    add_->setObjectName(QStringLiteral("addStageButton"));
    add_->setToolTip(tr("Append a copy of the last stage (then tighten it)."));
    remove_ = new QPushButton(tr("Remove stage"), this);
    remove_->setObjectName(QStringLiteral("removeStageButton"));
    remove_->setToolTip(tr("Remove the last stage."));
    defaults_ = new QPushButton(tr("Default schedule"), this);
    defaults_->setObjectName(QStringLiteral("defaultStagesButton"));
    defaults_->setToolTip(
        tr("%1 (Rutten 1993, §5.4).")
            .arg(QString::fromStdString(estimate::scheduleText(estimate::defaultOptimalEstimationStages()))));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add_);
    buttons->addWidget(remove_);
    buttons->addWidget(defaults_);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(table_);
    layout->addLayout(buttons);

    connect(add_, &QPushButton::clicked, this, [this] {
        stages_.push_back(stages_.back());
        rebuild();
        changed();
    });
    connect(remove_, &QPushButton::clicked, this, [this] {
        if (stages_.size() > 1)
            stages_.pop_back();
        rebuild();
        changed();
    });
    connect(defaults_, &QPushButton::clicked, this, [this] {
        stages_ = estimate::defaultOptimalEstimationStages();
        rebuild();
        changed();
    });
    setStages(estimate::defaultOptimalEstimationStages());
}

void StageScheduleTable::setStages(const std::vector<estimate::OptimalEstimationStage>& stages)
{
    stages_ = stages.empty() ? estimate::defaultOptimalEstimationStages() : stages;
    rebuild();
}

QWidget* StageScheduleTable::editor(int stage, const std::string& key) const
{
    const auto& fields = estimate::optimalEstimationStageFields();
    for (int r = 0; r < static_cast<int>(fields.size()); ++r)
        if (fields[static_cast<std::size_t>(r)].names.key == key)
            return table_->cellWidget(r, stage);
    return nullptr;
}

QStringList StageScheduleTable::problems() const
{
    QStringList out;
    for (int c = 0; c < table_->columnCount(); ++c)
        for (int r = 0; r < table_->rowCount(); ++r)
            if (const auto* number = qobject_cast<const NumberField*>(table_->cellWidget(r, c));
                number && number->isEnabled() && !number->isValid())
                out << tr("stage %1 %2").arg(c + 1).arg(number->problem());
    return out;
}

void StageScheduleTable::changed()
{
    if (!updating_)
        emit stagesChanged();
}

void StageScheduleTable::rebuild()
{
    updating_ = true;
    const auto& fields = estimate::optimalEstimationStageFields();
    const int count = static_cast<int>(stages_.size());
    table_->setColumnCount(count);
    QStringList headers;
    for (int c = 0; c < count; ++c)
        headers << tr("Stage %1").arg(c + 1);
    table_->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < count; ++c) {
        for (int r = 0; r < static_cast<int>(fields.size()); ++r) {
            const StageField& field = fields[static_cast<std::size_t>(r)];
            const auto stageIndex = static_cast<std::size_t>(c);
            QWidget* editor = nullptr;
            std::visit(
                [&](const auto& a) {
                    using A = std::decay_t<decltype(a)>;
                    if constexpr (std::is_same_v<A, core::ChoiceAccess<Stage>>) {
                        auto* combo = new QComboBox;
                        // The choices in the table's order, by their names (as typed on the command line).
                        QString list = QString::fromStdString(a.choices.list(","));
                        for (const QString& name : list.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                            const auto value = a.choices.parse(name.trimmed().toStdString());
                            if (value)
                                combo->addItem(name.trimmed(), *value);
                        }
                        combo->setCurrentIndex(std::max(0, combo->findData(a.get(stages_[stageIndex]))));
                        connect(combo, &QComboBox::currentIndexChanged, this, [this, combo, a, stageIndex] {
                            if (stageIndex >= stages_.size())
                                return;
                            a.set(stages_[stageIndex], combo->currentData().toInt());
                            updateEnabled();
                            changed();
                        });
                        editor = combo;
                    } else if constexpr (std::is_same_v<A, core::NumberAccess<Stage>>) {
                        auto* number = new NumberField(a.ref(stages_[stageIndex]));
                        number->setLabel(toQString(field.names.label));
                        number->setRule(a.rule);
                        number->setHelp(toolTipOf(field));
                        connect(number, &NumberField::valueChanged, this, [this, a, stageIndex](double value) {
                            if (stageIndex >= stages_.size())
                                return;
                            a.ref(stages_[stageIndex]) = value;
                            changed();
                        });
                        connect(number, &NumberField::validityChanged, this, [this] { changed(); });
                        editor = number;
                    } else if constexpr (std::is_same_v<A, core::CountAccess<Stage>>) {
                        auto* spin = new QSpinBox;
                        spin->setRange(static_cast<int>(a.minimum), 100000);
                        spin->setValue(static_cast<int>(std::min<std::size_t>(a.ref(stages_[stageIndex]), 100000)));
                        connect(spin, &QSpinBox::valueChanged, this, [this, a, stageIndex](int value) {
                            if (stageIndex >= stages_.size())
                                return;
                            a.ref(stages_[stageIndex]) = static_cast<std::size_t>(value);
                            changed();
                        });
                        editor = spin;
                    } else if constexpr (std::is_same_v<A, core::FlagAccess<Stage>>) {
                        auto* box = new QCheckBox;
                        box->setChecked(a.ref(stages_[stageIndex]));
                        connect(box, &QCheckBox::toggled, this, [this, a, stageIndex](bool on) {
                            if (stageIndex >= stages_.size())
                                return;
                            a.ref(stages_[stageIndex]) = on;
                            changed();
                        });
                        editor = box;
                    }
                },
                field.access);
            if (editor) {
                editor->setObjectName(
                    QStringLiteral("stage%1_%2").arg(c + 1).arg(QString::fromStdString(field.names.key)));
                if (!qobject_cast<NumberField*>(editor))
                    editor->setToolTip(toolTipOf(field));
                table_->setCellWidget(r, c, editor);
            }
        }
    }
    remove_->setEnabled(count > 1);
    updateEnabled();
    // Every row shown without scrolling; the width is the column's (the stages share it).
    table_->resizeRowsToContents();
    int height = table_->horizontalHeader()->sizeHint().height() + 2 * table_->frameWidth();
    for (int r = 0; r < table_->rowCount(); ++r)
        height += table_->rowHeight(r);
    table_->setFixedHeight(height + (count > 4 ? table_->horizontalScrollBar()->sizeHint().height() : 0));
    updating_ = false;
}

void StageScheduleTable::updateEnabled()
{
    const auto& fields = estimate::optimalEstimationStageFields();
    for (int c = 0; c < table_->columnCount() && c < static_cast<int>(stages_.size()); ++c) {
        const Stage& stage = stages_[static_cast<std::size_t>(c)];
        for (int r = 0; r < static_cast<int>(fields.size()); ++r) {
            const StageField& field = fields[static_cast<std::size_t>(r)];
            QWidget* editor = table_->cellWidget(r, c);
            if (!editor)
                continue;
            bool used = !field.when || field.when(stage);
            // Jacobians from the stage before: only an adaptive stage after an adaptive one.
            if (std::holds_alternative<core::FlagAccess<Stage>>(field.access))
                used = c > 0 && integrate::isAdaptive(stage.integrator.method) &&
                    integrate::isAdaptive(stages_[static_cast<std::size_t>(c) - 1].integrator.method);
            editor->setEnabled(used);
        }
    }
}

}  // namespace sysid::ui
