// Process-wide settings the service needs before it does anything else. Call from main(), on the
// main thread, before any other thread exists (signal masks are inherited by new threads).
#pragma once

#include "base/result.h"

namespace atoms {

// No core files (RLIMIT_CORE 0) and not dumpable (PR_SET_DUMPABLE 0: no core, no ptrace attach by
// other users, /proc/PID owned by root), so key material in memory never lands on disk.
Status disableCoreDumps();

// Blocks SIGINT, SIGTERM and SIGQUIT in the calling thread (and so in every thread it starts
// later) so that they reach only the main thread's sigwait in
// ServerApplication::waitForTerminationRequest(), instead of killing the process from whichever
// thread the kernel picks. Also ignores SIGPIPE: a closed socket or log pipe is an error value,
// not a death.
Status prepareServiceSignals();

}  // namespace atoms
