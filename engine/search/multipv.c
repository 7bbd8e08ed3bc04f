/* multipv.c: several best lines by exclusion. */
#include "multipv.h"

#include <string.h>

typedef struct capture {
    pv_line_t *line;
    search_report_fn report; /* the caller's, passed on */
    void *report_ctx;
} capture_t;

/* Keeps the latest complete report of the running search. */
static void capture_report(void *ctx, const position_t *root, const search_info_t *info)
{
    capture_t *c = ctx;
    pv_line_t *l = c->line;
    l->score = info->score;
    l->depth = info->depth;
    l->seldepth = info->seldepth;
    l->nodes = info->nodes;
    l->time_ms = info->time_ms;
    l->pv_len = info->pv_len;
    memcpy(l->pv, info->pv, (size_t)info->pv_len * sizeof *info->pv);
    if (c->report)
        c->report(c->report_ctx, root, info);
}

int multipv_search(searcher_t *s, search_request_t *req, int k, pv_line_t *lines)
{
    const move_t *saved_moves = req->root_moves;
    int saved_n = req->n_root_moves;
    capture_t cap = {NULL, req->report, req->report_ctx};
    move_t legal[MAX_MOVES], allowed[MAX_MOVES];
    int n = req->game->gen_moves(&req->root, legal), found = 0;
    req->report = capture_report;
    req->report_ctx = &cap;
    while (found < k && !search_stopped(s)) {
        int n_allowed = 0;
        for (int i = 0; i < n; i++) {
            bool taken = false;
            for (int j = 0; j < found; j++)
                taken |= legal[i] == lines[j].pv[0];
            bool wanted = saved_n <= 0;
            for (int j = 0; j < saved_n; j++)
                wanted |= legal[i] == saved_moves[j];
            if (!taken && wanted)
                allowed[n_allowed++] = legal[i];
        }
        if (n_allowed == 0)
            break;
        req->root_moves = allowed;
        req->n_root_moves = n_allowed;
        cap.line = &lines[found];
        memset(cap.line, 0, sizeof *cap.line);
        search_result_t r = search_run(s, req);
        if (r.best == MOVE_NONE)
            break;
        if (cap.line->pv_len == 0 || cap.line->pv[0] != r.best) { /* no report: the move alone */
            cap.line->pv[0] = r.best;
            cap.line->pv_len = 1;
            cap.line->score = r.score;
            cap.line->depth = r.depth;
        }
        cap.line->nodes = r.nodes;
        found++;
    }
    /* Separate searches may rank a later line above an earlier one (the
     * table is warmer): best first. */
    for (int i = 1; i < found; i++)
        for (int j = i; j > 0 && lines[j].score > lines[j - 1].score; j--) {
            pv_line_t t = lines[j];
            lines[j] = lines[j - 1];
            lines[j - 1] = t;
        }
    req->root_moves = saved_moves;
    req->n_root_moves = saved_n;
    req->report = cap.report;
    req->report_ctx = cap.report_ctx;
    return found;
}
