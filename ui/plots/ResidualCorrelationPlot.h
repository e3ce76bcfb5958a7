#pragma once

#include "engine/estimate/ResidualAnalysis.h"
#include "ui/plots/PlotWidget.h"

#include <QString>

#include <vector>

class QCPAxisRect;
class QCPGraph;
class QCPMarginGroup;

namespace sysid::ui {

// The residual analysis of one output, as MATLAB's resid draws it: the autocorrelation of the
// residuals at lags 1..L in the upper axis rect (lag 0 is 1 by definition) and, below it, one axis
// rect per input with its cross-correlation at lags -L..L; each correlation as stems with its 99 %
// bounds as dashed lines. The legend sits under the axes.
class ResidualCorrelationPlot : public PlotWidget {
    Q_OBJECT

public:
    explicit ResidualCorrelationPlot(QWidget* parent = nullptr);

    void setAnalysis(const estimate::OutputResidualAnalysis& analysis);
    void clear();

    // As drawn (for tests): stems of the autocorrelation and of input i's cross-correlation, the
    // rects' bounds (NaN: none drawn) and the input of each lower rect.
    int autocorrelationCount() const;
    double autocorrelationBound() const;
    int inputCount() const { return static_cast<int>(inputs_.size()); }
    QString inputName(int input) const;
    int crossCorrelationCount(int input) const;
    double crossCorrelationBound(int input) const;

protected:
    void rescaleToData() override;  // more room above and below, so the bounds stand clear of the frame

private:
    // One axis rect: the stems, the bound above and below zero.
    struct Panel {
        QCPAxisRect* rect = nullptr;
        QCPGraph* stems = nullptr;
        QCPGraph* upper = nullptr;
        QCPGraph* lower = nullptr;
        QString input;
    };

    Panel makePanel(QCPAxisRect* rect, int colour);
    static void draw(Panel& panel, const estimate::Correlation& correlation);
    static double boundOf(const Panel& panel);
    void removeInputPanels();

    Panel auto_;
    std::vector<Panel> inputs_;
    QCPMarginGroup* margins_ = nullptr;  // the rects' axes line up
};

}  // namespace sysid::ui
