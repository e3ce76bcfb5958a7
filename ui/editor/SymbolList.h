#pragma once

#include "ui/project/ModelSummary.h"

#include <QStringList>
#include <QTreeWidget>

namespace sysid::ui {

// The model's names in four groups: States, Parameters, Inputs, Outputs, and its events (when),
// constraints (with the differentiation index) and bond-graph elements in groups shown only when
// there are any. An invalid model keeps the last good lists and adds a line "model has errors" at
// the top.
class SymbolList : public QTreeWidget {
    Q_OBJECT
public:
    enum class Group { States, Parameters, Inputs, Outputs, Events, Constraints, BondGraph };

    explicit SymbolList(QWidget* parent = nullptr);

    void setSummary(const ModelSummary& summary);

    QStringList names(Group group) const;  // as shown, in model order
    bool showsErrors() const;  // the "model has errors" line is shown

private:
    QTreeWidgetItem* groupItem(Group group) const;
    void fill(Group group, const QStringList& names);

    QTreeWidgetItem* errorItem_ = nullptr;
    static constexpr int groupCount = static_cast<int>(Group::BondGraph) + 1;  // the last group
    QTreeWidgetItem* groups_[groupCount] = {};
};

}  // namespace sysid::ui
