#include "ui/main/MainWindow.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QStringDecoder>
#include <QtGlobal>

namespace sysid::ui {

namespace {
// Model files are a few kilobytes; anything far larger is not a model.
constexpr qint64 kMaxModelBytes = 16 * 1024 * 1024;
}  // namespace

MainWindow::MainWindow(const QString& modelPath, QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(QStringLiteral("sysid"));
  resize(900, 640);

  modelView_ = new QPlainTextEdit(this);
  modelView_->setObjectName(QStringLiteral("modelView"));
  modelView_->setReadOnly(true);
  modelView_->setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setStyleHint(QFont::TypeWriter);
  modelView_->setFont(mono);
  setCentralWidget(modelView_);

  QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
  fileMenu->setObjectName(QStringLiteral("fileMenu"));
  openAction_ = fileMenu->addAction(tr("&Open…"), this, &MainWindow::openModel);
  openAction_->setObjectName(QStringLiteral("openAction"));
  openAction_->setShortcut(QKeySequence::Open);
  fileMenu->addSeparator();
  quitAction_ = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
  quitAction_->setObjectName(QStringLiteral("quitAction"));
  quitAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));  // no standard key off KDE/GNOME

  QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
  helpMenu->setObjectName(QStringLiteral("helpMenu"));
  aboutAction_ = helpMenu->addAction(tr("&About sysid"), this, &MainWindow::showAbout);
  aboutAction_->setObjectName(QStringLiteral("aboutAction"));

  statusBar()->showMessage(tr("Ready"));
  loadModelFile(modelPath.isEmpty() ? defaultModelPath() : modelPath);
}

QString MainWindow::defaultModelPath() {
  return QDir::cleanPath(QStringLiteral(SYSID_EXAMPLES_DIR "/duffing.model"));
}

QString MainWindow::aboutText() {
  return tr("<h3>sysid %1</h3>"
            "<p>Interactive identification of nonlinear dynamic systems.</p>"
            "<p>Qt %2 (built with Qt %3)</p>")
      .arg(QStringLiteral(SYSID_VERSION), QString::fromLatin1(qVersion()),
           QStringLiteral(QT_VERSION_STR));
}

bool MainWindow::loadModelFile(const QString& path) {
  const QFileInfo info(path);
  const QString shown = QDir::toNativeSeparators(info.absoluteFilePath());
  if (info.isDir()) {
    showError(tr("Cannot open %1: it is a folder, not a model file").arg(shown));
    return false;
  }
  QFile file(info.absoluteFilePath());
  if (!file.open(QIODevice::ReadOnly)) {
    showError(tr("Cannot open %1: %2").arg(shown, file.errorString()));
    return false;
  }
  if (file.size() > kMaxModelBytes) {
    showError(tr("Cannot open %1: %2 bytes is too large for a model file")
                  .arg(shown)
                  .arg(file.size()));
    return false;
  }
  const QByteArray bytes = file.readAll();
  if (file.error() != QFileDevice::NoError) {
    showError(tr("Cannot read %1: %2").arg(shown, file.errorString()));
    return false;
  }
  auto decode = QStringDecoder(QStringDecoder::Utf8);
  const QString text = decode(bytes);
  if (decode.hasError()) {
    showError(tr("Cannot open %1: the file is not UTF-8 text").arg(shown));
    return false;
  }

  modelView_->setPlainText(text);
  currentFile_ = info.absoluteFilePath();
  setWindowTitle(QStringLiteral("sysid \u2014 %1").arg(info.fileName()));
  statusBar()->showMessage(
      tr("Loaded %1 (%n line(s))", nullptr, modelView_->blockCount()).arg(shown));
  return true;
}

void MainWindow::openModel() {
  const QString startDir = currentFile_.isEmpty() ? QFileInfo(defaultModelPath()).absolutePath()
                                                  : QFileInfo(currentFile_).absolutePath();
  // Window-modal and asynchronous: no nested event loop while the dialog is up.
  auto* dialog = new QFileDialog(this, tr("Open model"), startDir,
                                 tr("Models (*.model);;All files (*)"));
  dialog->setObjectName(QStringLiteral("openDialog"));
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setAcceptMode(QFileDialog::AcceptOpen);
  dialog->setFileMode(QFileDialog::ExistingFile);
  connect(dialog, &QFileDialog::fileSelected, this,
          [this](const QString& path) { loadModelFile(path); });
  dialog->open();
}

void MainWindow::showAbout() {
  auto* box = new QMessageBox(QMessageBox::NoIcon, tr("About sysid"), aboutText(),
                              QMessageBox::Ok, this);
  box->setObjectName(QStringLiteral("aboutBox"));
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setTextFormat(Qt::RichText);
  box->open();
}

void MainWindow::showError(const QString& message) { statusBar()->showMessage(message); }

}  // namespace sysid::ui
