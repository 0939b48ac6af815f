/* Opens a TCP socket to the host's loopback; seccomp must kill it before any traffic. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) { perror("socket"); return 10; }
  struct sockaddr_in a; memset(&a, 0, sizeof a);
  a.sin_family = AF_INET; a.sin_port = htons(argc > 1 ? atoi(argv[1]) : 9); a.sin_addr.s_addr = htonl(0x7f000001);
  if (connect(s, (struct sockaddr*)&a, sizeof a) != 0) { perror("connect"); return 11; }
  write(s, "leak", 4);
  return 0;
}
