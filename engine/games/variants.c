/*
 * variants.c: the registry. Adding a game means adding its variants here.
 * The only file that names every game; nothing in engine/core/ or
 * engine/search/ may include it.
 */
#include "variants.h"

#include <string.h>
#include <strings.h>

#include "brandubh/brandubh.h"
#include "brax/brax.h"
#include "bolix/bolix.h"
#include "jinxx/jinxx.h"

/* The first entry is the default variant. */
static const game_t *const variant_list[] = {
    &brax_denham,
    &brax_zillions,
    &brax_easy,
    &brax_hunt,
    &brax_3p,
    &brax_4p,
    &brandubh_v1,
    &brandubh_v2,
    &bolix,
    &jinxx_2p,
    &jinxx_3p,
    &jinxx_4p,
};

#define VARIANT_COUNT ((int)(sizeof variant_list / sizeof variant_list[0]))

const game_t *variants_default(void) { return variant_list[0]; }

const game_t *variants_find(const char *name)
{
    for (int i = 0; i < VARIANT_COUNT; i++)
        if (strcasecmp(variant_list[i]->name, name) == 0) /* GUIs capitalise: "Brandubh" */
            return variant_list[i];
    return NULL;
}

const game_t *variants_at(int i)
{
    return i >= 0 && i < VARIANT_COUNT ? variant_list[i] : NULL;
}
