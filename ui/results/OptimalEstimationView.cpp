#include "ui/results/OptimalEstimationView.h"

#include "ui/plots/CurvePlot.h"
#include "ui/plots/PhasePortraitPlot.h"
#include "ui/plots/StiffnessPlot.h"
#include "ui/results/ReadOnlyItem.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTableWidgetItem>
#include <QVBoxLayout>

namespace sysid::ui {

namespace {

std::vector<double> column(const Eigen::MatrixXd& m, int c)
{
    std::vector<double> values(static_cast<std::size_t>(m.rows()));
    for (Eigen::Index k = 0; k < m.rows(); ++k)
        values[static_cast<std::size_t>(k)] = m(k, c);
    return values;
}

}  // namespace

OptimalEstimationView::OptimalEstimationView(QWidget* parent) : QWidget(parent)
{
    summary_ = new QLabel(tr("Run optimal estimation (estimator panel) to see its residuals."), this);
    summary_->setObjectName(QStringLiteral("optimalSummary"));
    summary_->setWordWrap(true);
    parameters_ = new QTableWidget(0, 3, this);
    parameters_->setObjectName(QStringLiteral("optimalParameterTable"));
    parameters_->setHorizontalHeaderLabels({tr("Parameter"), tr("Value θ(a)"), tr("Drift (max − min)")});
    parameters_->verticalHeader()->setVisible(false);
    parameters_->horizontalHeader()->setStretchLastSection(true);

    xiPlot_ = new CurvePlot(this);
    xiPlot_->setObjectName(QStringLiteral("xiResidualPlot"));
    xiPlot_->setAxisLabels(tr("t"), tr("ξ"));
    epsPlot_ = new CurvePlot(this);
    epsPlot_->setObjectName(QStringLiteral("epsResidualPlot"));
    epsPlot_->setAxisLabels(tr("t"), tr("ε"));

    auto* crossPage = new QWidget(this);
    crossResidual_ = new QComboBox(crossPage);
    crossResidual_->setObjectName(QStringLiteral("crossResidualCombo"));
    crossAbscissa_ = new QComboBox(crossPage);
    crossAbscissa_->setObjectName(QStringLiteral("crossAbscissaCombo"));
    crossPlot_ = new PhasePortraitPlot(crossPage);
    crossPlot_->setObjectName(QStringLiteral("residualCrossPlot"));
    auto* choose = new QHBoxLayout;
    choose->addWidget(new QLabel(tr("Residual"), crossPage));
    choose->addWidget(crossResidual_, 1);
    choose->addWidget(new QLabel(tr("against"), crossPage));
    choose->addWidget(crossAbscissa_, 1);
    auto* crossLayout = new QVBoxLayout(crossPage);
    crossLayout->setContentsMargins(0, 0, 0, 0);
    crossLayout->addLayout(choose);
    crossLayout->addWidget(crossPlot_, 1);

    stiffnessPage_ = new QWidget(this);
    stiffnessSummary_ = new QLabel(tr("Check the stiffness (estimator panel) or run to see κ(t)."), stiffnessPage_);
    stiffnessSummary_->setObjectName(QStringLiteral("stiffnessSummary"));
    stiffnessSummary_->setWordWrap(true);
    stiffnessPlot_ = new StiffnessPlot(stiffnessPage_);
    stiffnessPlot_->setObjectName(QStringLiteral("stiffnessPlot"));
    stiffnessPlot_->setToolTip(tr("κ(t) = min Re λ of the local Jacobian of the boundary value problem at the shooting "
                                  "points: a shooting interval Δt is tame while κ·Δt ≥ −2 (Rutten 1993, §5.3). The "
                                  "dashed line is −2/Δt of the run."));
    auto* stiffnessLayout = new QVBoxLayout(stiffnessPage_);
    stiffnessLayout->setContentsMargins(0, 0, 0, 0);
    stiffnessLayout->addWidget(stiffnessSummary_);
    stiffnessLayout->addWidget(stiffnessPlot_, 1);

    tabs_ = new QTabWidget(this);
    tabs_->addTab(xiPlot_, tr("Model residuals ξ"));
    tabs_->addTab(epsPlot_, tr("Measurement residuals ε"));
    tabs_->addTab(crossPage, tr("Residual vs state"));
    tabs_->addTab(stiffnessPage_, tr("Stiffness κ(t)"));

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(summary_);
    topLayout->addWidget(parameters_, 1);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(top);
    splitter->addWidget(tabs_);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({120, 360});  // the traces get the room; the table scrolls
    banner_ = new QLabel(this);
    banner_->setObjectName(QStringLiteral("optimalOutOfDateBanner"));
    banner_->setWordWrap(true);
    banner_->setStyleSheet(QStringLiteral("QLabel { background: #FFF3D6; color: #7A2E00; border: 1px solid #D55E00; "
                                          "padding: 3px; font-weight: bold; }"));
    banner_->setVisible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(banner_);
    layout->addWidget(splitter);

    connect(crossResidual_, &QComboBox::currentIndexChanged, this, &OptimalEstimationView::updateCrossPlot);
    connect(crossAbscissa_, &QComboBox::currentIndexChanged, this, &OptimalEstimationView::updateCrossPlot);
}

void OptimalEstimationView::setOutOfDate(const QString& reason)
{
    const QString shown = result_ ? reason : QString();
    banner_->setText(tr("Out of date — %1 this optimal estimation. Run it again for current results.").arg(shown));
    banner_->setVisible(!shown.isEmpty());
    const QString notice = shown.isEmpty() ? QString() : tr("Out of date — %1 this run").arg(shown);
    for (PlotWidget* plot : {static_cast<PlotWidget*>(xiPlot_), static_cast<PlotWidget*>(epsPlot_),
                             static_cast<PlotWidget*>(crossPlot_), static_cast<PlotWidget*>(stiffnessPlot_)})
        plot->setNotice(notice);
}

void OptimalEstimationView::clear(const QString& summary)
{
    setOutOfDate(QString());
    result_.reset();
    parameters_->setRowCount(0);
    xiPlot_->clear();
    epsPlot_->clear();
    crossPlot_->clear();
    stiffnessPlot_->clear();
    stiffnessSummary_->setText(QString());
    const QSignalBlocker a(crossResidual_), b(crossAbscissa_);
    crossResidual_->clear();
    crossAbscissa_->clear();
    summary_->setText(summary.isEmpty() ? tr("Run optimal estimation (estimator panel) to see its residuals.")
                                        : summary);
}

void OptimalEstimationView::setResult(const estimate::OptimalEstimationResult& r)
{
    clear(tr("…"));  // and current again
    result_ = r;
    summary_->setText(tr("%1 after %2 iteration(s): cost %3, ‖F‖ %4. %5")
                          .arg(r.converged() ? tr("converged") : tr("not converged"))
                          .arg(r.iterations)
                          .arg(r.cost, 0, 'g', 6)
                          .arg(r.residualNorm, 0, 'g', 3)
                          .arg(QString::fromStdString(r.termination.message)));
    parameters_->setRowCount(static_cast<int>(r.parameterNames.size()));
    for (int i = 0; i < static_cast<int>(r.parameterNames.size()); ++i) {
        parameters_->setItem(i, 0, readOnlyItem(QString::fromStdString(r.parameterNames[static_cast<std::size_t>(i)])));
        if (i < r.parameters.size())
            parameters_->setItem(i, 1, readOnlyItem(QString::number(r.parameters(i), 'g', 8)));
        if (i < r.parameterDrift.size())
            parameters_->setItem(i, 2, readOnlyItem(QString::number(r.parameterDrift(i), 'g', 3)));
    }
    plotStiffness(r.stiffnessAtGuess, r.stiffnessAtSolution);
    if (r.residuals.rows() != static_cast<Eigen::Index>(r.times.size()))
        return;  // no traces: the solution could not be sampled
    for (int c = 0; c < static_cast<int>(r.residualNames.size()) && c < r.residuals.cols(); ++c) {
        const QString name = QString::fromStdString(r.residualNames[static_cast<std::size_t>(c)]);
        (name.startsWith(QStringLiteral("xi:")) ? xiPlot_ : epsPlot_)->setCurve(name, r.times, column(r.residuals, c));
    }
    const QSignalBlocker a(crossResidual_), b(crossAbscissa_);
    // Shown first: the equation-of-motion residual that is largest (it carries a missing force,
    // seed 001 Fig. 4.6) against the velocity of its coordinate, where friction shows as a step;
    // without one, the first residual against the last state.
    int preferred = 0;
    double largest = -1.0;
    for (int c = 0; c < static_cast<int>(r.residualNames.size()); ++c) {
        const QString name = QString::fromStdString(r.residualNames[static_cast<std::size_t>(c)]);
        crossResidual_->addItem(name, c);
        const double size = c < r.residuals.cols() ? r.residuals.col(c).norm() : 0.0;
        if (name.startsWith(QStringLiteral("eps:eom:")) && size > largest) {
            preferred = c;
            largest = size;
        }
    }
    crossResidual_->setCurrentIndex(preferred);
    for (int i = 0; i < static_cast<int>(r.stateNames.size()); ++i)
        crossAbscissa_->addItem(QString::fromStdString(r.stateNames[static_cast<std::size_t>(i)]), i);
    for (int i = 0; i < static_cast<int>(r.inputNames.size()); ++i)
        crossAbscissa_->addItem(QString::fromStdString(r.inputNames[static_cast<std::size_t>(i)]),
                                static_cast<int>(r.stateNames.size()) + i);
    const QString velocity = crossResidual_->currentText().mid(8) + QLatin1Char('\'');
    const int own = crossAbscissa_->findText(velocity);
    crossAbscissa_->setCurrentIndex(largest >= 0 && own >= 0 ? own
                                                             : std::max(0, static_cast<int>(r.stateNames.size()) - 1));
    updateCrossPlot();
}

void OptimalEstimationView::showStiffnessCheck(const estimate::StiffnessDiagnostics& d)
{
    plotStiffness(d, {});
    tabs_->setCurrentWidget(stiffnessPage_);
}

void OptimalEstimationView::plotStiffness(const estimate::StiffnessDiagnostics& atGuess,
                                          const estimate::StiffnessDiagnostics& atSolution)
{
    stiffnessPlot_->clear();
    const auto& shown = atGuess.empty() ? atSolution : atGuess;
    if (!shown.empty() && shown.points > 1)
        stiffnessPlot_->setLimit(-2.0 / shown.intervalLength());
    // One line above the plot; the whole statement (with the source's rule) in its tooltip.
    QStringList parts, details;
    if (!atGuess.empty()) {
        stiffnessPlot_->setCurve(tr("at the starting guess"), atGuess.times, atGuess.kappa);
        parts << tr("κ at the guess %1").arg(atGuess.kappaMin, 0, 'g', 4);
        details << tr("Starting guess: %1").arg(QString::fromStdString(estimate::describeStiffness(atGuess)));
    }
    if (!atSolution.empty()) {
        stiffnessPlot_->setCurve(tr("at the solution"), atSolution.times, atSolution.kappa);
        parts << tr("at the solution %1").arg(atSolution.kappaMin, 0, 'g', 4);
        details << tr("Solution: %1").arg(QString::fromStdString(estimate::describeStiffness(atSolution)));
    }
    if (!shown.empty() && shown.points > 1)
        parts << tr("κ·Δt = −2 dashed (%1 points); suggested %2").arg(shown.points).arg(shown.suggestedPoints);
    stiffnessSummary_->setText(parts.join(QStringLiteral("; ")));
    stiffnessSummary_->setToolTip(details.join(QLatin1Char('\n')));
}

void OptimalEstimationView::updateCrossPlot()
{
    if (!result_ || crossResidual_->currentIndex() < 0 || crossAbscissa_->currentIndex() < 0)
        return;
    const auto& r = *result_;
    const int residual = crossResidual_->currentData().toInt();
    const int abscissa = crossAbscissa_->currentData().toInt();
    const int states = static_cast<int>(r.stateNames.size());
    const std::vector<double> x = abscissa < states ? column(r.states, abscissa) : column(r.inputs, abscissa - states);
    crossPlot_->setMeasured(x, column(r.residuals, residual));
    crossPlot_->setAxisNames(crossAbscissa_->currentText(), crossResidual_->currentText());
}

}  // namespace sysid::ui
