/*
 * main.c: one binary, subcommands for scripts, the protocol by default.
 * Picks the subcommand (and answers `--help` for each, from usage.c);
 * may not hold any command's logic.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../../engine/core/number.h"
#include "analyse.h"
#include "datagen.h"
#include "../otep/otep.h"
#include "play.h"
#include "solve_cli.h"
#include "../ugi/protocol.h"
#include "tune.h"
#include "usage.h"
#ifndef __wasi__
#include "../serve/serve.h"
#else
/* WebAssembly (WASI) has no sockets and starts no process: no server. */
static int serve_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "denham serve: not in the WebAssembly build (no sockets there): build denham natively\n");
    return 2;
}
#endif

#define OTEP_MOVETIME_MS 5000

static int otep_main(int argc, char **argv)
{
    long long ms = OTEP_MOVETIME_MS;
    if (argc == 2 && strcmp(argv[0], "--movetime") == 0) {
        if (!number_parse(argv[1], 1, 1LL << 40, &ms))
            return usage_error("otep", argv[1], "--movetime takes milliseconds, 1 or more");
    } else if (argc > 0) {
        bool no_value = argc == 1 && strcmp(argv[0], "--movetime") == 0;
        return usage_error("otep", argv[0], no_value ? "takes a value" : "unknown argument");
    }
    return otep_run(stdin, stdout, (int)(ms < 1 << 30 ? ms : 1 << 30));
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return protocol_run(stdin, stdout);
    const char *sub = argv[1];
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 || strcmp(sub, "help") == 0)
        return usage_print(stdout, "", 0);
    if (strcmp(sub, "analyze") == 0)
        sub = "analyse";
    int n = argc - 2;
    char **args = argv + 2;
    if (usage_asked(n, args))
        return usage_print(stdout, sub, 0);
    if (strcmp(sub, "perft") == 0)
        return protocol_cli_perft(n, args, stdout);
    if (strcmp(sub, "bench") == 0)
        return protocol_cli_bench(n, args, stdout);
    if (strcmp(sub, "analyse") == 0)
        return analyse_main(n, args, stdout);
    if (strcmp(sub, "play") == 0)
        return play_main(n, args, stdin, stdout);
    if (strcmp(sub, "serve") == 0)
        return serve_main(n, args);
    if (strcmp(sub, "datagen") == 0)
        return datagen_main(n, args, stderr);
    if (strcmp(sub, "tune") == 0)
        return tune_main(n, args, stdout, stderr);
    if (strcmp(sub, "solve") == 0)
        return solve_main(n, args, stdout);
    if (strcmp(sub, "suite") == 0)
        return suite_main(n, args, stdout);
    if (strcmp(sub, "otep") == 0)
        return otep_main(n, args);
    return usage_error("", sub, "unknown subcommand");
}
