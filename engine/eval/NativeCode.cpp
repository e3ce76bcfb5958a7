#include "engine/eval/NativeCode.h"

#include "engine/eval/CompiledModelSource.h"
#include "engine/eval/ModelPrograms.h"
#include "engine/eval/NativeCompiler.h"
#include "engine/eval/NativeSource.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <thread>

#include <dlfcn.h>

namespace sysid::eval {

namespace {

// What the process shares: the policy, the notice handler, and the builds in flight (their
// compilers are stopped and their threads awaited when the process exits).
struct Service {
    std::mutex mutex;
    std::condition_variable idle;
    bool wait = false;
    bool exiting = false;
    bool stopped = false;  // stopNativeBuilds: no new compiler, no notice for the ones stopped
    std::size_t active = 0;
    std::set<pid_t> compilers;
    std::set<std::string> noticed;  // each notice once per process
    std::function<void(const std::string&)> notices = [](const std::string& line) {
        std::fprintf(stderr, "%s\n", line.c_str());
    };

    // Each compiler leads its own process group (NativeCompiler.cpp). Called with the mutex held.
    void killCompilers()
    {
        for (pid_t pid : compilers)
            ::kill(-pid, SIGKILL);
    }

    ~Service()
    {
        std::unique_lock lock(mutex);
        exiting = true;
        killCompilers();
        idle.wait_for(lock, std::chrono::seconds(5), [this] { return active == 0; });
    }
};

Service& service()
{
    static Service s;
    return s;
}

bool switchedOff()
{
    const char* value = std::getenv("SYSID_NATIVE");
    if (!value)
        return false;
    const std::string v(value);
    return v == "off" || v == "0" || v == "no" || v == "interpreted";
}

}  // namespace

// A caller that waits does not wait for the compilation of more C than this (a mechanism's
// reduced equations in one angle, 1.5 MB, took the compiler minutes): it goes on with the
// interpreter, which computes the same values, and switches when the code is ready.
constexpr std::size_t kWaitedText = 500000;

// One build on its thread (or the caller's): generate, find or compile, load.
struct NativeBuild {
    // False when `waiting` and the code is too large to wait for: nothing done, build it on a thread.
    static bool run(const std::shared_ptr<const CompiledModelSource>& source, const std::shared_ptr<NativeCode>& code,
                    bool waiting)
    {
        const auto start = std::chrono::steady_clock::now();
        const auto seconds = [&] {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
        const std::filesystem::path directory = nativeCacheDirectory();
        std::error_code error;
        // A model that came through the cache of compiled models has its library under a name
        // made from that cache's name too: found without writing the model as C, since the C is
        // a function of the model's text and the build, which that name stands for.
        // One that does not load (damaged) is dropped, and the library found as below.
        std::filesystem::path named;
        if (!source->cacheName.empty()) {
            named = directory / (nativeCacheStem(source->cacheName) + ".so");
            if (std::filesystem::exists(named, error)) {
                if (void* handle = ::dlopen(named.c_str(), RTLD_NOW | RTLD_LOCAL))
                    return settle(*source, *code, handle, true, seconds());
                std::filesystem::remove(named, error);
            }
        }
        std::string text;
        try {
            text = nativeSource(*source);
        } catch (const std::exception& e) {
            fail(*code, std::string("cannot write the model as C (") + e.what() + ")", seconds());
            return true;
        }
        const std::string stem = nativeCacheStem(text);
        const std::filesystem::path library = directory / (stem + ".so");
        std::filesystem::path kept = library;
        kept.replace_extension(".c");
        bool cached = std::filesystem::exists(library, error) && readCacheFile(kept) == text;
        if (!cached && waiting && text.size() > kWaitedText)
            return false;
        if (!cached) {
            {
                auto& s = service();
                const std::lock_guard lock(s.mutex);
                if (s.stopped) {
                    code->settle(nullptr, nullptr, "stopped", seconds(), false);
                    return true;
                }
            }
            pid_t running = -1;
            const CompileOutcome outcome = compileSharedObject(text, library, [&running](pid_t pid) {
                auto& s = service();
                const std::lock_guard lock(s.mutex);
                if (pid > 0) {
                    s.compilers.insert(running = pid);
                    if (s.stopped)  // stopped while it was being started
                        s.killCompilers();
                } else
                    s.compilers.erase(running);
            });
            if (!outcome.ok) {
                fail(*code, outcome.message, seconds());
                return true;
            }
        }
        void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* why = ::dlerror();
            fail(*code, "cannot load " + library.string() + (why ? std::string(" (") + why + ")" : std::string()),
                 seconds());
            return true;
        }
        if (!named.empty())
            linkCacheFile(library, named);
        return settle(*source, *code, handle, cached, seconds());
    }

    // The loaded library's functions, by program slot, from its table (NativeSource.h).
    static bool settle(const CompiledModelSource& source, NativeCode& code, void* handle, bool cached, double seconds)
    {
        using Function = void (*)();
        const auto* count = static_cast<const std::size_t*>(::dlsym(handle, "sysid_slots"));
        const auto* functions = static_cast<const Function*>(::dlsym(handle, "sysid_functions"));
        const std::size_t slots = programSlotCount(source);
        if (!count || !functions || *count != slots) {
            ::dlclose(handle);
            fail(code, "the model's library has no table of its " + std::to_string(slots) + " programs", seconds);
            return true;
        }
        auto table = std::make_unique<NativeFunctions>();
        table->values.assign(slots, nullptr);
        table->dense.assign(slots, nullptr);
        table->sensitivity.assign(slots, nullptr);
        for (std::size_t slot = 0; slot < slots; ++slot) {
            table->values[slot] = reinterpret_cast<NativeValues>(functions[3 * slot]);
            table->dense[slot] = reinterpret_cast<NativeDense>(functions[3 * slot + 1]);
            table->sensitivity[slot] = reinterpret_cast<NativeSensitivity>(functions[3 * slot + 2]);
        }
        code.settle(std::move(table), handle, {}, seconds, cached);
        return true;
    }

    static void fail(NativeCode& code, const std::string& why, double seconds)
    {
        code.settle(nullptr, nullptr, why, seconds, false);
        auto& s = service();
        std::function<void(const std::string&)> handler;
        const std::string line = "native model code unavailable: " + why + "; the model is interpreted (slower)";
        {
            const std::lock_guard lock(s.mutex);
            if (s.exiting || s.stopped || !s.noticed.insert(line).second)
                return;
            handler = s.notices;
        }
        if (handler)
            handler(line);
    }
};

namespace {

std::atomic<bool> librariesKept{false};

}  // namespace

NativeCode::~NativeCode()
{
    if (handle_ && !librariesKept.load(std::memory_order_relaxed))
        ::dlclose(handle_);
}

void NativeCode::settle(std::unique_ptr<NativeFunctions> table, void* handle, std::string failure, double seconds,
                        bool cached)
{
    {
        const std::lock_guard lock(mutex_);
        table_ = std::move(table);
        handle_ = handle;
        failure_ = std::move(failure);
        seconds_ = seconds;
        cached_ = cached;
        if (table_)
            functions_.store(table_.get(), std::memory_order_release);
        state_.store(table_ ? Ready : Unavailable, std::memory_order_release);
    }
    settledSignal_.notify_all();
}

void NativeCode::wait() const
{
    std::unique_lock lock(mutex_);
    settledSignal_.wait(lock, [this] { return state_.load() != Building; });
}

std::string NativeCode::failure() const
{
    const std::lock_guard lock(mutex_);
    return failure_;
}

double NativeCode::buildSeconds() const
{
    const std::lock_guard lock(mutex_);
    return seconds_;
}

bool NativeCode::fromCache() const
{
    const std::lock_guard lock(mutex_);
    return cached_;
}

void requestNativeCode(const std::shared_ptr<const CompiledModelSource>& source, ModelCode code)
{
    if (!source || !source->native || code != ModelCode::Native || switchedOff())
        return;
    const std::shared_ptr<NativeCode> native = source->native;
    int idle = NativeCode::Idle;
    if (!native->state_.compare_exchange_strong(idle, NativeCode::Building))
        return;
    auto& s = service();
    bool wait = false;
    {
        const std::lock_guard lock(s.mutex);
        wait = s.wait;
        ++s.active;
    }
    auto job = [source = source, native = native]() mutable {
        NativeBuild::run(source, native, false);
        // Dropped before the build counts as done: a caller that waits for no build in flight
        // (nativeBuildsInFlight) may then rely on the model's library being closed with the model.
        native.reset();
        source.reset();
        auto& service = eval::service();
        {
            const std::lock_guard lock(service.mutex);
            --service.active;
        }
        service.idle.notify_all();
    };
    if (wait && NativeBuild::run(source, native, true)) {
        {
            const std::lock_guard lock(s.mutex);
            --s.active;
        }
        s.idle.notify_all();
        return;
    }
    try {
        std::thread(job).detach();
    } catch (const std::system_error& e) {
        {
            const std::lock_guard lock(s.mutex);
            --s.active;
        }
        NativeBuild::fail(*native, std::string("no thread to compile on (") + e.what() + ")", 0.0);
    }
}

void setNativeCodeWaits(bool wait)
{
    auto& s = service();
    const std::lock_guard lock(s.mutex);
    s.wait = wait;
}

void setNativeLibrariesKept(bool kept)
{
    librariesKept.store(kept, std::memory_order_relaxed);
}

void stopNativeBuilds()
{
    auto& s = service();
    const std::lock_guard lock(s.mutex);
    s.stopped = true;
    s.killCompilers();
}

bool nativeBuildsInFlight()
{
    auto& s = service();
    const std::lock_guard lock(s.mutex);
    return s.active > 0;
}

void setNativeCodeNotices(std::function<void(const std::string&)> handler)
{
    auto& s = service();
    const std::lock_guard lock(s.mutex);
    s.notices = std::move(handler);
}

}  // namespace sysid::eval
