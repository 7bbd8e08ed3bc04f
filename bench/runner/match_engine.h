/*
 * match_engine.h: an engine process of a match started and set up: its
 * handshake (`ugi`, the `option` lines it declares, `ugiok`), the variant
 * and every option.NAME=VALUE of the command line checked against those
 * lines and sent, each answered by `readyok` after `isready` with no
 * refusal on the way. A handshake that fails is the setting's failure, not
 * a game the engine lost: match.c stops the match with the reason.
 * Speaks to engines through engine_proc.h only; knows no game.
 */
#ifndef DENHAM_MATCH_ENGINE_H
#define DENHAM_MATCH_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "../../protocol/common/engine_proc.h"
#include "match.h"

#define MATCH_HANDSHAKE_MS 10000 /* each answer of the handshake */
#define MATCH_ENGINE_WHY 600

/* Starts engine ec as process p (initialised, not running), playing
 * `variant`: true when it is ready for a game; else false with the engine
 * ended and why filled: it could not be started, it ended or fell silent
 * before `ugiok` or `readyok` (with its exit status), it declares no such
 * option, the value is outside what it declares, or it answered a
 * `setoption` with a refusal (an `info string error ...` line, or
 * `No such option ...`, `Unknown option ...`, `error ...`), quoted. line
 * is scratch space of EPROC_LINE_MAX bytes. */
bool match_engine_start(eproc_t *p, const engine_cfg_t *ec, const char *variant, const char *log_path, char *line,
                        char *why, size_t why_len);

/* The handshake of match_engine_start with engine p already started. */
bool match_engine_handshake(eproc_t *p, const engine_cfg_t *ec, const char *variant, const char *log_path, char *line,
                            char *why, size_t why_len);

/* Is this line of an engine its refusal of what it was just sent? */
bool match_engine_refusal(const char *line);

#endif
