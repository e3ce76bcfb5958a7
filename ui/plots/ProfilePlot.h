#pragma once

#include "engine/job/ProfileLikelihood.h"
#include "ui/plots/PlotWidget.h"

#include <QString>

#include <array>
#include <optional>

class QCPGraph;
class QCPItemStraightLine;

namespace sysid::ui {

// One parameter's profile likelihood: the rise of -2 log L above the optimum against the
// parameter's value, a dashed line at the threshold (3.84 for 95 %), the likelihood-based interval
// where the profile crosses it, and for comparison the quadratic approximation of the fit's
// covariance with its Wald interval. The axis label says the verdict.
class ProfilePlot : public PlotWidget {
    Q_OBJECT
public:
    explicit ProfilePlot(QWidget* parent = nullptr);

    // Empties the plot for a profile of `name` against `threshold`.
    void start(const QString& name, double threshold);
    // A re-fit as it comes in (value, objective - optimum).
    void addPoint(double value, double rise);
    // The finished profile: its points, intervals and verdict.
    void setProfile(const job::ParameterProfile& profile, const job::ProfileResult& result);

    QString parameter() const { return name_; }
    int pointCount() const;
    double threshold() const { return threshold_; }
    // The intervals drawn (none before setProfile; an open end is nullopt).
    std::optional<double> low() const { return low_; }
    std::optional<double> high() const { return high_; }
    std::array<double, 2> waldInterval() const { return wald_; }

protected:
    void rescaleToData() override;

private:
    QCPGraph* profile_ = nullptr;
    QCPGraph* quadratic_ = nullptr;  // (value - estimate)^2 / sd^2
    QCPGraph* interval_ = nullptr;  // the profile interval's ends, as vertical segments
    QCPGraph* waldEnds_ = nullptr;
    QCPItemStraightLine* thresholdLine_ = nullptr;
    QString name_;
    double threshold_ = 0;
    std::optional<double> low_, high_;
    std::array<double, 2> wald_{};
};

}  // namespace sysid::ui
