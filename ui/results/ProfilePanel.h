#pragma once

#include "engine/job/ProfileLikelihood.h"
#include "ui/project/ProjectDocument.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <map>
#include <memory>

class QCheckBox;
class QGridLayout;
class QLabel;
class QMenu;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace sysid::ui {

class NumberField;
class ProfilePlot;
class ProfileRunner;

// The "Profiles" tab: the profile likelihood (Raue et al. 2009) of the project's fit, one plot per
// chosen parameter, computed on a worker thread with the points drawn as they come. It starts from
// the last fit's estimates (else the starting values) and fits the optimum again first.
class ProfilePanel : public QWidget {
    Q_OBJECT

public:
    explicit ProfilePanel(ProjectDocument* document, QWidget* parent = nullptr);

    // The profiles the controls describe, for the document's current fit (throws on a bad entry).
    job::ProfileLikelihood makeProfile() const;
    std::shared_ptr<const job::ProfileResult> result() const { return result_; }

    // The parameters offered (the fit's unknowns) and the chosen ones (empty: all).
    QStringList parameters() const { return parameters_; }
    QStringList chosenParameters() const;
    void setChosenParameters(const QStringList& names);

    QSpinBox* pointsSpin() const { return points_; }
    NumberField* confidenceField() const { return confidence_; }
    QCheckBox* simultaneousCheck() const { return simultaneous_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QLabel* statusLabel() const { return status_; }
    QList<ProfilePlot*> plots() const;
    ProfilePlot* plotOf(const QString& parameter) const;
    ProfileRunner* runner() const { return runner_; }

public slots:
    void run();
    void cancel();

signals:
    void message(const QString& text);  // for the status bar
    // A run ended with profiles (finished or cancelled) for the project that is open.
    void profilesFinished(std::shared_ptr<const sysid::job::ProfileResult> result);
    void runEnded();  // any end: finished, cancelled or failed

private:
    void refreshParameters();  // the parameter menu follows the fit's unknowns
    void updateChoiceText();
    ProfilePlot* plotFor(const QString& parameter);  // made on first use, in the grid
    void clearPlots();
    void markOutOfDate();
    void loadSettings();  // from the project's "profile"
    void storeSettings();  // into it, as the user changes a control

    ProjectDocument* document_;
    ProfileRunner* runner_;
    QToolButton* choose_;
    QMenu* chooseMenu_;
    QSpinBox* points_;
    NumberField* confidence_;
    QCheckBox* simultaneous_;
    QPushButton *run_, *cancel_;
    QLabel* status_;
    QWidget* plotArea_;
    QGridLayout* grid_;
    std::map<QString, ProfilePlot*> plots_;
    QStringList parameters_;
    bool loading_ = false;
    double optimum_ = 0;  // of the running profiles, for the live points
    std::shared_ptr<const job::ProfileResult> result_;
    ProjectDocument::Revision runRevision_, resultRevision_;
};

}  // namespace sysid::ui
