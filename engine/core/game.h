/*
 * game.h: the one interface every game implements.
 *
 * The search, perft, the game record and the protocol reach a game only
 * through a `game_t`. Each variant is one `game_t` value; variants of one
 * game share functions and differ in the data their positions carry.
 *
 * Contract, and why it has this shape:
 *
 * Positions. A position is an opaque `position_t` of GAME_POS_BYTES; the game
 * casts it to its own struct. Fixed-size storage lets generic code keep
 * positions on the stack and in arrays without allocation. A position holds
 * everything the rules depend on except the repetition history (side to move,
 * counters, Brax state, ko cell, rolled die face), so its FEN string alone
 * restores it exactly: parse_fen(write_fen(p)) == p.
 *
 * Players and teams. Players are seats numbered 0..players-1 in turn order
 * of the start position (player 0 is UGI's "p1"). Each seat belongs to a
 * team for the whole game (team_of); two-sided games have teams 0 and 1,
 * the Brax team games put two seats on one team, and free-for-all games
 * (Jinxx for 3 and 4) give every seat a team of its own. Who is still in is
 * a property of the position (players_in): a Brax player without men or a
 * vaporized Jinxx player leaves, and the turn order skips them.
 *
 * Scores are from the point of view of the team to move. The two-team
 * searcher negates a child's score only when the team to move changes, which
 * is what lets one player move twice in a row (Blue in brax-3p) or partners
 * follow each other when an opponent is out (brax-4p). Free-for-all games
 * also give a value per player (evaluate_players) for searches that keep a
 * vector of scores or play one player against the rest.
 *
 * Outcomes name a set of players (a bit mask), not a side: the winners (a
 * whole team in the team games), or for a draw the players still in who
 * share it. One mask serves two-sided, team and free-for-all games alike.
 *
 * Moves. gen_moves writes every legal move (see types.h for the flag bits)
 * and returns how many. It returns 0 exactly when the game is over, apart
 * from repetition, which needs history the position does not hold. Games in
 * which a player must pass generate an explicit pass move. Then `outcome`
 * tells who won. Keeping "no moves" and "game over" the same fact saves the
 * search a separate terminal test at every node. `decided` is the cheap part
 * of that test (no move generation), for quiescence and the protocol.
 *
 * Compound moves (Bolix place-and-remove, a Brax move with its call) are one
 * move_t: the game packs all parts into the low bits, so every generic tool
 * treats them as single moves, and two moves that differ in any part differ.
 *
 * Chance. A game with dice (Jinxx) keeps the die in the position: a position
 * is either a decision node (a player chooses a move) or a chance node (the
 * next event is a roll). `chance_outcomes` is non-NULL for such games; at a
 * chance node it returns the number of outcomes (> 0), each a move_t that
 * make() applies like any move, with an integer weight (its probability is
 * weight / sum of weights); at a decision node it returns 0. gen_moves at a
 * chance node lists the same outcomes, so perft, records and move text treat
 * a roll as a move; the searcher averages over them instead of choosing.
 * Deterministic games leave it NULL.
 *
 * Make/unmake. make() applies a legal move in place and fills an undo
 * record; unmake() with the same record restores the position bit for bit,
 * hash included. The record is opaque, GAME_UNDO_WORDS words: a game whose
 * position fits copies it whole (the cheapest unmake for small positions);
 * a larger one keeps only what the move changed. Each game checks with a
 * static assertion that its record fits.
 *
 * Hashing. hash() is the Zobrist key of the position, updated incrementally
 * by make(); equal positions (in the sense of repetition) have equal keys.
 *
 * Evaluation. evaluate() scores a position that is not over, from the point
 * of view of the team to move, in centipawn-like units (one ordinary man is
 * about 100). With a trace it also records its terms for the `eval` command.
 *
 * Solved endings. A game that has solved some positions (Brax: two men
 * against one) gives their exact value through probe_ending, as a result and
 * the plies to the end; the searcher takes it instead of searching, which
 * keeps the game's knowledge in the game and the search generic.
 */
#ifndef DENHAM_GAME_H
#define DENHAM_GAME_H

#include <assert.h>
#include <stddef.h>

#include "json.h"
#include "rng.h"
#include "types.h"

#define GAME_POS_BYTES 320
#define GAME_UNDO_WORDS 16
#define GAME_FEN_MAX 256
#define GAME_MOVE_TEXT_MAX 32
#define GAME_BOARD_TEXT_MAX 4096

typedef union position {
    uint64_t align;
    unsigned char bytes[GAME_POS_BYTES];
} position_t;

typedef struct undo {
    uint64_t w[GAME_UNDO_WORDS];
} undo_t;

typedef enum outcome_kind { OUTCOME_NONE, OUTCOME_DRAW, OUTCOME_WIN } outcome_kind_t;

/* A set of players: bit p is player p. */
typedef uint8_t player_mask_t;

static inline player_mask_t player_bit(int p) { return (player_mask_t)(1u << p); }

/* The lowest-numbered player in a non-empty mask. */
static inline int player_first(player_mask_t m)
{
    int p = 0;
    while (!(m & player_bit(p)))
        p++;
    return p;
}

/* Where and why a game ended, for people (explain_result): the cells that
 * decided it, by the names the game's view gives them (PROTOCOL.md,
 * "Describing the game"), and one sentence that starts with a capital and
 * ends with a full stop ("The king reached the corner g7."). */
#define GAME_DECISIVE_MAX 32
#define GAME_CELL_NAME_MAX 16
#define GAME_WHY_TEXT_MAX 240
typedef struct game_why {
    int cells;
    char cell[GAME_DECISIVE_MAX][GAME_CELL_NAME_MAX];
    char text[GAME_WHY_TEXT_MAX];
} game_why_t;

/* Appends a cell name to why (nothing when full or already there). */
void game_why_add(game_why_t *why, const char *cell);

/* Why a move is refused: at most this long, with the move's text. */
#define GAME_ILLEGAL_MAX 320

typedef struct outcome {
    outcome_kind_t kind;
    /* OUTCOME_WIN: the winners (one player, or a whole team); OUTCOME_DRAW:
     * the players still in, who share the draw; OUTCOME_NONE: 0. */
    player_mask_t players;
    const char *reason; /* short, for people: "king captured" */
} outcome_t;

#define EVAL_TERMS_MAX 16

/* Which part of its moves a game's generator lists (gen_moves, gen_noisy,
 * gen_captures, gen_quiet). */
typedef enum gen_part { GEN_ALL, GEN_NOISY, GEN_CAPTURES, GEN_QUIET } gen_part_t;

/* Is m one of the n moves of set? */
static inline bool move_in(move_t m, const move_t *set, int n)
{
    for (int i = 0; i < n; i++)
        if (set[i] == m)
            return true;
    return false;
}

/* One weight of an evaluation: a named number the evaluation multiplies a
 * feature of the position by (a man's value, a point of mobility). */
typedef struct eval_weight {
    const char *name; /* as `eval` shows it and a tuner writes it */
    int value;
} eval_weight_t;

#define EVAL_WEIGHTS_MAX 32

/* A game's weights, kept as data in its evaluation file: the evaluation
 * reads them, a tuner may change them. Tables derived from them (Brax's
 * value of each point, Bolix's window sums) are rebuilt by `changed`. */
typedef struct eval_weights {
    eval_weight_t *w;
    int count;
    void (*changed)(void);
} eval_weights_t;

/* Each term's value per team (teams 0 and 1 in two-sided games, one per
 * player in free-for-all games). In two-sided games the total is the
 * difference, from team 0's point of view.
 *
 * The same value again by weight: coef[k][team] is the feature weight k
 * multiplies, so that for every team the terms sum to
 *   sum over k of w[k].value * coef[k][team] + fixed[team],
 * fixed holding what no weight scales (Brax's drawn endings). A tuner
 * fits the weights on these coefficients. */
typedef struct eval_trace {
    int count;
    struct {
        const char *name;
        int value[MAX_PLAYERS];
    } term[EVAL_TERMS_MAX];
    int coef[EVAL_WEIGHTS_MAX][MAX_PLAYERS];
    int fixed[MAX_PLAYERS];
} eval_trace_t;

/* A solved position's value for the side to move, with best play (the
 * winner taking the shortest way, the loser the longest). */
typedef enum ending_result { ENDING_LOSS = -1, ENDING_DRAW = 0, ENDING_WIN = 1 } ending_result_t;

typedef struct ending {
    ending_result_t result;
    int plies; /* to the end of the game (0 for a draw) */
} ending_t;

struct nnue;

/* A game's learned evaluation (engine/learn/nnue.h), where it has one:
 * what its net reads and which net is in use. The UGI options UseNetwork
 * and EvalFile set `use` and `loaded` (never during a search); the game's
 * evaluate reads them. A position caches the net's first layer only once
 * `refresh` has filled it (the search does so for its root); make and
 * unmake keep it, and evaluate computes it afresh where it is not cached. */
#define GAME_NET_ACTIVE_MAX 128
typedef struct game_net {
    const char *name; /* the game a net file's header must name */
    int inputs, max_active, symmetries;
    /* The features on in pos seen under symmetry sym (0: as it stands; all
     * give the same value), and the head to read; returns how many. */
    int (*features)(const position_t *pos, int sym, uint16_t *out, int *head);
    /* What the evaluation adds to the net's output in pos, in centipawns
     * for team 0 (terms no feature shows, as Bolix's capture threats);
     * training fits the net to the rest. NULL: nothing, the net is all. */
    int (*base)(const position_t *pos);
    const struct nnue *embedded; /* built in: the file the build embeds */
    const struct nnue *loaded;   /* EvalFile's; NULL: the embedded one */
    bool use;                    /* UseNetwork; starts as by_default */
    bool by_default;             /* UseNetwork's default: the SPRT's verdict */
} game_net_t;

/* The net evaluate uses now, or NULL for the hand-written evaluation. */
static inline const struct nnue *game_net_in_use(const game_net_t *n)
{
    return n && n->use ? (n->loaded ? n->loaded : n->embedded) : NULL;
}

typedef struct game {
    const char *name;        /* the UCI_Variant value */
    const char *description; /* one line, for people */
    int players;
    int team_of[MAX_PLAYERS];
    const char *player_names[MAX_PLAYERS];
    /* Names of teams 0 and 1 where a team has several players (NULL
     * otherwise: a team is then its player). */
    const char *team_names[2];
    bool repetition_draw; /* third occurrence of a position draws */
    /* Moves a sudden-death clock is shared over (0: TIMEMAN_PLAN_MOVES). */
    int clock_moves;
    int move_keys;        /* move_key() returns 0..move_keys-1 */

    /* Fixed bench positions (FEN, NULL-terminated) and depth. */
    const char *const *bench_fens;
    int bench_depth;

    void (*set_start)(position_t *pos);
    /* On failure, writes the reason to err and leaves pos unspecified. */
    bool (*parse_fen)(position_t *pos, const char *fen, char *err, size_t errlen);
    void (*write_fen)(const position_t *pos, char *buf, size_t len);
    void (*print_board)(const position_t *pos, char *buf, size_t len, bool ansi);

    /* The player to move (at a chance node: the player about to roll). */
    int (*to_move)(const position_t *pos);
    /* The players still in the game; NULL: every seat, always. */
    player_mask_t (*players_in)(const position_t *pos);
    /* The position's identity for repetition. */
    uint64_t (*hash)(const position_t *pos);
    /* The key of the transposition table when the result depends on state
     * that repetition ignores (Brax's quiet plies one against one); NULL:
     * hash. */
    uint64_t (*tt_key)(const position_t *pos);

    int (*gen_moves)(const position_t *pos, move_t *moves);
    /* A subset of gen_moves: the moves quiescence must look at. Outside a
     * must_respond position, exactly the moves flagged MOVE_NOISY. */
    int (*gen_noisy)(const position_t *pos, move_t *moves);
    /* With gen_quiet, optional: the noisy moves the search tries before the
     * killers, when not all of gen_noisy is cheap to list. Brax lists its
     * captures here and leaves the calls of quiet moves, judged one by one,
     * to gen_quiet. NULL: gen_noisy. */
    int (*gen_captures)(const position_t *pos, move_t *moves);
    /* The rest of gen_moves, in gen_moves' order: the moves without
     * MOVE_NOISY, and with gen_captures every move it does not list (noisy
     * ones too), so that the search lists them only once the moves before
     * and the killers have not cut the node off. The search stages moves
     * in games with both gen_quiet and move_legal; NULL: it generates every
     * move at once. */
    int (*gen_quiet)(const position_t *pos, move_t *moves);
    /* Number of legal moves; may be faster than gen_moves (bulk perft). */
    int (*count_moves)(const position_t *pos);
    /* True exactly when move is one of gen_moves(pos), flags included (so
     * never in a position that is over), found without listing them all.
     * The search tries the table's move before it generates any, and a
     * stored move may come from another position (a key collision), so
     * every bit is checked. NULL: the searcher generates first. */
    bool (*move_legal)(const position_t *pos, move_t move);
    void (*make)(position_t *pos, move_t move, undo_t *undo);
    void (*unmake)(position_t *pos, move_t move, const undo_t *undo);

    /* True, with the outcome, when the game is over for a reason that needs
     * no move generation (king captured, king home, five in a row). */
    bool (*decided)(const position_t *pos, outcome_t *out);
    /* The outcome of a position where gen_moves returns 0. */
    outcome_t (*outcome)(const position_t *pos);

    score_t (*evaluate)(const position_t *pos, eval_trace_t *trace);
    /* Free-for-all games: the value of the position for each player, on the
     * scale of evaluate(); players out of the game get 0. NULL elsewhere. */
    void (*evaluate_players)(const position_t *pos, score_t value[MAX_PLAYERS]);
    /* The weights evaluate and evaluate_players read (NULL: none named). */
    eval_weights_t *weights;
    /* True when the side to move faces a threat to win at once and must
     * answer it (a Bolix four), like a chess check: quiescence then does not
     * stand pat, and gen_noisy must return every answer. NULL: never. */
    bool (*must_respond)(const position_t *pos);
    /* Would must_respond hold after move (a legal move of pos)? Answered
     * without making the move, so that the search can prune a quiet move it
     * need not make. NULL: the searcher makes the move to ask. */
    bool (*gives_threat)(const position_t *pos, move_t move);
    /* Null-move pruning: gives the turn to the other side without a move
     * and returns true, when that is a sound test of the position (the
     * mover is not bound to answer a threat or a call, and zugzwang is
     * unlikely); else false, pos unchanged. The searcher restores the
     * position itself. NULL: never. */
    bool (*pass_turn)(position_t *pos);

    void (*move_text)(const position_t *pos, move_t move, char *buf, size_t len);
    /* Legal move for text in pos, or MOVE_NONE. Letters may come in either
     * case where the notation reads the same both ways (`D2E2` is `d2e2`). */
    move_t (*parse_move)(const position_t *pos, const char *text);
    /* Why text is not a legal move in pos (parse_move gave MOVE_NONE), for
     * a newcomer: the rule that refuses it ("only the king may stop on the
     * throne d4"), or for text that is no move in the game's notation, that
     * and an example of it. One phrase, a small letter first unless it
     * starts with a name ("Blue called Brax, ..."), and no full stop: it
     * follows "illegal move 'X': ". Never called once the game is over.
     * Keeps the rules in the game: the protocol only prints the phrase.
     * NULL: "it is not one of the legal moves here". */
    void (*explain_illegal)(const position_t *pos, const char *text, char *buf, size_t len);
    /* Where and why the game ended in pos (outcome or decided holds): the
     * cells that decided it (the five in a row, the king's square) and a
     * sentence. `before` and `last` are the position before the last move
     * and that move, or NULL and MOVE_NONE when unknown (a finished game set
     * up from its position string): what was taken is then not named.
     * NULL: no cells, and the outcome's reason as the sentence. */
    void (*explain_result)(const struct game *g, const position_t *pos, const position_t *before, move_t last,
                           game_why_t *why);
    /* A small index for history tables. */
    int (*move_key)(move_t move);

    /* Solved endings: true, with the exact value, when the position is in
     * one the game has solved (Brax: two men against one, one against
     * one); its history (repetitions) aside. NULL: none. */
    bool (*probe_ending)(const position_t *pos, ending_t *out);
    /* Computes once what probe_ending needs (Brax: about 90 ms): the front
     * ends call it when a game begins. A search probes the endings only
     * if they were built when it started, and never builds them (nor does
     * evaluate), so that no search waits for them; a probe of its own
     * (probe_ending called directly) builds them first. NULL: nothing. */
    void (*prepare)(void);
    /* Is prepare's work done? Never blocks and builds nothing, so that a
     * front end can wait for a build on another thread and still answer
     * `stop`. NULL with prepare. */
    bool (*prepared)(void);

    /* Chance games only (NULL otherwise); see the contract above. */
    int (*chance_outcomes)(const position_t *pos, move_t *moves, int *weights);
    /* For GUIs (PROTOCOL.md, "Describing the game"): each writes members of
     * a JSON object the front end has opened. view_board: the variant's
     * board ("cells" with drawing coordinates and shapes, "links" drawn
     * between them ([] for none), "labels", each seat's "colors");
     * view_position: what a player sees of pos ("pieces" by cell, each
     * stack bottom first, and the game's own extras: marbles in hand, the
     * die); view_move: how a person enters move m ("clicks": the cells in
     * the order a person clicks them; "removes": the cells whose pieces
     * it takes; "call"; "label"). A front end draws and builds moves from
     * these alone. */
    void (*view_board)(const struct game *g, json_t *out);
    void (*view_position)(const struct game *g, const position_t *pos, json_t *out);
    void (*view_move)(const struct game *g, const position_t *pos, move_t move, json_t *out);

    /* Free-for-all games: gives the turn to `player` (still in), before
     * its roll, as if the players between had passed. Best-Reply Search
     * uses it to let one opponent answer for all; the searcher restores the
     * position itself. NULL elsewhere. */
    void (*hand_turn)(position_t *pos, int player);

    /* The learned evaluation (NULL: none), and the call that fills a
     * position's cache of it for the net in use, or empties it when none
     * is (NULL with net). */
    game_net_t *net;
    void (*refresh)(position_t *pos);
} game_t;

static inline const char *game_team_name(const game_t *g, int t)
{
    return t < 2 && g->team_names[t] ? g->team_names[t] : g->player_names[t];
}

static inline int game_team_to_move(const game_t *g, const position_t *pos)
{
    return g->team_of[g->to_move(pos)];
}

static inline player_mask_t game_players_in(const game_t *g, const position_t *pos)
{
    return g->players_in ? g->players_in(pos) : (player_mask_t)((1u << g->players) - 1);
}

/* At a chance node: one roll drawn by its weight (the runner's and `denham
 * play`'s die; the engine itself never rolls). */
move_t game_roll(const game_t *g, const position_t *pos, rng_t *rng);

/* True when the next event at pos is a roll of the die (a chance node). */
static inline bool game_at_chance(const game_t *g, const position_t *pos)
{
    move_t rolls[MAX_MOVES];
    int weights[MAX_MOVES];
    return g->chance_outcomes && g->chance_outcomes(pos, rolls, weights) > 0;
}

/* Builds what the game's solved endings need, once (the two-player Brax
 * games: about 50 ms); the front ends call it before any timed search. */
static inline void game_prepare(const game_t *g)
{
    if (g->prepare)
        g->prepare();
}

/* eval_trace_add's and eval_trace_set's work, for a trace. */
void eval_trace_put(eval_trace_t *t, const char *name, int team0, int team1);
void eval_trace_put_one(eval_trace_t *t, const char *name, int team, int value);
/* Records one evaluation term (values for team 0 and team 1); no-op
 * without a trace or when it is full. Inline: the search evaluates
 * without a trace, and the test costs it nothing then. */
static inline void eval_trace_add(eval_trace_t *t, const char *name, int team0, int team1)
{
    if (t)
        eval_trace_put(t, name, team0, team1);
}
/* Sets team's value of the term called name, adding the term if new. */
static inline void eval_trace_set(eval_trace_t *t, const char *name, int team, int value)
{
    if (t)
        eval_trace_put_one(t, name, team, value);
}
/* Adds c to team's coefficient of weight k (no-op without a trace). */
static inline void eval_trace_coef(eval_trace_t *t, int k, int team, int c)
{
    assert(k >= 0 && k < EVAL_WEIGHTS_MAX && team >= 0 && team < MAX_PLAYERS);
    if (t)
        t->coef[k][team] += c;
}
/* Adds v to team's value that no weight scales. */
static inline void eval_trace_fixed(eval_trace_t *t, int team, int v)
{
    if (t)
        t->fixed[team] += v;
}

/* The number of teams of g (columns of an eval trace). */
static inline int game_teams(const game_t *g)
{
    int n = 0;
    for (int p = 0; p < g->players; p++)
        if (g->team_of[p] + 1 > n)
            n = g->team_of[p] + 1;
    return n;
}

/* Appends one FEN row to out at *n: cells[i] is a piece letter or 0 for
 * empty, runs of empties become digits (width <= 9). */
void fen_append_row(char *out, size_t *n, const char *cells, int width);

/* The fields after a position string's board, split at spaces: at most
 * max of them, each shorter than FEN_FIELD_MAX. Returns how many there
 * are, or -1 when there are more than max or one is too long: a field is
 * refused, never cut short. */
#define FEN_FIELD_MAX 16
int fen_fields(const char *s, char (*fields)[FEN_FIELD_MAX], int max);

/* Writes msg to err and returns false: the parse_fen failure idiom. */
bool game_fail(char *err, size_t len, const char *msg);

/* Why text is not a legal move in pos, as the protocol prints it after
 * "illegal move 'X': ": the game's explain_illegal, or the generic phrase;
 * "the game is over" once it is. */
void game_explain_illegal(const game_t *g, const position_t *pos, const char *text, char *buf, size_t len);
/* The whole refusal: "illegal move 'X': <why>" (text cut at 63 characters). */
void game_illegal_message(const game_t *g, const position_t *pos, const char *text, char *buf, size_t len);

/* Copies text to out (len bytes, cut short if longer) in lower case: the
 * games whose notation has no capital letters read moves through it. */
void game_lower(const char *text, char *out, size_t len);

/* Finds the legal move whose text is `text`, by printing every legal move.
 * Games whose move text has a single form use this as their parse_move. */
move_t game_find_move(const game_t *g, const position_t *pos, const char *text);

#endif
