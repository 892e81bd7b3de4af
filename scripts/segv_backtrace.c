/* Temporary debugging aid: an LD_PRELOAD library that prints a native backtrace on SIGSEGV. */
#include <execinfo.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void on_segv(int sig) {
  void* frames[64];
  int n = backtrace(frames, 64);
  write(2, "\n=== native backtrace ===\n", 26);
  backtrace_symbols_fd(frames, n, 2);
  signal(sig, SIG_DFL);
  raise(sig);
}

__attribute__((constructor)) static void install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_segv;
  sigaction(SIGSEGV, &sa, 0);
}
