/* Forks without end; the process limit must stop it inside the sandbox. */
#include <unistd.h>
int main(void) { for (;;) fork(); }
