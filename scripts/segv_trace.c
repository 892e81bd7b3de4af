/* A native backtrace on SIGSEGV for the GPU machine, which has no gdb: gcc -shared -fPIC -o /tmp/segv.so
   scripts/segv_trace.c, then LD_PRELOAD=/tmp/segv.so python3 ... (offsets into _tegula.so; addr2line on a build
   with symbols). */
#define _GNU_SOURCE
#include <execinfo.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
static void handler(int sig) {
  void* frames[64];
  int n = backtrace(frames, 64);
  backtrace_symbols_fd(frames, n, 2);
  _exit(139);
}
__attribute__((constructor)) static void install(void) { signal(SIGSEGV, handler); }
