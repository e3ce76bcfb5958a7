#pragma once

#include <QTableWidgetItem>

namespace sysid::ui {

// A table cell the user can select and copy but not edit (results, not settings).
inline QTableWidgetItem* readOnlyItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

}  // namespace sysid::ui
