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
// and a report folder (parameters and every figure). Each asks for its file, writes it through
// the engine's writers (ResultsPanel's exports) and warns when that fails.
class ExportActions : public QObject {
    Q_OBJECT

public:
    // The figures a window offers: the one in view (nullptr: none) and those of a report, each
    // with its file name in the report folder.
    struct Figures {
        std::function<PlotWidget*()> current;
        std::function<std::vector<std::pair<QString, PlotWidget*>>()> report;
    };

    ExportActions(ProjectDocument* document, QWidget* dialogParent, QStatusBar* statusBar, Figures figures,
                  QObject* parent = nullptr);

public slots:
    void exportParametersJson();
    void exportParametersCsv();
    void exportFigure();
    void exportReport();

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
