#pragma once

#include "engine/core/SettingField.h"
#include "engine/estimate/FitSettings.h"
#include "engine/estimate/MethodTraits.h"

#include <QStringList>
#include <QWidget>

#include <map>
#include <vector>
#include <string>

class QComboBox;
class QFormLayout;
class QGroupBox;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTableWidgetItem;
class QGroupBox;

namespace sysid::ui {

class EquationErrorSettingsWidget;
class IntersampleTable;
class NumberField;
class OptimalEstimationSettingsWidget;

// Settings of the estimator: method, shooting intervals, sensitivity method (forward or
// structural, for the single-shooting methods), integrator and its tolerances,
// stopping rules, per-output weights; Run and Cancel with a busy indicator. The
// periodic-response settings (forcing period or frequency parameter, periods, solver,
// shooting intervals, discretisation nodes and scheme, settling periods) are shown only for
// that method. Which controls a method shows is its row in estimate::kMethodTraits; the
// choices and their tooltips are the enums' tables; every control's tooltip, and a number field's
// rule, are its setting's entry in estimate::fitSettingFields().
// A number field (NumberField) holding an invalid entry (rtol <= 0, text that is not a number,
// ...) gets a red border and a tooltip saying why, settings() keeps its last valid value, and
// inputProblems() names it, so that a run can be refused. Settings given back to the panel
// unchanged (the project echoing what the panel reported) leave every entry as typed.
// Settings the panel does not show (priors, maxSteps) are kept from setSettings().
class EstimatorPanel : public QWidget {
    Q_OBJECT

public:
    explicit EstimatorPanel(QWidget* parent = nullptr);

    // The model's outputs: one row each in the weight table. Weights already given for
    // names that stay are kept.
    void setOutputs(const QStringList& outputs);
    QStringList outputs() const { return outputs_; }
    // The model's states: one row each in the equation-error weight table.
    void setStates(const QStringList& states);
    // The model's inputs: one row each in the intersample table (hidden without inputs).
    void setInputs(const QStringList& inputs, const std::map<std::string, integrate::Intersample>& declared = {});

    // The integrator the current model gets when none was chosen (integrate::defaultMethodFor):
    // shown while the user has not picked one in the combo. A pick is kept when the model changes.
    void setDefaultIntegrator(integrate::IntegrationMethod method);
    // A model with constraints: shows how the integrator keeps it on them (stabilisation, Baumgarte's
    // alpha and beta), which means nothing to other models.
    void setConstrained(bool constrained);

    void setSettings(const estimate::FitSettings& settings);
    // The settings shown. Weights are returned only for outputs in outputs() (all
    // weights set when no outputs were given); an empty weight cell means automatic.
    estimate::FitSettings settings() const;

    bool isRunning() const { return running_; }
    // True when every field that applies to the method shown holds a valid entry.
    bool isValid() const { return inputProblems().isEmpty(); }
    // One line per invalid entry that applies to the method shown, naming the field and its rule.
    QStringList inputProblems() const;

    // "Optimal estimation (TPBVP)" in the method combo: not a FitSettings method, so settings()
    // keeps the last fit method while it is selected, and setSettings() leaves it selected.
    static constexpr int kOptimalMethod = -1;  // its item data
    bool optimalSelected() const;
    // The structural-sensitivity method is picked and the method shown takes it.
    bool structuralSelected() const;
    OptimalEstimationSettingsWidget* optimalSettingsWidget() const { return optimal_; }
    EquationErrorSettingsWidget* equationErrorWidget() const { return equationError_; }
    QGroupBox* equationErrorBox() const { return equationErrorBox_; }

    QComboBox* methodCombo() const { return method_; }
    QComboBox* integratorCombo() const { return integrator_; }
    QComboBox* sensitivityCombo() const { return sensitivity_; }
    QGroupBox* integratorBox() const { return integratorBox_; }
    QSpinBox* shootingIntervalsSpin() const { return shootingIntervals_; }
    NumberField* gainEdit() const { return gain_; }
    NumberField* relativeToleranceEdit() const { return rtol_; }
    QComboBox* switchesCombo() const { return switches_; }
    QComboBox* modelCodeCombo() const { return modelCode_; }
    QComboBox* sensitivityErrorCombo() const { return sensitivityError_; }
    QComboBox* jacobianReuseCombo() const { return jacobianReuse_; }
    NumberField* absoluteToleranceEdit() const { return atol_; }
    NumberField* maxStepEdit() const { return maxStep_; }
    NumberField* costToleranceEdit() const { return costTol_; }
    NumberField* stepToleranceEdit() const { return stepTol_; }
    NumberField* gradientToleranceEdit() const { return gradTol_; }
    QTableWidget* weightTable() const { return weights_; }
    QGroupBox* periodicBox() const { return periodicBox_; }
    NumberField* periodEdit() const { return period_; }
    QLineEdit* frequencyParameterEdit() const { return frequencyParameter_; }
    QSpinBox* periodsSpin() const { return periods_; }
    QComboBox* periodicSolverCombo() const { return periodicSolver_; }
    QSpinBox* periodicIntervalsSpin() const { return periodicIntervals_; }
    QSpinBox* nodesSpin() const { return nodes_; }
    QComboBox* schemeCombo() const { return scheme_; }
    QSpinBox* settleSpin() const { return settle_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QProgressBar* progressBar() const { return progress_; }

public slots:
    // Run disabled, Cancel enabled and the progress bar busy while running.
    void setRunning(bool running);

signals:
    void settingsChanged();
    void optimalSettingsChanged();
    void runRequested();
    void cancelRequested();

private:
    // A number field for the fit setting `key` (its key in estimate::fitSettingFields()).
    NumberField* addNumberField(const std::string& key, const QString& objectName);
    // The method shown (not optimal estimation) takes `input`.
    bool takes(estimate::MethodInput input) const;
    // The weights settings() reports: those of the outputs shown.
    std::map<std::string, double> shownWeights() const;
    void weightEdited(QTableWidgetItem* item);
    void rebuildWeightTable();
    void updateEnabled();
    void emitChanged();
    void showIntegrator(integrate::IntegrationMethod method);

    QComboBox* method_ = nullptr;
    QSpinBox* shootingIntervals_ = nullptr;
    NumberField* gain_ = nullptr;  // steepest descent only
    QWidget* gainLabel_ = nullptr;
    QComboBox* sensitivity_ = nullptr;  // output-error, bayes, steepest descent
    QWidget* sensitivityLabel_ = nullptr;
    QGroupBox* integratorBox_ = nullptr;
    QComboBox* integrator_ = nullptr;
    NumberField* rtol_ = nullptr;
    QComboBox* switches_ = nullptr;  // locate or step across sign/abs/min/max
    QComboBox* modelCode_ = nullptr;  // native machine code or the interpreter
    QComboBox* sensitivityError_ = nullptr;  // sensitivities in the step-size control or not
    QComboBox* stabilisation_ = nullptr;  // models with constraints: projection, Baumgarte, both, none
    NumberField* baumgarteAlpha_ = nullptr;
    NumberField* baumgarteBeta_ = nullptr;
    QFormLayout* integratorForm_ = nullptr;
    bool constrained_ = false;
    NumberField* atol_ = nullptr;
    NumberField* maxStep_ = nullptr;
    QSpinBox* maxIterations_ = nullptr;
    NumberField* costTol_ = nullptr;
    NumberField* stepTol_ = nullptr;
    NumberField* gradTol_ = nullptr;
    QTableWidget* weights_ = nullptr;
    IntersampleTable* intersample_ = nullptr;
    QGroupBox* intersampleBox_ = nullptr;
    QGroupBox* periodicBox_ = nullptr;
    QGroupBox* equationErrorBox_ = nullptr;
    EquationErrorSettingsWidget* equationError_ = nullptr;
    QWidget* weightBox_ = nullptr;
    NumberField* period_ = nullptr;
    QLineEdit* frequencyParameter_ = nullptr;
    QSpinBox* periods_ = nullptr;
    QComboBox* periodicSolver_ = nullptr;
    QSpinBox* periodicIntervals_ = nullptr;
    QSpinBox* nodes_ = nullptr;
    QComboBox* scheme_ = nullptr;
    QSpinBox* settle_ = nullptr;
    QComboBox* jacobianReuse_ = nullptr;  // of the shooting Newton
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    OptimalEstimationSettingsWidget* optimal_ = nullptr;
    QGroupBox* optimalBox_ = nullptr;
    std::vector<QWidget*> fitOnly_;  // boxes hidden while optimal estimation is selected

    std::vector<NumberField*> numbers_;
    QStringList outputs_;
    std::map<std::string, double> weightValues_;  // last valid weight per output
    std::map<std::string, QString> weightProblems_;  // per output: why its cell is invalid
    estimate::FitSettings base_;  // members the panel does not show
    integrate::IntegrationMethod defaultIntegrator_ = integrate::IntegrationMethod::Dopri5;
    bool integratorChosen_ = false;  // picked in the combo (or chosen in the project)
    bool running_ = false;
    bool updating_ = false;  // suppresses settingsChanged while the panel fills itself
};

}  // namespace sysid::ui
