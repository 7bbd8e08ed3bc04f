/*
 * web_assets.h: the web app's files, built into the binary (web/, turned
 * into a table by protocol/serve/embed_web.c at build time), so that `./denham
 * serve` needs nothing beside it and never reads a path from the disk.
 * Generated data only: no code here may read files at run time.
 */
#ifndef DENHAM_WEB_ASSETS_H
#define DENHAM_WEB_ASSETS_H

#include <stddef.h>

typedef struct web_asset {
    const char *path; /* as requested: "/index.html" */
    const char *type; /* its Content-Type */
    const unsigned char *data;
    size_t size;
} web_asset_t;

/* The file at path, or NULL: only the embedded files exist. */
const web_asset_t *web_asset(const char *path);

#endif
