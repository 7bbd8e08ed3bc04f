/* match_main.c: `denham-match`, the match runner's executable: picks a
 * match or a merge; holds neither's logic. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "match_args.h"
#include "match_merge.h"

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN); /* a dead engine's pipe is an error return, not a signal */
    for (int k = 1; k < argc; k++)
        if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
            match_usage(stdout);
            return 0;
        }
    if (argc > 1 && strcmp(argv[1], "--merge") == 0)
        return match_merge_main(argc - 2, argv + 2, stdout, stderr);
    static match_cfg_t cfg;
    int rc = match_args(argc, argv, &cfg);
    if (rc != MATCH_ARGS_OK)
        return rc;
    match_summary_t sum;
    if (!match_run(&cfg, stdout, &sum))
        return 1;
    match_print_summary(&cfg, &sum, stdout);
    return 0;
}
