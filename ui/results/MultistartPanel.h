#pragma once

#include "engine/job/Multistart.h"
#include "ui/project/ProjectDocument.h"

#include <QElapsedTimer>
#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace sysid::ui {

class MultistartRunner;
class NumberField;
class WaterfallPlot;

// The "Multistart" tab: the project's fit from many starting points drawn by a Latin hypercube
// within the bounds, on a worker thread. A waterfall of the sorted final costs, a table of the
// distinct minima (cost, how many starts reached it, the parameters); the best becomes the
// project's result, and "Use this minimum" makes the chosen one the result instead.
class MultistartPanel : public QWidget {
    Q_OBJECT

public:
    explicit MultistartPanel(ProjectDocument* document, QWidget* parent = nullptr);

    // The multistart the controls describe, for the document's current fit (throws on a bad entry).
    job::Multistart makeMultistart() const;
    std::shared_ptr<const job::MultistartResult> result() const { return result_; }

    QSpinBox* startsSpin() const { return starts_; }
    QSpinBox* seedSpin() const { return seed_; }
    QSpinBox* threadsSpin() const { return threads_; }
    NumberField* toleranceField() const { return tolerance_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* useButton() const { return use_; }
    QLabel* statusLabel() const { return status_; }
    QTableWidget* minimaTable() const { return minima_; }
    WaterfallPlot* waterfall() const { return waterfall_; }
    MultistartRunner* runner() const { return runner_; }

public slots:
    void run();
    void cancel();
    // Makes the minimum in row `row` of the table the project's result (the best at once; another
    // one after fitting its start again on the worker thread).
    void useMinimum(int row);

signals:
    void message(const QString& text);  // for the status bar
    void runEnded();  // any end of a multistart or of a "use this minimum" refit

private:
    void loadSettings();
    void storeSettings();
    job::MultistartSettings settings() const;
    void showResult();
    void markChosen();
    void markOutOfDate();

    ProjectDocument* document_;
    MultistartRunner* runner_;
    QSpinBox *starts_, *seed_, *threads_;
    NumberField* tolerance_;
    QPushButton *run_, *cancel_, *use_;
    QLabel* status_;
    WaterfallPlot* waterfall_;
    QTableWidget* minima_;
    std::shared_ptr<const job::MultistartResult> result_;
    job::FitJob resultJob_;  // what result_ was computed for, to fit a minimum's start again
    ProjectDocument::Revision runRevision_, resultRevision_;
    std::vector<double> liveCosts_;  // of the running multistart
    QElapsedTimer liveTimer_;  // since the waterfall was last redrawn during a run
    bool loading_ = false;
};

}  // namespace sysid::ui
