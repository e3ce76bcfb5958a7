#pragma once

#include "ui/plots/PlotWidget.h"

#include <Eigen/Dense>

#include <vector>

class QCPColorMap;
class QCPColorScale;

namespace sysid::ui {

// A heat map of a 1-D field s(x, t), or of a cut through a 2-D one, of a PDE model (time along
// the horizontal axis, the position along `axis` vertically): the
// measured field, the model's (the last fit's traces) or the residual measured - model. The
// colour map assumes evenly spaced samples (the method of lines' grid and a uniform sampling);
// cells without a value (a node not measured, no model yet) are transparent.
class FieldPlot : public PlotWidget {
    Q_OBJECT

public:
    enum class View { Measured, Model, Residual };

    explicit FieldPlot(QWidget* parent = nullptr);

    // measured / model: samples x nodes (NaN where unknown); model may be empty. `name` titles the
    // colour scale, `axis` names the position axis.
    void setField(const QString& name, const QString& axis, const std::vector<double>& positions,
                  const std::vector<double>& times, const Eigen::MatrixXd& measured, const Eigen::MatrixXd& model);
    QString positionAxis() const { return axis_; }
    void setModel(const Eigen::MatrixXd& model);
    void setView(View view);
    View view() const { return view_; }
    void clear();

    // The value shown at (sample, node); NaN when there is none.
    double shownValue(int sample, int node) const;
    bool hasField() const { return !times_.empty(); }

private:
    void redraw();

    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QString name_, axis_ = QStringLiteral("x");
    std::vector<double> positions_, times_;
    Eigen::MatrixXd measured_, model_;
    View view_ = View::Measured;
};

}  // namespace sysid::ui
