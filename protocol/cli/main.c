/*
 * main.c: one binary, subcommands for scripts, the protocol by default.
 * Picks the subcommand; may not hold any command's logic.
 */
#include <stdio.h>
#include <string.h>

#include "../../engine/core/number.h"
#include "analyse.h"
#include "datagen.h"
#include "../otep/otep.h"
#include "play.h"
#include "../ugi/protocol.h"
#include "../serve/serve.h"
#include "tune.h"

#define OTEP_MOVETIME_MS 5000

/* The subcommands, to out: stdout for --help (exit 0), stderr after a
 * mistake (exit 2). */
static int usage(FILE *out, int status)
{
    fprintf(out, "usage: denham                          run the UGI/UCI protocol on stdin/stdout (`help` lists its\n"
                 "                                       commands; PROTOCOL.md describes them)\n"
                 "       denham perft <variant> <depth> [fen]\n"
                 "       denham bench [variant] [depth]\n"
                 "       denham otep [--movetime MS]          the OpenTafl Engine Protocol (Brandubh)\n"
                 "       denham analyse [--variant V] [--depth N | --movetime MS | --nodes N] [--multipv K] [--json] "
                 "[FILE]\n"
                 "       denham suite [--variant V] [--depth N | --movetime MS | --nodes N] FILE\n"
                 "       denham play [variant] [--movetime MS] [--skill 0-20] [--side p1|p2|p3|p4|both|none]\n"
                 "       denham datagen --variant V --games N (--nodes N | --depth N) [--threads T] [--seed S]\n"
                 "                      [--shard K/N] [--book FILE] [--random-plies P] [--max-plies P] --out FILE\n"
                 "                                            self-play positions with results, for denham tune\n"
                 "       denham tune --variant V [--threads T] [--iterations N] [--rate R] [--freeze NAME,...]...\n"
                 "                   FILE...\n"
                 "                                            fits the evaluation's weights to datagen's results\n"
                 "       denham serve [--port N] [--host ADDR] [--engine CMD] [--max-sessions N] [--idle-seconds N]\n"
                 "                    [--max-hash-mb N] [--max-threads N]\n"
                 "                                            the board in a browser (prints the address to open)\n"
                 "       denham --help                        this text\n");
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return protocol_run(stdin, stdout);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)
        return usage(stdout, 0);
    if (strcmp(argv[1], "perft") == 0)
        return protocol_cli_perft(argc - 2, argv + 2, stdout);
    if (strcmp(argv[1], "bench") == 0)
        return protocol_cli_bench(argc - 2, argv + 2, stdout);
    if (strcmp(argv[1], "analyse") == 0 || strcmp(argv[1], "analyze") == 0)
        return analyse_main(argc - 2, argv + 2, stdout);
    if (strcmp(argv[1], "play") == 0)
        return play_main(argc - 2, argv + 2, stdin, stdout);
    if (strcmp(argv[1], "serve") == 0)
        return serve_main(argc - 2, argv + 2);
    if (strcmp(argv[1], "datagen") == 0)
        return datagen_main(argc - 2, argv + 2, stderr);
    if (strcmp(argv[1], "tune") == 0)
        return tune_main(argc - 2, argv + 2, stdout, stderr);
    if (strcmp(argv[1], "suite") == 0)
        return suite_main(argc - 2, argv + 2, stdout);
    if (strcmp(argv[1], "otep") == 0) {
        long long ms = OTEP_MOVETIME_MS;
        if (argc == 4 && strcmp(argv[2], "--movetime") == 0 && number_parse(argv[3], 1, 1LL << 40, &ms))
            return otep_run(stdin, stdout, (int)(ms < 1 << 30 ? ms : 1 << 30));
        if (argc != 2)
            return usage(stderr, 2);
        return otep_run(stdin, stdout, (int)ms);
    }
    return usage(stderr, 2);
}
