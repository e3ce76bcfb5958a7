#pragma once

#include <QToolBar>

class QAction;
class QLabel;
class QProgressBar;

namespace sysid::ui {

// The main toolbar: the fit's Run and Cancel (the Run menu's own actions) and the running fit's
// progress, so they stay in view whatever the docks show and however small the window is.
class RunToolBar : public QToolBar {
    Q_OBJECT

public:
    RunToolBar(QAction* run, QAction* cancel, QWidget* parent = nullptr);

    QAction* runAction() const { return run_; }
    QAction* cancelAction() const { return cancel_; }
    QProgressBar* progressBar() const { return progress_; }
    QLabel* progressLabel() const { return label_; }

public slots:
    // While a run is on, Run is off, Cancel on and the bar shows; the last progress text stays after it.
    void setRunning(bool running);
    // `maximum` 0: the number of iterations is open (the bar only shows that work goes on).
    void setIteration(int iteration, int maximum);
    void setProgressText(const QString& text);

private:
    QAction* run_;
    QAction* cancel_;
    QProgressBar* progress_;
    QLabel* label_;
    QAction* progressAction_ = nullptr;
};

}  // namespace sysid::ui
