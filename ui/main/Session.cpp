#include "ui/main/Session.h"

#include "ui/project/ProjectDocument.h"

#include "engine/core/AtomicFile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <exception>
#include <utility>

namespace sysid::ui {

Session::Session(ProjectDocument* document, QWidget* dialogParent, QObject* parent) :
    QObject(parent), document_(document), dialogParent_(dialogParent)
{
    autosaveTimer_.setInterval(30000);
    connect(&autosaveTimer_, &QTimer::timeout, this, &Session::writeAutosave);
    autosaveTimer_.start();
}

QString Session::autosavePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/autosave.sysid");
}

void Session::writeAutosave()
{
    if (!document_->isModified())
        return;
    QDir().mkpath(QFileInfo(autosavePath()).absolutePath());
    nlohmann::json j;
    j["file"] = document_->filePath().toStdString();
    j["project"] = document_->toJson();
    try {
        core::writeFileAtomically(autosavePath().toStdString(), j.dump());
    } catch (const core::FileWriteError&) {
        // A safety copy that cannot be written is tried again in 30 s; the user's work is untouched.
    }
}

void Session::removeAutosave()
{
    QFile::remove(autosavePath());
}

void Session::offerAutosaveRestore()
{
    QFile file(autosavePath());
    if (!file.exists() || !file.open(QIODevice::ReadOnly))
        return;
    const QByteArray bytes = file.readAll();
    file.close();
    const auto answer =
        QMessageBox::question(dialogParent_, tr("Restore unsaved work?"),
                              tr("sysid did not close normally last time. Restore the unsaved project?"));
    if (answer != QMessageBox::Yes) {
        removeAutosave();
        return;
    }
    try {
        const nlohmann::json j = nlohmann::json::parse(bytes.toStdString());
        QString error;
        if (!document_->restoreJson(j.at("project"), QString::fromStdString(j.value("file", std::string())), &error))
            QMessageBox::warning(dialogParent_, tr("Cannot restore"), error);
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
