#pragma once

#include "ui/plots/PlotWidget.h"

#include <QString>
#include <QVector>

#include <vector>

class QCPAxisRect;
class QCPGraph;

namespace sysid::ui {

// One output over time: the measured samples (dots joined by a thin line) and the model
// (a line) in the upper axis rect, and the residual measured − model in a smaller axis rect
// below that shares the time axis. Residuals are drawn at the samples whose time the model
// trace also has (the engine evaluates the model at the data's sample times); setResiduals()
// replaces them with values computed elsewhere. When the measured samples are preprocessed
// (what a fit fits), the raw record may be drawn behind them as a faint line. A model from
// before a change of the project is drawn grey and dashed (setModelOutOfDate).
class TimeSeriesPlot : public PlotWidget {
    Q_OBJECT

public:
    explicit TimeSeriesPlot(QWidget* parent = nullptr);

    // The measured samples; name is the output's name (left axis label and legend).
    void setMeasured(const std::vector<double>& times, const std::vector<double>& values, const QString& name);
    void setMeasured(const QVector<double>& times, const QVector<double>& values, const QString& name);
    // The record before preprocessing, drawn faintly behind the measured samples (empty: none).
    void setRaw(const std::vector<double>& times, const std::vector<double>& values);
    // The output's name without data (axis label and legend names).
    void setOutputName(const QString& name);
    // The output's unit, shown on the value and residual axes ("s [m]"); empty: none.
    void setOutputUnit(const QString& unit);
    // The model trace; cheap enough to call on every progress event (one queued replot).
    void setModel(const std::vector<double>& times, const std::vector<double>& values);
    void setModel(const QVector<double>& times, const QVector<double>& values);
    // Residuals to draw instead of measured − model (until the next setMeasured/setModel).
    void setResiduals(const std::vector<double>& times, const std::vector<double>& values);
    void clearModel();
    void clear();
    // A model (and its residuals) computed before the project changed: grey, dashed, and named so.
    void setModelOutOfDate(bool outOfDate);
    bool isModelOutOfDate() const { return modelOutOfDate_; }
    // The model is simulated at the current parameter values (not a fit's): named so.
    void setModelAtCurrentValues(bool current);
    bool isModelAtCurrentValues() const { return modelAtCurrentValues_; }

    QString outputName() const { return outputName_; }
    QString outputUnit() const { return outputUnit_; }
    // Points drawn in each part (for tests and status lines).
    int measuredCount() const;
    int modelCount() const;
    int residualCount() const;
    int rawCount() const;
    // The residuals as drawn (for tests: they must be the fit's residuals).
    std::vector<double> residualValues() const;
    // The model as drawn: times and values (for tests).
    std::vector<double> modelTimes() const;
    std::vector<double> modelValues() const;

    void setAxisLabels(const QString& x, const QString& y) override;

protected:
    void rescaleToData() override;

private:
    void updateResiduals();
    void updateStyle();
    void updateValueLabels();

    QCPAxisRect* residualRect_ = nullptr;
    QCPGraph* raw_ = nullptr;
    QCPGraph* measured_ = nullptr;
    QCPGraph* model_ = nullptr;
    QCPGraph* residual_ = nullptr;
    QString outputName_;
    QString outputUnit_;
    bool modelOutOfDate_ = false;
    bool modelAtCurrentValues_ = false;
};

}  // namespace sysid::ui
