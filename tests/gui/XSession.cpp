#include "XSession.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sysid::test {

namespace {

XSession* session = nullptr;

// Starts `program` with `arguments`; its output goes to /dev/null, `keepFd` stays open in it, and
// it gets SIGTERM when this process dies. -1 when fork fails.
pid_t spawn(const std::string& program, const std::vector<std::string>& arguments, int keepFd = -1)
{
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const std::string& a : arguments)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid != 0)
        return pid;
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    const int null = open("/dev/null", O_RDWR);
    dup2(null, STDIN_FILENO);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    for (int fd = 3; fd < 256; ++fd)
        if (fd != keepFd)
            close(fd);
    execvp(argv[0], argv.data());
    _exit(127);
}

// Ends a child: SIGTERM, then SIGKILL after a second.
void end(pid_t& pid)
{
    if (pid <= 0)
        return;
    kill(pid, SIGTERM);
    for (int i = 0; i < 100; ++i) {
        if (waitpid(pid, nullptr, WNOHANG) == pid) {
            pid = -1;
            return;
        }
        usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    pid = -1;
}

// The line a child writes to `fd` within `timeoutMs`; empty on timeout or end of file.
std::string readLine(int fd, int timeoutMs)
{
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (line.empty() || line.back() != '\n') {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        pollfd p{fd, POLLIN, 0};
        if (left <= 0 || poll(&p, 1, static_cast<int>(left)) <= 0)
            return {};
        char c = 0;
        if (read(fd, &c, 1) != 1)
            return {};
        line.push_back(c);
    }
    line.pop_back();
    return line;
}

}  // namespace

XSession::XSession()
{
    session = this;
    const QString server = QStandardPaths::findExecutable(QStringLiteral("Xvfb"));
    installed_ = !server.isEmpty();
    if (!installed_)
        return;
    if (QStandardPaths::findExecutable(QStringLiteral("openbox")).isEmpty()) {
        error_ = QStringLiteral("openbox is not installed (install-deps.sh installs it with Xvfb)");
        return;
    }

    // -displayfd: Xvfb takes the first free display and writes its number to the pipe.
    int fds[2];
    if (pipe(fds) != 0) {
        error_ = QStringLiteral("pipe: %1").arg(QString::fromLocal8Bit(strerror(errno)));
        return;
    }
    const std::string screen =
        std::to_string(screenSize().width()) + "x" + std::to_string(screenSize().height()) + "x24";
    server_ = spawn(server.toStdString(),
                    {"-displayfd", std::to_string(fds[1]), "-screen", "0", screen, "-nolisten", "tcp"}, fds[1]);
    close(fds[1]);
    const std::string number = readLine(fds[0], 15000);
    close(fds[0]);
    if (server_ < 0 || number.empty()) {
        error_ = QStringLiteral("Xvfb did not start (no display number within 15 s)");
        stop();
        return;
    }
    display_ = QStringLiteral(":") + QString::fromStdString(number);
    qputenv("DISPLAY", display_.toLocal8Bit());

    // openbox runs --startup once it manages the screen: the file it touches says it is ready.
    QTemporaryDir dir;
    const QString ready = dir.filePath(QStringLiteral("ready"));
    windowManager_ = spawn("openbox", {"--sm-disable", "--startup", "touch " + ready.toStdString()});
    for (int i = 0; i < 150 && !QFile::exists(ready); ++i)
        usleep(100000);
    if (!QFile::exists(ready)) {
        error_ = QStringLiteral("openbox did not start on %1 within 15 s").arg(display_);
        stop();
        return;
    }
    qputenv("QT_QPA_PLATFORM", "xcb");
}

XSession::~XSession()
{
    stop();
    session = nullptr;
}

XSession* XSession::current()
{
    return session;
}

void XSession::stop()
{
    end(windowManager_);
    end(server_);
}

bool XSession::xdotool(const QStringList& arguments, QString* message) const
{
    QProcess process;
    process.start(QStringLiteral("xdotool"), arguments);
    if (!process.waitForStarted(5000) || !process.waitForFinished(10000) || process.exitCode() != 0) {
        if (message)
            *message = QStringLiteral("xdotool %1: %2%3")
                           .arg(arguments.join(QLatin1Char(' ')), process.errorString(),
                                QString::fromLocal8Bit(process.readAllStandardError()));
        return false;
    }
    return true;
}

bool XSession::click(QPoint global, QString* message) const
{
    // No --sync: it waits for the pointer to move, forever when it is already there.
    return xdotool({QStringLiteral("mousemove"), QString::number(global.x()), QString::number(global.y()),
                    QStringLiteral("click"), QStringLiteral("1")},
                   message);
}

}  // namespace sysid::test
