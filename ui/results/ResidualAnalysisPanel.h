#pragma once

#include "engine/estimate/ResidualAnalysis.h"

#include <QString>
#include <QWidget>

class QComboBox;
class QLabel;

namespace sysid::ui {

class ResidualCorrelationPlot;

// The residual analysis of the last fit (Ljung 1999, §16.6): an output chosen in a combo box, the
// verdict on its residuals in one sentence, and their correlation plot (ResidualCorrelationPlot).
class ResidualAnalysisPanel : public QWidget {
    Q_OBJECT

public:
    explicit ResidualAnalysisPanel(QWidget* parent = nullptr);

    // Shows the analysis, keeping the chosen output when the new one has it.
    void setAnalysis(const estimate::ResidualAnalysis& analysis);
    void clear();
    // The fit no longer matches the project: why (`reason`, e.g. "the model changed since"); empty: current.
    void setOutOfDate(const QString& reason);

    ResidualCorrelationPlot* plot() const { return plot_; }
    QComboBox* outputCombo() const { return output_; }
    QLabel* verdictLabel() const { return verdict_; }

private:
    void showOutput(int index);

    estimate::ResidualAnalysis analysis_;
    QComboBox* output_ = nullptr;
    QLabel* verdict_ = nullptr;
    ResidualCorrelationPlot* plot_ = nullptr;
};

}  // namespace sysid::ui
