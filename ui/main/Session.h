#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <functional>

class QMenu;
class QWidget;

namespace sysid::ui {

class ProjectDocument;

// What keeps a user's work between sessions: the autosave copy of an unsaved project (written
// every 30 s while it is modified, offered back after a crash, removed when the work is saved
// or closed) and the menu of recently opened projects. Each window (each open project) has an
// autosave file of its own in autosaveFolder(), named for the process and the window, so that
// windows and instances never overwrite or remove each other's.
class Session : public QObject {
    Q_OBJECT

public:
    // `dialogParent` owns the restore question and its warnings.
    Session(ProjectDocument* document, QWidget* dialogParent, QObject* parent = nullptr);

    ~Session() override;

    static QString autosaveFolder();
    // This window's autosave file.
    QString autosavePath() const { return autosavePath_; }
    // Writes the unsaved project to autosavePath() (nothing when it is saved), atomically.
    void writeAutosave();
    void removeAutosave();
    // The autosaves whose window is gone (its process ended, or its window in this process was
    // destroyed without removing it): what a crash left.
    static QStringList orphanedAutosaves();
    // Offers to restore an autosave left by a crash: the newest of orphanedAutosaves().
    void offerAutosaveRestore();

    // The menu Session fills with recent projects; choosing one calls `open` with its path.
    void setRecentMenu(QMenu* menu, std::function<void(const QString&)> open);
    void addRecent(const QString& path);

private:
    void rebuildRecentMenu();

    ProjectDocument* document_;
    QWidget* dialogParent_;
    QString autosavePath_;
    QTimer autosaveTimer_;
    QMenu* recentMenu_ = nullptr;
    std::function<void(const QString&)> openRecent_;
};

}  // namespace sysid::ui
