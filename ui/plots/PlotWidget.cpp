#include "ui/plots/PlotWidget.h"

#include "ui/plots/ExportDialog.h"

#include "engine/core/AtomicFile.h"

#include <QAction>
#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QScopeGuard>
#include <QSvgGenerator>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>
#include <qcustomplot.h>

namespace sysid::ui {

namespace {

// Size used when the caller asks for "the current size" of a plot that was never laid out.
constexpr int kFallbackWidth = 800;
constexpr int kFallbackHeight = 600;

void setError(QString* error, const QString& message)
{
    if (error != nullptr) {
        *error = message;
    }
}

const char* const kNoLegend = "sysidNoLegend";

// Something to draw: a finite point (a series of NaN gaps only draws nothing), or a filled colour map.
bool hasData(QCPAbstractPlottable* plottable)
{
    if (QCPPlottableInterface1D* data = plottable->interface1D()) {
        for (int i = 0; i < data->dataCount(); ++i) {
            if (std::isfinite(data->dataMainKey(i)) && std::isfinite(data->dataMainValue(i))) {
                return true;
            }
        }
        return false;
    }
    if (auto* map = qobject_cast<QCPColorMap*>(plottable)) {
        return map->data()->keySize() > 0 && map->data()->valueSize() > 0;
    }
    return true;
}

// Drawn when its plottable is selected: the plottable's own pen, thicker and a little translucent,
// so a selected curve keeps its colour (QCustomPlot's default paints every selection the same blue
// as the data) and what it is drawn over still shows through.
class OwnColourSelection : public QCPSelectionDecorator {
public:
    void follow(const QCPAbstractPlottable* plottable)
    {
        QPen pen = plottable->pen();
        pen.setWidthF(std::max(pen.widthF(), 1.0) + 1.0);
        QColor colour = pen.color();
        colour.setAlpha(colour.alpha() * 3 / 4);
        pen.setColor(colour);
        if (pen != mPen) {
            setPen(pen);
        }
        if (plottable->brush() != mBrush) {
            setBrush(plottable->brush());
        }
        if (usedScatterProperties() != QCPScatterStyle::spNone) {
            setUsedScatterProperties(QCPScatterStyle::spNone);
        }
    }
};

}  // namespace

PlotWidget::PlotWidget(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this))
{
    plot_->setObjectName(QStringLiteral("customPlot"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);

    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom | QCP::iSelectPlottables);
    plot_->legend->setVisible(true);
    connect(plot_, &QCustomPlot::beforeReplot, this, &PlotWidget::syncDecorations);

    plot_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot_, &QWidget::customContextMenuRequested, this, &PlotWidget::showContextMenu);

    // Zooming or panning stops the view from following the data.
    connect(plot_, &QCustomPlot::mouseWheel, this, [this](QWheelEvent*) { followData_ = false; });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if ((event->buttons() & Qt::LeftButton) != 0) {
            followData_ = false;
        }
    });

    resetViewAction_ = new QAction(tr("Reset view"), this);
    resetViewAction_->setObjectName(QStringLiteral("resetViewAction"));
    resetViewAction_->setToolTip(tr("Rescale the axes to show all data"));
    connect(resetViewAction_, &QAction::triggered, this, &PlotWidget::resetView);

    legendAction_ = new QAction(tr("Show legend"), this);
    legendAction_->setObjectName(QStringLiteral("legendAction"));
    legendAction_->setCheckable(true);
    legendAction_->setChecked(true);
    connect(legendAction_, &QAction::toggled, this, &PlotWidget::setLegendVisible);

    exportAction_ = new QAction(tr("Export…"), this);
    exportAction_->setObjectName(QStringLiteral("exportAction"));
    exportAction_->setToolTip(tr("Save the plot as PNG, PDF or SVG"));
    connect(exportAction_, &QAction::triggered, this, &PlotWidget::exportInteractively);

    addAction(resetViewAction_);
    addAction(legendAction_);
    addAction(exportAction_);
}

PlotWidget::~PlotWidget() = default;

void PlotWidget::setAxisLabels(const QString& x, const QString& y)
{
    xLabel_ = x;
    yLabel_ = y;
    plot_->xAxis->setLabel(x);
    plot_->yAxis->setLabel(y);
    requestReplot();
}

void PlotWidget::setLegendVisible(bool visible)
{
    legendWanted_ = visible;
    if (legendAction_->isChecked() != visible) {
        legendAction_->setChecked(visible);
    }
    syncDecorations();
    requestReplot();
}

bool PlotWidget::isLegendVisible() const
{
    return legendWanted_;
}

QStringList PlotWidget::legendEntries()
{
    syncDecorations();
    QStringList names;
    if (!plot_->legend->visible()) {
        return names;
    }
    for (int i = 0; i < plot_->legend->itemCount(); ++i) {
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot_->legend->item(i))) {
            names << item->plottable()->name();
        }
    }
    return names;
}

void PlotWidget::setNotice(const QString& text)
{
    if (text == notice_) {
        return;
    }
    notice_ = text;
    QCPLayoutGrid* layout = plot_->plotLayout();
    if (text.isEmpty()) {
        if (noticeElement_ != nullptr) {
            layout->remove(noticeElement_);  // deletes it
            noticeElement_ = nullptr;
            layout->simplify();  // drops its row
        }
    } else {
        if (noticeElement_ == nullptr) {
            // A row of its own above everything, so the notice never covers data or the legend.
            layout->insertRow(0);
            QFont bold = font();
            bold.setBold(true);
            noticeElement_ = new QCPTextElement(plot_, QString(), bold);
            noticeElement_->setTextColor(QColor(0x9A, 0x3B, 0x00));
            noticeElement_->setSelectable(false);
            layout->addElement(0, 0, noticeElement_);
        }
        noticeElement_->setText(text);
    }
    requestReplot();
}

void PlotWidget::addContextAction(QAction* action)
{
    extraActions_ << action;
    addAction(action);
}

void PlotWidget::keepOutOfLegend(QCPAbstractPlottable* plottable)
{
    plottable->setProperty(kNoLegend, true);
    plottable->removeFromLegend();
}

void PlotWidget::syncDecorations()
{
    QList<QCPAbstractPlottable*> listed;
    for (int i = 0; i < plot_->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot_->plottable(i);
        if (qobject_cast<QCPColorMap*>(p) != nullptr) {
            p->setSelectable(QCP::stNone);  // a selected map would only get a frame
        }
        auto* decorator = dynamic_cast<OwnColourSelection*>(p->selectionDecorator());
        if (decorator == nullptr) {
            decorator = new OwnColourSelection;
            p->setSelectionDecorator(decorator);
        }
        decorator->follow(p);
        if (!p->property(kNoLegend).toBool() && !p->name().isEmpty() && hasData(p)) {
            listed << p;
        }
    }
    QCPLegend* legend = plot_->legend;
    bool same = legend->itemCount() == listed.size();
    for (int i = 0; same && i < listed.size(); ++i) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
        same = item != nullptr && item->plottable() == listed[i];
    }
    if (!same) {
        legend->clearItems();
        for (QCPAbstractPlottable* p : listed) {
            p->addToLegend(legend);
        }
    }
    legend->setVisible(legendWanted_ && !listed.isEmpty());
}

QMenu* PlotWidget::createContextMenu(QWidget* parent)
{
    auto* menu = new QMenu(parent);
    menu->addAction(resetViewAction_);
    menu->addAction(legendAction_);
    if (!extraActions_.isEmpty()) {
        menu->addSeparator();
        menu->addActions(extraActions_);
    }
    menu->addSeparator();
    menu->addAction(exportAction_);
    return menu;
}

void PlotWidget::showContextMenu(const QPoint& pos)
{
    QMenu* menu = createContextMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(plot_->mapToGlobal(pos));
}

void PlotWidget::resetView()
{
    followData_ = true;
    rescaleToData();
    requestReplot();
}

void PlotWidget::rescaleToData()
{
    plot_->rescaleAxes();
    for (QCPAxisRect* rect : plot_->axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            padAxis(axis);
        }
    }
}

void PlotWidget::padAxis(QCPAxis* axis, double fraction)
{
    const QCPRange r = axis->range();
    if (axis->scaleType() == QCPAxis::stLogarithmic) {
        if (r.lower > 0.0 && r.upper > r.lower) {
            const double factor = std::pow(r.upper / r.lower, fraction);
            axis->setRange(r.lower / factor, r.upper * factor);
        }
    } else if (r.upper > r.lower) {
        const double margin = (r.upper - r.lower) * fraction;
        axis->setRange(r.lower - margin, r.upper + margin);
    }
}

void PlotWidget::shareHorizontalAxis(PlotWidget* a, PlotWidget* b)
{
    const auto follow = [](PlotWidget* from, PlotWidget* to) {
        connect(from->plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), to,
                [to](const QCPRange& range) {
                    to->plot_->xAxis->setRange(range);  // no signal when it is the range already
                    to->requestReplot();
                });
    };
    follow(a, b);
    follow(b, a);
}

std::pair<double, double> PlotWidget::horizontalRange() const
{
    return {plot_->xAxis->range().lower, plot_->xAxis->range().upper};
}

void PlotWidget::dataChanged()
{
    if (followData_) {
        rescaleToData();
    }
    requestReplot();
}

void PlotWidget::requestReplot()
{
    if (!isVisible()) {
        replotWhenShown_ = true;
        return;
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotWidget::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (replotWhenShown_) {
        replotWhenShown_ = false;
        plot_->replot(QCustomPlot::rpQueuedRefresh);  // drawn before the widget is painted
    }
}

QColor PlotWidget::seriesColor(int index)
{
    // Okabe–Ito palette without its yellow, which is unreadable on white.
    static const std::array<QColor, 7> colors{
        QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00), QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
        QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9), QColor(0x00, 0x00, 0x00)};
    const auto n = static_cast<int>(colors.size());
    return colors[static_cast<std::size_t>(((index % n) + n) % n)];
}

bool PlotWidget::exportTo(const QString& path, int width, int height, QString* error)
{
    const QString format = ExportDialog::formatOf(path);
    if (format.isEmpty()) {
        const QString suffix = QFileInfo(path).suffix();
        setError(
            error,
            suffix.isEmpty()
                ? tr("Cannot export to \"%1\": the file name needs the extension .png, .pdf or .svg.").arg(path)
                : tr("Cannot export to \"%1\": unknown format \".%2\" (use .png, .pdf or .svg).").arg(path, suffix));
        return false;
    }
    if (width <= 0 || height <= 0) {
        width = plot_->width();
        height = plot_->height();
        if (width < 16 || height < 16) {
            width = kFallbackWidth;
            height = kFallbackHeight;
        }
    }

    // A selection is the user's pointer on the screen, not part of the figure.
    QList<QPair<QCPAbstractPlottable*, QCPDataSelection>> selected;
    for (int i = 0; i < plot_->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot_->plottable(i);
        if (p->selected()) {
            selected.append({p, p->selection()});
            p->setSelection(QCPDataSelection());
        }
    }
    syncDecorations();
    const auto restoreSelection = qScopeGuard([&] {
        for (const auto& [p, selection] : selected) {
            p->setSelection(selection);
        }
        if (!selected.isEmpty()) {
            requestReplot();
        }
    });

    // Checked before the drawing, so that the reason is given when the file cannot be written;
    // the drawing is then written with the one atomic writer, like every file sysid writes.
    try {
        core::checkCanWrite(path.toStdString());
    } catch (const core::FileWriteError& e) {
        setError(error, tr("Cannot write \"%1\": %2").arg(path, QString::fromStdString(e.message)));
        return false;
    }

    bool ok = false;
    QByteArray bytes;
    if (format == QLatin1String("svg")) {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(QSize(width, height));
        generator.setViewBox(QRect(0, 0, width, height));
        generator.setTitle(windowTitle());
        generator.setDescription(tr("Plot exported by sysid"));
        QCPPainter painter;
        if (painter.begin(&generator)) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            plot_->toPainter(&painter, width, height);
            ok = painter.end();
        }
    } else {
        // QCustomPlot writes PNG and PDF to a file name only: a private folder of its own, then
        // the bytes go to their place.
        QTemporaryDir scratch;
        const QString drawn = scratch.filePath(QStringLiteral("plot.") + format);
        ok = scratch.isValid() &&
            (format == QLatin1String("png") ? plot_->savePng(drawn, width, height)
                                            : plot_->savePdf(drawn, width, height));
        QFile file(drawn);
        ok = ok && file.open(QIODevice::ReadOnly);
        if (ok)
            bytes = file.readAll();
    }
    if (!ok) {
        setError(error, tr("Cannot write \"%1\": the %2 export failed.").arg(path, format.toUpper()));
        return false;
    }
    try {
        core::writeFileAtomically(path.toStdString(),
                                  std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    } catch (const core::FileWriteError& e) {
        setError(error, tr("Cannot write \"%1\": %2").arg(path, QString::fromStdString(e.message)));
        return false;
    }
    return true;
}

void PlotWidget::exportInteractively()
{
    const int w = plot_->width() >= 16 ? plot_->width() : kFallbackWidth;
    const int h = plot_->height() >= 16 ? plot_->height() : kFallbackHeight;
    ExportDialog dialog(w, h, this);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    QString error;
    if (!exportTo(dialog.path(), dialog.imageWidth(), dialog.imageHeight(), &error)) {
        QMessageBox::warning(this, tr("Export failed"), error);
    }
}

}  // namespace sysid::ui
