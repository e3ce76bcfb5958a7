#pragma once

#include <QMainWindow>
#include <QString>

class QAction;
class QPlainTextEdit;

namespace sysid::ui {

// The main window of sysid-gui. For now it shows the text of one model file;
// the panels for data, estimation and plots are added beside it later.
class MainWindow : public QMainWindow {
  Q_OBJECT

public:
  // Shows the model at modelPath, or the bundled Duffing example when
  // modelPath is empty. A file that cannot be read leaves the window open with
  // the error in the status bar.
  explicit MainWindow(const QString& modelPath = QString(), QWidget* parent = nullptr);

  // Reads the model text at path and shows it. On failure the shown text and
  // title are kept, the error goes to the status bar and false is returned.
  bool loadModelFile(const QString& path);

  // Absolute path of the file shown, empty if none was loaded.
  QString currentFile() const { return currentFile_; }

  // resources/examples/duffing.model of the source tree this was built from.
  static QString defaultModelPath();

  // The text of Help → About: the sysid version and the Qt versions.
  static QString aboutText();

private:
  void openModel();
  void showAbout();
  void showError(const QString& message);

  QPlainTextEdit* modelView_ = nullptr;
  QAction* openAction_ = nullptr;
  QAction* quitAction_ = nullptr;
  QAction* aboutAction_ = nullptr;
  QString currentFile_;
};

}  // namespace sysid::ui
