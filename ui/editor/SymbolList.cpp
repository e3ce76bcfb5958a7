#include "ui/editor/SymbolList.h"

#include <QBrush>
#include <QColor>

namespace sysid::ui {

namespace {

QString groupTitle(SymbolList::Group group)
{
    switch (group) {
    case SymbolList::Group::States: return QObject::tr("States");
    case SymbolList::Group::Parameters: return QObject::tr("Parameters");
    case SymbolList::Group::Inputs: return QObject::tr("Inputs");
    case SymbolList::Group::Outputs: return QObject::tr("Outputs");
    case SymbolList::Group::Events: return QObject::tr("Events");
    case SymbolList::Group::Constraints: return QObject::tr("Constraints");
    case SymbolList::Group::BondGraph: return QObject::tr("Bond graph");
    }
    return {};
}

QStringList toList(const std::vector<std::string>& names)
{
    QStringList list;
    for (const std::string& n : names)
        list << QString::fromStdString(n);
    return list;
}

}  // namespace

SymbolList::SymbolList(QWidget* parent) : QTreeWidget(parent)
{
    setColumnCount(1);
    setHeaderHidden(true);
    setRootIsDecorated(true);
    setSelectionMode(QAbstractItemView::SingleSelection);
    for (int g = 0; g < groupCount; ++g) {
        groups_[g] = new QTreeWidgetItem(this, {groupTitle(static_cast<Group>(g))});
        QFont bold = groups_[g]->font(0);
        bold.setBold(true);
        groups_[g]->setFont(0, bold);
        groups_[g]->setFlags(Qt::ItemIsEnabled);
        groups_[g]->setExpanded(true);
    }
}

QTreeWidgetItem* SymbolList::groupItem(Group group) const
{
    return groups_[static_cast<int>(group)];
}

void SymbolList::fill(Group group, const QStringList& names)
{
    QTreeWidgetItem* parentItem = groupItem(group);
    qDeleteAll(parentItem->takeChildren());
    for (const QString& n : names) {
        auto* item = new QTreeWidgetItem(parentItem, {n});
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    }
    parentItem->setText(0, QStringLiteral("%1 (%2)").arg(groupTitle(group)).arg(names.size()));
    parentItem->setExpanded(true);
}

void SymbolList::setSummary(const ModelSummary& summary)
{
    if (!summary.valid) {
        if (!errorItem_) {
            errorItem_ = new QTreeWidgetItem({tr("model has errors")});
            errorItem_->setForeground(0, QBrush(QColor(Qt::red)));
            errorItem_->setFlags(Qt::ItemIsEnabled);
            insertTopLevelItem(0, errorItem_);
        }
        const std::size_t n = summary.errors.size();
        errorItem_->setToolTip(0,
                               n == 1 ? tr("1 error; see the underlined place in the model text")
                                      : tr("%1 errors; see the underlined places in the model text").arg(n));
        return;
    }
    delete errorItem_;
    errorItem_ = nullptr;
    fill(Group::States, toList(summary.states));
    QStringList parameters;
    for (const model::Parameter& p : summary.parameters)
        parameters << QString::fromStdString(p.name);
    fill(Group::Parameters, parameters);
    fill(Group::Inputs, toList(summary.inputs));
    fill(Group::Outputs, toList(summary.outputs));
    fill(Group::Events, toList(summary.events));
    groupItem(Group::Events)->setHidden(summary.events.empty());
    fill(Group::BondGraph, toList(summary.bondGraph));
    groupItem(Group::BondGraph)->setHidden(summary.bondGraph.empty());
    fill(Group::Constraints, toList(summary.constraints));
    groupItem(Group::Constraints)->setHidden(summary.constraints.empty());
    if (!summary.constraints.empty()) {
        QTreeWidgetItem* constraints = groupItem(Group::Constraints);
        constraints->setText(0, tr("Constraints (%1, index %2)")
                                    .arg(summary.constraints.size())
                                    .arg(summary.differentiationIndex));
        constraints->setToolTip(0, tr("A differential-algebraic model: algebraic variables %1. Model > Show derived "
                                      "equations shows the descriptor system, the index and the hidden constraints.")
                                       .arg(toList(summary.algebraic).join(QStringLiteral(", "))));
    }
}

QStringList SymbolList::names(Group group) const
{
    QStringList list;
    const QTreeWidgetItem* parentItem = groupItem(group);
    for (int i = 0; i < parentItem->childCount(); ++i)
        list << parentItem->child(i)->text(0);
    return list;
}

bool SymbolList::showsErrors() const
{
    return errorItem_ != nullptr;
}

}  // namespace sysid::ui
