/*
 * check.c: the proof checker (check.h). Meant to be read in one sitting:
 * the format is PROTOCOL.md, "Proofs"; the rules are the reference ones
 * (ref_rules.h); everything else is here. Includes nothing of the engine.
 *
 * A proof is a tree of moves written depth first, one per line, "DEPTH
 * MOVE", under a claim about its root: "win S" (side S can force a win)
 * or "no-win S" (S cannot), optionally "within K plies". Where the claim's
 * side moves (S for a win, the other for no win) the proof gives one move,
 * where the other side moves it gives every legal move. Each line ends in
 * the end of the game, judged here by the rules (for a win: S's win; for
 * no win: anything else), or names an earlier line with the same position
 * ("DEPTH MOVE = LINE"), whose proof then stands for this one too, or,
 * as the last line of a losing side's position, "DEPTH * ANSWER...": each
 * of the losing side's moves not given is met by an answer that ends the
 * game the claim's way at once.
 *
 * - In a proof of a win the named line must be finished (no cycle), and a
 *   position may be written out only once (a later one must name it), so
 *   that no line of play through the proof meets a position twice. Then
 *   repetition counts at most 2 on any line, with the game before the root
 *   (whose positions seen twice already are draws). Where the rules' "same
 *   position" is less than the whole state (Brax one against one, where
 *   the plies without capture count towards a draw), positions are written
 *   out and their lines counted as written.
 * - In a proof of no win a line may name a position of its own line (a
 *   cycle: the defending side plays it again) or any finished one, except
 *   one whose proof rests on a draw by repetition counted above it (that
 *   draw might not happen on another line).
 * Every other repetition is counted on the line as written.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ref_rules.h"

#define LINE_MAX_LEN 65536
#define DEPTH_MAX 10000
#define HISTORY_MAX 4096
#define NONE INT32_MAX

typedef struct node { /* a position written out, by its line */
    uint32_t line;
    int32_t depth, height, low;
    size_t key;  /* offset of its state key in the arena */
    bool closed, linkable;
} node_t;

typedef struct frame { /* a position of the line being read */
    ref_state_t st;
    ref_any_move_t *moves;
    bool *seen;
    int n_moves, children, node, result, height, low;
    bool third; /* drawn by a third occurrence */
    int third_low;
    char rep[REF_KEY_MAX], state[REF_KEY_MAX];
    char star[LINE_MAX_LEN + 1]; /* the answers of a "*" line, or "" */
    uint32_t star_line;
} frame_t;

typedef struct checker {
    const ref_rules_t *rules;
    const char *name;
    uint32_t lineno;
    char *err;
    size_t errlen;
    bool win;       /* the claim */
    int side, plies; /* plies 0: no limit */
    frame_t *f;
    int depth, top_alloc; /* frames 0..depth in use; allocated up to top_alloc */
    node_t *nodes;
    size_t n_nodes, cap_nodes;
    char *arena;
    size_t arena_len, arena_cap;
    uint32_t *index; /* win proofs: node + 1 by state key */
    size_t index_size;
    char (*hist)[REF_KEY_MAX]; /* repetition keys of the game before the root */
    int n_hist;
    uint64_t moves_seen; /* "DEPTH MOVE" lines, references included */
    uint64_t stars_seen; /* "DEPTH * ANSWER..." lines */
} checker_t;

static bool fault(checker_t *c, uint32_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fault(checker_t *c, uint32_t line, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(c->err, c->errlen, "%s:%u: %s", c->name, line, msg);
    return false;
}

static const char *key_of(const checker_t *c, const node_t *n) { return c->arena + n->key; }

/* Side t in a sentence: "the attackers", "red" (static, one at a time). */
static const char *side_words(const checker_t *c, int t)
{
    static char buf[48];
    const char *name = c->rules->sides[t];
    size_t n = strlen(name);
    snprintf(buf, sizeof buf, "%s%s", n && name[n - 1] == 's' ? "the " : "", name);
    return buf;
}

static uint64_t fnv(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

/* s with anything but printable ASCII shown as '?' (in place). */
static char *printable(char *s)
{
    for (char *p = s; *p; p++)
        if (*p < ' ' || *p > '~')
            *p = '?';
    return s;
}

/* ---- written positions ---- */

static uint32_t *index_slot(checker_t *c, const char *key)
{
    size_t mask = c->index_size - 1, i = fnv(key) & mask;
    while (c->index[i] && strcmp(key_of(c, &c->nodes[c->index[i] - 1]), key) != 0)
        i = (i + 1) & mask;
    return &c->index[i];
}

static bool add_node(checker_t *c, frame_t *f, int depth)
{
    size_t len = strlen(f->state) + 1;
    if (c->n_nodes == c->cap_nodes) {
        size_t nc = c->cap_nodes ? 2 * c->cap_nodes : 4096;
        node_t *n = realloc(c->nodes, nc * sizeof *n);
        if (!n)
            return fault(c, c->lineno, "out of memory");
        c->nodes = n, c->cap_nodes = nc;
    }
    if (c->arena_len + len > c->arena_cap) {
        size_t ac = 2 * (c->arena_cap + len) + 65536;
        char *a = realloc(c->arena, ac);
        if (!a)
            return fault(c, c->lineno, "out of memory");
        c->arena = a, c->arena_cap = ac;
    }
    memcpy(c->arena + c->arena_len, f->state, len);
    c->nodes[c->n_nodes] = (node_t){c->lineno, depth, 0, NONE, c->arena_len, false, !strcmp(f->rep, f->state)};
    c->arena_len += len;
    f->node = (int)c->n_nodes++;
    if (!c->win || strcmp(f->rep, f->state) != 0)
        return true;
    if (2 * c->n_nodes > c->index_size) { /* grow and fill again */
        size_t size = c->index_size ? 2 * c->index_size : 1 << 16;
        uint32_t *ix = calloc(size, sizeof *ix);
        if (!ix)
            return fault(c, c->lineno, "out of memory");
        free(c->index);
        c->index = ix;
        c->index_size = size;
        for (size_t i = 0; i + 1 < c->n_nodes; i++)
            if (c->nodes[i].linkable)
                *index_slot(c, key_of(c, &c->nodes[i])) = (uint32_t)i + 1;
    }
    uint32_t *slot = index_slot(c, f->state);
    if (*slot) {
        char at[24];
        snprintf(at, sizeof at, "%u", c->nodes[*slot - 1].line);
        return fault(c, c->lineno, "this position is already written at line %s: name it (\"= %s\")", at, at);
    }
    *slot = (uint32_t)c->n_nodes;
    return true;
}

static node_t *node_at_line(checker_t *c, uint32_t line)
{
    size_t lo = 0, hi = c->n_nodes;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->nodes[mid].line < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->n_nodes && c->nodes[lo].line == line ? &c->nodes[lo] : NULL;
}

/* ---- positions ---- */

static frame_t *frame(checker_t *c, int depth)
{
    if (depth >= c->top_alloc) {
        int n = depth + 16;
        frame_t *f = realloc(c->f, (size_t)n * sizeof *f);
        if (!f)
            return NULL;
        memset(f + c->top_alloc, 0, (size_t)(n - c->top_alloc) * sizeof *f);
        c->f = f;
        c->top_alloc = n;
    }
    frame_t *f = &c->f[depth];
    if (!f->moves) {
        f->moves = malloc(REF_MOVES_MAX * sizeof *f->moves);
        f->seen = malloc(REF_MOVES_MAX * sizeof *f->seen);
        if (!f->moves || !f->seen)
            return NULL;
    }
    return f;
}

/* Fills f (its state set, at `depth` on the line) with what the rules say
 * of it: the result, repetition, the legal moves. */
static void judge(checker_t *c, frame_t *f, int depth)
{
    const ref_rules_t *r = c->rules;
    r->keys(&f->st, f->rep, f->state);
    f->result = r->result(&f->st);
    f->n_moves = f->result == REF_GOING_ON ? r->moves(&f->st, f->moves) : 0;
    f->children = f->height = 0;
    f->star[0] = 0;
    f->low = f->third_low = NONE;
    f->node = -1;
    int count = 1;
    for (int i = 0; i < c->n_hist; i++)
        count += !strcmp(c->hist[i], f->rep);
    for (int d = depth - 1; d >= 0 && count < 3; d--)
        if (!strcmp(c->f[d].rep, f->rep)) {
            count++;
            f->third_low = d;
        }
    f->third = r->repetition_draw && count >= 3 && f->result == REF_GOING_ON;
    if (f->third)
        f->n_moves = 0;
    memset(f->seen, 0, (size_t)f->n_moves * sizeof *f->seen);
}

static int find_move(const checker_t *c, const frame_t *f, const char *text)
{
    for (int i = 0; i < f->n_moves; i++)
        if (!strcmp(c->rules->text(&f->moves[i]), text))
            return i;
    return -1;
}

static bool over(const frame_t *f) { return f->result != REF_GOING_ON || f->third; }

/* ---- the tree ---- */

/* The losing side's moves that f's "*" line stands for: each must be
 * answered by one of its moves, which ends the game the claim's way. In a
 * proof of a win the position between must be new to the game before the
 * root (so that no line of play meets it a third time). */
static bool answer_the_rest(checker_t *c, frame_t *f)
{
    static _Thread_local ref_any_move_t replies[REF_MOVES_MAX];
    const ref_rules_t *r = c->rules;
    for (int i = 0; i < f->n_moves; i++) {
        if (f->seen[i])
            continue;
        ref_state_t y = f->st;
        r->play(&y, &f->moves[i]);
        char rep[REF_KEY_MAX], state[REF_KEY_MAX], list[LINE_MAX_LEN + 1];
        r->keys(&y, rep, state);
        for (int h = 0; c->win && h < c->n_hist; h++)
            if (!strcmp(c->hist[h], rep))
                return fault(c, f->star_line, "'%s' leads to a position seen before the root: write it out",
                             r->text(&f->moves[i]));
        int n = r->result(&y) == REF_GOING_ON ? r->moves(&y, replies) : 0;
        bool answered = false;
        memcpy(list, f->star, strlen(f->star) + 1);
        for (char *save = NULL, *a = strtok_r(list, " ", &save); a && !answered; a = strtok_r(NULL, " ", &save))
            for (int k = 0; k < n && !answered; k++)
                if (!strcmp(r->text(&replies[k]), a)) {
                    ref_state_t z = y;
                    r->play(&z, &replies[k]);
                    int result = r->result(&z);
                    answered = result != REF_GOING_ON && (result == c->side) == c->win;
                }
        if (!answered)
            return fault(c, f->star_line, "'%s' is answered by none of the moves after '*'", r->text(&f->moves[i]));
        f->seen[i] = true;
        f->children++;
        if (f->height < 2)
            f->height = 2;
    }
    return true;
}

/* The checks of a position once all its moves are read. */
static bool close_frame(checker_t *c, int depth)
{
    frame_t *f = &c->f[depth];
    node_t *n = &c->nodes[f->node];
    const char *side = side_words(c, c->side);
    char end[160];
    if (f->star[0] && !answer_the_rest(c, f))
        return false;
    if (f->third) {
        if (c->win)
            return fault(c, n->line, "a third occurrence of this position: a draw, not a win for %s", side);
        f->low = f->third_low;
    } else if (f->result != REF_GOING_ON) {
        bool won = f->result == c->side;
        if (won != c->win)
            return won ? fault(c, n->line, "%s win here", side)
                       : fault(c, n->line, "the game ends here without a win for %s", side);
    } else if (f->children == 0) {
        if (c->win || c->plies == 0 || depth < c->plies)
            return fault(c, n->line, "the game goes on here, but the proof stops (%s to move)",
                         side_words(c, c->rules->side_to_move(&f->st)));
    } else if ((c->rules->side_to_move(&f->st) == c->side) != c->win && f->children < f->n_moves) {
        int k = 0, missing = 0;
        for (int i = 0; i < f->n_moves; i++)
            if (!f->seen[i] && k + 20 < (int)sizeof end) {
                k += snprintf(end + k, sizeof end - (size_t)k, "%s%s", missing++ ? " " : "",
                              c->rules->text(&f->moves[i]));
            }
        return fault(c, n->line, "every move of the side that loses must be answered; missing: %s", end);
    }
    n->closed = true;
    n->height = f->height;
    n->low = f->low;
    if (depth > 0) {
        frame_t *up = &c->f[depth - 1];
        if (f->height + 1 > up->height)
            up->height = f->height + 1;
        if (f->low < up->low)
            up->low = f->low;
    }
    return true;
}

/* A line "DEPTH MOVE [= LINE]". */
static bool read_move(checker_t *c, char *text)
{
    char *end, *move;
    long depth = strtol(text, &end, 10);
    if (end == text || *end != ' ' || depth < 1 || depth > DEPTH_MAX)
        return fault(c, c->lineno, "expected \"DEPTH MOVE\" or \"DEPTH MOVE = LINE\", read '%.60s'", text);
    if (depth > c->depth + 1)
        return fault(c, c->lineno, "depth %ld follows a line of depth %d (a line missing?)", depth, c->depth);
    while (c->depth >= depth)
        if (!close_frame(c, c->depth--))
            return false;
    move = end + 1;
    frame_t *up = &c->f[depth - 1];
    char at[24];
    snprintf(at, sizeof at, "%u", c->nodes[up->node].line);
    if (up->star[0])
        return fault(c, c->lineno, "the '*' line must be the last for the position of line %s", at);
    if (move[0] == '*') {
        bool chooser = (c->rules->side_to_move(&up->st) == c->side) == c->win;
        if (move[1] != ' ' || !move[2] || chooser || over(up))
            return fault(c, c->lineno, "'* MOVE...' stands for the losing side's other moves, answered at once");
        if (c->plies && depth + 1 > c->plies)
            return fault(c, c->lineno, "the claim is within %d plies; the answers after '*' are beyond", c->plies);
        memcpy(up->star, move + 2, strlen(move + 2) + 1);
        up->star_line = c->lineno;
        c->stars_seen++;
        return true;
    }
    char *eq = strstr(move, " = ");
    long target = 0;
    if (eq) {
        *eq = 0;
        target = strtol(eq + 3, &end, 10);
        if (*end || target < 1)
            return fault(c, c->lineno, "a reference is \"= LINE\", a line number; read '%.60s'", eq + 3);
    }
    if (!*move || strchr(move, ' '))
        return fault(c, c->lineno, "expected one move, read '%.60s'", move);
    if (over(up))
        return fault(c, c->lineno, "the game is over at line %s; '%s' cannot follow", at, move);
    if (c->plies && depth > c->plies)
        return fault(c, c->lineno, "the claim is within %d plies; '%s' is beyond", c->plies, move);
    int i = find_move(c, up, move);
    if (i < 0)
        return fault(c, c->lineno, "'%s' is not a legal move in the position of line %s", move, at);
    if (up->seen[i])
        return fault(c, c->lineno, "'%s' is given twice for the position of line %s", move, at);
    bool chooser = (c->rules->side_to_move(&up->st) == c->side) == c->win;
    if (chooser && up->children)
        return fault(c, c->lineno, "one move is enough for the side that wins at line %s; '%s' is a second", at,
                     move);
    up->seen[i] = true;
    up->children++;
    c->moves_seen++;
    frame_t *f = frame(c, (int)depth);
    if (!f)
        return fault(c, c->lineno, "out of memory");
    up = &c->f[depth - 1]; /* frames may have moved */
    f->st = up->st;
    c->rules->play(&f->st, &up->moves[i]);
    judge(c, f, (int)depth);
    /* Positions whose repetition the lines must count (ref_rules.h) lead
     * only to such positions, or to the end of the game. */
    if (strcmp(up->rep, up->state) != 0 && !strcmp(f->rep, f->state) && !over(f))
        return fault(c, c->lineno, "the reference rules' keys break their promise after '%s'", move);
    if (!eq) {
        c->depth = (int)depth;
        return add_node(c, f, (int)depth);
    }
    node_t *t = node_at_line(c, (uint32_t)target);
    snprintf(at, sizeof at, "%ld", target);
    if (!t || t->line >= c->lineno)
        return fault(c, c->lineno, "line %s is no earlier position of this proof", at);
    if (strcmp(key_of(c, t), f->state) != 0)
        return fault(c, c->lineno, "'%s' does not lead to the position of line %s", move, at);
    if (c->win && !t->closed)
        return fault(c, c->lineno, "line %s is still open: a proof of a win may not go round a cycle", at);
    if (c->win && (!t->linkable || strcmp(f->rep, f->state) != 0 || f->third))
        return fault(c, c->lineno, "line %s cannot stand for this one: a draw by repetition here, or a position "
                     "whose repetitions its lines must count", at);
    if (!c->win && t->closed && t->low < t->depth)
        return fault(c, c->lineno, "line %s rests on a draw by repetition above it: it cannot stand for another", at);
    if (!c->win && c->plies && t->depth > (int32_t)depth)
        return fault(c, c->lineno, "line %s has fewer plies left than this one", at);
    if (t->height + 1 > up->height)
        up->height = t->height + 1;
    return true;
}

/* ---- a proof's head ---- */

/* "position startpos|fen F [moves ...]": the root, and the game before it. */
static bool read_position(checker_t *c, char *text)
{
    const ref_rules_t *r = c->rules;
    frame_t *f = frame(c, 0);
    if (!f)
        return fault(c, c->lineno, "out of memory");
    char *moves = strstr(text, " moves ");
    if (moves)
        *moves = 0;
    char fen[REF_KEY_MAX + 8];
    if (!strcmp(text, "startpos"))
        snprintf(fen, sizeof fen, "%s", r->start);
    else if (!strncmp(text, "fen ", 4) && strlen(text + 4) < REF_KEY_MAX)
        snprintf(fen, sizeof fen, "%s", text + 4);
    else
        return fault(c, c->lineno, "expected \"position startpos\" or \"position fen F\", then \"moves ...\"");
    char back[REF_KEY_MAX * 2];
    if (!r->from_fen(&f->st, fen) || (r->to_fen(&f->st, back), strcmp(back, fen) != 0))
        return fault(c, c->lineno, "not a %s position string: '%.100s'", r->variant, fen);
    judge(c, f, 0);
    for (char *m = moves ? strtok(moves + 7, " ") : NULL; m; m = strtok(NULL, " ")) {
        int i = find_move(c, f, m);
        if (i < 0 || over(f))
            return over(f) ? fault(c, c->lineno, "the game is over before '%s'", m)
                           : fault(c, c->lineno, "'%s' is not legal here", m);
        if (c->n_hist == HISTORY_MAX)
            return fault(c, c->lineno, "more than 4096 moves before the root");
        memcpy(c->hist[c->n_hist++], f->rep, REF_KEY_MAX);
        ref_state_t next = f->st;
        r->play(&next, &f->moves[i]);
        f->st = next;
        judge(c, f, 0);
    }
    if (over(f))
        return fault(c, c->lineno, "the game is over in this position: nothing to prove");
    return true;
}

/* "claim win|no-win SIDE [within K plies]". */
static bool read_claim(checker_t *c, char *text)
{
    char *w[6] = {0};
    int k = 0;
    for (char *t = strtok(text, " "); t && k < 6; t = strtok(NULL, " "))
        w[k++] = t;
    c->win = k >= 2 && !strcmp(w[0], "win");
    c->side = k < 2 ? -1 : !strcmp(w[1], c->rules->sides[0]) ? 0 : !strcmp(w[1], c->rules->sides[1]) ? 1 : -1;
    char *end = NULL;
    long plies = k == 5 ? strtol(w[3], &end, 10) : 0;
    bool limited = k == 5 && !strcmp(w[2], "within") && *w[3] && !*end && plies > 0 && plies <= DEPTH_MAX &&
                   !strcmp(w[4], "plies");
    if ((!c->win && (k < 2 || strcmp(w[0], "no-win") != 0)) || c->side < 0 || (k != 2 && !limited))
        return fault(c, c->lineno, "expected \"claim win|no-win %s|%s [within K plies]\"", c->rules->sides[0],
                     c->rules->sides[1]);
    c->plies = limited ? (int)plies : 0;
    return true;
}

/* The next line that is not blank or a comment, without its end of line;
 * NULL at the end of the file, or on a fault (*bad set). */
static char *next_line(checker_t *c, FILE *in, char **buf, size_t *cap, bool *bad)
{
    ssize_t n;
    while ((n = getline(buf, cap, in)) >= 0) {
        c->lineno++;
        char *s = *buf;
        if (n > LINE_MAX_LEN || (size_t)n != strlen(s)) {
            *bad = !fault(c, c->lineno, "not a line of text (too long, or a NUL byte)");
            return NULL;
        }
        s[strcspn(s, "\r\n")] = 0;
        printable(s); /* nothing else belongs in a proof, and messages quote it */
        if (*s && *s != '#')
            return s;
    }
    return NULL;
}

static bool check_one(checker_t *c, FILE *in, char **buf, size_t *cap, uint32_t first, FILE *report)
{
    bool bad = false;
    char *s;
    uint32_t start = c->lineno;
    if (!(s = next_line(c, in, buf, cap, &bad)) || strncmp(s, "variant ", 8) != 0)
        return bad ? false : fault(c, c->lineno, "expected \"variant NAME\"");
    if (!(c->rules = ref_rules_find(s + 8)))
        return fault(c, c->lineno, "'%.40s' is not a two-player variant (%s)", s + 8, ref_rules_names());
    if (!(s = next_line(c, in, buf, cap, &bad)) || strncmp(s, "position ", 9) != 0)
        return bad ? false : fault(c, c->lineno, "expected \"position ...\"");
    if (!read_position(c, s + 9))
        return false;
    if (!(s = next_line(c, in, buf, cap, &bad)) || strncmp(s, "claim ", 6) != 0)
        return bad ? false : fault(c, c->lineno, "expected \"claim ...\"");
    if (!read_claim(c, s + 6) || !add_node(c, &c->f[0], 0))
        return false;
    c->depth = 0;
    while ((s = next_line(c, in, buf, cap, &bad)) && strcmp(s, "end") != 0)
        if (!read_move(c, s))
            return false;
    if (!s)
        return bad ? false : fault(c, c->lineno, "the proof stops before its \"end\" line");
    while (c->depth >= 0)
        if (!close_frame(c, c->depth--))
            return false;
    if (c->win && c->plies && c->nodes[0].height > c->plies)
        return fault(c, c->nodes[0].line, "a line is longer than the claim's plies");
    fprintf(report, "%s:%u: checked: %s for %s", c->name, first, c->win ? "win" : "no win", side_words(c, c->side));
    if (c->win)
        fprintf(report, " in at most %d %s", c->nodes[0].height, c->nodes[0].height == 1 ? "ply" : "plies");
    else if (c->plies)
        fprintf(report, " within %d plies", c->plies);
    fprintf(report, " (%llu %s", (unsigned long long)c->moves_seen, c->moves_seen == 1 ? "move" : "moves");
    if (c->stars_seen)
        fprintf(report, " and %llu '*' line%s", (unsigned long long)c->stars_seen, c->stars_seen == 1 ? "" : "s");
    fprintf(report, ", lines %u-%u)\n", start, c->lineno);
    (void)first;
    return true;
}

bool check_proofs(FILE *in, const char *name, FILE *report, char *err, size_t errlen)
{
    checker_t c = {.name = name, .err = err, .errlen = errlen};
    char *buf = NULL;
    size_t cap = 0;
    bool ok = true, bad = false;
    int proofs = 0;
    int first = fgetc(in);
    if (first == 0x1f) {
        snprintf(err, errlen, "%s: compressed (gzip?): check it with `zcat %s | denham solve --check -`", name, name);
        return false;
    }
    if (first != EOF)
        ungetc(first, in);
    c.hist = malloc(HISTORY_MAX * sizeof *c.hist);
    if (!c.hist) {
        snprintf(err, errlen, "%s: out of memory", name);
        return false;
    }
    char *s;
    while (ok && (s = next_line(&c, in, &buf, &cap, &bad))) {
        uint32_t head = c.lineno;
        if (strcmp(s, "denham-proof 1") != 0) {
            ok = fault(&c, c.lineno, "expected \"denham-proof 1\", read '%.60s'", s);
            break;
        }
        c.n_nodes = c.arena_len = 0;
        c.n_hist = 0;
        c.moves_seen = c.stars_seen = 0;
        if (c.index)
            memset(c.index, 0, c.index_size * sizeof *c.index);
        ok = check_one(&c, in, &buf, &cap, head, report);
        proofs += ok;
    }
    if (bad)
        ok = false;
    else if (ok && proofs == 0)
        snprintf(err, errlen, "%s: no proof in the file", name), ok = false;
    for (int i = 0; i < c.top_alloc; i++) {
        free(c.f[i].moves);
        free(c.f[i].seen);
    }
    free(c.f);
    free(c.nodes);
    free(c.arena);
    free(c.index);
    free(c.hist);
    free(buf);
    return ok;
}
