/* Prints gigabytes; the file-size limit must stop it long before the disk fills. */
#include <stdio.h>
#include <string.h>
int main(void) {
  static char line[1 << 16]; memset(line, 'x', sizeof line - 1);
  for (long i = 0; i < (1L << 16); i++) fputs(line, stdout);   /* 4 GiB */
  return 0;
}
