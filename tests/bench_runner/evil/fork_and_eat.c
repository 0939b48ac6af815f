/* Forks N processes that each touch M MiB and then sleep S seconds (argv: N M S), each under the
   per-process address-space limit: together they can exceed a per-sandbox memory budget. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  size_t mib = argc > 2 ? (size_t)atol(argv[2]) : 256;
  int secs = argc > 3 ? atoi(argv[3]) : 30;
  for (int i = 0; i < n; i++) {
    if (fork() == 0) {
      for (size_t done = 0; done < mib; done += 16) {
        char* p = malloc(16 << 20);
        if (!p) { fprintf(stderr, "child %d: malloc failed after %zu MiB\n", i, done); return 1; }
        memset(p, 1, 16 << 20);
      }
      fprintf(stderr, "child %d holds %zu MiB\n", i, mib);
      sleep(secs);
      return 0;
    }
  }
  while (wait(NULL) > 0) {}
  return 0;
}
