#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

class QMenu;
class QWidget;

namespace sysid::ui {

class ProjectDocument;

// What keeps a user's work between sessions: the autosave copy of an unsaved project (written
// every 30 s while it is modified, offered back after a crash, removed when the work is saved
// or closed) and the menu of recently opened projects.
class Session : public QObject {
    Q_OBJECT

public:
    // `dialogParent` owns the restore question and its warnings.
    Session(ProjectDocument* document, QWidget* dialogParent, QObject* parent = nullptr);

    static QString autosavePath();
    // Writes the unsaved project to autosavePath() (nothing when it is saved), atomically.
    void writeAutosave();
    void removeAutosave();
    // Offers to restore an autosave left by a crash.
    void offerAutosaveRestore();

    // The menu Session fills with recent projects; choosing one calls `open` with its path.
    void setRecentMenu(QMenu* menu, std::function<void(const QString&)> open);
    void addRecent(const QString& path);

private:
    void rebuildRecentMenu();

    ProjectDocument* document_;
    QWidget* dialogParent_;
    QTimer autosaveTimer_;
    QMenu* recentMenu_ = nullptr;
    std::function<void(const QString&)> openRecent_;
};

}  // namespace sysid::ui
