#include "app/cli/Interrupt.h"

#include "engine/eval/NativeCode.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

namespace sysid::cli {

namespace {

// How long a command has to write what is finished after the first signal.
constexpr auto kGrace = std::chrono::seconds(3);

std::stop_source& source()
{
    static std::stop_source s;
    return s;
}

std::atomic<bool> signalled{false};

void watch(sigset_t set)
{
    int signal = 0;
    if (::sigwait(&set, &signal) != 0)
        return;
    signalled = true;
    const char note[] = "\nsysid: interrupted; stopping and writing what is finished\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, note, sizeof note - 1);
    source().request_stop();
    // A model's first compilation can take seconds; the model runs interpreted instead.
    eval::stopNativeBuilds();
    // A second signal or the end of the grace ends the process: the command did not return.
    timespec wait{};
    wait.tv_sec = std::chrono::duration_cast<std::chrono::seconds>(kGrace).count();
    ::sigtimedwait(&set, nullptr, &wait);
    ::_exit(InterruptedExit);
}

}  // namespace

void installInterruptHandling()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    // Blocked here, so in every thread started later; only the watcher takes them.
    ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread(watch, set).detach();
}

std::stop_token interruptToken()
{
    return source().get_token();
}

bool interrupted()
{
    return signalled;
}

}  // namespace sysid::cli
