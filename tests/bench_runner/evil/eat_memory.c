/* Allocates and touches memory until it cannot; the address-space limit must stop it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  size_t total = 0;
  for (;;) {
    char* p = malloc(64 << 20);
    if (!p) { fprintf(stderr, "malloc failed after %zu MiB: out of memory\n", total >> 20); abort(); }
    memset(p, 1, 64 << 20); total += 64 << 20;
  }
}
