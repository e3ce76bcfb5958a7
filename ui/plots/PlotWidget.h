#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <utility>

class QAction;
class QCPAbstractPlottable;
class QCPAxis;
class QCPTextElement;
class QCustomPlot;
class QMenu;
class QPoint;

namespace sysid::ui {

// Base of every plot in sysid-gui: a QWidget around a QCustomPlot (the only place the plotting
// library shows through, so it can be swapped). Mouse wheel zooms, dragging pans, clicking
// selects a curve. The context menu has "Reset view" (rescale to the data), "Show legend" and
// "Export…" (PNG, PDF or SVG at a chosen size in pixels).
//
// A selected curve keeps its own colour and is drawn thicker; exports never show the selection.
// The legend lists only the series that have something to draw. A notice (for example "out of
// date — the model changed since this fit") is shown in a line above the plot and in its exports.
//
// The view follows the data (rescaled on every update) until the user zooms or pans; resetView()
// rescales and makes it follow the data again.
class PlotWidget : public QWidget {
    Q_OBJECT

public:
    explicit PlotWidget(QWidget* parent = nullptr);
    ~PlotWidget() override;

    // Writes the plot to path at width x height pixels; the format comes from the extension
    // (.png, .pdf, .svg, case-insensitive). A width or height <= 0 means the current size.
    // Returns false and sets *error (when not null) for an unknown extension or a file that
    // cannot be written.
    bool exportTo(const QString& path, int width, int height, QString* error = nullptr);

    // Labels of the bottom and left axis.
    virtual void setAxisLabels(const QString& x, const QString& y);
    QString xAxisLabel() const { return xLabel_; }
    QString yAxisLabel() const { return yLabel_; }

    // Whether the legend is wanted (the "Show legend" action); it is drawn only when some series
    // has data.
    void setLegendVisible(bool visible);
    bool isLegendVisible() const;
    // Names in the legend as it is drawn now (series with data only), in drawing order.
    QStringList legendEntries();

    // A line of text above the plot (empty: none); it is part of exports.
    void setNotice(const QString& text);
    QString notice() const { return notice_; }

    // True while the view follows the data (no zoom or pan since the last resetView()).
    bool followsData() const { return followData_; }

    // The context-menu actions (also added to the widget with actions()).
    QAction* resetViewAction() const { return resetViewAction_; }
    QAction* legendAction() const { return legendAction_; }
    QAction* exportAction() const { return exportAction_; }

    // The context menu as shown on a right click; the caller owns it.
    QMenu* createContextMenu(QWidget* parent = nullptr);
    // Links the horizontal (time) axes of two plots: zooming or panning one moves the other.
    static void shareHorizontalAxis(PlotWidget* a, PlotWidget* b);
    // The horizontal axis' range as drawn (for tests).
    std::pair<double, double> horizontalRange() const;

public slots:
    // Rescales the axes to the data and follows the data again.
    void resetView();
    // Asks for a file and a size (ExportDialog) and exports; errors go to a message box.
    void exportInteractively();

protected:
    QCustomPlot* customPlot() const { return plot_; }

    // Actions a subclass adds to the context menu, after "Show legend".
    void addContextAction(QAction* action);
    // A plottable that never appears in the legend (residuals, colour maps, contour lines).
    static void keepOutOfLegend(QCPAbstractPlottable* plottable);

    // Rescales all axes to the data with a small margin; subclasses with linked axes override it.
    virtual void rescaleToData();
    // Widens the axis range by fraction of its size on each side (by the same ratio on a log axis),
    // so points at the ends of the data are not drawn on the frame.
    static void padAxis(QCPAxis* axis, double fraction = 0.03);
    // Call after changing data: rescales while following the data, then queues one replot
    // (several updates before the next event-loop turn cost one replot).
    void dataChanged();
    // Queues one replot. A plot that is not visible (a tab behind another, a window not yet shown)
    // draws when it is next shown instead: a replot draws every layer, a million-point curve with
    // its markers included, and a fit's progress asks every plot of the window for one.
    void requestReplot();

    void showEvent(QShowEvent* event) override;

    // Colour of the index-th curve of a plot (a fixed, colour-blind friendly palette).
    static QColor seriesColor(int index);

private:
    void showContextMenu(const QPoint& pos);
    // Before each drawing: the legend lists the series with data, and each plottable's selection
    // is drawn in its own colour.
    void syncDecorations();

    QCustomPlot* plot_ = nullptr;
    QCPTextElement* noticeElement_ = nullptr;  // in a row above the plot while there is a notice
    QString notice_;
    QList<QAction*> extraActions_;
    bool legendWanted_ = true;
    QAction* resetViewAction_ = nullptr;
    QAction* legendAction_ = nullptr;
    QAction* exportAction_ = nullptr;
    QString xLabel_;
    QString yLabel_;
    bool followData_ = true;
    bool replotWhenShown_ = false;
};

}  // namespace sysid::ui
