#pragma once

#include "engine/job/CostSurface.h"
#include "ui/project/ProjectDocument.h"

#include <QString>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace sysid::ui {

class ContourPlot;
class ContourRunner;
class NumberField;
class ProjectDocument;

// The "Cost contour" tab: the output-error cost of the project's fit over a grid of two chosen
// parameters (seed 003, Figures 4.3-4.6), computed on a worker thread, with the iteration path
// of the last fit drawn on top. The other parameters are held at the last fit's estimates, or
// at their starting values before any fit.
class ContourPanel : public QWidget {
    Q_OBJECT

public:
    explicit ContourPanel(ProjectDocument* document, QWidget* parent = nullptr);

    // The surface the controls describe, for the document's current fit (throws job::JobError).
    job::CostSurface makeSurface() const;
    std::shared_ptr<const job::CostSurfaceResult> result() const { return result_; }

    QComboBox* xCombo() const { return xName_; }
    QComboBox* yCombo() const { return yName_; }
    NumberField* xFromSpin() const { return xFrom_; }
    NumberField* xToSpin() const { return xTo_; }
    NumberField* yFromSpin() const { return yFrom_; }
    NumberField* yToSpin() const { return yTo_; }
    QSpinBox* gridSpin() const { return grid_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QLabel* statusLabel() const { return status_; }
    ContourPlot* plot() const { return plot_; }
    ContourRunner* runner() const { return runner_; }

public slots:
    void run();
    void cancel();

signals:
    void message(const QString& text);  // for the status bar
    void surfaceFinished();  // a run ended (finished, cancelled or failed)

private:
    void refreshParameters();  // the combos follow the model's parameters
    void suggestRange(QComboBox* combo, NumberField* from, NumberField* to);
    void showPath();  // the last fit's iterates in the plane of the chosen parameters
    void markOutOfDate();  // the surface against the project it was computed for

    ProjectDocument* document_;
    ContourRunner* runner_;
    QComboBox *xName_, *yName_;
    NumberField *xFrom_, *xTo_, *yFrom_, *yTo_;
    QSpinBox* grid_;
    QPushButton *run_, *cancel_;
    QLabel* status_;
    ContourPlot* plot_;
    std::shared_ptr<const job::CostSurfaceResult> result_;
    ProjectDocument::Revision runRevision_, surfaceRevision_;
};

}  // namespace sysid::ui
