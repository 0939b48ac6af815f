/* A compile-time read of host files: none of their text may reach the compile log. */
#include "/etc/passwd"
#include "/root/.bashrc"
int main(void) { return 0; }
