// sysid-gui: the desktop application.
//   sysid-gui [PROJECT.sysid | MODEL.model]      open it (default: a bundled example project)
//   sysid-gui --screenshot FILE.png [PROJECT] [--run | --frequency-response NAME=FROM:TO]
//                                                render the window to a PNG (after a fit with --run, or after
//                                                a frequency-response continuation in NAME) and exit
//   sysid-gui --examples-folder                  print the folder of the bundled examples and exit
#include "ui/main/Examples.h"
#include "ui/main/MainWindow.h"
#include "ui/periodic/PeriodicController.h"
#include "ui/periodic/PeriodicPanel.h"
#include "ui/run/FitRunner.h"
#include "ui/settings/FilterPanel.h"
#include "ui/settings/NumberField.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QGroupBox>
#include <QLineEdit>
#include <QRegularExpression>

#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>
#include <QTimer>

#include <functional>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("sysid"));
    QApplication::setOrganizationName(QStringLiteral("sysid"));
    QApplication::setApplicationVersion(QStringLiteral(SYSID_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Interactive identification of nonlinear dynamic systems."));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
                                              QStringLiteral("Render the window to FILE (PNG) and exit."),
                                              QStringLiteral("FILE"));
    const QCommandLineOption runOption(QStringLiteral("run"), QStringLiteral("With --screenshot: run the fit first."));
    const QCommandLineOption responseOption(
        QStringLiteral("frequency-response"),
        QStringLiteral(
            "With --screenshot: continue the periodic solution in the forcing frequency NAME from FROM to TO first."),
        QStringLiteral("NAME=FROM:TO"));
    const QCommandLineOption examplesOption(QStringLiteral("examples-folder"),
                                            QStringLiteral("Print the folder of the bundled examples and exit."));
    parser.addOption(screenshotOption);
    parser.addOption(runOption);
    parser.addOption(responseOption);
    parser.addOption(examplesOption);
    parser.addPositionalArgument(
        QStringLiteral("file"),
        QStringLiteral("Project (.sysid) or model (.model) to open (default: a bundled example)."),
        QStringLiteral("[file]"));
    const auto usageError = [&parser](const QString& message) {
        QTextStream(stderr) << "sysid-gui: " << message << "\n\n" << parser.helpText();
        return 2;
    };
    if (!parser.parse(QApplication::arguments()))
        return usageError(parser.errorText());
    if (parser.isSet(helpOption) || parser.isSet(QStringLiteral("help-all")))
        parser.showHelp(0);
    if (parser.isSet(versionOption))
        parser.showVersion();
    if (parser.isSet(examplesOption)) {
        QTextStream(stdout) << sysid::ui::examplesDir() << "\n";
        return 0;
    }
    const QStringList args = parser.positionalArguments();
    if (args.size() > 1)
        return usageError(QStringLiteral("expected at most one file, got %1").arg(args.size()));
    if ((parser.isSet(runOption) || parser.isSet(responseOption)) && !parser.isSet(screenshotOption))
        return usageError(QStringLiteral("--run and --frequency-response are only used with --screenshot"));
    if (parser.isSet(runOption) && parser.isSet(responseOption))
        return usageError(QStringLiteral("give --run or --frequency-response, not both"));
    const QRegularExpressionMatch sweep = QRegularExpression(QStringLiteral("^([A-Za-z_][A-Za-z0-9_]*)=([^:]+):(.+)$"))
                                              .match(parser.value(responseOption));
    if (parser.isSet(responseOption) && !sweep.hasMatch())
        return usageError(QStringLiteral("--frequency-response expects NAME=FROM:TO"));

    sysid::ui::MainWindow window(args.isEmpty() ? QString() : args.front());
    window.show();
    if (!parser.isSet(screenshotOption)) {
        window.offerAutosaveRestore();
        return QApplication::exec();
    }
    const QString file = parser.value(screenshotOption);
    int status = 0;
    std::function<void()> shoot = [&] {
        QApplication::processEvents();
        if (window.filterPanel()->spectraPending()) {  // computed on a worker: shown once drawn
            QTimer::singleShot(50, &window, shoot);
            return;
        }
        if (!window.saveScreenshot(file)) {
            QTextStream(stderr) << "sysid-gui: cannot write " << file << "\n";
            status = 1;
        }
        QCoreApplication::exit(status);  // not quit(): that closes the window, which would ask to save
    };
    if (parser.isSet(responseOption)) {
        sysid::ui::PeriodicPanel* panel = window.periodicPanel();
        if (auto* dock = window.findChild<QDockWidget*>(QStringLiteral("periodicDock")))
            dock->raise();  // the continuation's settings beside its curve
        panel->sweepBox()->setChecked(true);
        panel->sweepParameterCombo()->setCurrentText(sweep.captured(1));
        panel->sweepFromEdit()->setText(sweep.captured(2));
        panel->sweepToEdit()->setText(sweep.captured(3));
        panel->frequencyCheck()->setChecked(true);
        QObject::connect(window.periodicController()->runner(), &sysid::ui::PeriodicRunner::finished, &window,
                         [&] { QTimer::singleShot(200, &window, shoot); });
        QTimer::singleShot(100, &window, [&] { window.periodicController()->run(); });
    } else if (parser.isSet(runOption)) {
        QObject::connect(window.runner(), &sysid::ui::FitRunner::finished, &window,
                         [&](bool, const QString&, const std::optional<sysid::estimate::FitResult>&) {
                             QTimer::singleShot(200, &window, shoot);
                         });
        QTimer::singleShot(100, &window, [&] { window.runFit(); });
    } else {
        QTimer::singleShot(300, &window, shoot);
    }
    return QApplication::exec();
}
