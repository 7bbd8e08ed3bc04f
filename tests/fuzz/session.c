/* session.c: the `session` fuzz target: a few bytes become a long stream of
 * protocol commands across all variants, the way a GUI, a runner and a
 * careless script mix them: variant switches between positions, searches,
 * ucinewgame, illegal moves, one game's FEN sent to another, positions that
 * extend the last one. Issue 30's stale-position defect needed exactly such
 * a mix; byte-level fuzzing of the protocol target rarely builds one.
 *
 * It reaches the games only through game_t (for random legal lines) and the
 * engine only through protocol_run. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/games/variants.h"
#include "../../protocol/ugi/protocol.h"
#include "targets.h"

#define SESSION_MAX_BYTES 4096
#define SESSION_MAX_SEARCHES 48 /* each is small; together they bound the run */
#define SESSION_MAX_PLIES 40

typedef struct script {
    char *text;
    size_t len, cap;
    const game_t *game; /* the variant the engine has now, as far as the script knows */
    int searches;
    char last_position[4096]; /* the last `position` sent, to extend */
} script_t;

static void emit(script_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit(script_t *s, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(s->text + s->len, s->cap - s->len, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if ((size_t)n < s->cap - s->len) {
            s->len += (size_t)n;
            return;
        }
        size_t cap = s->cap * 2 + (size_t)n;
        char *grown = realloc(s->text, cap);
        if (!grown)
            return;
        s->text = grown;
        s->cap = cap;
    }
}

static int variant_count(void)
{
    int n = 0;
    while (variants_at(n))
        n++;
    return n;
}

/* A random legal line of `plies` from g's start, as move texts. */
static void random_line(const game_t *g, unsigned seed, int plies, char *buf, size_t len)
{
    position_t pos;
    g->set_start(&pos);
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < plies; i++) {
        move_t moves[MAX_MOVES];
        int count = g->gen_moves(&pos, moves);
        if (count == 0)
            break;
        seed = seed * 1103515245u + 12345u;
        move_t m = moves[(seed >> 8) % (unsigned)count];
        char text[GAME_MOVE_TEXT_MAX];
        g->move_text(&pos, m, text, sizeof text);
        int w = snprintf(buf + n, len - n, " %s", text);
        if (w < 0 || (size_t)w >= len - n)
            break;
        n += (size_t)w;
        undo_t u;
        g->make(&pos, m, &u);
    }
}

/* Words that are a move in some game and (mostly) not in others. */
static const char *const foreign_moves[] = {"e1e3", "e6f6f5", "d6e6+", "d2c2", "e5", "e5xf6", "pass", "SM",
                                            "M@b1", "Mb1b2", "reroll", "zz", "a1", "pass+", "L"};
#define N_FOREIGN (sizeof foreign_moves / sizeof foreign_moves[0])

static void send_position(script_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void send_position(script_t *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->last_position, sizeof s->last_position, fmt, ap);
    va_end(ap);
    emit(s, "position %s\n", s->last_position);
}

static void search(script_t *s, const char *go)
{
    if (s->searches++ < SESSION_MAX_SEARCHES)
        emit(s, "%s\n", go);
}

/* One command from an opcode and its argument byte. */
static void command(script_t *s, unsigned op, unsigned arg)
{
    int variants = variant_count();
    const game_t *other = variants_at((int)(arg % (unsigned)variants));
    char line[2048], fen[GAME_FEN_MAX];
    position_t pos;
    switch (op % 16) {
    case 0:
        s->game = other;
        emit(s, "setoption name UCI_Variant value %s\n", other->name);
        break;
    case 1: /* a legal line of this game */
    case 2: /* the same, then a move of another game */
        random_line(s->game, arg * 2654435761u, (int)(arg % SESSION_MAX_PLIES), line, sizeof line);
        if (op % 16 == 1)
            send_position(s, "startpos moves%s", line);
        else
            send_position(s, "startpos moves%s %s", line, foreign_moves[arg % N_FOREIGN]);
        break;
    case 3: /* a start position, perhaps another game's */
        other->set_start(&pos);
        other->write_fen(&pos, fen, sizeof fen);
        send_position(s, "fen %s moves %s", fen, foreign_moves[(arg >> 4) % N_FOREIGN]);
        break;
    case 4: { /* a position deep in a game, perhaps another's */
        random_line(other, arg * 40503u + 7, (int)(arg % SESSION_MAX_PLIES), line, sizeof line);
        char cmd[2200];
        snprintf(cmd, sizeof cmd, "startpos moves%s", line);
        emit(s, "setoption name UCI_Variant value %s\nposition %s\n", other->name, cmd);
        emit(s, "d\n");
        emit(s, "setoption name UCI_Variant value %s\nposition fen ", s->game->name);
        s->last_position[0] = 0;
        emit(s, "%s\n", arg & 1 ? "x" : "");
        break;
    }
    case 5: {
        char go[32];
        snprintf(go, sizeof go, "go depth %u", arg % 3 + 1);
        search(s, go);
        break;
    }
    case 6: {
        char go[32];
        snprintf(go, sizeof go, "go nodes %u", arg * 8 + 1);
        search(s, go);
        break;
    }
    case 7:
        emit(s, "ucinewgame\n");
        break;
    case 8:
        search(s, arg & 1 ? "go perft 2" : "go perft 1");
        break;
    case 9: {
        static const char *const looks[] = {"d", "moves", "eval", "query result", "query turn", "query gameover"};
        emit(s, "%s\n", looks[arg % 6]);
        break;
    }
    case 10:
        emit(s, "stop\n");
        break;
    case 11:
        emit(s, "isready\n");
        break;
    case 12: {
        static const char *const broken[] = {"position fen x", "position fen", "position startpos moves zz",
                                             "position", "position startpos junk", "go depth x"};
        emit(s, "%s\n", broken[arg % 6]);
        break;
    }
    case 13: {
        static const char *const options[] = {
            "Threads value 1", "Threads value 2",   "MultiPV value 1",  "MultiPV value 3",
            "MultiplayerSearch value brs", "MultiplayerSearch value paranoid", "ChancePruning value star1",
            "ChancePruning value expectimax", "Skill Level value 3", "Skill Level value 20"};
        emit(s, "setoption name %s\n", options[arg % 10]);
        break;
    }
    case 14:
        search(s, "go movetime 5");
        break;
    default: /* the last position extended, as a runner sends the game so far */
        if (s->last_position[0] && strstr(s->last_position, "moves")) {
            emit(s, "position %s %s\n", s->last_position, foreign_moves[arg % N_FOREIGN]);
        } else {
            random_line(s->game, arg, 2, line, sizeof line);
            send_position(s, "startpos moves%s", line);
        }
        break;
    }
}

int fuzz_session(const uint8_t *data, size_t size)
{
    if (size > SESSION_MAX_BYTES)
        size = SESSION_MAX_BYTES;
    script_t s = {.cap = 1 << 14, .game = variants_default()};
    s.text = malloc(s.cap);
    if (!s.text)
        return 0;
    s.text[0] = 0;
    for (size_t i = 0; i + 1 < size; i += 2)
        command(&s, data[i], data[i + 1]);
    emit(&s, "stop\n");
    fuzz_run_loop(protocol_run, s.text, s.len);
    free(s.text);
    return 0;
}
