#include "ui/project/ProjectDocument.h"

#include "engine/data/CsvReader.h"
#include "engine/data/DataError.h"
#include "engine/project/ProjectJob.h"
#include "engine/project/ResultJson.h"

#include <QDir>
#include <QFileInfo>

namespace sysid::ui {

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
    result_.reset();
    if (project_.lastResult) {
        try {
            result_ = project::resultFromJson(*project_.lastResult);
        } catch (const std::invalid_argument&) {
            // A damaged stored result is not worth refusing the project for; it is just not shown.
        }
    }
    reloadTables();
    summarize();
    current_ = project_.data.empty() ? -1 : 0;
    announceEverything(false);
    return true;
}

bool ProjectDocument::save(const QString& path, QString* error)
{
    project::Project copy = project_;
    if (result_)
        copy.lastResult = project::resultToJson(*result_);
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
    if (result_)
        copy.lastResult = project::resultToJson(*result_);
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
    result_.reset();
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
    current_ = -1;
    summarize();
    announceEverything(false);
}

void ProjectDocument::announceEverything(bool modified)
{
    modified_ = modified;
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
    summarize();
    markModified();
    emit modelTextChanged();
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

void ProjectDocument::addDataSet(const project::Project::DataSet& set, const data::DataTable& table)
{
    project_.data.push_back(set);
    tables_.emplace_back(table);
    tableErrors_.emplace_back();
    current_ = dataSetCount() - 1;
    markModified();
    emit dataChanged();
    emit currentDataSetChanged(current_);
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
    markModified();
    emit dataChanged();
    emit currentDataSetChanged(current_);
}

void ProjectDocument::setMapping(int index, const std::map<std::string, std::string>& mapping)
{
    if (index < 0 || index >= dataSetCount())
        return;
    project_.data[static_cast<std::size_t>(index)].mapping = mapping;
    markModified();
    emit dataChanged();
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
    markModified();
    emit preprocessingChanged();
}

void ProjectDocument::setSettings(const estimate::FitSettings& settings)
{
    project_.settings = settings;
    markModified();
    emit settingsChanged();
}

void ProjectDocument::setOptimalEstimationSettings(const estimate::OptimalEstimationSettings& settings)
{
    project_.optimalEstimation = settings;
    markModified();
}

void ProjectDocument::setStudySettings(const job::NoiseStudySettings& settings)
{
    if (project_.study == settings)
        return;
    project_.study = settings;
    markModified();
}

void ProjectDocument::setParameterValues(const std::map<std::string, double>& values)
{
    if (values == project_.parameterValues)
        return;
    project_.parameterValues = values;
    markModified();
    emit settingsChanged();
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
    result_ = result;
    markModified();
    emit resultChanged();
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
            data::CsvOptions options;
            options.timeColumn = set.timeColumn;
            tables_.emplace_back(data::readCsv(set.path, options));
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
}

}  // namespace sysid::ui
