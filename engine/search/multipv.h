/*
 * multipv.h: several best lines by exclusion: the best move, then the best
 * of the others, and so on, each a search of its own with the request's
 * limits. For OTEP's analysis and `denham analyse --multipv`; a MultiPV
 * inside one search (issue 11) will replace it.
 */
#ifndef DENHAM_MULTIPV_H
#define DENHAM_MULTIPV_H

#include "search.h"

typedef struct pv_line {
    score_t score;
    int depth;
    int seldepth;
    uint64_t nodes;
    int64_t time_ms;
    int pv_len; /* at least 1: pv[0] is the move */
    move_t pv[MAX_PLY];
} pv_line_t;

/* Fills lines[0..k-1], best score first (fewer when the root has fewer moves, or the search
 * is stopped); returns how many. req->root_moves, report and report_ctx are
 * used and restored; each search reports to req->report as usual. */
int multipv_search(searcher_t *s, search_request_t *req, int k, pv_line_t *lines);

#endif
