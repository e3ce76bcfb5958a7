#pragma once

#include "engine/job/NoiseStudy.h"
#include "ui/project/ProjectDocument.h"

#include <QString>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace sysid::ui {

class BoxPlot;
class NumberField;
class ProjectDocument;
class StudyRunner;

// The "Noise study" dock: N noisy realisations of the project's fit (its data, method
// and settings), run on a worker thread — a Monte Carlo study against the true values of
// simulated data, or a parametric bootstrap around the estimate on measured data (job::StudyKind);
// a progress bar, the summary table (Monte Carlo: parameter, true, mean, sd, bias, bias %;
// bootstrap: parameter, estimate, mean, sd, 2.5 %, 97.5 %), whole without scrolling, and a box
// plot of the estimates; the result exported as JSON or CSV. The study settings live in the
// project ("study") and are saved with it.
class StudyPanel : public QWidget {
    Q_OBJECT

public:
    explicit StudyPanel(ProjectDocument* document, QWidget* parent = nullptr);

    job::NoiseStudySettings settings() const;
    unsigned threads() const;  // 0: all cores
    // The last finished study (also after Cancel: the realisations that finished); may be null.
    std::shared_ptr<const job::NoiseStudyResult> result() const { return result_; }
    // Writes the last result as JSON, or as CSV when the path ends in .csv. False with *error
    // when there is no result or the file cannot be written.
    bool exportResult(const QString& path, QString* error = nullptr) const;

    // What Run would do now: the chosen kind, or for "automatic" what the data sets decide.
    job::StudyKind kindToRun() const;

    QComboBox* kindCombo() const { return kind_; }
    QLabel* kindLabel() const { return kindLabel_; }  // what the shown result is
    QSpinBox* realisationsSpin() const { return realisations_; }
    NumberField* noiseField() const { return noise_; }
    QComboBox* distributionCombo() const { return distribution_; }
    QSpinBox* seedSpin() const { return seed_; }
    QSpinBox* threadsSpin() const { return threads_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* exportButton() const { return export_; }
    QProgressBar* progressBar() const { return progress_; }
    QTableWidget* summaryTable() const { return table_; }
    BoxPlot* boxPlot() const { return plot_; }
    StudyRunner* runner() const { return runner_; }

public slots:
    void run();
    void cancel();
    void exportInteractively();

signals:
    void message(const QString& text);  // for the status bar and the log
    void finished();  // a run ended (result() is set unless it could not start)

private:
    void loadSettings();  // from the document
    void storeSettings();  // into the document
    void showResult();
    void setTableColumns(job::StudyKind kind);
    void markOutOfDate();  // the shown study against the project it ran on
    void showKindToRun();  // the Monte Carlo noise fields apply to a Monte Carlo study only

    ProjectDocument* document_;
    StudyRunner* runner_;
    QComboBox* kind_;
    QLabel* kindNote_;
    QLabel* kindLabel_;
    QSpinBox* realisations_;
    NumberField* noise_;
    QComboBox* distribution_;
    QSpinBox* seed_;
    QSpinBox* threads_;
    QPushButton* run_;
    QPushButton* cancel_;
    QPushButton* export_;
    QProgressBar* progress_;
    QLabel* status_;
    QTableWidget* table_;
    BoxPlot* plot_;
    std::shared_ptr<const job::NoiseStudyResult> result_;
    bool loading_ = false;
    ProjectDocument::Revision runRevision_;
};

}  // namespace sysid::ui
