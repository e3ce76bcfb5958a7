#include "app/cli/SymbolicHelper.h"

#include "app/cli/Processes.h"

#include "engine/eval/CompiledModelCodec.h"
#include "engine/job/JobError.h"
#include "engine/job/SymbolicCompile.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <iterator>

extern char** environ;

namespace sysid::cli {

namespace {

constexpr const char* kHelperName = "sysid-symbolic";

bool isExecutable(const std::string& path)
{
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

#ifdef SYSID_CLI_SYMBOLIC_HELPER
// A pipe whose ends the helper does not inherit but for the one moved onto its standard stream.
struct Pipe {
    int read = -1;
    int write = -1;
    Pipe()
    {
        int ends[2];
        if (::pipe2(ends, O_CLOEXEC) != 0)
            throw job::JobError(job::JobError::Kind::Model,
                                std::string("cannot start the symbolic helper: ") + std::strerror(errno));
        read = ends[0];
        write = ends[1];
    }
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
    ~Pipe() { closeBoth(); }
    static void closeEnd(int& fd)
    {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
    void closeBoth()
    {
        closeEnd(read);
        closeEnd(write);
    }
};

// write(2) that fails with EPIPE, instead of ending sysid, when the helper has stopped reading: SIGPIPE
// blocked in this thread for the call and a pending one taken (other threads keep their handling).
ssize_t writeWithoutSigpipe(int fd, const char* data, std::size_t size)
{
    sigset_t pipeSignal, previous;
    sigemptyset(&pipeSignal);
    sigaddset(&pipeSignal, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous);
    const ssize_t k = ::write(fd, data, size);
    const int error = errno;
    if (k < 0 && error == EPIPE) {
        const timespec now{0, 0};
        while (::sigtimedwait(&pipeSignal, nullptr, &now) < 0 && errno == EINTR) {
        }
    }
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    errno = error;
    return k;
}

struct HelperRun {
    std::string helper;  // where it was found
    int status = 0;  // as waitpid gives it
    std::string out;
    std::string err;
};

// Runs the helper with `args`, writing `input` to its standard input while reading its standard
// output and error (poll: a large model's text or answer fills a pipe's buffer either way).
HelperRun runHelper(const std::vector<std::string>& args, const std::string& input)
{
    HelperRun run;
    run.helper = symbolicHelperPath();
    const std::string& helper = run.helper;
    Pipe in, out, err;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in.read, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out.write, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err.write, STDERR_FILENO);
    std::vector<char*> argv{const_cast<char*>(helper.c_str())};
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    // The helper starts with no signal blocked: sysid blocks Ctrl-C in its threads for the watcher
    // that takes it (Interrupt.cpp), and the helper would otherwise not end on Ctrl-C.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
    pid_t pid = 0;
    const int spawned = ::posix_spawn(&pid, helper.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        throw job::JobError(job::JobError::Kind::Model,
                            "cannot start the symbolic helper " + helper + ": " + std::strerror(spawned));
    Pipe::closeEnd(in.read);
    Pipe::closeEnd(out.write);
    Pipe::closeEnd(err.write);
    ::fcntl(in.write, F_SETFL, O_NONBLOCK);

    std::size_t written = 0;
    if (input.empty())
        Pipe::closeEnd(in.write);
    char buffer[65536];
    while (out.read >= 0 || err.read >= 0) {
        pollfd fds[3];
        nfds_t n = 0;
        for (const int fd : {in.write, out.read, err.read})
            if (fd >= 0)
                fds[n++] = {fd, static_cast<short>(fd == in.write ? POLLOUT : POLLIN), 0};
        if (::poll(fds, n, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (nfds_t i = 0; i < n; ++i) {
            if (fds[i].revents == 0)
                continue;
            if (fds[i].fd == in.write) {
                const ssize_t k = writeWithoutSigpipe(in.write, input.data() + written, input.size() - written);
                if (k > 0)
                    written += static_cast<std::size_t>(k);
                if (k < 0 && errno != EAGAIN && errno != EINTR)
                    written = input.size();  // the helper stopped reading: its answer says why
                if (written == input.size())
                    Pipe::closeEnd(in.write);
                continue;
            }
            int& fd = fds[i].fd == out.read ? out.read : err.read;
            std::string& text = fds[i].fd == out.read ? run.out : run.err;
            const ssize_t k = ::read(fd, buffer, sizeof buffer);
            if (k > 0)
                text.append(buffer, static_cast<std::size_t>(k));
            else if (k == 0 || (errno != EAGAIN && errno != EINTR))
                Pipe::closeEnd(fd);
        }
    }
    // After a failed poll, closed ends end a helper that still writes (EPIPE) instead of leaving it,
    // and this wait, blocked.
    in.closeBoth();
    out.closeBoth();
    err.closeBoth();
    while (::waitpid(pid, &run.status, 0) < 0 && errno == EINTR) {
    }
    return run;
}
#endif

}  // namespace

std::string symbolicHelperPath()
{
    const std::vector<std::string> places = helperPlaces(kHelperName);
    for (const std::string& place : places)
        if (isExecutable(place))
            return place;
    throw UserError(std::string("the symbolic helper ") + kHelperName + " is missing (" +
                    (places.empty() ? std::string("this executable's own place is unknown")
                                    : "looked for " + places[0] + " and " + places[1]) +
                    "): install it with sysid");
}

void runInSymbolicHelper(char** argv)
{
    const std::string helper = symbolicHelperPath();
    std::cout.flush();
    std::cerr.flush();
    // As sysid started: the signals its interrupt watcher takes are blocked (Interrupt.cpp), and
    // a new program keeps its mask.
    sigset_t none;
    sigemptyset(&none);
    ::pthread_sigmask(SIG_SETMASK, &none, nullptr);
    ::execv(helper.c_str(), argv);
    throw UserError("cannot start the symbolic helper " + helper + ": " + std::strerror(errno));
}

#ifdef SYSID_CLI_SYMBOLIC_HELPER
}  // namespace sysid::cli

namespace sysid::job {

// sysid's own compileSymbolic: the helper parses and differentiates, and hands back the compiled
// model as the cache of compiled models stores it (the same build writes and reads the bytes).
std::shared_ptr<eval::CompiledModelSource> compileSymbolic(const std::string& text, const std::string& source,
                                                           eval::CompileOptions options)
{
    std::vector<std::string> args{"compile-model", source};
    if (options.secondDerivatives)
        args.emplace_back("--second-derivatives");
    cli::HelperRun run;
    try {
        run = cli::runHelper(args, text);
    } catch (const cli::UserError& e) {
        throw JobError(JobError::Kind::Model, e.what());
    }
    if (WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0) {
        if (auto model = eval::decodeCompiledModel(run.out))
            return model;
        throw JobError(JobError::Kind::Model,
                       "the symbolic helper " + run.helper + " answered with a damaged model (another build of sysid?)");
    }
    while (!run.err.empty() && run.err.back() == '\n')
        run.err.pop_back();
    if (WIFEXITED(run.status) && WEXITSTATUS(run.status) == cli::UserErrorExit && !run.err.empty())
        throw JobError(JobError::Kind::Model, run.err);
    throw JobError(JobError::Kind::Model,
                   "the symbolic helper " + run.helper + " failed while compiling the model (" +
                       (WIFSIGNALED(run.status) ? "signal " + std::to_string(WTERMSIG(run.status))
                                                : "exit status " + std::to_string(WEXITSTATUS(run.status))) +
                       (run.err.empty() ? std::string() : ": " + run.err) + ")");
}

}  // namespace sysid::job

namespace sysid::cli {
#else
int runCompileModel(const Arguments& args)
{
    if (args.empty() || args.size() > 2 || (args.size() == 2 && args[1] != "--second-derivatives")) {
        std::cerr << "usage: " << kHelperName << " compile-model SOURCE [--second-derivatives] < MODEL\n";
        return UsageErrorExit;
    }
    const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    try {
        const auto model = job::compileSymbolic(text, args[0], {.secondDerivatives = args.size() == 2});
        std::cout << eval::encodeCompiledModel(*model);
        std::cout.flush();
        return std::cout ? Success : UserErrorExit;
    } catch (const job::JobError& e) {
        std::cerr << e.what() << "\n";
        return UserErrorExit;
    }
}
#endif

}  // namespace sysid::cli
