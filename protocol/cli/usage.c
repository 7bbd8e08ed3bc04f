/*
 * usage.c: the usage text of every subcommand (usage.h). Words only: it
 * reads no option's value and starts nothing; each subcommand checks its
 * own arguments and calls usage_error with what was wrong. The manual page
 * (docs/man/denham.1) says the same at length; a test checks that every
 * option listed here is there.
 */
#include "usage.h"

#include <string.h>

#include "../../engine/games/variants.h"

typedef struct usage {
    const char *sub;
    const char *text; /* the synopsis, then one line per option */
} usage_t;

static const usage_t usages[] = {
    {"perft",
     "usage: denham perft VARIANT DEPTH [FEN]\n"
     "  Counts the legal move sequences of DEPTH plies (1-64) from the start position of VARIANT,\n"
     "  or from FEN, with a count per first move (divide).\n"},
    {"bench",
     "usage: denham bench [VARIANT] [DEPTH]\n"
     "  Searches VARIANT's bench positions (default brax) to DEPTH (default the variant's own) and\n"
     "  prints the node count, the fingerprint in bench/speed/bench-nodes.txt.\n"},
    {"otep",
     "usage: denham otep [--movetime MS]\n"
     "  The OpenTafl Engine Protocol on stdin/stdout (Brandubh), for the OpenTafl GUI.\n"
     "  --movetime MS     time per move when OpenTafl gives no clock (default 5000)\n"},
    {"analyse",
     "usage: denham analyse [--variant V] [--depth N | --movetime MS | --nodes N] [--multipv K] [--solve N] [--json]\n"
     "                      [FILE]\n"
     "  Analyses each position of FILE (default stdin), one `position` argument per line.\n"
     "  --variant V       the game (default brax; `denham --help` lists them)\n"
     "  --depth N         search to depth N (1-127)\n"
     "  --movetime MS     search MS milliseconds per position (default 1000)\n"
     "  --nodes N         search N nodes per position\n"
     "  --multipv K       the K best lines (1-64, default 1)\n"
     "  --solve N         also solve each position within N nodes (two players): a proven result, if found\n"
     "  --json            one JSON object per position instead of text\n"},
    {"solve",
     "usage: denham solve [--variant V] [startpos | fen F] [moves M...] [--nodes N | --seconds S] [--plies K]\n"
     "                    [--side S] [--threads T] [--hash MB] [--proof FILE] [--progress S] [--json]\n"
     "       denham solve --check FILE\n"
     "  Proves who wins a two-player position (df-pn): a win for one side, a draw (neither can force a\n"
     "  win), or unknown within the budget with the proof and disproof numbers; `--check` checks proofs.\n"
     "  --variant V       the game (default brax; two players, no dice)\n"
     "  --nodes N         stop after N positions (default: until solved; Ctrl-C stops)\n"
     "  --seconds S       or after S seconds\n"
     "  --plies K         a win within K plies (1-1000) instead of any\n"
     "  --side S          only S's win (the variant's name for the side, or p1, p2), not both\n"
     "  --threads T       search threads on one table (1-64, default 1)\n"
     "  --hash MB         the table's size in MiB (default 256)\n"
     "  --proof FILE      write the proof to FILE (PROTOCOL.md, \"Proofs\") and check it\n"
     "  --progress S      a progress line on stderr every S seconds (default 10; 0: none)\n"
     "  --json            the result as one JSON object\n"
     "  --check FILE      check the proofs in FILE (- for stdin) with the reference rules\n"},
    {"suite",
     "usage: denham suite [--variant V] [--depth N | --movetime MS | --nodes N] FILE\n"
     "  Runs the test suite FILE (positions with expected best moves or results); exit status 0\n"
     "  when every position is solved, 1 when one is not.\n"
     "  --variant V       the game (default brax)\n"
     "  --depth N         search to depth N (1-127)\n"
     "  --movetime MS     search MS milliseconds per position (default 1000)\n"
     "  --nodes N         search N nodes per position\n"},
    {"play",
     "usage: denham play [VARIANT] [--movetime MS] [--skill 0-20] [--side p1|p2|p3|p4|both|none]\n"
     "  A game against Denham at the terminal (type `help` there for its commands).\n"
     "  --movetime MS     Denham's time per move (default 1000)\n"
     "  --skill N         Denham's Skill Level, 0 (weakest) to 20 (full strength, the default)\n"
     "  --side S          the seat you play: p1 (default) to p4, both, or none to watch\n"},
    {"datagen",
     "usage: denham datagen --variant V --games N (--nodes N | --depth N) --out FILE [options]\n"
     "  Self-play games; every quiet position searched is written with the game's result, for\n"
     "  `denham tune` (format: PROTOCOL.md, \"Training data\").\n"
     "  --variant V       the game\n"
     "  --games N         how many games (1-100000000)\n"
     "  --nodes N         search each move to N nodes\n"
     "  --depth N         or to depth N (1-127)\n"
     "  --out FILE        where the positions go\n"
     "  --threads T       games played at once (1-256, default 1)\n"
     "  --seed S          the random openings' seed (default 1)\n"
     "  --shard K/N       play only the K-th of N equal shares of the games\n"
     "  --book FILE       start each game from a line of FILE (one `position` argument per line)\n"
     "  --random-plies P  random plies after the book line (0-100, default 8)\n"
     "  --max-plies P     a game longer than P plies is adjudicated a draw (1-100000, default 400)\n"},
    {"tune",
     "usage: denham tune --variant V [--threads T] [--iterations N] [--rate R] [--freeze NAMES]... FILE...\n"
     "       denham tune --variant V --network OUT [--epochs N] [--rate R] [--result-weight W] [--seed S] FILE...\n"
     "  Fits the evaluation's weights to the results in datagen FILEs and prints the new table;\n"
     "  with --network, trains the game's network on them instead and writes it to OUT.\n"
     "  --variant V       the game\n"
     "  --threads T       threads (1-64, default 1)\n"
     "  --iterations N    optimiser steps (0-1000000, default 2000)\n"
     "  --rate R          the optimiser's step size (above 0, at most 1000; default 1, and\n"
     "                    0.001 with --network)\n"
     "  --freeze NAMES    keep these weights (comma-separated names, as `eval` shows them)\n"
     "  --network OUT     train the network (brandubh, bolix) and write its file to OUT\n"
     "  --epochs N        passes over the data (0-10000, default 20)\n"
     "  --result-weight W the game's result's share of the target, the search's score the\n"
     "                    rest (0-1, default 0.5)\n"
     "  --seed S          the net's first weights and the order of the samples (default 1)\n"},
    {"serve",
     "usage: denham serve [--port N] [--host ADDR] [--engine CMD] [--max-sessions N] [--idle-seconds N]\n"
     "                    [--max-hash-mb N] [--max-threads N] [--max-search-threads N] [--watch FILE]...\n"
     "  The board in a browser: serves the web app and gives each tab an engine; prints the address.\n"
     "  --port N          the TCP port (0-65535, default 8080; 0: any free one)\n"
     "  --host ADDR       the address to listen on (default 127.0.0.1, loopback only)\n"
     "  --engine CMD      the engine each tab gets, a shell command (default this denham)\n"
     "  --max-sessions N  engines at once, one per tab (1-64, default 8)\n"
     "  --idle-seconds N  a tab that sends nothing this long loses its engine (1-86400, default 600)\n"
     "  --max-hash-mb N   the most Hash a tab may set; more is capped (1-16384, default: half the\n"
     "                    memory over --max-sessions)\n"
     "  --max-threads N   the most Threads a tab may set; more is capped (1-256, default: the cores)\n"
     "  --max-search-threads N\n"
     "                    threads searching at once, every tab's together; a search beyond waits for\n"
     "                    one to end (1-4096, default: the cores)\n"
     "  --watch FILE      show a running match at /watch, from the live file denham-match writes\n"
     "                    (again for each shard's file, up to 16); only these files are read; the\n"
     "                    /watch address is printed after the board's\n"},
};

#define USAGE_COUNT ((int)(sizeof usages / sizeof usages[0]))

static const char overview[] =
    "usage: denham                 the UGI/UCI protocol on stdin/stdout (`help` there lists its commands;\n"
    "                              PROTOCOL.md describes them)\n"
    "       denham SUBCOMMAND ...  one of:\n"
    "  serve      the board in a browser (prints the address to open)\n"
    "  play       a game against Denham at the terminal\n"
    "  analyse    analyses positions from a file or stdin (text or JSON lines)\n"
    "  suite      runs a test suite of positions\n"
    "  solve      proves who wins a position, with a proof anyone can check\n"
    "  perft      counts move sequences (divide)\n"
    "  bench      the search benchmark and its node-count fingerprint\n"
    "  otep       the OpenTafl Engine Protocol (Brandubh)\n"
    "  datagen    self-play training data\n"
    "  tune       fits the evaluation's weights to training data\n"
    "`denham SUBCOMMAND --help` gives its options; the whole manual: `man -l docs/man/denham.1` in the\n"
    "source tree, `man denham` once installed.\n";

/* The variants, from the registry, so that the list cannot fall behind. */
static void print_variants(FILE *out)
{
    fputs("variants:", out);
    for (int i = 0; variants_at(i); i++)
        fprintf(out, " %s%s", variants_at(i)->name, i == 0 ? " (default)" : "");
    fputc('\n', out);
}

static const usage_t *usage_find(const char *sub)
{
    for (int i = 0; i < USAGE_COUNT; i++)
        if (strcmp(usages[i].sub, sub) == 0)
            return &usages[i];
    return NULL;
}

bool usage_asked(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    return false;
}

int usage_print(FILE *out, const char *sub, int status)
{
    const usage_t *u = usage_find(sub);
    fputs(u ? u->text : overview, out);
    if (!u)
        print_variants(out);
    return status;
}

int usage_error(const char *sub, const char *arg, const char *why)
{
    const char *space = *sub ? " " : "";
    if (arg)
        fprintf(stderr, "denham%s%s: '%s': %s\n", space, sub, arg, why);
    else
        fprintf(stderr, "denham%s%s: %s\n", space, sub, why);
    return usage_print(stderr, sub, 2);
}
