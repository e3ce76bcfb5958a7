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
class StiffnessPlot;

// The result of optimal estimation (seed 001 §6): the parameters theta(a) with their drift over
// the record, the residual traces xi (model) and eps (measurement) over time, one residual
// against one state or input (the cross plot that shows a missing force, seed 001 Fig. 4.6) and
// the stiffness kappa(t) along the starting guess and the solution (seed 001 Figs. 5.4-5.5).
// It only displays what the engine computed.
class OptimalEstimationView : public QWidget {
    Q_OBJECT

public:
    explicit OptimalEstimationView(QWidget* parent = nullptr);

    void setResult(const estimate::OptimalEstimationResult& result);
    // Stiffness along a starting guess from a check before a run (Rutten 1993, §5.3): kappa(t) in
    // the Stiffness tab, which it shows; a later result replaces it.
    void showStiffnessCheck(const estimate::StiffnessDiagnostics& diagnostics);
    // No result: the plots and the table empty, the summary says `summary` (by default, how to get one).
    void clear(const QString& summary = {});
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
    // kappa(t) = min Re(lambda) of the local Jacobian: "at the starting guess", "at the solution".
    StiffnessPlot* stiffnessPlot() const { return stiffnessPlot_; }
    QLabel* stiffnessSummary() const { return stiffnessSummary_; }

private:
    void updateCrossPlot();
    void plotStiffness(const estimate::StiffnessDiagnostics& atGuess, const estimate::StiffnessDiagnostics& atSolution);

    QLabel* summary_ = nullptr;
    QLabel* banner_ = nullptr;
    QTableWidget* parameters_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    CurvePlot* xiPlot_ = nullptr;
    CurvePlot* epsPlot_ = nullptr;
    PhasePortraitPlot* crossPlot_ = nullptr;
    QComboBox* crossResidual_ = nullptr;
    QComboBox* crossAbscissa_ = nullptr;
    QWidget* stiffnessPage_ = nullptr;
    StiffnessPlot* stiffnessPlot_ = nullptr;
    QLabel* stiffnessSummary_ = nullptr;
    std::optional<estimate::OptimalEstimationResult> result_;
};

}  // namespace sysid::ui
