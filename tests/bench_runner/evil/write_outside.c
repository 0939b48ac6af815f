/* Tries to write outside the box: argv[1] is a host path that must stay untouched. */
#include <stdio.h>
int main(int argc, char** argv) {
  int wrote = 0;
  const char* targets[] = {argc > 1 ? argv[1] : "/tmp/akgen-escape", "/etc/akgen-escape", "/usr/akgen-escape", "../akgen-escape", "/box/akgen-escape"};
  for (unsigned i = 0; i < sizeof targets / sizeof *targets; i++) {
    FILE* f = fopen(targets[i], "w");
    if (f) { fputs("escaped\n", f); fclose(f); printf("wrote %s\n", targets[i]); wrote++; }
    else perror(targets[i]);
  }
  return wrote;
}
