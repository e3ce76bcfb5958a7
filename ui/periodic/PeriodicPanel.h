#pragma once

#include "engine/job/PeriodicJob.h"
#include "ui/project/ModelSummary.h"

#include <QString>
#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace sysid::ui {

class NumberField;

// Settings of a periodic steady-state computation (Vankan 1992): forcing period, shooting or
// time discretisation, and an optional continuation in a parameter (a frequency-response
// curve), with Run / Cancel and the last result (period, Floquet multipliers, stability).
class PeriodicPanel : public QWidget {
    Q_OBJECT
public:
    explicit PeriodicPanel(QWidget* parent = nullptr);

    // Fills the parameter and state choices from a valid summary (an invalid one is ignored).
    void setModel(const ModelSummary& summary);
    // The job for this model text, or nothing with *error saying which field is wrong.
    std::optional<job::PeriodicJob> job(const QString& modelText, const QString& source, QString* error) const;
    void showResult(const job::PeriodicJob::Result& result);
    void showMessage(const QString& message);

    NumberField* periodEdit() const { return period_; }
    QSpinBox* periodsSpin() const { return periods_; }
    QComboBox* solverCombo() const { return solver_; }
    QSpinBox* intervalsSpin() const { return intervals_; }
    QSpinBox* nodesSpin() const { return nodes_; }
    QComboBox* schemeCombo() const { return scheme_; }
    QGroupBox* sweepBox() const { return sweep_; }
    QComboBox* sweepParameterCombo() const { return sweepParameter_; }
    NumberField* sweepFromEdit() const { return sweepFrom_; }
    NumberField* sweepToEdit() const { return sweepTo_; }
    QCheckBox* frequencyCheck() const { return frequency_; }
    QComboBox* continuationCombo() const { return continuation_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QString resultText() const;

public slots:
    void setRunning(bool running);

signals:
    void runRequested();
    void cancelRequested();

private:
    void updateEnabled();

    NumberField* period_ = nullptr;
    QSpinBox* periods_ = nullptr;
    QComboBox* solver_ = nullptr;
    QSpinBox* intervals_ = nullptr;
    QSpinBox* nodes_ = nullptr;
    QComboBox* scheme_ = nullptr;
    QSpinBox* settle_ = nullptr;
    QGroupBox* sweep_ = nullptr;
    QComboBox* sweepParameter_ = nullptr;
    NumberField* sweepFrom_ = nullptr;
    NumberField* sweepTo_ = nullptr;
    QCheckBox* frequency_ = nullptr;
    QComboBox* continuation_ = nullptr;
    QComboBox* amplitudeState_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QLabel* result_ = nullptr;
};

}  // namespace sysid::ui
