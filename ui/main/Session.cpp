#include "ui/main/Session.h"

#include "ui/project/ProjectDocument.h"

#include "engine/core/AtomicFile.h"
#include "engine/project/JsonFile.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <exception>
#include <stdexcept>
#include <utility>

#include <signal.h>
#include <unistd.h>

namespace sysid::ui {

namespace {

// The autosave files of the windows open in this process: not offered for restoring.
QSet<QString>& liveAutosaves()
{
    static QSet<QString> live;
    return live;
}

// Whether the process that wrote an autosave named "project-PID-N.sysid" still runs.
bool ownerRuns(const QString& fileName)
{
    static const QRegularExpression name(QStringLiteral("^project-(\\d+)-\\d+\\.sysid$"));
    const auto match = name.match(fileName);
    if (!match.hasMatch())
        return false;
    const auto pid = static_cast<pid_t>(match.captured(1).toLongLong());
    if (pid == ::getpid())
        return false;  // this process: liveAutosaves() says which windows are open
    return ::kill(pid, 0) == 0 || errno == EPERM;
}

}  // namespace

Session::Session(ProjectDocument* document, QWidget* dialogParent, QObject* parent) :
    QObject(parent), document_(document), dialogParent_(dialogParent)
{
    static int windows = 0;
    autosavePath_ = autosaveFolder() +
        QStringLiteral("/project-%1-%2.sysid").arg(QString::number(::getpid()), QString::number(++windows));
    liveAutosaves().insert(autosavePath_);
    autosaveTimer_.setInterval(30000);
    connect(&autosaveTimer_, &QTimer::timeout, this, &Session::writeAutosave);
    autosaveTimer_.start();
}

Session::~Session()
{
    liveAutosaves().remove(autosavePath_);
}

QString Session::autosaveFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/autosave");
}

void Session::writeAutosave()
{
    if (!document_->isModified())
        return;
    QDir().mkpath(autosaveFolder());
    nlohmann::json j;
    j["file"] = document_->filePath().toStdString();
    j["project"] = document_->toJson();
    try {
        core::writeFileAtomically(autosavePath_.toStdString(), j.dump());
    } catch (const core::FileWriteError&) {
        // A safety copy that cannot be written is tried again in 30 s; the user's work is untouched.
    }
}

void Session::removeAutosave()
{
    QFile::remove(autosavePath_);
}

QStringList Session::orphanedAutosaves()
{
    QStringList orphans;
    for (const QFileInfo& info : QDir(autosaveFolder()).entryInfoList({QStringLiteral("*.sysid")}, QDir::Files))
        if (!liveAutosaves().contains(info.absoluteFilePath()) && !ownerRuns(info.fileName()))
            orphans << info.absoluteFilePath();
    // The single autosave file of versions before one per window.
    const QString legacy =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/autosave.sysid");
    if (QFileInfo::exists(legacy))
        orphans << legacy;
    return orphans;
}

void Session::offerAutosaveRestore()
{
    // The newest autosave nobody owns.
    QString orphan;
    QDateTime newest;
    for (const QString& candidate : orphanedAutosaves()) {
        const QDateTime modified = QFileInfo(candidate).lastModified();
        if (orphan.isEmpty() || modified > newest) {
            orphan = candidate;
            newest = modified;
        }
    }
    if (orphan.isEmpty())
        return;
    QString error;
    nlohmann::json j;
    try {
        j = project::readJsonFile(orphan.toStdString(), "sysid autosave file");
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    }
    const auto answer =
        QMessageBox::question(dialogParent_, tr("Restore unsaved work?"),
                              tr("sysid did not close normally last time. Restore the unsaved project?"));
    if (answer != QMessageBox::Yes) {
        QFile::remove(orphan);
        return;
    }
    try {
        if (!error.isEmpty())
            throw std::runtime_error(error.toStdString());
        if (!j.is_object() || !j.contains("project"))
            throw std::runtime_error(orphan.toStdString() + ": not an autosave of sysid");
        if (!document_->restoreJson(j.at("project"), QString::fromStdString(j.value("file", std::string())), &error)) {
            QMessageBox::warning(dialogParent_, tr("Cannot restore"), error);
            return;
        }
        // The work is this window's now: its own autosave keeps it, and the orphan goes.
        writeAutosave();
        QFile::remove(orphan);
    } catch (const std::exception& e) {
        QMessageBox::warning(dialogParent_, tr("Cannot restore"), QString::fromStdString(e.what()));
    }
}

void Session::setRecentMenu(QMenu* menu, std::function<void(const QString&)> open)
{
    recentMenu_ = menu;
    openRecent_ = std::move(open);
    rebuildRecentMenu();
}

void Session::addRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recent")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > 10)
        recent.removeLast();
    settings.setValue(QStringLiteral("recent"), recent);
    rebuildRecentMenu();
}

void Session::rebuildRecentMenu()
{
    if (!recentMenu_)
        return;
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recent")).toStringList();
    for (const QString& path : recent)
        recentMenu_->addAction(path, this, [this, path] { openRecent_(path); });
    recentMenu_->setEnabled(!recent.isEmpty());
}

}  // namespace sysid::ui
