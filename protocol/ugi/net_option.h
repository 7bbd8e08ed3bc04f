/* net_option.h: the UGI options UseNetwork and EvalFile, which choose the
 * learned evaluation of every game that has one (game_t.net). */
#ifndef DENHAM_NET_OPTION_H
#define DENHAM_NET_OPTION_H

#include <stdbool.h>
#include <stddef.h>

#define NET_OPTION_EMBEDDED "<embedded>"

/* UseNetwork's values: `auto` (the default), each game's own choice: its
 * net where an SPRT at equal time accepted it (game_net_t.by_default), its
 * hand-written evaluation elsewhere; `true`, every game's net; `false`,
 * none. */
typedef enum net_use { NET_USE_AUTO, NET_USE_ALL, NET_USE_NONE } net_use_t;
#define NET_OPTION_USE_VALUES "var auto var true var false"
void net_option_use(net_use_t how);
/* The value's meaning (any case); false when it is none of them. */
bool net_option_parse_use(const char *value, net_use_t *how);

/* EvalFile: reads the net at path and puts it in the place of the
 * embedded net of the game its header names; NET_OPTION_EMBEDDED (or "")
 * goes back to the embedded nets. False, with why, when the file is not a
 * net of a game that has one; the nets in use then stay. */
bool net_option_load(const char *path, char *why, size_t len);

#endif
