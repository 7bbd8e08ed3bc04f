/*
 * multipv.h: the best lines of a search (its MultiPV) as records, for
 * OTEP's analysis and `denham analyse --multipv`: what the last completed
 * iteration reported, line by line.
 * Reaches the searcher through search.h only.
 */
#ifndef DENHAM_MULTIPV_H
#define DENHAM_MULTIPV_H

#include "search.h"

typedef struct pv_line {
    score_t score;
    int mate; /* as in search_info_t */
    int depth;
    int seldepth;
    uint64_t nodes;
    bool tables;     /* as in search_info_t */
    uint64_t tbhits; /* as in search_info_t */
    int64_t time_ms;
    int pv_len; /* at least 1: pv[0] is the move */
    move_t pv[MAX_PLY];
} pv_line_t;

/* Searches req with k lines (at most SEARCH_MULTIPV_MAX) and fills
 * lines[0..k-1], best first (fewer when the root has fewer moves);
 * returns how many. req->multipv, report and report_ctx are used and
 * restored; the search still reports to req->report as usual. */
int multipv_search(searcher_t *s, search_request_t *req, int k, pv_line_t *lines);

#endif
