#pragma once

#include "engine/job/NoiseStudy.h"
#include "ui/plots/PlotWidget.h"

#include <QString>
#include <QVector>

#include <vector>

class QCPGraph;
class QCPStatisticalBox;

namespace sysid::ui {

// The estimates of a study, one box per parameter: quartiles, median, Tukey whiskers (1.5 IQR)
// and the estimates beyond them as outliers. Parameters of very different size share one axis by
// dividing each by its reference — |true value| in a Monte Carlo study, |estimate| in a
// parametric bootstrap — or by |mean| when that is unknown or 0; the reference is marked by a
// diamond (at +-1 after the division). The legend sits under the axes, never on the boxes.
class BoxPlot : public PlotWidget {
    Q_OBJECT

public:
    explicit BoxPlot(QWidget* parent = nullptr);

    // One box as drawn, in divided units.
    struct Box {
        QString name;
        double scale = 1;  // what the estimates were divided by
        bool byTrueValue = false;
        bool byEstimate = false;  // a bootstrap's reference
        double lowerWhisker = 0, q1 = 0, median = 0, q3 = 0, upperWhisker = 0;
        QVector<double> outliers;
        double trueMark = 0;  // the reference (true value or estimate); NaN when unknown
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
