#include "ui/main/Examples.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace sysid::ui {

QString examplesDir()
{
    const QFileInfo installed(
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral(SYSID_INSTALLED_EXAMPLES)));
    if (installed.isDir())
        return installed.canonicalFilePath();
    return QStringLiteral(SYSID_EXAMPLES_DIR);
}

}  // namespace sysid::ui
