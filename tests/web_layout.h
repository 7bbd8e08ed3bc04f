/* web_layout.h: what the browser suites check of the board page's layout
 * after each step of their games (web_layout.c): no message, chooser or
 * status box covers a board cell, another control or another box, no text
 * is clipped by its box, the board area fits a desktop's window, and the
 * plot's words never print over one another; at the window's size and at
 * the other of the two sizes the suites use (a desktop's 1280x800, a
 * phone's 390x844). Reads the page through the DevTools driver only: any
 * transport the page uses to reach its engine is the same to it. */
#ifndef DENHAM_WEB_LAYOUT_H
#define DENHAM_WEB_LAYOUT_H

#include <stdbool.h>

#include "../bench/tools/cdp.h"

/* The problems at the window's size now, one a line ("" when none;
 * static, overwritten by the next call). */
const char *web_layout_problems(cdp_t *c);
/* Fails the test with the problems found at the size now and, with
 * both, at the other size too (the window is set back after: a test that
 * plays its game at both sizes checks each at its own); where: the step,
 * for the message. */
void web_layout_check(cdp_t *c, const char *where, bool both);

#endif
