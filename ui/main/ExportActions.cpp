#include "ui/main/ExportActions.h"

#include "ui/plots/PlotWidget.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ReportFolder.h"
#include "ui/results/ResultsPanel.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

namespace sysid::ui {

ExportActions::ExportActions(ProjectDocument* document, QWidget* dialogParent, QStatusBar* statusBar, Figures figures,
                             QObject* parent) :
    QObject(parent),
    document_(document), dialogParent_(dialogParent), statusBar_(statusBar), figures_(std::move(figures))
{
}

bool ExportActions::hasResult()
{
    if (document_->result())
        return true;
    statusBar_->showMessage(tr("no result to export yet: run a fit first"), 5000);
    return false;
}

void ExportActions::exportParameters(const QString& filter,
                                     const std::function<bool(const QString& path, QString* error)>& write)
{
    if (!hasResult())
        return;
    const QString path = QFileDialog::getSaveFileName(dialogParent_, tr("Export parameters"), QString(), filter);
    QString error;
    if (!path.isEmpty() && !write(path, &error))
        QMessageBox::warning(dialogParent_, tr("Export failed"), error);
}

void ExportActions::exportParametersJson()
{
    exportParameters(tr("JSON (*.json)"), [this](const QString& path, QString* error) {
        return ResultsPanel::exportJson(*document_->result(), path, error, document_->trueValues());
    });
}

void ExportActions::exportParametersCsv()
{
    exportParameters(tr("CSV (*.csv)"), [this](const QString& path, QString* error) {
        return ResultsPanel::exportCsv(*document_->result(), path, error);
    });
}

void ExportActions::exportFigure()
{
    PlotWidget* plot = figures_.current();
    if (!plot)
        return;
    const QString path = QFileDialog::getSaveFileName(dialogParent_, tr("Export figure"), QString(),
                                                      tr("PNG (*.png);;PDF (*.pdf);;SVG (*.svg)"));
    QString error;
    if (!path.isEmpty() && !plot->exportTo(path, 1200, 800, &error))
        QMessageBox::warning(dialogParent_, tr("Export failed"), error);
}

void ExportActions::exportReport()
{
    if (!hasResult())
        return;
    // A save dialog: the user names a new folder (the report's files go inside it).
    const QFileInfo projectFile(document_->filePath());
    const QString suggested = projectFile.fileName().isEmpty()
        ? QDir::home().filePath(tr("sysid report"))
        : projectFile.dir().filePath(projectFile.completeBaseName() + tr(" report"));
    const QString folder = QFileDialog::getSaveFileName(dialogParent_, tr("Name the report folder"), suggested,
                                                        QString(), nullptr, QFileDialog::DontConfirmOverwrite);
    if (!folder.isEmpty())
        exportReportTo(folder);
}

bool ExportActions::exportReportTo(const QString& folder)
{
    if (!hasResult())
        return false;
    const QFileInfo place(folder);
    if (place.exists() && !place.isDir()) {
        QMessageBox::warning(dialogParent_, tr("Report failed"),
                             tr("%1 is a file, not a folder. Name a new folder for the report.").arg(folder));
        return false;
    }
    std::vector<ReportFigureSource> figures;
    for (const ReportPlot& figure : figures_.report()) {
        PlotWidget* plot = figure.plot;
        if (!plot)
            continue;
        // Drawn at 1.5 times the width the report shows (560 pixels): sharp, with legible labels.
        const int dataSet = figure.dataSet;
        ProjectDocument* document = document_;
        figures.push_back({figure.file, figure.caption,
                           [plot, dataSet, document](const QString& p, QString* e) {
                               const int shown = document->currentDataSet();
                               if (dataSet >= 0)
                                   document->setCurrentDataSet(dataSet);
                               const bool written = plot->exportTo(p, 840, 520, e);
                               document->setCurrentDataSet(shown);
                               return written;
                           },
                           figure.validation});
    }

    if (const QStringList present = folderEntries(folder); !present.isEmpty()) {
        QStringList replaced;
        for (const QString& file : reportFiles(figures))
            if (present.contains(file))
                replaced << file;
        const qsizetype others = present.size() - replaced.size();
        QString text = tr("The folder %1 is not empty.").arg(QDir::toNativeSeparators(folder));
        if (!replaced.isEmpty())
            text +=
                QLatin1Char(' ') + tr("Writing the report there replaces %1.").arg(replaced.join(QStringLiteral(", ")));
        if (others > 0)
            text +=
                QLatin1Char(' ') + tr("%n other item(s) there stay as they are.", nullptr, static_cast<int>(others));
        QMessageBox ask(QMessageBox::Question, tr("Replace the report?"), text, QMessageBox::Cancel, dialogParent_);
        ask.setObjectName(QStringLiteral("replaceReportQuestion"));
        QPushButton* replace = ask.addButton(tr("Replace"), QMessageBox::DestructiveRole);
        ask.setDefaultButton(QMessageBox::Cancel);
        ask.exec();
        if (ask.clickedButton() != replace) {
            statusBar_->showMessage(tr("report not written"), 5000);
            return false;
        }
    }

    project::ReportHeading heading;
    heading.projectFile = QFileInfo(document_->filePath()).fileName().toStdString();
    heading.version = SYSID_VERSION;
    heading.date = project::reportDate();
    heading.outOfDate = document_->resultOutOfDate().toStdString();
    QString error;
    if (!writeReportFolder(document_->project(), *document_->result(), heading, document_->trueValues(), folder,
                           figures, &error)) {
        QMessageBox::warning(dialogParent_, tr("Report failed"), error);
        return false;
    }
    statusBar_->showMessage(
        tr("report written to %1").arg(QDir::toNativeSeparators(QDir(folder).filePath(QStringLiteral("report.html")))),
        8000);
    return true;
}

}  // namespace sysid::ui
