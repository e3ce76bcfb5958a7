#include "ui/data/ExperimentList.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QSignalBlocker>

#include <memory>

namespace sysid::ui {

ExperimentList::ExperimentList(QWidget* parent) : QListWidget(parent)
{
    setObjectName(QStringLiteral("experimentList"));
    setSelectionMode(QAbstractItemView::SingleSelection);
    setContextMenuPolicy(Qt::DefaultContextMenu);
    connect(this, &QListWidget::currentRowChanged, this, &ExperimentList::currentExperimentChanged);
}

void ExperimentList::setExperiments(const QStringList& names, const QStringList& paths, int current)
{
    const QSignalBlocker block(this);
    clear();
    for (qsizetype i = 0; i < names.size(); ++i) {
        auto* item = new QListWidgetItem(names[i], this);
        if (i < paths.size())
            item->setToolTip(paths[i]);
    }
    setCurrentRow(current >= 0 && current < count() ? current : -1);
}

QMenu* ExperimentList::createContextMenu(const QPoint& pos)
{
    const QListWidgetItem* item = itemAt(pos);
    if (item == nullptr)
        return nullptr;
    const int index = row(item);
    auto* menu = new QMenu(this);
    QAction* remove = menu->addAction(tr("Remove"));
    remove->setObjectName(QStringLiteral("removeExperimentAction"));
    connect(remove, &QAction::triggered, this, [this, index] { emit removeRequested(index); });
    return menu;
}

void ExperimentList::contextMenuEvent(QContextMenuEvent* event)
{
    std::unique_ptr<QMenu> menu(createContextMenu(event->pos()));
    if (!menu) {
        event->ignore();
        return;
    }
    menu->exec(event->globalPos());
    event->accept();
}

void ExperimentList::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Delete && currentRow() >= 0) {
        emit removeRequested(currentRow());
        event->accept();
        return;
    }
    QListWidget::keyPressEvent(event);
}

}  // namespace sysid::ui
