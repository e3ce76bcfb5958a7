#include "ui/main/ExportActions.h"

#include "ui/plots/PlotWidget.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ResultsPanel.h"

#include <QFileDialog>
#include <QMessageBox>
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
    const QString folder = QFileDialog::getExistingDirectory(dialogParent_, tr("Report folder"));
    if (folder.isEmpty())
        return;
    std::vector<std::pair<QString, ResultsPanel::FigureExporter>> figures;
    for (const auto& figure : figures_.report()) {
        PlotWidget* plot = figure.second;
        figures.push_back(
            {figure.first, [plot](const QString& p, QString* e) { return plot->exportTo(p, 1200, 800, e); }});
    }
    QString error;
    if (!ResultsPanel::exportReport(*document_->result(), folder, figures, &error))
        QMessageBox::warning(dialogParent_, tr("Report failed"), error);
    else
        statusBar_->showMessage(tr("report written to %1").arg(folder), 8000);
}

}  // namespace sysid::ui
