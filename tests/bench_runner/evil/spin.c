/* Loops forever; the CPU-time limit must kill it. */
int main(void) { volatile unsigned long n = 0; for (;;) n++; }
