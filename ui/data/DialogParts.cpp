#include "ui/data/DialogParts.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace sysid::ui {

PathRow makePathRow(QWidget* parent, const QString& editName, const QString& placeholder)
{
    PathRow row;
    row.edit = new QLineEdit(parent);
    row.edit->setObjectName(editName);
    row.edit->setPlaceholderText(placeholder);
    row.browse = new QPushButton(QCoreApplication::translate("PathRow", "Browse…"), parent);
    row.layout = new QHBoxLayout;
    row.layout->addWidget(row.edit, 1);
    row.layout->addWidget(row.browse);
    return row;
}

QLabel* makeErrorLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(QStringLiteral("errorLabel"));
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setStyleSheet(QStringLiteral("QLabel { color: #c00000; }"));
    label->setVisible(false);
    return label;
}

}  // namespace sysid::ui
