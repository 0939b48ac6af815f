/* Blocks without using CPU; only the wall-clock limit can end it. */
#include <unistd.h>
int main(void) { for (;;) pause(); }
