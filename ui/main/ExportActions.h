#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <utility>
#include <vector>

class QStatusBar;
class QWidget;

namespace sysid::ui {

class PlotWidget;
class ProjectDocument;

// The File ▸ Export actions: the document's last result as JSON or CSV, the figure in view,
// and a report (report.html and report.pdf with the parameters and every figure, in a new
// folder). Each asks for its file, writes it through the engine's writers (ResultsPanel's
// exports, ReportFolder) and warns when that fails.
class ExportActions : public QObject {
    Q_OBJECT

public:
    // A figure of a report: its file name in the report folder, its caption and its plot
    // (nullptr: left out, the plot draws nothing).
    struct ReportPlot {
        QString file;
        QString caption;
        PlotWidget* plot = nullptr;
        // A data set the plot shows while it is written (the window's current one is restored
        // after); -1: as it is. A validation data set's figures get the report's validation section.
        int dataSet = -1;
        bool validation = false;
    };
    // The figures a window offers: the one in view (nullptr: none) and those of a report.
    struct Figures {
        std::function<PlotWidget*()> current;
        std::function<std::vector<ReportPlot>()> report;
    };

    ExportActions(ProjectDocument* document, QWidget* dialogParent, QStatusBar* statusBar, Figures figures,
                  QObject* parent = nullptr);

public slots:
    void exportParametersJson();
    void exportParametersCsv();
    void exportFigure();
    // Asks for the name of a new report folder, then exportReportTo it.
    void exportReport();

public:
    // Writes the report into folder. A folder that holds anything is written into only when the
    // user agrees to a question listing the files that would be replaced. False when nothing
    // was written (declined, or failed: then a warning says why).
    bool exportReportTo(const QString& folder);

private:
    bool hasResult();  // says so in the status bar when there is none
    // Asks for a file (of `filter`) and writes the document's result there with `write`.
    void exportParameters(const QString& filter, const std::function<bool(const QString& path, QString* error)>& write);

    ProjectDocument* document_;
    QWidget* dialogParent_;
    QStatusBar* statusBar_;
    Figures figures_;
};

}  // namespace sysid::ui
