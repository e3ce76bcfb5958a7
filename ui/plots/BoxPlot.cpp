#include "ui/plots/BoxPlot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace sysid::ui {

BoxPlot::BoxPlot(QWidget* parent) : PlotWidget(parent)
{
    QCustomPlot* plot = customPlot();
    setAxisLabels(tr("parameter"), tr("estimate / |true value|"));
    box_ = new QCPStatisticalBox(plot->xAxis, plot->yAxis);
    box_->setName(tr("estimates"));
    box_->setWidth(0.5);
    QColor fill = seriesColor(0);
    fill.setAlpha(60);
    box_->setBrush(fill);
    box_->setPen(QPen(seriesColor(0), 1.5));
    box_->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, seriesColor(0), 5.0));
    truth_ = plot->addGraph();
    truth_->setName(tr("true value"));
    truth_->setLineStyle(QCPGraph::lsNone);
    truth_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, seriesColor(1), seriesColor(1), 9.0));
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    // The legend in a row of its own under the axes, its entries side by side.
    QCPLegend* legend = plot->legend;
    plot->axisRect()->insetLayout()->take(legend);
    const int row = plot->plotLayout()->rowCount();
    plot->plotLayout()->addElement(row, 0, legend);
    plot->plotLayout()->setRowStretchFactor(row, 0.001);
    plot->plotLayout()->setRowSpacing(0);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setMargins(QMargins(4, 2, 4, 2));
    legend->setBorderPen(Qt::NoPen);
    setLegendVisible(true);
}

void BoxPlot::setResult(const job::NoiseStudyResult& result)
{
    boxes_.clear();
    const bool bootstrap = result.kind == job::StudyKind::ParametricBootstrap;
    truth_->setName(bootstrap ? tr("estimate") : tr("true value"));
    box_->setName(bootstrap ? tr("bootstrap estimates") : tr("estimates"));
    setAxisLabels(tr("parameter"), bootstrap ? tr("bootstrap / |estimate|") : tr("estimate / |true value|"));
    for (std::size_t p = 0; p < result.summary.size(); ++p) {
        const job::ParameterSummary& s = result.summary[p];
        if (s.count == 0)
            continue;
        Box b;
        b.name = QString::fromStdString(s.name);
        const double reference = bootstrap ? s.estimate : s.trueValue;
        b.byTrueValue = !bootstrap && std::isfinite(reference) && reference != 0;
        b.byEstimate = bootstrap && std::isfinite(reference) && reference != 0;
        const double magnitude = std::abs(b.byTrueValue || b.byEstimate ? reference : s.mean);
        b.scale = magnitude > 0 && std::isfinite(magnitude) ? magnitude : 1.0;
        b.lowerWhisker = s.lowerWhisker / b.scale;
        b.q1 = s.q1 / b.scale;
        b.median = s.median / b.scale;
        b.q3 = s.q3 / b.scale;
        b.upperWhisker = s.upperWhisker / b.scale;
        for (const auto& r : result.realisations)
            if (!r.failed && p < r.estimates.size() &&
                (r.estimates[p] < s.lowerWhisker || r.estimates[p] > s.upperWhisker))
                b.outliers.push_back(r.estimates[p] / b.scale);
        b.trueMark = std::isfinite(reference) ? reference / b.scale : std::numeric_limits<double>::quiet_NaN();
        boxes_.push_back(std::move(b));
    }

    box_->data()->clear();
    truth_->data()->clear();
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t i = 0; i < boxes_.size(); ++i) {
        const Box& b = boxes_[i];
        const double key = static_cast<double>(i + 1);
        box_->addData(key, b.lowerWhisker, b.q1, b.median, b.q3, b.upperWhisker, b.outliers);
        if (std::isfinite(b.trueMark))
            truth_->addData(key, b.trueMark);
        ticker->addTick(key, b.byTrueValue || b.byEstimate ? b.name : b.name + tr(" (/mean)"));
    }
    customPlot()->xAxis->setTicker(ticker);
    dataChanged();
}

void BoxPlot::rescaleToData()
{
    PlotWidget::rescaleToData();
    customPlot()->xAxis->setRange(0.5, static_cast<double>(std::max<std::size_t>(boxes_.size(), 1)) + 0.5);
}

void BoxPlot::clear()
{
    boxes_.clear();
    box_->data()->clear();
    truth_->data()->clear();
    customPlot()->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    dataChanged();
}

}  // namespace sysid::ui
