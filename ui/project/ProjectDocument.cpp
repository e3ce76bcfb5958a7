#include "ui/project/ProjectDocument.h"

#include "engine/data/CsvReader.h"
#include "engine/data/DataError.h"
#include "engine/job/FitJob.h"
#include "engine/project/FitReport.h"
#include "engine/project/ProjectJob.h"
#include "engine/project/ResultJson.h"
#include "ui/project/ModelProblem.h"

#include <QDir>
#include <QFileInfo>
#include <QStringList>
#include <QUndoCommand>

#include <algorithm>
#include <functional>

namespace sysid::ui {

namespace {

// The member of a saved last_result that says why it was out of date when it was saved.
constexpr const char* kOutOfDateKey = "out_of_date";

// One edit of a data set: the set before and after, put in place by `apply`.
class DataSetEdit : public QUndoCommand {
public:
    using Apply = std::function<void(int, const project::Project::DataSet&)>;
    DataSetEdit(int index, project::Project::DataSet before, project::Project::DataSet after, const QString& text,
                Apply apply) :
        QUndoCommand(text),
        index_(index), before_(std::move(before)), after_(std::move(after)), apply_(std::move(apply))
    {
    }
    void redo() override { apply_(index_, after_); }
    void undo() override { apply_(index_, before_); }

private:
    int index_;
    project::Project::DataSet before_, after_;
    Apply apply_;
};

// Whether a fit fits the two data sets alike (all but the name).
bool sameForFit(const project::Project::DataSet& a, const project::Project::DataSet& b)
{
    return a.path == b.path && a.timeColumn == b.timeColumn && a.mapping == b.mapping &&
        a.fixedValues == b.fixedValues && a.included == b.included && a.role == b.role &&
        a.format.separator == b.format.separator && a.format.decimalPoint == b.format.decimalPoint &&
        a.format.headerLine == b.format.headerLine && a.format.skipRows == b.format.skipRows;
}

}  // namespace

ProjectDocument::ProjectDocument(QObject* parent) : QObject(parent)
{
    summarize();
}

bool ProjectDocument::load(const QString& path, QString* error)
{
    try {
        project::Project loaded = project::loadProject(path.toStdString());
        project_ = std::move(loaded);
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    filePath_ = QFileInfo(path).absoluteFilePath();
    takeStoredResult();
    reloadTables();
    summarize();
    current_ = project_.data.empty() ? -1 : 0;
    announceEverything(false);
    return true;
}

void ProjectDocument::detachFromFile()
{
    if (filePath_.isEmpty())
        return;
    filePath_.clear();
    emit filePathChanged(filePath_);
}

void ProjectDocument::takeStoredResult()
{
    result_.reset();
    storedOutOfDate_.clear();
    if (!project_.lastResult)
        return;
    try {
        result_ = project::resultFromJson(*project_.lastResult);
        result_->settings = project_.settings;  // a stored result keeps no settings: it ran with the project's
        if (const auto reason = project_.lastResult->find(kOutOfDateKey);
            reason != project_.lastResult->end() && reason->is_string())
            storedOutOfDate_ = QString::fromStdString(reason->get<std::string>());
    } catch (const std::exception&) {
        // A damaged stored result is not worth refusing the project for; it is just not shown.
        result_.reset();
    }
}

bool ProjectDocument::save(const QString& path, QString* error)
{
    project::Project copy = project_;
    if (result_) {
        copy.lastResult = project::resultToJson(*result_);
        if (const QString reason = resultOutOfDate(); !reason.isEmpty())
            (*copy.lastResult)[kOutOfDateKey] = reason.toStdString();
    }
    try {
        project::saveProject(copy, path.toStdString());
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    project_ = std::move(copy);
    filePath_ = QFileInfo(path).absoluteFilePath();
    emit filePathChanged(filePath_);
    if (modified_) {
        modified_ = false;
        emit modifiedChanged(false);
    }
    return true;
}

nlohmann::json ProjectDocument::toJson() const
{
    const QString directory = filePath_.isEmpty() ? QDir::currentPath() : QFileInfo(filePath_).absolutePath();
    project::Project copy = project_;
    if (result_) {
        copy.lastResult = project::resultToJson(*result_);
        if (const QString reason = resultOutOfDate(); !reason.isEmpty())
            (*copy.lastResult)[kOutOfDateKey] = reason.toStdString();
    }
    return project::projectToJson(copy, directory.toStdString());
}

bool ProjectDocument::restoreJson(const nlohmann::json& json, const QString& filePath, QString* error)
{
    const QString directory = filePath.isEmpty() ? QDir::currentPath() : QFileInfo(filePath).absolutePath();
    try {
        project_ = project::projectFromJson(json, filePath.toStdString(), directory.toStdString());
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    filePath_ = filePath;
    takeStoredResult();
    reloadTables();
    summarize();
    current_ = project_.data.empty() ? -1 : 0;
    announceEverything(true);  // restored work is unsaved until the user saves it
    return true;
}

void ProjectDocument::newFromModel(const QString& modelText, const QString& modelSource)
{
    project_ = project::Project{};
    project_.modelText = modelText.toStdString();
    project_.modelSource = modelSource.toStdString();
    filePath_.clear();
    tables_.clear();
    tableErrors_.clear();
    result_.reset();
    storedOutOfDate_.clear();
    current_ = -1;
    summarize();
    announceEverything(false);
}

void ProjectDocument::announceEverything(bool modified)
{
    modified_ = modified;
    revision_ = Revision{revision_.project + 1};
    resultRevision_ = revision_;
    undo_.clear();
    emit projectReplaced();
    emit filePathChanged(filePath_);
    emit modelTextChanged();
    emit dataChanged();
    emit currentDataSetChanged(current_);
    emit preprocessingChanged();
    emit settingsChanged();
    emit resultChanged();
    emit modifiedChanged(modified_);
}

QString ProjectDocument::modelText() const
{
    return QString::fromStdString(project_.modelText);
}
QString ProjectDocument::modelSource() const
{
    return QString::fromStdString(project_.modelSource);
}

void ProjectDocument::setModelText(const QString& text)
{
    const std::string value = text.toStdString();
    if (value == project_.modelText)
        return;
    project_.modelText = value;
    const QString problem = problem_;
    summarize();
    const bool changed = problem_ != problem;
    if (changed)
        ++revision_.model;
    markModified();
    emit modelTextChanged();
    if (changed)
        emit problemChanged();
}

const data::DataTable* ProjectDocument::table(int index) const
{
    if (index < 0 || index >= static_cast<int>(tables_.size()) || !tables_[static_cast<std::size_t>(index)])
        return nullptr;
    return &*tables_[static_cast<std::size_t>(index)];
}

QString ProjectDocument::tableError(int index) const
{
    if (index < 0 || index >= static_cast<int>(tableErrors_.size()))
        return {};
    return tableErrors_[static_cast<std::size_t>(index)];
}

const data::DataTable* ProjectDocument::fittedTable(int index, QString* error) const
{
    const data::DataTable* raw = table(index);
    if (!raw) {
        if (error)
            *error = tableError(index);
        return nullptr;
    }
    const Revision& r = fitted_.revision;
    if (fitted_.index != index || r.project != revision_.project || r.data != revision_.data ||
        r.preprocessing != revision_.preprocessing) {
        fitted_ = FittedCache{index, revision_, std::nullopt, {}};
        try {
            // The noise of record k of the fit (job::preprocessedRecord): its place among the fitted sets.
            const auto fittedSets = project::estimationDataSets(project_);
            const auto place = std::find(fittedSets.begin(), fittedSets.end(), static_cast<std::size_t>(index));
            const std::size_t record = place == fittedSets.end() ? static_cast<std::size_t>(index)
                                                                 : static_cast<std::size_t>(place - fittedSets.begin());
            fitted_.table = job::preprocessedRecord(*raw, preprocessing(), record);
        } catch (const std::exception& e) {
            fitted_.error = QString::fromStdString(e.what());
        }
    }
    if (error)
        *error = fitted_.error;
    return fitted_.table ? &*fitted_.table : nullptr;
}

bool ProjectDocument::preprocessingChangesData() const
{
    const data::Preprocessing p = preprocessing();
    return p.window || p.decimation > 1 || p.lowPass || p.noise;
}

void ProjectDocument::addDataSet(const project::Project::DataSet& set, const data::DataTable& table)
{
    project_.data.push_back(set);
    tables_.emplace_back(table);
    tableErrors_.emplace_back();
    current_ = dataSetCount() - 1;
    ++revision_.data;
    undo_.clear();
    markModified();
    emit dataChanged();
    emit currentDataSetChanged(current_);
    emit problemChanged();
}

void ProjectDocument::removeDataSet(int index)
{
    if (index < 0 || index >= dataSetCount())
        return;
    const auto i = static_cast<std::size_t>(index);
    project_.data.erase(project_.data.begin() + static_cast<long>(i));
    tables_.erase(tables_.begin() + static_cast<long>(i));
    tableErrors_.erase(tableErrors_.begin() + static_cast<long>(i));
    current_ = std::min(current_, dataSetCount() - 1);
    ++revision_.data;
    undo_.clear();
    markModified();
    emit dataChanged();
    emit currentDataSetChanged(current_);
    emit problemChanged();
}

void ProjectDocument::setMapping(int index, const std::map<std::string, std::string>& mapping)
{
    if (index < 0 || index >= dataSetCount())
        return;
    project::Project::DataSet changed = dataSet(index);
    changed.mapping = mapping;
    editDataSet(index, changed, tr("Change the column mapping"));
}

void ProjectDocument::setDataSetName(int index, const QString& name)
{
    if (index < 0 || index >= dataSetCount())
        return;
    project::Project::DataSet changed = dataSet(index);
    changed.name = name.trimmed().toStdString();
    editDataSet(index, changed, tr("Rename data set"));
}

void ProjectDocument::setDataSetIncluded(int index, bool included)
{
    if (index < 0 || index >= dataSetCount())
        return;
    project::Project::DataSet changed = dataSet(index);
    changed.included = included;
    editDataSet(index, changed, included ? tr("Include data set") : tr("Exclude data set"));
}

void ProjectDocument::setDataSetRole(int index, project::DataRole role)
{
    if (index < 0 || index >= dataSetCount())
        return;
    project::Project::DataSet changed = dataSet(index);
    changed.role = role;
    editDataSet(index, changed, tr("Use data set for %1").arg(QString::fromUtf8(project::kDataRoles.name(role))));
}

void ProjectDocument::editDataSet(int index, const project::Project::DataSet& changed, const QString& what)
{
    const project::Project::DataSet& before = dataSet(index);
    if (before.name == changed.name && sameForFit(before, changed))
        return;
    undo_.push(new DataSetEdit(index, before, changed, what,
                               [this](int i, const project::Project::DataSet& set) { replaceDataSet(i, set); }));
}

void ProjectDocument::replaceDataSet(int index, const project::Project::DataSet& set)
{
    if (index < 0 || index >= dataSetCount())
        return;
    auto& slot = project_.data[static_cast<std::size_t>(index)];
    const bool problem = !sameForFit(slot, set);
    slot = set;
    if (problem)
        ++revision_.data;
    markModified();
    emit dataChanged();
    if (problem)
        emit problemChanged();
}

void ProjectDocument::setCurrentDataSet(int index)
{
    if (index == current_ || index < -1 || index >= dataSetCount())
        return;
    current_ = index;
    emit currentDataSetChanged(current_);
}

data::Preprocessing ProjectDocument::preprocessing() const
{
    try {
        return data::preprocessingFromJson(project_.preprocessing);
    } catch (const data::DataError&) {
        return {};
    }
}

void ProjectDocument::setPreprocessing(const data::Preprocessing& settings)
{
    const nlohmann::json json = data::toJson(settings);
    if (json == project_.preprocessing)
        return;
    project_.preprocessing = json;
    ++revision_.preprocessing;
    markModified();
    emit preprocessingChanged();
    emit problemChanged();
}

void ProjectDocument::setSettings(const estimate::FitSettings& settings)
{
    // Compared as the project file writes them: a panel re-sending the same values changes nothing.
    const bool same = project::nonDefaultSettings(settings) == project::nonDefaultSettings(project_.settings);
    project_.settings = settings;
    if (!same)
        ++revision_.settings;
    markModified();
    emit settingsChanged();
    if (!same)
        emit problemChanged();
}

void ProjectDocument::setOptimalEstimationSettings(const estimate::OptimalEstimationSettings& settings)
{
    project_.optimalEstimation = settings;
    markModified();
}

void ProjectDocument::setLastOptimalResult(const nlohmann::json& result)
{
    project_.lastOptimalResult = result;
    markModified();
}

void ProjectDocument::setStudySettings(const job::NoiseStudySettings& settings)
{
    if (project_.study == settings)
        return;
    project_.study = settings;
    markModified();
}

void ProjectDocument::setProfileSetup(const project::Project::ProfileSetup& setup)
{
    if (project_.profile == setup)
        return;
    project_.profile = setup;
    markModified();
}

void ProjectDocument::setLastProfileResult(const nlohmann::json& result)
{
    project_.lastProfileResult = result;
    markModified();
}

void ProjectDocument::setMultistartSettings(const job::MultistartSettings& settings)
{
    if (project_.multistart == settings)
        return;
    project_.multistart = settings;
    markModified();
}

void ProjectDocument::setParameterValues(const std::map<std::string, double>& values)
{
    if (values == project_.parameterValues)
        return;
    project_.parameterValues = values;
    ++revision_.model;  // they may set fixed parameters too
    markModified();
    emit settingsChanged();
    emit problemChanged();
}

void ProjectDocument::foldIntoModelText(const QString& textWithValues, const std::vector<std::string>& foldedPriors)
{
    project_.modelText = textWithValues.toStdString();
    project_.parameterValues.clear();
    for (const std::string& name : foldedPriors)
        project_.settings.priors.erase(name);
    summarize();
    emit modelTextChanged();
    emit settingsChanged();
}

std::map<std::string, double> ProjectDocument::trueValues() const
{
    return project::trueValues(project_);
}

void ProjectDocument::setResult(const estimate::FitResult& result)
{
    setResult(result, revision_);
}

bool ProjectDocument::setResult(const estimate::FitResult& result, const Revision& computedAt)
{
    if (computedAt.project != revision_.project)
        return false;
    result_ = result;
    resultRevision_ = computedAt;
    storedOutOfDate_.clear();
    markModified();
    emit resultChanged();
    return true;
}

QString ProjectDocument::resultOutOfDate() const
{
    if (!result_)
        return {};
    const QString changed = changesSince(resultRevision_);
    return changed.isEmpty() ? storedOutOfDate_ : changed;
}

QString ProjectDocument::changesSince(const Revision& then, int aspects) const
{
    if (then.project != revision_.project)
        return tr("another project was opened since");
    QStringList parts;
    if ((aspects & ModelAspect) && then.model != revision_.model)
        parts << tr("the model");
    if ((aspects & DataAspect) && then.data != revision_.data)
        parts << tr("the data");
    if ((aspects & PreprocessingAspect) && then.preprocessing != revision_.preprocessing)
        parts << tr("the preprocessing");
    if ((aspects & SettingsAspect) && then.settings != revision_.settings)
        parts << tr("the estimator settings");
    if (parts.isEmpty())
        return {};
    const QString last = parts.takeLast();
    const QString list = parts.isEmpty() ? last : tr("%1 and %2").arg(parts.join(QStringLiteral(", ")), last);
    return tr("%1 changed since").arg(list);
}

job::FitJob ProjectDocument::makeFitJob() const
{
    return project::makeFitJob(project_);
}

void ProjectDocument::markModified()
{
    if (modified_)
        return;
    modified_ = true;
    emit modifiedChanged(true);
}

void ProjectDocument::reloadTables()
{
    tables_.clear();
    tableErrors_.clear();
    for (const auto& set : project_.data) {
        try {
            tables_.emplace_back(data::readCsv(set.path, project::csvOptions(set)));
            tableErrors_.emplace_back();
        } catch (const std::exception& e) {
            tables_.emplace_back(std::nullopt);
            tableErrors_.push_back(QString::fromStdString(e.what()));
        }
    }
}

void ProjectDocument::summarize()
{
    summary_ = summarizeModel(project_.modelText, project_.modelSource.empty() ? "<model>" : project_.modelSource);
    problem_ = modelProblem(QString::fromStdString(project_.modelText), summary_);
}

}  // namespace sysid::ui
