#pragma once

#include "engine/core/EnumTable.h"

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sysid::eval {

struct CompiledModelSource;

// How a model's f, its derivatives and its outputs are evaluated.
enum class ModelCode {
    Native,  // machine code from the system C compiler, cached; the interpreter until it is ready
    Interpreted,  // the built-in interpreter of the derived expressions
};

inline constexpr core::EnumTable kModelCodes{
    "model code",
    std::to_array<core::EnumSpelling<ModelCode>>({
        {ModelCode::Native, "native",
         "compile the model and its derivatives to machine code with the system C compiler (cc), cached per model; "
         "the interpreter runs until the code is ready, and where no compiler works"},
        {ModelCode::Interpreted, "interpreted", "evaluate the model's expressions with the built-in interpreter"},
    })};

// (t, x) is the point; v the evaluator's variables [t, x, p, u, m], of which p, u and m are read.
using NativeValues = void (*)(double t, const double* x, const double* v, double* out);
using NativeDense = void (*)(double t, const double* x, const double* v, double* a, double* b, double* c);
using NativeSensitivity = void (*)(double t, const double* x, const double* v, const double* S, std::size_t columns,
                                   const int* columnOfParameter, double* dx, double* dS);

// The functions of one model's loaded library, per program slot (ModelPrograms.h; null where the
// library has none). Their contracts are in NativeSource.h.
struct NativeFunctions {
    std::vector<NativeValues> values;
    std::vector<NativeDense> dense;
    std::vector<NativeSensitivity> sensitivity;
};

// The native code of one compiled model (CompiledModelSource::native), shared by every evaluator
// of the model on every thread. It is built at most once, on request (requestNativeCode);
// evaluators poll functions() and switch from the interpreter when it is set. Thread-safe.
class NativeCode {
public:
    NativeCode() = default;
    ~NativeCode();
    NativeCode(const NativeCode&) = delete;
    NativeCode& operator=(const NativeCode&) = delete;

    // Null until the library is loaded; then set for good.
    const NativeFunctions* functions() const { return functions_.load(std::memory_order_acquire); }
    // Loaded, or none will come (not requested in time does not count: see requested()).
    bool settled() const { return state_.load(std::memory_order_acquire) >= Ready; }
    bool requested() const { return state_.load(std::memory_order_acquire) != Idle; }
    // Blocks until settled() (returns at once when it was never requested).
    void wait() const;
    // Why no library came ("" when loaded or still building).
    std::string failure() const;
    // Seconds the build took (generation, compilation or the cache, loading); 0 before it settled.
    double buildSeconds() const;
    // Whether the library came from the cache of an earlier build.
    bool fromCache() const;

private:
    friend void requestNativeCode(const std::shared_ptr<const CompiledModelSource>& source, ModelCode code);
    friend struct NativeBuild;
    enum State : int { Idle, Building, Ready, Unavailable };
    void settle(std::unique_ptr<NativeFunctions> table, void* handle, std::string failure, double seconds,
                bool cached);

    std::atomic<int> state_{Idle};
    std::atomic<const NativeFunctions*> functions_{nullptr};
    std::unique_ptr<NativeFunctions> table_;
    void* handle_ = nullptr;  // dlopen
    mutable std::mutex mutex_;
    mutable std::condition_variable settledSignal_;
    std::string failure_;
    double seconds_ = 0.0;
    bool cached_ = false;
};

// Builds the native code of `source` (unless `code` is Interpreted or the environment sets
// SYSID_NATIVE=off): loads it from the cache when an earlier run compiled the same model, else
// generates C (NativeSource), compiles it and loads it. Returns at once and builds on a worker
// thread, or (setNativeCodeWaits) returns when it is done, unless it has to compile more than
// 500 kB of C (minutes of the compiler): that goes on in the background. A second request does
// nothing. When no
// library comes, the model stays on the interpreter and the notice handler gets one line.
void requestNativeCode(const std::shared_ptr<const CompiledModelSource>& source, ModelCode code);

// The process's policy, set by the front end: wait for the compiler (the command line) or build
// in the background (the desktop application, and the default).
void setNativeCodeWaits(bool wait);
// Whether a model's library stays loaded when its last user is gone, until the process ends: for
// the command line, which exits soon after (unloading costs as much as a tenth of a short run's
// solve); the desktop application unloads (the default).
void setNativeLibrariesKept(bool kept);
// Stops the compilers running for any model and starts no more (the models they were for stay
// interpreted, without a notice): for a process that was asked to stop (Ctrl-C) and must not
// wait for a compiler. Async-signal-unsafe: call it from a thread, not a signal handler.
void stopNativeBuilds();
// Where the one-line notices go (default: standard error); called from the building thread.
void setNativeCodeNotices(std::function<void(const std::string&)> handler);
// Whether a build is still running (a compiler that the end of the process must stop).
bool nativeBuildsInFlight();

}  // namespace sysid::eval
