#pragma once

#include "engine/data/DataTable.h"
#include "engine/data/Preprocessing.h"
#include "engine/estimate/FitResult.h"
#include "engine/job/FitJob.h"
#include "engine/project/Project.h"
#include "ui/project/ModelSummary.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <map>
#include <string>

#include <optional>

namespace sysid::ui {

// The open project, the one place every panel reads and changes. Each change emits the
// signal of the part that changed and marks the document modified until it is saved.
//
// It also keeps a revision of what a run computes from (model, data, preprocessing, fit
// settings), so that results, plots and messages from before a change can say they are out of
// date instead of passing for current. Starting values of estimated parameters are not part of
// it: a fit from other starting values solves the same problem.
class ProjectDocument : public QObject {
    Q_OBJECT

public:
    // What a run's result was computed from. `project` changes with New, Open and a restored
    // autosave; the others count changes of their part.
    struct Revision {
        int project = 0, model = 0, data = 0, preprocessing = 0, settings = 0;
        bool operator==(const Revision&) const = default;
    };
    enum Aspect { ModelAspect = 1, DataAspect = 2, PreprocessingAspect = 4, SettingsAspect = 8, AllAspects = 15 };

    explicit ProjectDocument(QObject* parent = nullptr);

    // --- file
    bool load(const QString& path, QString* error);  // .sysid; on failure nothing changes
    bool save(const QString& path, QString* error);  // atomic; sets filePath, clears modified
    void newFromModel(const QString& modelText, const QString& modelSource);  // a fresh project
    QString filePath() const { return filePath_; }  // empty: not saved yet
    // Makes the open project an untitled copy of its file (a bundled example): Save then asks
    // where. Its data paths are absolute already (load resolves them), so they keep working.
    void detachFromFile();
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
    // Data set `index` as a fit fits it: through the preprocessing, with the noise of its record
    // (job::preprocessedRecord). Computed on first use and kept until the data or the
    // preprocessing change. nullptr when there is no table or the preprocessing fails (*error
    // says why).
    const data::DataTable* fittedTable(int index, QString* error = nullptr) const;
    // Whether the preprocessing changes the data at all (else fittedTable() equals table()).
    bool preprocessingChangesData() const;
    void addDataSet(const project::Project::DataSet& set, const data::DataTable& table);
    void removeDataSet(int index);
    // Edits of a data set, each one step of undoStack(). A new mapping, inclusion or role changes
    // what a fit fits (the data revision moves on); a new name does not.
    void setMapping(int index, const std::map<std::string, std::string>& mapping);
    void setDataSetName(int index, const QString& name);
    void setDataSetIncluded(int index, bool included);
    void setDataSetRole(int index, project::DataRole role);
    // The data sets' edits, undoable one by one. Emptied when data sets are added or removed
    // (the steps name data sets by position) and when the project is replaced.
    QUndoStack* undoStack() { return &undo_; }
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
    // The last optimal-estimation result (optimalResultToJson), kept in the project as
    // "last_optimal_result": what "start from the last result" starts from, shown again when the
    // project is opened. Marks the project modified and emits nothing.
    const std::optional<nlohmann::json>& lastOptimalResult() const { return project_.lastOptimalResult; }
    void setLastOptimalResult(const nlohmann::json& result);
    // Settings of the Monte Carlo noise study ("study"); like setOptimalEstimationSettings.
    void setStudySettings(const job::NoiseStudySettings& settings);
    // The profile likelihood settings and parameters ("profile") and the last profiles computed
    // ("last_profile_result", for the report).
    void setProfileSetup(const project::Project::ProfileSetup& setup);
    void setLastProfileResult(const nlohmann::json& result);
    // Settings of the multistart ("multistart"); like setOptimalEstimationSettings.
    void setMultistartSettings(const job::MultistartSettings& settings);
    // The GUI keeps starting values and priors in the model text (the parameter table edits the
    // text): replaces the text by one with the project's starting values and the named priors
    // written in, and clears them from the project. The project means the same afterwards, so
    // this does not mark it modified.
    void foldIntoModelText(const QString& textWithValues, const std::vector<std::string>& foldedPriors);

    // --- revisions: is what was computed still current?
    Revision revision() const { return revision_; }
    // Why something computed at `then` no longer matches the project ("the model and the data
    // changed since"), considering the parts in `aspects`; empty when none of them changed.
    QString changesSince(const Revision& then, int aspects = AllAspects) const;

    // --- results
    const std::optional<estimate::FitResult>& result() const { return result_; }
    // A result computed now.
    void setResult(const estimate::FitResult& result);
    // A result of a run that started at `computedAt`. Refused (false, nothing changes) when it was
    // computed for another project (opened since the run started).
    bool setResult(const estimate::FitResult& result, const Revision& computedAt);
    // Why the result no longer matches the project (empty: it does, or there is none). A result
    // saved out of date stays so when the project is opened again.
    QString resultOutOfDate() const;

    // The fit job for the current state (throws job::JobError when data are missing).
    job::FitJob makeFitJob() const;

signals:
    // The whole project was replaced (New, Open, a restored autosave): views start afresh. Comes
    // before the signals of the parts.
    void projectReplaced();
    // Model, data, preprocessing or fit settings changed: revision() moved on. Comes after the
    // signal of the part (which already sees the new revision).
    void problemChanged();
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
    // Replaces data set `index` (an undo step's do and undo).
    void replaceDataSet(int index, const project::Project::DataSet& set);
    void editDataSet(int index, const project::Project::DataSet& changed, const QString& what);
    void takeStoredResult();  // the project's last_result, and whether it was saved out of date

    project::Project project_;
    QString filePath_;
    bool modified_ = false;
    int current_ = -1;
    std::vector<std::optional<data::DataTable>> tables_;
    std::vector<QString> tableErrors_;
    ModelSummary summary_;
    QString problem_;  // modelProblem of the text: what a change must alter to make results out of date
    std::optional<estimate::FitResult> result_;
    Revision revision_;
    Revision resultRevision_;
    QString storedOutOfDate_;  // the reason a loaded result was saved with
    struct FittedCache {
        int index = -1;
        Revision revision;
        std::optional<data::DataTable> table;
        QString error;
    };
    mutable FittedCache fitted_;
    QUndoStack undo_;
};

}  // namespace sysid::ui
