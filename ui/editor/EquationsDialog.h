#pragma once

#include "ui/project/ModelSummary.h"

#include <QDialog>
#include <QString>

class QPlainTextEdit;

namespace sysid::ui {

// "Show derived equations": the model's equations as the engine derived them (for a Lagrangian
// model, Lagrange's equations and the solved accelerations), read-only, monospace.
class EquationsDialog : public QDialog {
    Q_OBJECT
public:
    explicit EquationsDialog(QWidget* parent = nullptr);
    explicit EquationsDialog(const ModelSummary& summary, QWidget* parent = nullptr);

    void setSummary(const ModelSummary& summary);
    QString text() const;  // what the view shows

private:
    QPlainTextEdit* view_ = nullptr;
};

}  // namespace sysid::ui
