/*
 * multipv.c: the lines of a MultiPV search, kept.
 * Reaches the searcher through search.h only; knows no game's rules.
 */
#include "multipv.h"

#include <string.h>

typedef struct capture {
    pv_line_t *lines;
    int found;     /* lines of the depth last reported */
    int depth;
    search_report_fn report; /* the caller's, passed on */
    void *report_ctx;
} capture_t;

/* Keeps the lines of the deepest iteration reported. */
static void capture_report(void *ctx, const position_t *root, const search_info_t *info)
{
    capture_t *c = ctx;
    if (info->bound != SEARCH_EXACT) { /* progress, not a line */
        if (c->report)
            c->report(c->report_ctx, root, info);
        return;
    }
    if (info->depth != c->depth) {
        c->depth = info->depth;
        c->found = 0;
    }
    pv_line_t *l = &c->lines[c->found++];
    l->score = info->score;
    l->mate = info->mate;
    l->depth = info->depth;
    l->seldepth = info->seldepth;
    l->nodes = info->nodes;
    l->tables = info->tables;
    l->tbhits = info->tbhits;
    l->time_ms = info->time_ms;
    l->pv_len = info->pv_len;
    memcpy(l->pv, info->pv, (size_t)info->pv_len * sizeof *info->pv);
    if (c->report)
        c->report(c->report_ctx, root, info);
}

int multipv_search(searcher_t *s, search_request_t *req, int k, pv_line_t *lines)
{
    if (k > SEARCH_MULTIPV_MAX)
        k = SEARCH_MULTIPV_MAX;
    int saved_multipv = req->multipv;
    capture_t cap = {lines, 0, 0, req->report, req->report_ctx};
    req->report = capture_report;
    req->report_ctx = &cap;
    req->multipv = k;
    search_result_t r = search_run(s, req);
    req->multipv = saved_multipv;
    req->report = cap.report;
    req->report_ctx = cap.report_ctx;
    if (r.best == MOVE_NONE)
        return 0;
    if (cap.found == 0) { /* nothing reported: the move alone */
        lines[0] = (pv_line_t){.score = r.score, .mate = r.mate, .depth = r.depth, .pv_len = 1};
        lines[0].pv[0] = r.best;
        cap.found = 1;
    }
    for (int i = 0; i < cap.found; i++) { /* the whole search's, as the result counts them */
        lines[i].nodes = r.nodes;
        lines[i].tbhits = r.tbhits;
    }
    return cap.found;
}
