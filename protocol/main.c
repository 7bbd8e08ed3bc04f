/* main.c: one binary, subcommands for scripts, the protocol by default. */
#include <stdio.h>
#include <string.h>

#include "protocol.h"

static int usage(void)
{
    fprintf(stderr, "usage: denham                          run the UGI/UCI protocol on stdin/stdout\n"
                    "       denham perft <variant> <depth> [fen]\n"
                    "       denham bench [variant] [depth]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return protocol_run(stdin, stdout);
    if (strcmp(argv[1], "perft") == 0)
        return protocol_cli_perft(argc - 2, argv + 2, stdout);
    if (strcmp(argv[1], "bench") == 0)
        return protocol_cli_bench(argc - 2, argv + 2, stdout);
    return usage();
}
