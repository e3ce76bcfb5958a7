#pragma once

#include "ui/plots/PlotWidget.h"

#include <QString>
#include <QVector>

#include <vector>

class QCPCurve;

namespace sysid::ui {

// A phase portrait: y against x as parametric curves (in sample order, so orbits may loop),
// measured (dots joined by a thin line) and model (a line).
class PhasePortraitPlot : public PlotWidget {
    Q_OBJECT

public:
    explicit PhasePortraitPlot(QWidget* parent = nullptr);

    void setMeasured(const std::vector<double>& xs, const std::vector<double>& ys);
    void setMeasured(const QVector<double>& xs, const QVector<double>& ys);
    void setModel(const std::vector<double>& xs, const std::vector<double>& ys);
    void setModel(const QVector<double>& xs, const QVector<double>& ys);
    // Axis labels, e.g. "x" and "x'".
    void setAxisNames(const QString& x, const QString& y);
    void clear();
    // A model from before a change of the project: grey, dashed, and named so.
    void setModelOutOfDate(bool outOfDate);
    bool isModelOutOfDate() const { return modelOutOfDate_; }

    int measuredCount() const;
    int modelCount() const;

private:
    QCPCurve* measured_ = nullptr;
    QCPCurve* model_ = nullptr;
    bool modelOutOfDate_ = false;
};

}  // namespace sysid::ui
