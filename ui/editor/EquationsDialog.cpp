#include "ui/editor/EquationsDialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace sysid::ui {

EquationsDialog::EquationsDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Derived equations"));
    auto* layout = new QVBoxLayout(this);
    view_ = new QPlainTextEdit(this);
    view_->setObjectName(QStringLiteral("equationsView"));
    view_->setReadOnly(true);
    view_->setLineWrapMode(QPlainTextEdit::NoWrap);
    view_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(view_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(760, 460);  // the descriptor system's lines of a model with constraints
}

EquationsDialog::EquationsDialog(const ModelSummary& summary, QWidget* parent) : EquationsDialog(parent)
{
    setSummary(summary);
}

void EquationsDialog::setSummary(const ModelSummary& summary)
{
    if (!summary.valid)
        view_->setPlainText(tr("The model has errors; fix them to see the derived equations."));
    else
        view_->setPlainText(QString::fromStdString(summary.equations));
}

QString EquationsDialog::text() const
{
    return view_->toPlainText();
}

}  // namespace sysid::ui
