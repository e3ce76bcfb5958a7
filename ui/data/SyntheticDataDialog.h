#pragma once

#include "engine/data/Noise.h"
#include "engine/model/Model.h"

#include <QDialog>
#include <QString>

#include <memory>
#include <stop_token>
#include <thread>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace sysid::ui {

class NumberField;

// Makes a synthetic data set: simulates the model (job::SimulationJob::runSynthetic on a worker
// thread) from t = 0 to t end with the given step and parameter values, with noise of a
// percentage of each output's RMS (seeded, the engine's one recipe), and writes t,<outputs> to a
// CSV file (data::writeCsvFile). On success the dialog accepts; errors show inline and keep it open.
// The UI thread never waits for the simulation; closing the dialog cancels it.
class SyntheticDataDialog : public QDialog {
    Q_OBJECT

public:
    explicit SyntheticDataDialog(QWidget* parent = nullptr);
    ~SyntheticDataDialog() override;

    // The model text to simulate and its name for messages.
    void setModel(const QString& text, const QString& source);
    // Fills the parameter table (name, value) from the model's parameters.
    void setParameters(const std::vector<model::Parameter>& parameters);
    void setTimeSpan(double tEnd, double step);
    void setNoise(double percentRms, data::NoiseDistribution distribution, int seed);
    void setTargetPath(const QString& path);

    // The file written by the last successful Generate; empty before.
    QString writtenPath() const { return writtenPath_; }
    // The parameter values the last Generate simulated with: the true values of the data set.
    const std::map<std::string, double>& trueValues() const { return trueValues_; }
    // The error shown inline; empty if none.
    QString errorText() const { return errorText_; }
    bool isGenerating() const { return generating_; }

public slots:
    // Starts the simulation on a worker thread (what the Generate button does).
    void generate();
    void reject() override;

signals:
    // After the CSV file was written, just before the dialog accepts.
    void generated(const QString& path);

private:
    struct Outcome;
    void browse();
    void finish(const std::shared_ptr<const Outcome>& outcome);
    void showError(const QString& message);

    NumberField* tEndField_ = nullptr;
    NumberField* stepField_ = nullptr;
    QTableWidget* parameterTable_ = nullptr;
    NumberField* noiseField_ = nullptr;
    QComboBox* distributionCombo_ = nullptr;
    QSpinBox* seedSpin_ = nullptr;
    QLineEdit* pathEdit_ = nullptr;
    QPushButton* browseButton_ = nullptr;
    QPushButton* generateButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QLabel* errorLabel_ = nullptr;
    std::map<std::string, double> trueValues_;
    QLabel* statusLabel_ = nullptr;

    QString modelText_;
    QString modelSource_ = QStringLiteral("<model>");
    QString writtenPath_;
    QString errorText_;
    bool generating_ = false;
    bool cancelled_ = false;
    std::jthread worker_;  // last member: joined (after a stop request) before the others go
};

}  // namespace sysid::ui
