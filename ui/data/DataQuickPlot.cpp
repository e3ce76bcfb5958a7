#include "ui/data/DataQuickPlot.h"

#include <QVBoxLayout>
#include <QVector>

#include <qcustomplot.h>

#include <algorithm>
#include <array>

namespace sysid::ui {

namespace {

QColor curveColor(int index) {
  static const std::array<QColor, 8> colors = {
      QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44), QColor(255, 127, 14),
      QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194), QColor(23, 190, 207)};
  return colors[static_cast<std::size_t>(index) % colors.size()];
}

}  // namespace

DataQuickPlot::DataQuickPlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  plot_->setObjectName(QStringLiteral("quickPlot"));
  plot_->xAxis->setLabel(tr("t"));
  plot_->legend->setVisible(true);
  plot_->legend->setFont(font());
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->setMinimumSize(240, 160);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
}

void DataQuickPlot::clearSignals() {
  plot_->clearGraphs();
  plot_->legend->setVisible(false);
  plot_->replot();
}

void DataQuickPlot::addSignal(const QString& name, const std::vector<double>& time,
                              const std::vector<double>& values) {
  const auto n = std::min(time.size(), values.size());
  QVector<double> x(time.begin(), time.begin() + static_cast<std::ptrdiff_t>(n));
  QVector<double> y(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n));
  QCPGraph* graph = plot_->addGraph();
  graph->setName(name);
  graph->setPen(QPen(curveColor(plot_->graphCount() - 1), 1.2));
  graph->setData(x, y, true);
}

void DataQuickPlot::replot() {
  plot_->legend->setVisible(plot_->graphCount() > 0);
  if (plot_->graphCount() > 0)
    plot_->rescaleAxes();
  plot_->replot();
}

int DataQuickPlot::signalCount() const { return plot_->graphCount(); }

}  // namespace sysid::ui
