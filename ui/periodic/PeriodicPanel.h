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
class QLineEdit;
class QSpinBox;

namespace sysid::ui {

class IntersampleTable;
class NumberField;

// Settings of a periodic steady-state computation (Vankan 1992): forcing period, shooting or
// time discretisation, and an optional continuation in a parameter (a frequency-response
// curve), with Run / Cancel and the last result (period, Floquet multipliers, stability). A model
// with measured inputs is driven by their record over one period or several (a data set of the
// project or a CSV file), extended periodically with the chosen intersample behaviour.
class PeriodicPanel : public QWidget {
    Q_OBJECT
public:
    explicit PeriodicPanel(QWidget* parent = nullptr);

    // Fills the parameter and state choices from a valid summary (an invalid one is ignored).
    void setModel(const ModelSummary& summary);
    // The project's data sets, by name, offered as the input record (a CSV file is the other choice).
    void setDataSets(const QStringList& names);
    // The job for this model text, or nothing with *error saying which field is wrong. For a model
    // with inputs the record itself is the caller's to add (inputDataSet() or inputFile()).
    std::optional<job::PeriodicJob> job(const QString& modelText, const QString& source, QString* error) const;
    bool modelHasInputs() const { return hasInputs_; }
    int inputDataSet() const;  // the chosen data set, -1 for a CSV file
    QString inputFile() const;  // the chosen CSV file (when inputDataSet() is -1)
    void setInputFile(const QString& path);  // and chooses the CSV file
    void showResult(const job::PeriodicJob::Result& result);
    void showMessage(const QString& message);

    NumberField* periodEdit() const { return period_; }
    QSpinBox* periodsSpin() const { return periods_; }
    QComboBox* solverCombo() const { return solver_; }
    QSpinBox* intervalsSpin() const { return intervals_; }
    QSpinBox* nodesSpin() const { return nodes_; }
    QComboBox* schemeCombo() const { return scheme_; }
    QComboBox* jacobianReuseCombo() const { return jacobianReuse_; }
    QGroupBox* sweepBox() const { return sweep_; }
    QComboBox* sweepParameterCombo() const { return sweepParameter_; }
    NumberField* sweepFromEdit() const { return sweepFrom_; }
    NumberField* sweepToEdit() const { return sweepTo_; }
    QCheckBox* frequencyCheck() const { return frequency_; }
    QComboBox* continuationCombo() const { return continuation_; }
    QGroupBox* inputBox() const { return inputBox_; }
    QComboBox* inputSourceCombo() const { return inputSource_; }
    QComboBox* inputPeriodsCombo() const { return inputPeriods_; }
    IntersampleTable* intersampleTable() const { return intersample_; }
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
    void chooseInputFile();

    NumberField* period_ = nullptr;
    QSpinBox* periods_ = nullptr;
    QComboBox* solver_ = nullptr;
    QSpinBox* intervals_ = nullptr;
    QSpinBox* nodes_ = nullptr;
    QComboBox* scheme_ = nullptr;
    QComboBox* jacobianReuse_ = nullptr;  // of the shooting Newton
    QSpinBox* settle_ = nullptr;
    QGroupBox* sweep_ = nullptr;
    QComboBox* sweepParameter_ = nullptr;
    NumberField* sweepFrom_ = nullptr;
    NumberField* sweepTo_ = nullptr;
    QCheckBox* frequency_ = nullptr;
    QComboBox* continuation_ = nullptr;
    QComboBox* amplitudeState_ = nullptr;
    QGroupBox* inputBox_ = nullptr;
    QComboBox* inputSource_ = nullptr;
    QLineEdit* inputFile_ = nullptr;
    QPushButton* browse_ = nullptr;
    QComboBox* inputPeriods_ = nullptr;
    IntersampleTable* intersample_ = nullptr;
    bool hasInputs_ = false;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QLabel* result_ = nullptr;
};

}  // namespace sysid::ui
