#pragma once

#include "engine/data/DataTable.h"
#include "engine/data/Preprocessing.h"
#include "engine/estimate/FitResult.h"
#include "engine/job/FitJob.h"
#include "engine/project/Project.h"
#include "ui/project/ModelSummary.h"

#include <QObject>
#include <QString>

#include <map>
#include <string>

#include <optional>

namespace sysid::ui {

// The open project, the one place every panel reads and changes. Each change emits the
// signal of the part that changed and marks the document modified until it is saved.
class ProjectDocument : public QObject {
    Q_OBJECT

public:
    explicit ProjectDocument(QObject* parent = nullptr);

    // --- file
    bool load(const QString& path, QString* error);  // .sysid; on failure nothing changes
    bool save(const QString& path, QString* error);  // atomic; sets filePath, clears modified
    void newFromModel(const QString& modelText, const QString& modelSource);  // a fresh project
    QString filePath() const { return filePath_; }  // empty: not saved yet
    bool isModified() const { return modified_; }
    const project::Project& project() const { return project_; }
    // project::trueValues of the project (for the results' relative errors).
    std::map<std::string, double> trueValues() const;
    nlohmann::json toJson() const;  // for autosave: the project as saved
    bool restoreJson(const nlohmann::json& json, const QString& filePath, QString* error);

    // --- model
    QString modelText() const;
    QString modelSource() const;
    void setModelText(const QString& text);
    const ModelSummary& modelSummary() const { return summary_; }

    // --- data sets (experiments)
    int dataSetCount() const { return static_cast<int>(project_.data.size()); }
    const project::Project::DataSet& dataSet(int index) const
    {
        return project_.data.at(static_cast<std::size_t>(index));
    }
    const data::DataTable* table(int index) const;  // nullptr when the file could not be read
    QString tableError(int index) const;  // why table() is nullptr
    void addDataSet(const project::Project::DataSet& set, const data::DataTable& table);
    void removeDataSet(int index);
    void setMapping(int index, const std::map<std::string, std::string>& mapping);
    int currentDataSet() const { return current_; }
    void setCurrentDataSet(int index);

    // --- preprocessing, estimator settings, starting values
    data::Preprocessing preprocessing() const;
    void setPreprocessing(const data::Preprocessing& settings);
    const estimate::FitSettings& settings() const { return project_.settings; }
    void setSettings(const estimate::FitSettings& settings);
    const std::map<std::string, double>& parameterValues() const { return project_.parameterValues; }
    void setParameterValues(const std::map<std::string, double>& values);
    // Settings of optimal estimation, kept in the project as "optimal_estimation". Marks the
    // project modified and emits nothing (its only view is where the edit came from).
    void setOptimalEstimationSettings(const estimate::OptimalEstimationSettings& settings);
    // Settings of the Monte Carlo noise study ("study"); like setOptimalEstimationSettings.
    void setStudySettings(const job::NoiseStudySettings& settings);
    // The GUI keeps starting values and priors in the model text (the parameter table edits the
    // text): replaces the text by one with the project's starting values and the named priors
    // written in, and clears them from the project. The project means the same afterwards, so
    // this does not mark it modified.
    void foldIntoModelText(const QString& textWithValues, const std::vector<std::string>& foldedPriors);

    // --- results
    const std::optional<estimate::FitResult>& result() const { return result_; }
    void setResult(const estimate::FitResult& result);

    // The fit job for the current state (throws job::JobError when data are missing).
    job::FitJob makeFitJob() const;

signals:
    void modelTextChanged();
    void dataChanged();
    void currentDataSetChanged(int index);
    void preprocessingChanged();
    void settingsChanged();
    void resultChanged();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);

private:
    void markModified();
    void announceEverything(bool modified);  // after the whole project was replaced
    void reloadTables();
    void summarize();

    project::Project project_;
    QString filePath_;
    bool modified_ = false;
    int current_ = -1;
    std::vector<std::optional<data::DataTable>> tables_;
    std::vector<QString> tableErrors_;
    ModelSummary summary_;
    std::optional<estimate::FitResult> result_;
};

}  // namespace sysid::ui
