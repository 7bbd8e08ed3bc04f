/* test_otep.c: OpenTafl Notation (rules, positions, moves) and the OTEP
 * front end: transcripts run in-process, and a fake OpenTafl host that
 * plays the real binary against itself. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../protocol/common/engine_proc.h"
#include "../engine/core/record.h"
#include "../engine/core/timeman.h"
#include "../engine/games/variants.h"
#include "../protocol/otep/otep.h"
#include "../protocol/otep/otn.h"
#include "helpers.h"

#define START "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
/* The OTN specification's Brandub example (the older ks:n for a weak king).
 * OpenTafl's built-in Brandub and a version 2 as OpenTafl's RulesSerializer
 * writes them: only the entries that differ from its defaults, in its
 * order; ks:w a weak king, ks:c strong on and beside the throne. Version 2
 * may say "nobody comes back to the throne" by cens (nobody stops there)
 * or by cenre (the king stops there but never returns). */
#define RULES_SPEC "dim:7 ks:n cenhe: cenh: start:" START
#define RULES_OPENTAFL "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:" START
#define RULES_V2 "dim:7 name:Brandubh_v2 surf:n atkf:y ks:c cens: cenh: cenhe:tTK start:" START
#define RULES_V2_CENRE "dim:7 name:Brandubh_v2 surf:n atkf:y ks:c cenh: cenhe:tTK cenre:tcnTCN start:" START

START_TEST(rules_strings_name_the_version)
{
    char why[300];
    static const struct {
        const char *rules, *variant;
    } accepted[] = {
        {RULES_SPEC, "brandubh"},
        {RULES_OPENTAFL, "brandubh"},
        {"dim:7 ks:n cenhe: cenh: tfr:d cens:K cor:a1,g1,a7,g7, start:" START, "brandubh"},
        {"dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: corre:tT aforre: dforre:K cenre:K start:" START,
         "brandubh"},
        {RULES_V2, "brandubh-v2"},
        {RULES_V2_CENRE, "brandubh-v2"},
        {"dim:7 ks:c cens: cenh: cenhe:tcnkTCNK corre: start:" START, "brandubh-v2"},
    };
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++)
        ck_assert_msg(otn_rules_variant(accepted[i].rules, why, sizeof why) == variants_find(accepted[i].variant),
                      "'%s': %s", accepted[i].rules, why);
    static const char *const refused[] = {
        "dim:11 start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
        "dim:7 ks:n cenhe: cenh: esc:e start:" START,
        "dim:7 cenhe: cenh: start:" START,                /* strong king (ks:s is the default) */
        "dim:7 ks:s cenhe: cenh: start:" START,
        "dim:7 ks:y cenhe: cenh: start:" START,
        "dim:7 ks:m cenhe: cenh: start:" START,           /* middleweight */
        "dim:7 ks:q cenhe: cenh: start:" START,
        "dim:7 ks:n cenhe: cenh: ka:h start:" START,      /* the king captures only as the mover */
        "dim:7 ks:n cenhe: cenh: spd:2 start:" START,     /* pieces move two squares at most */
        "dim:7 ks:n cenhe: cenh: atkf:n start:" START,    /* defenders first */
        "dim:7 ks:n cenhe: cenh: tfr:w start:" START,     /* repetition wins */
        "dim:7 ks:n cenhe: cenh: start:/3t3/3t3/3T3/ttTKTt1/3T3/3t3/3t3/",
        "dim:7 ks:n cenhe:t cenh: start:" START,          /* neither version */
        "dim:7 ks:w cenhe:K cenh: start:" START,          /* a king taken against the empty throne */
        "dim:7 ks:w cenhe: cenh: cenre:tT start:" START,  /* version 1's king may come back */
        "dim:7 surf:n ks:n cenh: cenhe:tcnTCN cens: start:" START, /* a weak king everywhere */
        "dim:7 ks:c cens: cenh: cenhe:tT start:" START,   /* the king beside the throne safe from three */
        "dim:7 ks:c cenh: cenhe:tTK start:" START,        /* the king may come back */
        "dim:7 ks:c cens: cenh: cenhe: start:" START,
        "dim:7 ks:w cenhe: cenh: cenre:xyz start:" START, /* not pieces */
        "dim:7 ks:n cenhe: cenh: frobnicate:y start:" START,
        "dim:7 ks:n cenhe: cenh: cors:tK start:" START,
        "ks:n start:" START,
        "",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        why[0] = 0;
        ck_assert_msg(!otn_rules_variant(refused[i], why, sizeof why), "accepted '%s'", refused[i]);
        ck_assert_msg(why[0], "no reason for '%s'", refused[i]);
    }
}
END_TEST

/* What OpenTafl's RulesSerializer (jslater89/OpenTafl, notation/
 * RulesSerializer.java, the version with mercenaries and guards) writes
 * for its built-in Brandub and for each rule its variant editor can change
 * on a 7x7 board, one at a time: the entries in the serializer's order,
 * only those that differ from its defaults, every list naming every piece
 * type it holds (t c n k m g, capitals for the defenders). Each is taken
 * as the version it is, or refused with the rule that makes it another
 * game. */
#define V1_HEAD "dim:7 name:Brandub surf:n atkf:y"
#define V1_TAIL "cenh: cenhe: start:" START

START_TEST(opentafl_serializer_strings)
{
    static const struct {
        const char *rules, *variant, *why; /* variant NULL: refused, saying why */
    } cases[] = {
        /* The built-in Brandub, and the version 2 (the king may not
         * come back to the throne). */
        {V1_HEAD " ks:w " V1_TAIL, "brandubh", NULL},
        {"dim:7 name:Brandub_v2 surf:n atkf:y ks:c cenre:tcnkmTCNM start:" START, "brandubh-v2", NULL},
        {"dim:7 name:Brandub_v2 surf:n atkf:y ks:c cens: start:" START, "brandubh-v2", NULL},
        {"dim:7 name:Brandub_v2 surf:n atkf:y ks:c cenre:tcnkmgTCNMG start:" START, "brandubh-v2", NULL},
        /* Escape, surrounding, who starts, repetition, the armed king. */
        {"dim:7 name:Brandub esc:e surf:n atkf:y ks:w " V1_TAIL, NULL, "esc:c"},
        {"dim:7 name:Brandub atkf:y ks:w " V1_TAIL, "brandubh", NULL}, /* surf:y: OpenTafl ends such a game */
        {"dim:7 name:Brandub surf:n atkf:n ks:w " V1_TAIL, NULL, "attackers move first"},
        {V1_HEAD " tfr:w ks:w " V1_TAIL, NULL, "repetition is a draw"},
        {V1_HEAD " tfr:l ks:w " V1_TAIL, NULL, "repetition is a draw"},
        {V1_HEAD " tfr:i ks:w " V1_TAIL, NULL, "repetition is a draw"},
        {V1_HEAD " ka:h ks:w " V1_TAIL, NULL, "ka:y"},
        {V1_HEAD " ka:a ks:w " V1_TAIL, NULL, "ka:y"},
        {V1_HEAD " ka:n ks:w " V1_TAIL, NULL, "ka:y"},
        /* The king's strength: strong (not written: the default), middle, on the throne. */
        {V1_HEAD " " V1_TAIL, NULL, "not ks:s"},
        {V1_HEAD " ks:m " V1_TAIL, NULL, "not ks:m"},
        {V1_HEAD " ks:c " V1_TAIL, NULL, "cenhe:tTK"},
        /* Jumps: the king's changes the game; knights', commanders',
         * mercenaries' and guards' do not (none on the board). */
        {V1_HEAD " ks:w kj:j " V1_TAIL, NULL, "never jumps"},
        {V1_HEAD " ks:w kj:c " V1_TAIL, NULL, "never jumps"},
        {V1_HEAD " ks:w kj:r " V1_TAIL, NULL, "never jumps"},
        {V1_HEAD " ks:w nj:n " V1_TAIL, "brandubh", NULL},
        {V1_HEAD " ks:w nj:j " V1_TAIL, "brandubh", NULL},
        {V1_HEAD " ks:w cj:c " V1_TAIL, "brandubh", NULL},
        {V1_HEAD " ks:w cj:n " V1_TAIL, "brandubh", NULL},
        {V1_HEAD " ks:w mj:j " V1_TAIL, "brandubh", NULL},
        {V1_HEAD " ks:w gj:c " V1_TAIL, "brandubh", NULL},
        /* Special squares and forts. */
        {V1_HEAD " ks:w cor:a1,g1,a7, " V1_TAIL, NULL, "corners are a1, g1, a7 and g7"},
        {V1_HEAD " ks:w cen:c3, " V1_TAIL, NULL, "throne is d4"},
        {V1_HEAD " ks:w afor:b2, " V1_TAIL, NULL, "no forts"},
        {V1_HEAD " ks:w dfor:b2, " V1_TAIL, NULL, "no forts"},
        /* Speeds: all, by side, by type (only t, T and K are on the board). */
        {V1_HEAD " ks:w spd:2 " V1_TAIL, NULL, "at most 2 squares"},
        {V1_HEAD " ks:w spd:-1,3, " V1_TAIL, NULL, "a defender may move at most 3 squares;"},
        {V1_HEAD " ks:w spd:6 " V1_TAIL, "brandubh", NULL},
        {V1_HEAD " ks:w spd:-1,2,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1, " V1_TAIL, "brandubh", NULL},
        {V1_HEAD " ks:w spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1, " V1_TAIL, NULL, "the king may move at most 1 square;"},
        {V1_HEAD " ks:w spd:-1,-1,-1,-1,-1,-1,-1,1, " V1_TAIL, NULL, "the king may move at most 1 square;"}, /* before mercenaries */
        /* Passable: a corner for the king, the throne for every piece. */
        {V1_HEAD " ks:w corp:tK " V1_TAIL, "brandubh", NULL},
        {V1_HEAD " ks:w corp: " V1_TAIL, NULL, "reaches a corner"},
        {V1_HEAD " ks:w cenp:tcnkmTCNM " V1_TAIL, NULL, "passes the empty throne"},
        {V1_HEAD " ks:w cenp:TCNKM " V1_TAIL, NULL, "passes the empty throne"},
        {V1_HEAD " ks:w aforp:K dforp:tT " V1_TAIL, "brandubh", NULL},
        /* Stoppable. */
        {V1_HEAD " ks:w cors:tK " V1_TAIL, NULL, "cors:K"},
        {V1_HEAD " ks:w cors:kK " V1_TAIL, "brandubh", NULL},
        {V1_HEAD " ks:w cens: " V1_TAIL, NULL, "come back to the throne"},
        {V1_HEAD " ks:w cens:tK " V1_TAIL, NULL, "cens without t"},
        {V1_HEAD " ks:w afors:t dfors:tcnkmgTCNKMG " V1_TAIL, "brandubh", NULL},
        /* Hostile. */
        {V1_HEAD " ks:w corh:tcnkmTCNM " V1_TAIL, NULL, "corh:tTK"},
        {V1_HEAD " ks:w cenh:T cenhe: start:" START, NULL, "cenh without T"},
        {V1_HEAD " ks:w cenhe: start:" START, "brandubh", NULL}, /* cenh the default: the king is armed anyway */
        {V1_HEAD " ks:w cenh: start:" START, NULL, "hostile to nobody"},
        {V1_HEAD " ks:w cenh: cenhe: aforh: dforh:TCNKMG start:" START, "brandubh", NULL},
        /* Who may come back: corners change nothing, the throne decides. */
        {V1_HEAD " ks:w cenh: cenhe: corre:tT start:" START, "brandubh", NULL},
        {V1_HEAD " ks:w cenh: cenhe: cenre:tcnkmTCNM start:" START, NULL, "come back to the throne"},
        {V1_HEAD " ks:w cenh: cenhe: aforre: dforre:K start:" START, "brandubh", NULL},
        /* Shieldwalls, edge forts, Linnaean captures, berserk. */
        {V1_HEAD " ks:w cenh: cenhe: sw:s start:" START, NULL, "no shieldwall"},
        {V1_HEAD " ks:w cenh: cenhe: sw:w start:" START, NULL, "no shieldwall"},
        {V1_HEAD " ks:w cenh: cenhe: swf:n start:" START, "brandubh", NULL},
        {V1_HEAD " ks:w cenh: cenhe: efe:y start:" START, NULL, "edge fort"},
        {V1_HEAD " ks:w cenh: cenhe: linc:y start:" START, NULL, "Linnaean"},
        {V1_HEAD " ks:w cenh: cenhe: ber:c start:" START, NULL, "berserk"},
        {V1_HEAD " ks:w cenh: cenhe: ber:m start:" START, NULL, "berserk"},
        /* The start: another, or the same with the ranks the other way. */
        {V1_HEAD " ks:w cenh: cenhe: start:/3t3/3t3/7/ttTKTtt/3T3/3t3/3t3/", NULL, "Brandubh starts at"},
        {V1_HEAD " ks:w cenh: cenhe: starti:" START, "brandubh", NULL},
        /* A letter no OTN piece has. */
        {V1_HEAD " ks:w cenh: cenhe: cenre:tcnkxTCNK start:" START, NULL, "'x' is no OTN piece"},
    };
    char why[300];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        why[0] = 0;
        const game_t *g = otn_rules_variant(cases[i].rules, why, sizeof why);
        if (cases[i].variant) {
            ck_assert_msg(g == variants_find(cases[i].variant), "'%s': %s (want %s)", cases[i].rules,
                          g ? g->name : why, cases[i].variant);
        } else {
            ck_assert_msg(!g, "'%s' taken as %s", cases[i].rules, g ? g->name : "");
            ck_assert_msg(strstr(why, cases[i].why), "'%s': the reason '%s' lacks '%s'", cases[i].rules, why,
                          cases[i].why);
        }
    }
}
END_TEST

/* Every position and move text printed parses back, over random games of
 * both versions, in simple and full notation. */
START_TEST(positions_and_moves_round_trip)
{
    static const char *const versions[] = {"brandubh", "brandubh-v2"};
    uint64_t rng = 99;
    for (int v = 0; v < 2; v++) {
        const game_t *g = variants_find(versions[v]);
        for (int game = 0; game < 100; game++) {
            position_t pos;
            g->set_start(&pos);
            for (int ply = 0; ply < 200; ply++) {
                char record[OTN_POSITION_MAX], why[200];
                otn_position_record(g, &pos, record, sizeof record);
                position_t back;
                ck_assert_msg(otn_load_position(g, record, g->to_move(&pos), &back, why, sizeof why), "%s", why);
                ck_assert_str_eq(fen_of(g, &back), fen_of(g, &pos));
                move_t moves[MAX_MOVES];
                int n = g->gen_moves(&pos, moves);
                if (n == 0)
                    break;
                for (int i = 0; i < n; i++)
                    for (int simple = 0; simple < 2; simple++) {
                        char text[OTN_MOVE_MAX];
                        otn_move_text(g, &pos, moves[i], simple, text, sizeof text);
                        ck_assert_msg(otn_parse_move(g, &pos, text) == moves[i], "'%s' does not parse back", text);
                    }
                outcome_t o;
                if (g->decided(&pos, &o))
                    break;
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                undo_t u;
                g->make(&pos, moves[(rng >> 33) % (uint64_t)n], &u);
            }
        }
    }
    /* Full notation by hand: a capture, and the king's escape. */
    const game_t *g = variants_find("brandubh");
    position_t pos;
    load_fen(g, &pos, "7/7/7/1k5/7/1ad4/3a3 a");
    char text[OTN_MOVE_MAX];
    otn_move_text(g, &pos, g->parse_move(&pos, "d1d2"), false, text, sizeof text);
    ck_assert_str_eq(text, "d1-d2xc2");
    load_fen(g, &pos, "7/7/7/1k5/7/d1a4/7 d");
    otn_move_text(g, &pos, g->parse_move(&pos, "b4b2"), false, text, sizeof text);
    ck_assert_str_eq(text, "Kb4-b2");
    load_fen(g, &pos, "7/7/7/1k5/7/1da4/3d3 d");
    otn_move_text(g, &pos, g->parse_move(&pos, "d1d2"), false, text, sizeof text);
    ck_assert_str_eq(text, "d1-d2xc2");
    load_fen(g, &pos, "7/7/7/7/7/k6/7 d");
    otn_move_text(g, &pos, g->parse_move(&pos, "a2a1"), false, text, sizeof text);
    ck_assert_str_eq(text, "Ka2-a1--");
    static const char *const bad[] = {"d2c2", "d2-", "d2-c9", "zz", "d2-c2x", "d2-c2xq1", "d2-c2+++", ""};
    g->set_start(&pos);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(otn_parse_move(g, &pos, bad[i]) == MOVE_NONE, "'%s' accepted", bad[i]);
    ck_assert(otn_parse_move(g, &pos, "d2-c2") != MOVE_NONE);
}
END_TEST

/* ---- in-process transcripts ---- */

typedef struct host {
    FILE *to_engine, *from_engine;
    FILE *engine_in, *engine_out;
    pthread_t thread;
} host_t;

static void *engine_thread(void *arg)
{
    host_t *h = arg;
    otep_run(h->engine_in, h->engine_out, 20);
    fclose(h->engine_out);
    return NULL;
}

static void host_start(host_t *h)
{
    int down[2], up[2];
    ck_assert(pipe(down) == 0 && pipe(up) == 0);
    h->engine_in = fdopen(down[0], "r");
    h->to_engine = fdopen(down[1], "w");
    h->engine_out = fdopen(up[1], "w");
    h->from_engine = fdopen(up[0], "r");
    ck_assert(pthread_create(&h->thread, NULL, engine_thread, h) == 0);
}

/* OTEP_TRANSCRIPT=1 in the environment prints every line both ways on
 * stderr (the transcripts in the closing notes). */
static void transcript(const char *who, const char *line)
{
    if (getenv("OTEP_TRANSCRIPT"))
        fprintf(stderr, "%s %s\n", who, line);
}

static void host_send(host_t *h, const char *line)
{
    transcript("host:  ", line);
    fprintf(h->to_engine, "%s\n", line);
    fflush(h->to_engine);
}

/* The engine's next line (static). */
static const char *host_read(host_t *h)
{
    static char line[4096];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, h->from_engine));
    line[strcspn(line, "\n")] = 0;
    transcript("denham:", line);
    return line;
}

static void host_end(host_t *h)
{
    host_send(h, "goodbye");
    pthread_join(h->thread, NULL);
    fclose(h->to_engine);
    fclose(h->engine_in);
    fclose(h->from_engine);
}

/* OpenTafl's messages as it sends them in a game, the engine playing both
 * sides: every move is legal, and the engine takes the game's end. Played
 * by the clock, the game differs from run to run, and Brandubh has no move
 * limit: a game still going at 300 plies is adjudicated a draw, as a host
 * with a move limit would (one such game was seen under the sanitizers). */
static void play_whole_game(const char *rules, const char *variant)
{
    host_t h;
    host_start(&h);
    ck_assert_str_eq(host_read(&h), "hello");
    char cmd[OTN_POSITION_MAX + 200];
    snprintf(cmd, sizeof cmd, "rules %s", rules);
    host_send(&h, cmd);
    host_send(&h, "side attackers");
    host_send(&h, "start");
    const game_t *g = variants_find(variant);
    static record_t r;
    position_t start;
    g->set_start(&start);
    ck_assert(record_init(&r, g, &start));
    move_t legal[MAX_MOVES];
    int plies = 0;
    for (; plies < 300 && record_legal_moves(&r, legal) > 0; plies++) {
        int side = g->to_move(&r.pos);
        host_send(&h, "clock 1500 1500 0 0 0");
        host_send(&h, side == 0 ? "play attackers" : "play defenders");
        const char *line = host_read(&h);
        ck_assert_msg(strncmp(line, "move ", 5) == 0, "%s", line);
        move_t m = otn_parse_move(g, &r.pos, line + 5);
        ck_assert_msg(m != MOVE_NONE, "%s: illegal '%s' at ply %d", variant, line, plies);
        ck_assert(record_play(&r, m));
        snprintf(cmd, sizeof cmd, "move ");
        otn_position_record(g, &r.pos, cmd + 5, sizeof cmd - 5);
        host_send(&h, cmd);
    }
    outcome_t o = record_outcome(&r);
    ck_assert_msg(o.kind != OUTCOME_NONE || plies == 300, "no result after %d plies", plies);
    host_send(&h, o.kind != OUTCOME_WIN ? "finish 1" : (o.players & 1) ? "finish 2" : "finish 3");
    host_end(&h);
    record_free(&r);
}

/* Issue 30: OpenTafl's own strings for both versions, as its serializer
 * writes them, each a whole game (Denham answered `error 0 Brandubh needs
 * ks:n` before, and nothing after). */
START_TEST(whole_game_transcript)
{
    play_whole_game(RULES_OPENTAFL, "brandubh");
    play_whole_game(RULES_V2, "brandubh-v2");
    play_whole_game(RULES_V2_CENRE, "brandubh-v2");
}
END_TEST

/* analyze in the position OpenTafl set up with position and side (as its
 * analyzePosition sends them): n moves with evaluations, each parsing. */
static void check_analysis(const char *rules, const char *variant)
{
    host_t h;
    host_start(&h);
    ck_assert_str_eq(host_read(&h), "hello");
    char cmd[OTN_POSITION_MAX + 200];
    snprintf(cmd, sizeof cmd, "rules %s", rules);
    host_send(&h, cmd);
    host_send(&h, "position /3t3/3t3/3T3/ttTKTtt/3T3/2t4/3t3/");
    host_send(&h, "side defenders");
    host_send(&h, "analyze 3 1");
    const char *line = host_read(&h);
    ck_assert_msg(strncmp(line, "analysis 3 ", 11) == 0, "%s", line);
    const game_t *g = variants_find(variant);
    position_t pos;
    load_fen(g, &pos, "3a3/2a4/3d3/aadkdaa/3d3/3a3/3a3 d");
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", line + 11);
    char *save = NULL;
    int pairs = 0;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save), pairs++) {
        char *bar = strchr(w, '|');
        if (bar)
            *bar = 0;
        ck_assert_msg(otn_parse_move(g, &pos, w) != MOVE_NONE, "'%s'", w);
        char *value = strtok_r(NULL, " ", &save), *end;
        ck_assert_ptr_nonnull(value);
        strtod(value, &end);
        ck_assert_msg(*end == 0, "evaluation '%s'", value);
    }
    ck_assert_int_eq(pairs, 3);
    /* Malformed input: one error line each, the engine still answers. */
    host_send(&h, "analyze x 1");
    ck_assert_str_eq(host_read(&h), "error 0 analyze: expected a number of moves and seconds");
    /* The clock has five fields, as OpenTafl sends them (issue 34: fewer or
     * more were taken silently). */
    host_send(&h, "clock 1 2");
    ck_assert(strncmp(host_read(&h), "error 0 clock: expected <attackers ms>", 38) == 0);
    host_send(&h, "clock 1500 1500 0 0 0 extra");
    ck_assert(strncmp(host_read(&h), "error 0 clock: expected <attackers ms>", 38) == 0);
    host_send(&h, "clock 1500x 1500 0 0 0");
    ck_assert_str_eq(host_read(&h), "error 0 clock: expected milliseconds for both sides, not '1500x'");
    host_send(&h, "clock 900* 1500 10 2 3 "); /* OpenTafl ends it with a blank */
    host_send(&h, "position /3t3/3t3/3T3/ttTKTtt/3T3/2t4/3q3/");
    ck_assert(strncmp(host_read(&h), "error 0 position: piece 'q'", 27) == 0);
    host_send(&h, "play nobody");
    ck_assert_str_eq(host_read(&h), "error 0 play: expected attackers or defenders");
    host_send(&h, "simple-moves off");
    host_send(&h, "play defenders");
    line = host_read(&h);
    ck_assert_msg(strncmp(line, "move ", 5) == 0 && otn_parse_move(g, &pos, line + 5) != MOVE_NONE, "%s", line);
    host_end(&h);
}

START_TEST(analysis_transcript)
{
    check_analysis(RULES_OPENTAFL, "brandubh");
    check_analysis(RULES_V2, "brandubh-v2");
}
END_TEST

/* The evaluations of `analyze` (issue 34: a flipped sign or another scale
 * went unnoticed): the side to move's, in men, best first, and as large as
 * the search's own score for the same position (UGI `go`, in centipawns). */
START_TEST(analysis_values_follow_the_search_scores)
{
    /* Clear scores, far from any mate at these depths (a lone king
     * against eight attackers is a mate a second's search may see): two
     * men short, each side to move once (the start's scores are near 0). */
    static const char *const fens[] = {"3a3/3a3/3d3/aadkda1/3d3/3a3/7 a", "3a3/3a3/7/aadk1aa/3d3/3a3/3a3 d"};
    const game_t *g = variants_find("brandubh");
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd,
                 "printf 'setoption name UCI_Variant value brandubh\\nposition fen %s\\ngo depth 10\\n' | "
                 "./denham | grep '^info depth' | tail -1",
                 fens[i]);
        const char *info = strstr(shell(cmd), " score cp ");
        ck_assert_ptr_nonnull(info);
        int search_cp = atoi(info + 10);
        /* A clear score, no mate: a flipped sign would miss by twice it,
         * beyond the margin below (at least 150). */
        ck_assert_int_gt(abs(search_cp), 150);

        position_t pos;
        load_fen(g, &pos, fens[i]);
        host_t h;
        host_start(&h);
        ck_assert_str_eq(host_read(&h), "hello");
        host_send(&h, "rules " RULES_OPENTAFL);
        strcpy(cmd, "position ");
        otn_position_record(g, &pos, cmd + 9, sizeof cmd - 9);
        host_send(&h, cmd);
        host_send(&h, g->to_move(&pos) == 0 ? "side attackers" : "side defenders");
        host_send(&h, "analyze 3 1");
        const char *line = host_read(&h);
        ck_assert_msg(strncmp(line, "analysis 3 ", 11) == 0, "%s", line);
        char copy[4096];
        snprintf(copy, sizeof copy, "%s", line + 11);
        double values[3];
        int k = 0;
        char *save = NULL;
        for (char *w = strtok_r(copy, " ", &save); w && k < 3; w = strtok_r(NULL, " ", &save))
            values[k++] = strtod(strtok_r(NULL, " ", &save), NULL);
        ck_assert_int_eq(k, 3);
        ck_assert_msg(values[0] >= values[1] && values[1] >= values[2], "not best first: %s", line);
        double cp = values[0] * 100.0, margin = abs(search_cp) / 3.0 > 150 ? abs(search_cp) / 3.0 : 150;
        ck_assert_msg(cp > search_cp - margin && cp < search_cp + margin, "%s: analysis %.2f men, search %d cp",
                      fens[i], values[0], search_cp);
        host_end(&h);
    }
}
END_TEST

/* Rules Denham does not play: the reason with `error -1` (OpenTafl shows
 * it and stops the engine's game), then the engine's part ends. */
START_TEST(refused_rules_end_the_engine)
{
    static const char *const rules[] = {"rules dim:9 start:/9/", "rules dim:7 ks:s cenhe: cenh: start:" START,
                                        "rules dim:7 surf:n ks:n cenh: cenhe:tcnTCN cens: start:" START};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        host_t h;
        host_start(&h);
        ck_assert_str_eq(host_read(&h), "hello");
        host_send(&h, rules[i]);
        host_send(&h, "play attackers");
        const char *line = host_read(&h);
        ck_assert_msg(strncmp(line, "error -1 ", 9) == 0 && strlen(line) > 20, "%s", line);
        char rest[64];
        ck_assert_msg(!fgets(rest, sizeof rest, h.from_engine), "after error -1: %s", rest);
        host_end(&h);
    }
    char line[256];
    snprintf(line, sizeof line, "printf 'rules dim:7 ks:m start:%s\\nplay attackers\\n' | ./denham otep; echo rc=$?",
             START);
    const char *out = shell(line);
    ck_assert_msg(strncmp(out, "hello\nerror -1 ", 15) == 0 && strstr(out, "\nrc=1\n"), "%s", out);
    /* The rules OpenTafl sent for a Brandubh whose king may not come back
     * to the throne (issue 63): played, not refused. */
    snprintf(line, sizeof line,
             "printf 'rules dim:7 name:Brandub_v2 surf:n atkf:y ks:c cenre:tcnkmTCNM start:%s\nplay attackers\n' "
             "| ./denham otep --movetime 50; echo rc=$?",
             START);
    out = shell(line);
    ck_assert_msg(strncmp(out, "hello\nmove ", 11) == 0 && strstr(out, "\nrc=0\n"), "%s", out);
}
END_TEST

/* After OpenTafl refuses a move (`error 2`, an illegal move in its view)
 * Denham takes it back and offers another, never the same one twice in
 * that position; after OpenTafl accepts a move nothing is taken back. */
START_TEST(a_refused_move_is_never_offered_again)
{
    const game_t *g = variants_find("brandubh");
    host_t h;
    host_start(&h);
    ck_assert_str_eq(host_read(&h), "hello");
    host_send(&h, "rules " RULES_OPENTAFL);
    char seen[6][OTN_MOVE_MAX];
    for (int i = 0; i < 6; i++) {
        host_send(&h, "play attackers");
        const char *line = host_read(&h);
        ck_assert_msg(strncmp(line, "move ", 5) == 0, "%s", line);
        snprintf(seen[i], sizeof seen[i], "%s", line + 5);
        for (int k = 0; k < i; k++)
            ck_assert_msg(strcmp(seen[k], seen[i]) != 0, "'%s' offered again after error", seen[i]);
        host_send(&h, i % 2 ? "error 1" : "error 2");
    }
    /* A second error for the same move takes back nothing more. */
    host_send(&h, "error 2");
    host_send(&h, "play attackers");
    const char *line = host_read(&h);
    ck_assert_msg(strncmp(line, "move ", 5) == 0, "%s", line);
    position_t pos;
    g->set_start(&pos);
    move_t m = otn_parse_move(g, &pos, line + 5);
    ck_assert_msg(m != MOVE_NONE, "'%s' is not a move from the start", line);
    for (int k = 0; k < 6; k++)
        ck_assert_str_ne(seen[k], line + 5);
    /* Accepted: the move stands, and the defenders' search starts after it. */
    position_t after = pos;
    undo_t u;
    g->make(&after, m, &u);
    char cmd[OTN_POSITION_MAX + 8] = "move ";
    otn_position_record(g, &after, cmd + 5, sizeof cmd - 5);
    host_send(&h, cmd);
    host_send(&h, "error 2"); /* stale: ignored */
    host_send(&h, "play defenders");
    line = host_read(&h);
    ck_assert_msg(strncmp(line, "move ", 5) == 0 && otn_parse_move(g, &after, line + 5) != MOVE_NONE, "%s", line);
    host_end(&h);
}
END_TEST

/* ---- a fake OpenTafl host: the real binary against itself ---- */

/* The engine's move: any other line fails the test. */
static const char *wait_move(eproc_t *e)
{
    static char line[EPROC_LINE_MAX];
    int got = eproc_read_line(e, line, sizeof line, timeman_now_ms() + 10000);
    ck_assert_int_eq(got, EPROC_LINE);
    ck_assert_msg(strncmp(line, "move ", 5) == 0, "engine said '%s'", line);
    return line + 5;
}

/* Twenty games, each from a random two-ply opening the host sets up with
 * `position`, both engines told every move as OpenTafl tells them. */
START_TEST(twenty_game_session)
{
    signal(SIGPIPE, SIG_IGN); /* an engine that has said goodbye is gone */
    const game_t *g = variants_find("brandubh");
    eproc_t eng[2] = {0};
    char line[EPROC_LINE_MAX];
    for (int s = 0; s < 2; s++) {
        ck_assert(eproc_start(&eng[s], "./denham otep --movetime 5", NULL));
        ck_assert_int_eq(eproc_wait_for(&eng[s], "hello", line, sizeof line, timeman_now_ms() + 5000), EPROC_LINE);
    }
    static record_t r;
    uint64_t rng = 2026;
    int results[4] = {0}, total_plies = 0; /* draws, attackers', defenders' wins, unfinished */
    for (int game = 0; game < 20; game++) {
        position_t start;
        g->set_start(&start);
        ck_assert(record_init(&r, g, &start));
        move_t moves[MAX_MOVES];
        for (int i = 0; i < 2; i++) {
            int n = record_legal_moves(&r, moves);
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            ck_assert(record_play(&r, moves[(rng >> 33) % (uint64_t)n]));
        }
        char cmd[OTN_POSITION_MAX + 64];
        for (int s = 0; s < 2; s++) {
            ck_assert(eproc_send(&eng[s], "rules " RULES_OPENTAFL));
            ck_assert(eproc_send(&eng[s], s == 0 ? "side attackers" : "side defenders"));
            ck_assert(eproc_send(&eng[s], "start"));
            strcpy(cmd, "position ");
            otn_position_record(g, &r.pos, cmd + 9, sizeof cmd - 9);
            ck_assert(eproc_send(&eng[s], cmd));
        }
        while (record_legal_moves(&r, moves) > 0 && r.plies < 400) {
            int side = g->to_move(&r.pos);
            ck_assert(eproc_send(&eng[side], "clock -1 -1 0 0 0"));
            ck_assert(eproc_send(&eng[side], side == 0 ? "play attackers" : "play defenders"));
            char played[OTN_MOVE_MAX];
            snprintf(played, sizeof played, "%.*s", OTN_MOVE_MAX - 1, wait_move(&eng[side]));
            move_t m = otn_parse_move(g, &r.pos, played);
            ck_assert_msg(m != MOVE_NONE, "game %d ply %d: illegal '%s'", game, r.plies, played);
            ck_assert(record_play(&r, m));
            char record[OTN_POSITION_MAX];
            otn_position_record(g, &r.pos, record, sizeof record);
            snprintf(cmd, sizeof cmd, "move %s", record);
            ck_assert(eproc_send(&eng[side], cmd));
            snprintf(cmd, sizeof cmd, "opponent-move %s %s", played, record);
            ck_assert(eproc_send(&eng[1 - side], cmd));
        }
        outcome_t o = record_outcome(&r);
        int code = o.kind == OUTCOME_NONE || o.kind == OUTCOME_DRAW ? 1 : (o.players & 1) ? 2 : 3;
        results[o.kind == OUTCOME_NONE ? 3 : code - 1]++;
        total_plies += r.plies;
        snprintf(cmd, sizeof cmd, "finish %d", code);
        for (int s = 0; s < 2; s++)
            ck_assert(eproc_send(&eng[s], cmd));
    }
    for (int s = 0; s < 2; s++) {
        ck_assert(eproc_send(&eng[s], "goodbye"));
        eproc_stop(&eng[s], 2000);
    }
    /* The games end by the rules (a win, or a draw by repetition or a
     * blocked side), not at the host's ply limit, and some are won. */
    ck_assert_msg(results[3] <= 2 && results[1] + results[2] >= 2, "draws %d, attackers %d, defenders %d, unfinished %d",
                  results[0], results[1], results[2], results[3]);
    ck_assert_int_gt(total_plies, 20 * 2);
    record_free(&r);
}
END_TEST

Suite *suite_otep(void)
{
    Suite *s = suite_create("otep");
    TCase *tc = tcase_create("otep");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, rules_strings_name_the_version);
    tcase_add_test(tc, opentafl_serializer_strings);
    tcase_add_test(tc, positions_and_moves_round_trip);
    tcase_add_test(tc, whole_game_transcript);
    tcase_add_test(tc, analysis_transcript);
    tcase_add_test(tc, refused_rules_end_the_engine);
    tcase_add_test(tc, analysis_values_follow_the_search_scores);
    tcase_add_test(tc, a_refused_move_is_never_offered_again);
    tcase_add_test(tc, twenty_game_session);
    suite_add_tcase(s, tc);
    return s;
}
