#pragma once

#include <Eigen/Dense>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;

namespace sysid::model {
struct FieldLayout;
}

namespace sysid::ui {

class FieldPlot;
class ProjectDocument;

// The "Field" tab for PDE models: a heat map of a 1-D field s(x, t) over the current data set as
// the fit fits it (preprocessed), measured (the data columns of the outputs that are field
// nodes), model (the last fit's traces of those outputs) or the residual measured - model. A 2-D field s(x, y, t) is
// shown along one axis at a chosen node of the other (the "cut" combo: y = y_j gives s(x, y_j, t)).
class FieldPanel : public QWidget {
    Q_OBJECT

public:
    explicit FieldPanel(ProjectDocument* document, QWidget* parent = nullptr);

    // Model outputs (samples x outputs, model output order) of the current data set.
    void setModelOutputs(const std::vector<double>& times, const Eigen::MatrixXd& outputs);
    // The model's traces are from before a change of the project (`reason`, e.g. "the model
    // changed since"): the plot says so. Empty: current.
    void setOutOfDate(const QString& reason);

    QComboBox* fieldCombo() const { return field_; }
    QComboBox* viewCombo() const { return view_; }
    QComboBox* cutCombo() const { return cut_; }
    QLabel* statusLabel() const { return status_; }
    FieldPlot* plot() const { return plot_; }

private:
    void refreshFields();
    void showField();
    void refreshCuts(const model::FieldLayout* layout);

    ProjectDocument* document_;
    QComboBox *field_, *view_, *cut_;
    QLabel* cutLabel_;
    QString cutsOf_;  // the field whose cuts cut_ lists
    QLabel* status_;
    FieldPlot* plot_;
    std::vector<double> modelTimes_;
    Eigen::MatrixXd modelOutputs_;
};

}  // namespace sysid::ui
