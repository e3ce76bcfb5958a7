#pragma once

#include "engine/estimate/OptimalEstimation.h"

#include <QLabel>
#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QTableWidget;
class QTabWidget;

namespace sysid::ui {

class CurvePlot;
class PlotWidget;
class PhasePortraitPlot;

// The result of optimal estimation (seed 001 §6): the parameters theta(a) with their drift over
// the record, the residual traces xi (model) and eps (measurement) over time, and one residual
// against one state or input (the cross plot that shows a missing force, seed 001 Fig. 4.6).
// It only displays what the engine computed.
class OptimalEstimationView : public QWidget {
    Q_OBJECT

public:
    explicit OptimalEstimationView(QWidget* parent = nullptr);

    void setResult(const estimate::OptimalEstimationResult& result);
    void clear();
    // The shown result no longer matches the project (`reason`, e.g. "the model changed since"):
    // a banner says so and the plots carry a notice. Empty: current.
    void setOutOfDate(const QString& reason);
    bool isOutOfDate() const { return banner_ && !banner_->isHidden(); }
    const std::optional<estimate::OptimalEstimationResult>& result() const { return result_; }

    QTableWidget* parameterTable() const { return parameters_; }
    CurvePlot* stateResidualPlot() const { return xiPlot_; }  // one curve per "xi:..."
    CurvePlot* measurementResidualPlot() const { return epsPlot_; }  // one curve per "eps:..."
    PhasePortraitPlot* crossPlot() const { return crossPlot_; }
    QComboBox* crossResidualCombo() const { return crossResidual_; }
    QComboBox* crossAbscissaCombo() const { return crossAbscissa_; }
    QLabel* summaryLabel() const { return summary_; }

private:
    void updateCrossPlot();

    QLabel* summary_ = nullptr;
    QLabel* banner_ = nullptr;
    QTableWidget* parameters_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    CurvePlot* xiPlot_ = nullptr;
    CurvePlot* epsPlot_ = nullptr;
    PhasePortraitPlot* crossPlot_ = nullptr;
    QComboBox* crossResidual_ = nullptr;
    QComboBox* crossAbscissa_ = nullptr;
    std::optional<estimate::OptimalEstimationResult> result_;
};

}  // namespace sysid::ui
