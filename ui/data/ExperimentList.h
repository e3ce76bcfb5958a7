#pragma once

#include <QListWidget>
#include <QString>
#include <QStringList>

class QMenu;

namespace sysid::ui {

// The data sets (experiments) of the project, by name, with the file path as tooltip.
// Selecting one emits currentExperimentChanged; the context menu's Remove (and the Delete
// key) emits removeRequested — the owner removes it and calls setExperiments again.
class ExperimentList : public QListWidget {
    Q_OBJECT

public:
    explicit ExperimentList(QWidget* parent = nullptr);

    // Replaces the list; `paths` become tooltips (missing entries: none); `current` is
    // selected (-1: none). Emits nothing.
    void setExperiments(const QStringList& names, const QStringList& paths, int current);

    // The context menu for the item at `pos` (viewport coordinates), owned by the caller;
    // nullptr when there is no item there. Its "Remove" action emits removeRequested(row).
    QMenu* createContextMenu(const QPoint& pos);

signals:
    // The user selected another experiment (-1: none).
    void currentExperimentChanged(int index);
    // The user asked to remove the experiment at `index`.
    void removeRequested(int index);

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
};

}  // namespace sysid::ui
