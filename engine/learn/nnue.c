/*
 * nnue.c: the network's output and its text form (nnue.h). Knows no game
 * and no search (game.h only for its error helper): numbers in, centipawns
 * out.
 */
#define _POSIX_C_SOURCE 200809L
#include "nnue.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"

/* Text of a net file past which EvalFile refuses to read: a full-sized
 * net is about 7 characters a number. */
#define NNUE_TEXT_MAX (16u << 20)

int nnue_output(const nnue_t *n, const nnue_acc_t *a, int head)
{
    int32_t sum = n->b2[head];
    for (int j = 0; j < NNUE_HIDDEN; j++) {
        int32_t h = a->v[j] < 0 ? 0 : a->v[j] > NNUE_QA ? NNUE_QA : a->v[j];
        sum += h * n->w2[head][j];
    }
    return (int)((int64_t)sum * NNUE_CP / (NNUE_QA * NNUE_QB));
}

int nnue_w1_limit(int max_active) { return INT16_MAX / (max_active + 1); }

bool nnue_from_ints(nnue_t *n, const char *game, const int32_t *v, size_t count, char *why, size_t whylen)
{
    if (count < 5 || v[0] != NNUE_FORMAT)
        return game_fail(why, whylen,
                         "not a Denham net of format 1 (its numbers start 1, inputs, hidden, heads, active)");
    int inputs = v[1], hidden = v[2], heads = v[3], active = v[4];
    if (inputs < 1 || inputs > NNUE_INPUTS_MAX || hidden != NNUE_HIDDEN || heads != NNUE_HEADS || active < 1 ||
        active > inputs) {
        snprintf(why, whylen, "the net's sizes (%d inputs, %d hidden, %d heads, %d active) are not 1-%d, %d, %d, 1-inputs",
                 inputs, hidden, heads, active, NNUE_INPUTS_MAX, NNUE_HIDDEN, NNUE_HEADS);
        return false;
    }
    size_t want = 5 + (size_t)hidden * (1 + (size_t)inputs + heads) + heads;
    if (count != want) {
        snprintf(why, whylen, "the net has %zu numbers; its sizes need %zu", count, want);
        return false;
    }
    int limit = nnue_w1_limit(active);
    const int32_t *p = v + 5;
    for (size_t i = 0; i < (size_t)hidden * (1 + (size_t)inputs); i++)
        if (p[i] < -limit || p[i] > limit) {
            snprintf(why, whylen, "a first-layer weight (%ld) is past +-%d, the most %d features can add up to",
                     (long)p[i], limit, active);
            return false;
        }
    for (size_t i = 0; i < (size_t)hidden * heads; i++) {
        int32_t w = p[(size_t)hidden * (1 + (size_t)inputs) + i];
        if (w < INT16_MIN || w > INT16_MAX)
            return game_fail(why, whylen, "an output weight is past 16 bits");
    }
    /* b2 plus the largest sum of the heads' terms must fit 32 bits. */
    for (int h = 0; h < heads; h++) {
        int32_t b = v[want - (size_t)heads + (size_t)h];
        if (b < -(INT32_MAX / 2) || b > INT32_MAX / 2)
            return game_fail(why, whylen, "an output bias is past 30 bits");
    }
    memset(n, 0, sizeof *n);
    snprintf(n->game, sizeof n->game, "%s", game);
    n->inputs = inputs;
    n->max_active = active;
    for (int j = 0; j < hidden; j++)
        n->b1[j] = (int16_t)*p++;
    for (int f = 0; f < inputs; f++)
        for (int j = 0; j < hidden; j++)
            n->w1[f][j] = (int16_t)*p++;
    for (int h = 0; h < heads; h++)
        for (int j = 0; j < hidden; j++)
            n->w2[h][j] = (int16_t)*p++;
    for (int h = 0; h < heads; h++)
        n->b2[h] = *p++;
    return true;
}

/* The header comment's game name: "denham-nnue <game>" first in it. */
static bool header_game(const char *c, size_t len, char *game)
{
    static const char tag[] = "denham-nnue ";
    while (len > 0 && isspace((unsigned char)*c))
        c++, len--;
    if (len < sizeof tag - 1 || memcmp(c, tag, sizeof tag - 1) != 0)
        return false;
    c += sizeof tag - 1, len -= sizeof tag - 1;
    size_t g = 0;
    while (g < len && !isspace((unsigned char)c[g]) && c[g] != '*')
        g++;
    if (g == 0 || g >= NNUE_GAME_MAX)
        return false;
    memcpy(game, c, g);
    game[g] = 0;
    return true;
}

bool nnue_parse(nnue_t *n, const char *text, size_t len, char *why, size_t whylen)
{
    size_t cap = 5 + (size_t)NNUE_HIDDEN * (1 + NNUE_INPUTS_MAX + NNUE_HEADS) + NNUE_HEADS, count = 0;
    int32_t *v = malloc(cap * sizeof *v);
    if (!v)
        return game_fail(why, whylen, "out of memory");
    char game[NNUE_GAME_MAX] = "";
    bool ok = true;
    size_t i = 0;
    while (ok && i < len) {
        char c = text[i];
        if (isspace((unsigned char)c) || c == ',') {
            i++;
        } else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
            const char *end = NULL;
            for (size_t k = i + 2; k + 1 < len && !end; k++)
                if (text[k] == '*' && text[k + 1] == '/')
                    end = text + k;
            if (!end)
                ok = game_fail(why, whylen, "a comment is not closed");
            else if (!game[0] && !header_game(text + i + 2, (size_t)(end - text - i - 2), game))
                ok = game_fail(why, whylen, "the net must start with the comment /* denham-nnue <game> ... */");
            else
                i = (size_t)(end - text) + 2;
        } else if (!game[0]) {
            ok = game_fail(why, whylen, "the net must start with the comment /* denham-nnue <game> ... */");
        } else if (c == '-' || isdigit((unsigned char)c)) {
            char buf[16];
            size_t k = 0;
            while (i < len && k < sizeof buf - 1 && (text[i] == '-' || isdigit((unsigned char)text[i])))
                buf[k++] = text[i++];
            buf[k] = 0;
            char *end;
            errno = 0;
            long x = strtol(buf, &end, 10);
            if (*end || errno || x < INT32_MIN || x > INT32_MAX || (i < len && isdigit((unsigned char)text[i])))
                ok = game_fail(why, whylen, "a number is not a 32-bit decimal integer");
            else if (count == cap)
                ok = game_fail(why, whylen, "the net has more numbers than the largest net");
            else
                v[count++] = (int32_t)x;
        } else {
            snprintf(why, whylen, "unexpected character '%c' in the net", isprint((unsigned char)c) ? c : '?');
            ok = false;
        }
    }
    if (ok && !game[0])
        ok = game_fail(why, whylen, "the net is empty");
    if (ok)
        ok = nnue_from_ints(n, game, v, count, why, whylen);
    free(v);
    return ok;
}

bool nnue_load(nnue_t *n, const char *path, char *why, size_t whylen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, whylen, "cannot open the net file %s", path);
        return false;
    }
    char *text = malloc(NNUE_TEXT_MAX);
    size_t len = text ? fread(text, 1, NNUE_TEXT_MAX, f) : 0;
    bool too_long = text && len == NNUE_TEXT_MAX && fgetc(f) != EOF, ok = false;
    if (!text)
        snprintf(why, whylen, "out of memory");
    else if (ferror(f))
        snprintf(why, whylen, "cannot read the net file %s", path);
    else if (too_long)
        snprintf(why, whylen, "the net file %s is longer than %u bytes", path, NNUE_TEXT_MAX);
    else
        ok = nnue_parse(n, text, len, why, whylen);
    free(text);
    fclose(f);
    return ok;
}

void nnue_write(const nnue_t *n, FILE *out, const char *comment)
{
    fprintf(out, "/* denham-nnue %s %s */\n", n->game, comment ? comment : "");
    fprintf(out, "%d, %d, %d, %d, %d,\n", NNUE_FORMAT, n->inputs, NNUE_HIDDEN, NNUE_HEADS, n->max_active);
    for (int j = 0; j < NNUE_HIDDEN; j++)
        fprintf(out, "%d,%s", n->b1[j], j + 1 == NNUE_HIDDEN ? "\n" : " ");
    for (int f = 0; f < n->inputs; f++)
        for (int j = 0; j < NNUE_HIDDEN; j++)
            fprintf(out, "%d,%s", n->w1[f][j], j + 1 == NNUE_HIDDEN ? "\n" : " ");
    for (int h = 0; h < NNUE_HEADS; h++)
        for (int j = 0; j < NNUE_HIDDEN; j++)
            fprintf(out, "%d,%s", n->w2[h][j], j + 1 == NNUE_HIDDEN ? "\n" : " ");
    for (int h = 0; h < NNUE_HEADS; h++)
        fprintf(out, "%ld,%s", (long)n->b2[h], h + 1 == NNUE_HEADS ? "\n" : " ");
}
