#pragma once

#include <stop_token>

namespace sysid::cli {

// Exit status of a run stopped by SIGINT (Ctrl-C) or SIGTERM, as a shell reports a process
// ended by SIGINT (128 + 2).
inline constexpr int InterruptedExit = 130;

// Ctrl-C and SIGTERM as Cancel: call once at the start of main, before any thread starts. The
// signals are then taken by one thread of their own, which asks the running job to stop
// (interruptToken()); the command writes what is finished and returns. A command that has not
// returned a few seconds later, or a second signal, ends the process with InterruptedExit (the
// files it writes are replaced atomically, so nothing half-written remains).
void installInterruptHandling();

// Stops when SIGINT or SIGTERM arrived; pass it to every job's run.
std::stop_token interruptToken();
bool interrupted();

}  // namespace sysid::cli
