// sysid-gui: the desktop application. Usage: sysid-gui [MODEL]
#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>

#include "ui/main/MainWindow.h"

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("sysid"));
  QApplication::setApplicationVersion(QStringLiteral(SYSID_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Interactive identification of nonlinear dynamic systems."));
  const QCommandLineOption helpOption = parser.addHelpOption();
  const QCommandLineOption versionOption = parser.addVersionOption();
  parser.addPositionalArgument(
      QStringLiteral("model"),
      QStringLiteral("Model file to open (default: the bundled Duffing example)."),
      QStringLiteral("[model]"));

  // Bad arguments exit with status 2, as for the command line tool.
  const auto usageError = [&parser](const QString& message) {
    QTextStream(stderr) << "sysid-gui: " << message << "\n\n" << parser.helpText();
    return 2;
  };
  if (!parser.parse(QApplication::arguments())) {
    return usageError(parser.errorText());
  }
  if (parser.isSet(helpOption) || parser.isSet(QStringLiteral("help-all"))) {
    parser.showHelp(0);
  }
  if (parser.isSet(versionOption)) {
    parser.showVersion();
  }
  const QStringList args = parser.positionalArguments();
  if (args.size() > 1) {
    return usageError(QStringLiteral("expected at most one model file, got %1").arg(args.size()));
  }

  sysid::ui::MainWindow window(args.isEmpty() ? QString() : args.front());
  window.show();
  return QApplication::exec();
}
