/*
 * otn.c: OpenTafl Notation for Brandubh. See otn.h.
 * Reaches Brandubh through its game_t and position strings only.
 */
#include "otn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/games/variants.h"

#define SIZE 7
#define START_RECORD "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"

/* ---- rules ---- */

/* A rules entry and its value when the string leaves it out (the OTN
 * specification's defaults). */
typedef struct rule {
    const char *key;
    const char *fallback;
    char value[OTN_POSITION_MAX];
} rule_t;

enum { ESC, SURF, ATKF, KA, KS, KJ, NJ, CJ, MJ, GJ, TFR, COR, CEN, AFOR, DFOR, SPD, CORH, CENH, CENHE, AFORH,
       DFORH, CORP, CENP, AFORP, DFORP, CORS, CENS, AFORS, DFORS, CORRE, CENRE, AFORRE, DFORRE, SW, SWF, EFE,
       LINC, BER, START, STARTI, RULES };

/* The entries whose value is a list of piece letters. */
#define FIRST_LIST CORH
#define LAST_LIST DFORRE

/* Every piece letter of OTN, as OpenTafl's serializer writes its lists
 * (TaflmanCodes: taflman, commander, knight, king, mercenary, guard; small
 * for the attackers, capitals for the defenders). A list may name pieces
 * the board does not hold: they change nothing. */
#define OTN_PIECES "tcnkmgTCNKMG"

static void rules_defaults(rule_t *r)
{
    /* As OpenTafl's RulesSerializer has them (the version with
     * mercenaries): it writes only the entries that differ. */
    static const char *const table[RULES][2] = {
        {"esc", "c"},              {"surf", "y"},         {"atkf", "y"},             {"ka", "y"},
        {"ks", "s"},               {"kj", "n"},           {"nj", "c"},               {"cj", "j"},
        {"mj", "n"},               {"gj", "n"},           {"tfr", "d"},              {"cor", "default"},
        {"cen", "default"},        {"afor", ""},          {"dfor", ""},              {"spd", "-1"},
        {"corh", "tcnkmTCNKM"},    {"cenh", "tcnkm"},     {"cenhe", "tcnkmTCNKM"},   {"aforh", "TCNKM"},
        {"dforh", "tcnkm"},        {"corp", "K"},         {"cenp", "tcnkmTCNKM"},    {"aforp", "tcnkmTCNKM"},
        {"dforp", "tcnkmTCNKM"},   {"cors", "K"},         {"cens", "K"},             {"afors", "tcnkmTCNKM"},
        {"dfors", "TCNKM"},        {"corre", "tcnkmTCNKM"}, {"cenre", "tcnkmTCNKM"}, {"aforre", "tcnkmTCNKM"},
        {"dforre", "tcnkmTCNKM"},  {"sw", "n"},           {"swf", "y"},              {"efe", "n"},
        {"linc", "n"},             {"ber", "n"},          {"start", ""},             {"starti", ""},
    };
    for (int i = 0; i < RULES; i++) {
        r[i].key = table[i][0];
        r[i].fallback = table[i][1];
        snprintf(r[i].value, sizeof r[i].value, "%s", table[i][1]);
    }
}

static bool fail(char *why, size_t len, const char *fmt, const char *arg)
{
    snprintf(why, len, fmt, arg);
    return false;
}

/* Reads "dim:7 key:value ... start:<record>" into r (in any order, as long
 * as dim comes first); false with the reason. */
static bool rules_read(const char *text, rule_t *r, char *why, size_t len)
{
    char word[OTN_POSITION_MAX + 16];
    bool dim = false;
    for (const char *c = text; *c;) {
        while (*c == ' ' || *c == '\t')
            c++;
        size_t n = strcspn(c, " \t");
        if (n == 0)
            break;
        if (n >= sizeof word)
            return fail(why, len, "%s", "a rules entry is too long");
        memcpy(word, c, n);
        word[n] = 0;
        c += n;
        char *colon = strchr(word, ':');
        if (!colon)
            return fail(why, len, "rules entry '%s' has no ':'", word);
        *colon = 0;
        const char *value = colon + 1;
        if (strcmp(word, "dim") == 0) {
            if (strcmp(value, "7") != 0)
                return fail(why, len, "Denham plays Brandubh (dim:7), not dim:%s", value);
            dim = true;
            continue;
        }
        if (strcmp(word, "name") == 0) /* a label, no rule */
            continue;
        int i = 0;
        while (i < RULES && strcmp(r[i].key, word) != 0)
            i++;
        if (i == RULES)
            return fail(why, len, "unknown rules entry '%s'", word);
        snprintf(r[i].value, sizeof r[i].value, "%s", value);
    }
    if (!dim)
        return fail(why, len, "%s", "the rules have no board size (dim)");
    return true;
}

static bool has(const rule_t *r, int i, char piece) { return strchr(r[i].value, piece) != NULL; }

static bool is(const rule_t *r, int i, const char *value) { return strcmp(r[i].value, value) == 0; }

/* Speed limits (spd): one for all, one per side ("a,d,") or one per piece
 * type in OpenTafl's order (8, 10 or 12 of them, from before mercenaries,
 * before guards, and now). Only the pieces on a Brandubh board count:
 * attackers' taflmen, defenders' taflmen and king; a limit of 0 or less
 * (none) or of 6 or more (the longest move on 7 squares) changes nothing. */
static bool speeds_free(const char *spd, char *why, size_t len)
{
    int v[12], n = 0;
    for (const char *c = spd; *c && n < 12;) {
        char *end;
        long x = strtol(c, &end, 10);
        if (end == c || (*end && *end != ','))
            return fail(why, len, "rules entry spd:%s: speeds are numbers separated by commas", spd);
        v[n++] = (int)(x < -1 ? -1 : x > 99 ? 99 : x);
        c = *end ? end + 1 : end;
    }
    if (n != 1 && n != 2 && n != 8 && n != 10 && n != 12)
        return fail(why, len, "rules entry spd:%s: 1, 2, 8, 10 or 12 speeds", spd);
    int t = v[0], T = n == 1 ? v[0] : v[n / 2], K = n <= 2 ? T : v[n / 2 + 3];
    int on_board[3] = {t, T, K};
    for (int i = 0; i < 3; i++)
        if (on_board[i] > 0 && on_board[i] < 6) {
            snprintf(why, len, "rules entry spd:%s: %s may move at most %d square%s; in Denham's Brandubh every "
                     "piece moves as far as it likes", spd, i == 0 ? "an attacker" : i == 1 ? "a defender" : "the king",
                     on_board[i], on_board[i] == 1 ? "" : "s");
            return false;
        }
    return true;
}

/* The start the string gives (start:, or starti: with the ranks in the
 * other order: the Brandubh start reads the same both ways). */
static bool brandubh_start(const rule_t *r, char *why, size_t len)
{
    const char *given = r[START].value[0] ? r[START].value : r[STARTI].value;
    if (strcmp(given, START_RECORD) != 0) {
        snprintf(why, len, "Brandubh starts at %s (given '%s')", START_RECORD, given);
        return false;
    }
    return true;
}

/* Both versions' common ground; false with the first rule that differs
 * from the game Denham plays, and why. */
static bool brandubh_common(const rule_t *r, char *why, size_t len)
{
    static const struct {
        int rule;
        const char *value, *alt, *meaning;
    } fixed[] = {
        {ESC, "c", NULL, "the king escapes to a corner"},
        {ATKF, "y", NULL, "the attackers move first"},
        {KA, "y", NULL, "the king captures as the mover and as the piece beyond"},
        {KJ, "n", NULL, "the king never jumps"},
        {TFR, "d", NULL, "a position's third repetition is a draw"},
        {COR, "default", "a1,g1,a7,g7,", "the corners are a1, g1, a7 and g7"},
        {CEN, "default", "d4,", "the throne is d4"},
        {AFOR, "", NULL, "there are no forts"},
        {DFOR, "", NULL, "there are no forts"},
        {SW, "n", NULL, "there are no shieldwall captures"},
        {EFE, "n", NULL, "there are no edge fort escapes"},
        {LINC, "n", NULL, "there are no Linnaean captures against the throne"},
        {BER, "n", NULL, "there are no berserk moves"},
    };
    for (int i = FIRST_LIST; i <= LAST_LIST; i++) {
        size_t ok = strspn(r[i].value, OTN_PIECES);
        if (r[i].value[ok]) {
            snprintf(why, len, "rules entry %s:%s: '%c' is no OTN piece (t c n k m g, capitals for the defenders)",
                     r[i].key, r[i].value, r[i].value[ok]);
            return false;
        }
    }
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        const rule_t *x = &r[fixed[i].rule];
        if (!is(r, fixed[i].rule, fixed[i].value) && !(fixed[i].alt && is(r, fixed[i].rule, fixed[i].alt))) {
            snprintf(why, len, "Brandubh needs %s:%s, not '%s': in Denham's Brandubh %s", x->key, fixed[i].value,
                     x->value, fixed[i].meaning);
            return false;
        }
    }
    if (!speeds_free(r[SPD].value, why, len) || !brandubh_start(r, why, len))
        return false;
    /* The lists, for the pieces on the board (t, T, K); the forts' lists
     * and who may come back to a corner change nothing (there are no forts,
     * and the king on a corner ends the game). */
    if (!has(r, CORH, 't') || !has(r, CORH, 'T') || !has(r, CORH, 'K'))
        return fail(why, len, "%s", "Brandubh's corners are hostile to every piece (corh:tTK)");
    if (!has(r, CORP, 'K'))
        return fail(why, len, "%s", "Brandubh's king reaches a corner (corp with K)");
    if (has(r, CORS, 't') || has(r, CORS, 'T') || !has(r, CORS, 'K'))
        return fail(why, len, "%s", "only Brandubh's king stops on a corner (cors:K)");
    if (!has(r, CENP, 't') || !has(r, CENP, 'T') || !has(r, CENP, 'K'))
        return fail(why, len, "%s", "every Brandubh piece, the king too, passes the empty throne (cenp:tTK)");
    if (has(r, CENH, 'T'))
        return fail(why, len, "%s", "Brandubh's occupied throne is never hostile to defenders (cenh without T)");
    if (has(r, CENS, 't') || has(r, CENS, 'T'))
        return fail(why, len, "%s", "no Brandubh man stops on the throne (cens without t, T)");
    return true;
}

/* Refuses the rules with the reason: NULL. */
static const game_t *refuse(char *why, size_t len, const char *reason)
{
    snprintf(why, len, "%s", reason);
    return NULL;
}

/* The king's strength as OpenTafl reads ks: s strong (four attackers), c
 * strong on and beside the throne and weak elsewhere, m middleweight, w
 * weak (two attackers); y and n are the older s and w. 0 when unknown. */
static char king_strength(const rule_t *r)
{
    const char *v = r[KS].value;
    if (strcmp(v, "s") == 0 || strcmp(v, "y") == 0)
        return 's';
    if (strcmp(v, "w") == 0 || strcmp(v, "n") == 0)
        return 'w';
    if (strcmp(v, "c") == 0 || strcmp(v, "m") == 0)
        return v[0];
    return 0;
}

/* OpenTafl referees the rules string, so it must describe one version
 * exactly: the king's strength, the empty throne's hostility and whether
 * the king may come back to the throne (cens and cenre) decide which. */
const game_t *otn_rules_variant(const char *rules, char *why, size_t len)
{
    rule_t r[RULES];
    rules_defaults(r);
    if (!rules_read(rules, r, why, len) || !brandubh_common(r, why, len))
        return NULL;
    char ks = king_strength(r);
    if (!ks) {
        fail(why, len, "unknown king strength ks:%s (s, c, m or w; y and n as s and w)", r[KS].value);
        return NULL;
    }
    if (ks == 's' || ks == 'm') {
        fail(why, len,
             "Brandubh's king is captured by two attackers away from the throne: ks:w (version 1) or ks:c "
             "(version 2), not ks:%s",
             r[KS].value);
        return NULL;
    }
    bool king_returns = has(r, CENS, 'K') && has(r, CENRE, 'K');
    bool hostile_men = has(r, CENHE, 't') && has(r, CENHE, 'T');
    bool hostile_any = has(r, CENHE, 't') || has(r, CENHE, 'T') || has(r, CENHE, 'K');
    if (ks == 'w') { /* version 1: the throne is never hostile; the king may come back */
        if (hostile_any)
            return refuse(why, len,
                          "with ks:w (version 1) the empty throne is hostile to nobody (cenhe:); "
                          "version 2 is ks:c cenhe:tTK");
        if (!king_returns)
            return refuse(why, len, "in version 1 the king may come back to the throne (cens:K, cenre with K)");
        return variants_find("brandubh");
    }
    /* Version 2 (ks:c): four attackers take the king on the throne, three
     * beside it, the empty throne being the fourth: so it must be hostile to
     * the king too, as to the men of both sides. Since the king starts on
     * the throne, "nobody stops on it" (cens without K) or "nobody comes
     * back" (cenre without K) is "once the king has left it". */
    if (!hostile_men || !has(r, CENHE, 'K'))
        return refuse(why, len,
                      "with ks:c (version 2) the empty throne is hostile to the men of both sides and to the "
                      "king beside it (cenhe:tTK)");
    if (king_returns)
        return refuse(why, len,
                      "in version 2 nobody stops on the throne once the king has left it (cens: or cenre "
                      "without K)");
    return variants_find("brandubh-v2");
}

/* ---- positions ---- */

/* The board of a FEN (rank 7 first) as cells[rank][file], rank 0 = rank 1. */
static bool fen_cells(const char *fen, char cells[SIZE][SIZE])
{
    memset(cells, 0, SIZE * SIZE);
    const char *c = fen;
    for (int rank = SIZE - 1; rank >= 0; rank--) {
        int file = 0;
        for (; *c && *c != '/' && *c != ' '; c++) {
            if (*c >= '1' && *c <= '9')
                file += *c - '0';
            else if (file < SIZE)
                cells[rank][file++] = *c;
            else
                return false;
        }
        if (file != SIZE)
            return false;
        if (*c == '/')
            c++;
    }
    return true;
}

static void cells_of(const game_t *g, const position_t *pos, char cells[SIZE][SIZE])
{
    char fen[GAME_FEN_MAX];
    g->write_fen(pos, fen, sizeof fen);
    fen_cells(fen, cells);
}

bool otn_load_position(const game_t *g, const char *record, int side, position_t *pos, char *why, size_t len)
{
    char cells[SIZE][SIZE] = {{0}};
    const char *c = record;
    if (*c == '/')
        c++;
    for (int rank = 0; rank < SIZE; rank++) {
        int file = 0;
        for (; *c && *c != '/'; c++) {
            if (*c >= '1' && *c <= '9') {
                file += *c - '0';
                continue;
            }
            char piece = *c == 't' ? 'a' : *c == 'T' ? 'd' : *c == 'K' ? 'k' : 0;
            if (!piece)
                return fail(why, len, "position: piece '%.1s' is not in Brandubh (t, T, K)", c);
            if (file >= SIZE)
                return fail(why, len, "%s", "position: a rank is longer than 7 squares");
            cells[rank][file++] = piece;
        }
        if (file != SIZE)
            return fail(why, len, "%s", "position: each rank must have 7 squares");
        if (*c == '/')
            c++;
        else if (rank < SIZE - 1)
            return fail(why, len, "%s", "position: expected 7 ranks separated by '/'");
    }
    if (*c)
        return fail(why, len, "%s", "position: text after the seventh rank");
    char fen[GAME_FEN_MAX];
    size_t n = 0;
    for (int rank = SIZE - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < SIZE; file++) {
            if (!cells[rank][file]) {
                empty++;
                continue;
            }
            if (empty)
                fen[n++] = (char)('0' + empty);
            empty = 0;
            fen[n++] = cells[rank][file];
        }
        if (empty)
            fen[n++] = (char)('0' + empty);
        fen[n++] = rank ? '/' : ' ';
    }
    fen[n++] = side == 0 ? 'a' : 'd';
    fen[n] = 0;
    char err[160];
    if (!g->parse_fen(pos, fen, err, sizeof err))
        return fail(why, len, "position: %s", err);
    return true;
}

void otn_position_record(const game_t *g, const position_t *pos, char *buf, size_t len)
{
    char cells[SIZE][SIZE];
    cells_of(g, pos, cells);
    char out[OTN_POSITION_MAX];
    size_t n = 0;
    out[n++] = '/';
    for (int rank = 0; rank < SIZE; rank++) {
        int empty = 0;
        for (int file = 0; file < SIZE; file++) {
            char c = cells[rank][file];
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty);
            empty = 0;
            out[n++] = c == 'a' ? 't' : c == 'd' ? 'T' : 'K';
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        out[n++] = '/';
    }
    out[n] = 0;
    snprintf(buf, len, "%s", out);
}

/* ---- moves ---- */

static bool read_square(const char **c, char sq[3])
{
    if ((*c)[0] < 'a' || (*c)[0] > 'g' || (*c)[1] < '1' || (*c)[1] > '7')
        return false;
    sq[0] = (*c)[0];
    sq[1] = (*c)[1];
    sq[2] = 0;
    *c += 2;
    return true;
}

move_t otn_parse_move(const game_t *g, const position_t *pos, const char *text)
{
    const char *c = text;
    if (*c == 'K' || *c == 'T' || *c == 't') /* the piece letter of full notation */
        c++;
    char from[3], to[3];
    if (!read_square(&c, from) || *c++ != '-' || !read_square(&c, to))
        return MOVE_NONE;
    /* What may follow: captures ("xc3/e3") and the info symbol; Denham
     * finds both itself, so they are checked for form only. */
    if (*c == 'x') {
        do {
            c++;
            if (*c == 'T' || *c == 't' || *c == 'K')
                c++;
            char sq[3];
            if (!read_square(&c, sq))
                return MOVE_NONE;
        } while (*c == '/');
    }
    if (*c && strcmp(c, "+") != 0 && strcmp(c, "-") != 0 && strcmp(c, "++") != 0 && strcmp(c, "--") != 0)
        return MOVE_NONE;
    char denham[8];
    snprintf(denham, sizeof denham, "%s%s", from, to);
    return g->parse_move(pos, denham);
}

void otn_move_text(const game_t *g, const position_t *pos, move_t m, bool simple, char *buf, size_t len)
{
    char text[GAME_MOVE_TEXT_MAX];
    g->move_text(pos, m, text, sizeof text);
    if (simple) {
        snprintf(buf, len, "%.2s-%.2s", text, text + 2);
        return;
    }
    char before[SIZE][SIZE], after[SIZE][SIZE];
    cells_of(g, pos, before);
    position_t next = *pos;
    undo_t u;
    g->make(&next, m, &u);
    cells_of(g, &next, after);
    char out[OTN_MOVE_MAX];
    size_t n = 0;
    bool king = before[text[1] - '1'][text[0] - 'a'] == 'k';
    n += (size_t)snprintf(out + n, sizeof out - n, "%s%.2s-%.2s", king ? "K" : "", text, text + 2);
    char sep = 'x';
    for (int rank = 0; rank < SIZE; rank++)
        for (int file = 0; file < SIZE; file++)
            if (before[rank][file] && !after[rank][file] && !(file == text[0] - 'a' && rank == text[1] - '1')) {
                n += (size_t)snprintf(out + n, sizeof out - n, "%c%s%c%d", sep,
                                      before[rank][file] == 'k' ? "K" : "", 'a' + file, rank + 1);
                sep = '/';
            }
    outcome_t o;
    if (g->decided(&next, &o) && o.kind == OUTCOME_WIN)
        snprintf(out + n, sizeof out - n, "%s", (o.players & player_bit(0)) ? "++" : "--");
    snprintf(buf, len, "%s", out);
}
