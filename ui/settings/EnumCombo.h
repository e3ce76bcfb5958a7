#pragma once

#include "engine/core/EnumTable.h"
#include "ui/settings/ToolTip.h"
#include "ui/settings/Utf8.h"

#include <QComboBox>
#include <QString>
#include <QVariant>

#include <algorithm>

namespace sysid::ui {

// Fills a combo box from an enum's table (engine/core/EnumTable.h): one item per value that
// `keep` accepts, the table's label as its text, the value (as int) as its data and the table's
// description as its tooltip. Every choice in the GUI is offered this way, so its spellings and
// explanations are the command line's and the project file's.
template <class E, std::size_t N, class Keep = core::AnyValue>
void fillCombo(QComboBox* combo, const core::EnumTable<E, N>& table, Keep keep = {})
{
    for (const auto& entry : table.entries()) {
        if (!keep(entry.value))
            continue;
        const auto label = table.label(entry.value);
        combo->addItem(toQString(label), static_cast<int>(entry.value));
        combo->setItemData(combo->count() - 1, toQString(entry.description), Qt::ToolTipRole);
    }
}

// The same with the value's name (its spelling in files) as the item data.
template <class E, std::size_t N>
void fillComboByName(QComboBox* combo, const core::EnumTable<E, N>& table)
{
    for (const auto& entry : table.entries()) {
        const auto label = table.label(entry.value);
        combo->addItem(toQString(label), toQString(entry.name));
        combo->setItemData(combo->count() - 1, toQString(entry.description), Qt::ToolTipRole);
    }
}

// The value shown, as E.
template <class E>
E comboValue(const QComboBox* combo)
{
    return static_cast<E>(combo->currentData().toInt());
}

// The combo's tooltip: `help` (what the setting is), then what the current choice does (its item's
// tooltip, which a combo shows only in its popup). Kept up to date as the choice changes.
inline void explainChoice(QComboBox* combo, const QString& help)
{
    const auto update = [combo, help] {
        const QString current = combo->currentData(Qt::ToolTipRole).toString();
        combo->setToolTip(wrappedToolTip(
            current.isEmpty() ? help : QStringLiteral("%1\n\n%2: %3").arg(help, combo->currentText(), current)));
    };
    QObject::connect(combo, &QComboBox::currentIndexChanged, combo, update);
    update();
}

// Shows `value`; the first item when the combo does not offer it.
template <class E>
void showComboValue(QComboBox* combo, E value)
{
    combo->setCurrentIndex(std::max(0, combo->findData(static_cast<int>(value))));
}

}  // namespace sysid::ui
