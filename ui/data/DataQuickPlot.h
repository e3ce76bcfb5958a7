#pragma once

#include <QString>
#include <QWidget>

#include <vector>

class QCustomPlot;

namespace sysid::ui {

// A small plot of a few data columns against time, for the import preview. Uses QCustomPlot
// directly (the full plotting panel lives in ui/plots).
class DataQuickPlot : public QWidget {
  Q_OBJECT

public:
  explicit DataQuickPlot(QWidget* parent = nullptr);

  // Removes every curve (and redraws).
  void clearSignals();
  // Adds one curve; `time` and `values` have equal length. Call replot() after the last one.
  void addSignal(const QString& name, const std::vector<double>& time, const std::vector<double>& values);
  // Rescales the axes to the curves and redraws.
  void replot();
  // Number of curves shown.
  int signalCount() const;

private:
  QCustomPlot* plot_ = nullptr;
};

}  // namespace sysid::ui
