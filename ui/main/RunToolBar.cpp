#include "ui/main/RunToolBar.h"

#include <QAction>
#include <QLabel>
#include <QProgressBar>
#include <QStyle>

#include <algorithm>

namespace sysid::ui {

RunToolBar::RunToolBar(QAction* run, QAction* cancel, QWidget* parent) :
    QToolBar(tr("Run"), parent), run_(run), cancel_(cancel), progress_(new QProgressBar(this)), label_(new QLabel(this))
{
    setObjectName(QStringLiteral("runToolBar"));
    setMovable(false);
    setFloatable(false);
    toggleViewAction()->setVisible(false);  // not offered in the window's context menu: it stays in view
    setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    const int icon = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    setIconSize(QSize(icon, icon));
    addAction(run_);
    addAction(cancel_);
    addSeparator();
    progress_->setObjectName(QStringLiteral("fitProgress"));
    progress_->setFormat(QStringLiteral("%v / %m"));
    progress_->setMaximumWidth(fontMetrics().horizontalAdvance(QLatin1Char('0')) * 24);
    label_->setObjectName(QStringLiteral("fitProgressLabel"));
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label_->setContentsMargins(6, 0, 6, 0);
    // A fixed size: a new text each iteration then repaints the label without laying out the window again.
    // Room for "iteration 100 of 100 · best cost -1.23457e-105" and the like.
    label_->setFixedSize(fontMetrics().horizontalAdvance(QString(52, QLatin1Char('0'))), label_->sizeHint().height());
    progressAction_ = addWidget(progress_);
    addWidget(label_);
    setRunning(false);
}

void RunToolBar::setRunning(bool running)
{
    run_->setEnabled(!running);
    cancel_->setEnabled(running);
    if (running) {
        progress_->setRange(0, 0);
        label_->clear();
    }
    progressAction_->setVisible(running);  // a toolbar shows and hides its widgets through their actions
}

void RunToolBar::setIteration(int iteration, int maximum)
{
    if (progress_->maximum() != maximum)
        progress_->setRange(0, maximum);
    progress_->setValue(maximum > 0 ? std::min(iteration, maximum) : 0);
}

void RunToolBar::setProgressText(const QString& text)
{
    label_->setText(text);
}

}  // namespace sysid::ui
