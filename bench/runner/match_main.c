/* match_main.c: `denham-match`, the match runner's executable: picks a
 * match or a merge; holds neither's logic. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "match_args.h"
#include "match_merge.h"

/* The first Ctrl-C: no more games; the second: the default, at once. */
static void on_interrupt(int sig)
{
    (void)sig;
    static const char msg[] = "\ndenham-match: interrupted: the games in progress finish, then the summary "
                              "(Ctrl-C again to quit at once)\n";
    match_interrupt();
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
}

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
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    match_summary_t sum;
    int status = match_run(&cfg, stdout, &sum);
    if (status != MATCH_EXIT_OK)
        return status;
    match_print_summary(&cfg, &sum, stdout);
    return match_exit_status(&cfg, &sum);
}
