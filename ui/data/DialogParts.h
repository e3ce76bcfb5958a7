#pragma once

#include <QString>

class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QWidget;

namespace sysid::ui {

// A file path to type or choose: the line edit (named `editName`) with a "Browse…" button
// beside it, in one row.
struct PathRow {
    QLineEdit* edit = nullptr;
    QPushButton* browse = nullptr;
    QHBoxLayout* layout = nullptr;
};
PathRow makePathRow(QWidget* parent, const QString& editName, const QString& placeholder);

// A dialog's inline error message ("errorLabel"): red plain text, wrapped and selectable, hidden
// until there is a message.
QLabel* makeErrorLabel(QWidget* parent);

}  // namespace sysid::ui
