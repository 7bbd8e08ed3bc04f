/*
 * cli.c: the command-line subcommands `denham perft` and `denham bench`,
 * which print to a stream instead of talking the protocol.
 * May not read protocol commands (protocol.c does).
 */
#include <stdlib.h>

#include "../../engine/core/perft.h"
#include "../../engine/core/timeman.h"
#include "../../engine/games/variants.h"
#include "../ugi/engine_state.h"
#include "../ugi/protocol.h"
#include "usage.h"

static void print_divide(void *ctx, const char *move, uint64_t count)
{
    fprintf(ctx, "%s: %llu\n", move, (unsigned long long)count);
}

int protocol_cli_perft(int argc, char **argv, FILE *out)
{
    long long depth;
    if (argc < 2)
        return usage_error("perft", NULL, "a variant and a depth are needed");
    const game_t *g = variants_find(argv[0]);
    if (!g)
        return usage_error("perft", argv[0], "unknown variant");
    if (!parse_int(argv[1], 1, 64, &depth))
        return usage_error("perft", argv[1], "the depth is a whole number from 1 to 64");
    position_t pos;
    char err[160];
    if (argc >= 3) {
        char fen[GAME_FEN_MAX * 2];
        tokens_t *tk = malloc(sizeof *tk);
        if (!tk)
            return 1;
        tk->n = 0;
        for (int i = 2; i < argc && tk->n < MAX_TOKENS; i++)
            tk->t[tk->n++] = argv[i];
        bool fits = tokens_join(tk, 0, tk->n, fen, sizeof fen);
        free(tk);
        if (!fits) {
            fprintf(stderr, "denham: the FEN is longer than %zu characters\n", sizeof fen - 1);
            return 2;
        }
        if (!g->parse_fen(&pos, fen, err, sizeof err)) {
            fprintf(stderr, "denham: bad FEN '%s': %s\n", fen, err);
            return 2;
        }
    } else {
        g->set_start(&pos);
    }
    int64_t start = timeman_now_ms();
    uint64_t total = perft_divide(g, &pos, (int)depth, print_divide, out);
    int64_t ms = timeman_now_ms() - start;
    fprintf(out, "\nNodes searched: %llu\n", (unsigned long long)total);
    fprintf(out, "Time (ms): %lld\nNodes/second: %llu\n", (long long)ms,
            (unsigned long long)(total * 1000 / (uint64_t)(ms > 0 ? ms : 1)));
    return 0;
}

int protocol_cli_bench(int argc, char **argv, FILE *out)
{
    const game_t *g = variants_default();
    long long depth = 0;
    int i = 0;
    if (i < argc && variants_find(argv[i]))
        g = variants_find(argv[i++]);
    if (i < argc && !parse_int(argv[i], 1, MAX_PLY - 1, &depth))
        return usage_error("bench", argv[i], "neither a variant nor a depth (1-127)");
    if (i + 1 < argc)
        return usage_error("bench", argv[i + 1], "one variant and one depth at most");
    engine_t *e = malloc(sizeof *e);
    if (!e || !engine_init(e, out)) {
        fprintf(stderr, "denham: out of memory\n");
        return 1;
    }
    e->game = g;
    engine_ensure_hash(e);
    engine_run_bench(e, (int)depth);
    engine_free(e);
    free(e);
    return 0;
}
