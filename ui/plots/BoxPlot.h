#pragma once

#include "engine/job/NoiseStudy.h"
#include "ui/plots/PlotWidget.h"

#include <QString>
#include <QVector>

#include <vector>

class QCPGraph;
class QCPStatisticalBox;

namespace sysid::ui {

// The estimates of a Monte Carlo noise study, one box per parameter: quartiles, median, Tukey
// whiskers (1.5 IQR) and the estimates beyond them as outliers. Parameters of very different
// size share one axis by dividing each by |true value|, or by |mean| when the true value is
// unknown or 0; the true value is marked by a diamond (at +-1 after the division).
class BoxPlot : public PlotWidget {
    Q_OBJECT

public:
    explicit BoxPlot(QWidget* parent = nullptr);

    // One box as drawn, in divided units.
    struct Box {
        QString name;
        double scale = 1;  // what the estimates were divided by
        bool byTrueValue = false;
        double lowerWhisker = 0, q1 = 0, median = 0, q3 = 0, upperWhisker = 0;
        QVector<double> outliers;
        double trueMark = 0;  // NaN when the true value is unknown
    };

    void setResult(const job::NoiseStudyResult& result);
    void clear();
    const std::vector<Box>& boxes() const { return boxes_; }

protected:
    void rescaleToData() override;  // every box, half a slot of room at each end

private:
    QCPStatisticalBox* box_ = nullptr;
    QCPGraph* truth_ = nullptr;
    std::vector<Box> boxes_;
};

}  // namespace sysid::ui
