#pragma once

#include <QListWidget>
#include <QString>
#include <QStringList>

class QMenu;

namespace sysid::ui {

class ProjectDocument;

// The data sets (experiments) of the project, by name, with the file path as tooltip. A data set
// kept for validation says so after its name; one excluded from the fit is drawn grey.
// Selecting one emits currentExperimentChanged; the context menu's Remove (and the Delete
// key) emits removeRequested — the owner removes it and calls setExperiments again; its
// "Manage data sets…" (and a double click) emits manageRequested.
class ExperimentList : public QListWidget {
    Q_OBJECT

public:
    explicit ExperimentList(QWidget* parent = nullptr);

    // Replaces the list; `paths` become tooltips (missing entries: none); `current` is
    // selected (-1: none). Emits nothing.
    void setExperiments(const QStringList& names, const QStringList& paths, int current);
    // The document's data sets, named, marked by role and inclusion; its current one selected.
    void showDataSets(const ProjectDocument& document);

    // The context menu for the item at `pos` (viewport coordinates), owned by the caller;
    // nullptr when there is no item there. Its "Remove" action emits removeRequested(row).
    QMenu* createContextMenu(const QPoint& pos);

    // The name a data set is listed under: its own, else its file's name.
    static QString displayName(const std::string& name, const std::string& path);

signals:
    // The user selected another experiment (-1: none).
    void currentExperimentChanged(int index);
    // The user asked to remove the experiment at `index`.
    void removeRequested(int index);
    // The user asked for the data manager, with the experiment at `index` selected.
    void manageRequested(int index);

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
};

}  // namespace sysid::ui
