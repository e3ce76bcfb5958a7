#include "ui/settings/IntersampleTable.h"

#include "ui/settings/EnumCombo.h"

#include "engine/integrate/IntersampleChoice.h"

#include <QComboBox>
#include <QHeaderView>
#include <QSignalBlocker>

namespace sysid::ui {

IntersampleTable::IntersampleTable(QWidget* parent) : QTableWidget(0, 2, parent)
{
    setObjectName(QStringLiteral("intersampleTable"));
    setHorizontalHeaderLabels({tr("Input"), tr("Between samples")});
    verticalHeader()->setVisible(false);
    horizontalHeader()->setStretchLastSection(true);
    setToolTip(tr("How each input behaves between its samples: hold (zero-order hold), linear, or a cubic "
                  "spline for smooth band-limited signals."));
}

void IntersampleTable::setInputs(const QStringList& inputs,
                                 const std::map<std::string, integrate::Intersample>& declared)
{
    if (inputs == inputs_ && declared == declared_)
        return;
    inputs_ = inputs;
    declared_ = declared;
    rebuild();
}

integrate::Intersample IntersampleTable::shown(const std::string& input) const
{
    return integrate::intersampleOf(input, declared_, choices_);
}

void IntersampleTable::setChoices(const std::map<std::string, integrate::Intersample>& choices)
{
    choices_ = choices;
    for (int row = 0; row < rowCount(); ++row) {
        auto* combo = qobject_cast<QComboBox*>(cellWidget(row, 1));
        const QSignalBlocker blocker(combo);
        showComboValue(combo, shown(inputs_[row].toStdString()));
    }
}

std::map<std::string, integrate::Intersample> IntersampleTable::choices() const
{
    std::map<std::string, integrate::Intersample> out;
    for (const auto& [name, behaviour] : choices_)
        if (!inputs_.contains(QString::fromStdString(name)) ||
            behaviour != integrate::intersampleOf(name, declared_, {}))
            out[name] = behaviour;
    return out;
}

void IntersampleTable::rebuild()
{
    // Gone at once, not later: a combo is found by its input's name.
    for (int row = 0; row < rowCount(); ++row)
        if (QWidget* old = cellWidget(row, 1)) {
            removeCellWidget(row, 1);
            delete old;
        }
    setRowCount(static_cast<int>(inputs_.size()));
    for (int row = 0; row < static_cast<int>(inputs_.size()); ++row) {
        const std::string name = inputs_[row].toStdString();
        auto* nameItem = new QTableWidgetItem(inputs_[row]);
        nameItem->setFlags(nameItem->flags() & ~Qt::ItemIsEditable);
        setItem(row, 0, nameItem);
        auto* combo = new QComboBox(this);
        combo->setObjectName(QStringLiteral("intersample_") + inputs_[row]);
        fillCombo(combo, integrate::intersampleTable);
        showComboValue(combo, shown(name));
        connect(combo, &QComboBox::currentIndexChanged, this, [this, name, combo] {
            choices_[name] = comboValue<integrate::Intersample>(combo);
            emit changed();
        });
        setCellWidget(row, 1, combo);
    }
}

}  // namespace sysid::ui
