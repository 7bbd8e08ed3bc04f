/*
 * match_merge.c: `denham-match --merge`: the games files of a match's
 * shards (--shard K/N) read back and added up as one match: W/D/L from the
 * first engine's view, pentanomial pairs (games 2k and 2k+1, the same
 * opening with the teams swapped), Elo, the SPRT's state, the endings.
 * Reads files only; plays nothing; the adding up is games_tally.c's.
 * Two-team games: the pairs and the Elo are theirs.
 */
#define _POSIX_C_SOURCE 200809L
#include "match_merge.h"

#include <stdlib.h>
#include <string.h>

#include "games_tally.h"

#define MERGE_LINE_MAX (64 << 20)

typedef struct merge {
    games_tally_t tally;
    FILE *err;
} merge_t;

static bool fail(merge_t *m, const char *path, long line, const char *why)
{
    fprintf(m->err, "denham-match: %s:%ld: %s\n", path, line, why);
    return false;
}

/* One game line into m. */
static bool add_game(merge_t *m, char *line, const char *path, long no)
{
    const char *why = games_tally_add(&m->tally, line);
    return why ? fail(m, path, no, why) : true;
}

static bool read_games(merge_t *m, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(m->err, "denham-match: cannot open %s\n", path);
        return false;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    bool ok = true;
    for (long no = 1; ok && (len = getline(&line, &cap, f)) >= 0; no++) {
        if (len > MERGE_LINE_MAX) {
            ok = fail(m, path, no, "line too long");
            break;
        }
        line[strcspn(line, "\r\n")] = 0;
        if (line[0])
            ok = add_game(m, line, path, no);
    }
    free(line);
    fclose(f);
    return ok;
}

int match_merge_main(int argc, char **argv, FILE *out, FILE *err)
{
    merge_t *m = calloc(1, sizeof *m);
    if (!m || !games_tally_init(&m->tally)) {
        free(m);
        fprintf(err, "denham-match: out of memory\n");
        return 1;
    }
    m->err = err;
    match_cfg_t *cfg = &m->tally.cfg;
    int status = 0, files = 0;
    for (int i = 0; i < argc && status == 0; i++) {
        if (strcmp(argv[i], "--sprt") == 0 && i + 4 < argc) {
            char *end[4];
            cfg->sprt = (sprt_t){strtod(argv[i + 1], &end[0]), strtod(argv[i + 2], &end[1]),
                                   strtod(argv[i + 3], &end[2]), strtod(argv[i + 4], &end[3])};
            bool ok = !*end[0] && !*end[1] && !*end[2] && !*end[3] && cfg->sprt.alpha > 0 &&
                      cfg->sprt.alpha < 1 && cfg->sprt.beta > 0 && cfg->sprt.beta < 1 &&
                      cfg->sprt.elo1 != cfg->sprt.elo0;
            if (!ok) {
                fprintf(err, "denham-match: bad --sprt values\n");
                status = 2;
            }
            cfg->sprt_on = true;
            i += 4;
        } else if (strncmp(argv[i], "--", 2) == 0) {
            fprintf(err, "denham-match: --merge takes games files and --sprt ELO0 ELO1 ALPHA BETA, not %s\n", argv[i]);
            status = 2;
        } else {
            files++;
            status = read_games(m, argv[i]) ? 0 : 2;
        }
    }
    if (status == 0 && (files == 0 || m->tally.sum.games_played == 0)) {
        fprintf(err, "denham-match: --merge needs games files with at least one game\n");
        status = 2;
    }
    if (status == 0) {
        games_tally_pairs(&m->tally);
        match_print_results(cfg, &m->tally.sum, out);
    }
    games_tally_free(&m->tally);
    free(m);
    return status;
}
