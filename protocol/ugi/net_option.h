/* net_option.h: the UGI options UseNetwork and EvalFile, which choose the
 * learned evaluation of every game that has one (game_t.net). */
#ifndef DENHAM_NET_OPTION_H
#define DENHAM_NET_OPTION_H

#include <stdbool.h>
#include <stddef.h>

#define NET_OPTION_EMBEDDED "<embedded>"

/* UseNetwork: every game with a net evaluates by it (true) or by its
 * hand-written evaluation. */
void net_option_use(bool on);
/* UseNetwork's default: on where a game's net is on by default. */
bool net_option_default(void);
/* EvalFile: reads the net at path and puts it in the place of the
 * embedded net of the game its header names; NET_OPTION_EMBEDDED (or "")
 * goes back to the embedded nets. False, with why, when the file is not a
 * net of a game that has one; the nets in use then stay. */
bool net_option_load(const char *path, char *why, size_t len);

#endif
