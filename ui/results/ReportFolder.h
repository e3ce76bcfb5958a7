#pragma once

#include "engine/estimate/FitResult.h"
#include "engine/project/HtmlReport.h"
#include "engine/project/Project.h"
#include "ui/results/ResultsPanel.h"

#include <QString>
#include <QStringList>

#include <map>
#include <string>
#include <vector>

namespace sysid::ui {

// A figure of a report: its file in the report folder, its caption and how it is written.
struct ReportFigureSource {
    QString file;
    QString caption;
    ResultsPanel::FigureExporter write;
    bool validation = false;
};

// The files a report writes into its folder: report.html, report.pdf, parameters.json,
// parameters.csv and the figures.
QStringList reportFiles(const std::vector<ReportFigureSource>& figures);

// What the folder holds (names, sorted); empty when it does not exist or holds nothing.
QStringList folderEntries(const QString& folder);

// Writes the report into folder (created with its parents): the parameters (ResultsPanel's
// exports), the figures, report.html (project::htmlReport, written atomically) and report.pdf
// (the same HTML laid out by QTextDocument on A4). Stops at the first failure with *error set.
bool writeReportFolder(const project::Project& project, const estimate::FitResult& result,
                       const project::ReportHeading& heading, const std::map<std::string, double>& trueValues,
                       const QString& folder, const std::vector<ReportFigureSource>& figures, QString* error);

// The HTML (whose images are relative to folder) as a PDF at pdfPath, A4, written atomically.
bool writeReportPdf(const QString& html, const QString& folder, const QString& pdfPath, QString* error);

}  // namespace sysid::ui
