#include "ui/data/ExperimentList.h"

#include "ui/project/ProjectDocument.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QFileInfo>
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
    connect(this, &QListWidget::itemDoubleClicked, this,
            [this](QListWidgetItem* item) { emit manageRequested(row(item)); });
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

QString ExperimentList::displayName(const std::string& name, const std::string& path)
{
    return name.empty() ? QFileInfo(QString::fromStdString(path)).fileName() : QString::fromStdString(name);
}

void ExperimentList::showDataSets(const ProjectDocument& document)
{
    QStringList names, paths;
    for (int i = 0; i < document.dataSetCount(); ++i) {
        const auto& set = document.dataSet(i);
        QString name = displayName(set.name, set.path);
        if (set.role == project::DataRole::Validation)
            name = tr("%1 (validation)").arg(name);
        if (!set.included)
            name = tr("%1 (excluded)").arg(name);
        names << name;
        paths << QString::fromStdString(set.path);
    }
    setExperiments(names, paths, document.currentDataSet());
    for (int i = 0; i < document.dataSetCount(); ++i)
        if (!document.dataSet(i).included)
            item(i)->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
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
    QAction* manage = menu->addAction(tr("Manage data sets…"));
    manage->setObjectName(QStringLiteral("manageDataSetsAction"));
    connect(manage, &QAction::triggered, this, [this, index] { emit manageRequested(index); });
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
