#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tt.h"

int tt_init(TT *tt, size_t mb)
{
    /* As many buckets as unpadded ones would make (the same table, so the same searches,
     * for every size); the padding fits in what is left. */
    size_t bytes = mb * 1024 * 1024, bucket = TT_WAYS * sizeof(TTEntry), n = 1;
    while (n * 2 * bucket <= bytes)
        n *= 2;
    unsigned char *mem = calloc(n * sizeof(TTBucket) + TT_LINE, 1);
    if (!mem)
        return 0;
    tt->mem = mem;
    tt->bucket = (TTBucket *)(mem + (TT_LINE - (uintptr_t)mem % TT_LINE) % TT_LINE);
    tt->buckets = n;
    tt->age = 0;
    return 1;
}

void tt_free(TT *tt)
{
    free(tt->mem);
    tt->mem = NULL;
    tt->bucket = NULL;
    tt->buckets = 0;
}

void tt_clear(TT *tt)
{
    memset(tt->bucket, 0, tt->buckets * sizeof *tt->bucket);
    tt->age = 0;
}

void tt_new_search(TT *tt)
{
    tt->age = (uint8_t)((tt->age + 1) & 63);
}

static inline TTEntry *bucket_of(const TT *tt, uint64_t key)
{
    return tt->bucket[key & (tt->buckets - 1)].e;
}

/* The fields after the move, as one word. */
static inline uint64_t entry_data(const TTEntry *e)
{
    return (uint64_t)(uint16_t)e->score | (uint64_t)(uint16_t)e->eval << 16 |
           (uint64_t)(uint8_t)e->depth << 32 | (uint64_t)e->bound << 40;
}

/* An entry keeps its key xor its other words. Threads of one search share the table without
 * locks, so a probe may read an entry half written by another thread; its words then no
 * longer xor to the key it was looked up by, and the probe misses instead of mixing two
 * positions' results. */
static inline uint64_t entry_key(const TTEntry *e)
{
    return e->key ^ e->move ^ entry_data(e);
}

int tt_probe(const TT *tt, uint64_t key, TTEntry *out)
{
    const volatile TTEntry *b = bucket_of(tt, key);
    for (int i = 0; i < TT_WAYS; i++) {
        /* One read of each field (volatile), then the check on that copy. */
        TTEntry e;
        e.key = b[i].key;
        e.move = b[i].move;
        e.score = b[i].score;
        e.eval = b[i].eval;
        e.depth = b[i].depth;
        e.bound = b[i].bound;
        if (e.bound && entry_key(&e) == key) {
            e.key = key;
            *out = e;
            return 1;
        }
    }
    return 0;
}

void tt_store(TT *tt, uint64_t key, Move move, int score, int eval, int depth, int bound)
{
    TTEntry *b = bucket_of(tt, key), *slot = NULL;
    for (int i = 0; i < TT_WAYS && !slot; i++)
        if (entry_key(&b[i]) == key)
            slot = &b[i];
    if (slot) {
        /* Keep a deeper result of this very search unless the new one is exact. */
        if (bound != BOUND_EXACT && (slot->bound >> 2) == tt->age && depth < slot->depth - 2)
            return;
        if (!move)
            move = slot->move;
    } else {
        /* Replace the entry worth least: shallow, or left over from an older search. */
        int worst = 1 << 30;
        for (int i = 0; i < TT_WAYS; i++) {
            int stale = ((tt->age - (b[i].bound >> 2)) & 63) * 16;
            int worth = b[i].bound ? b[i].depth - stale : -(1 << 20);
            if (worth < worst) {
                worst = worth;
                slot = &b[i];
            }
        }
    }
    TTEntry e;
    e.move = move;
    e.score = (int16_t)score;
    e.eval = (int16_t)eval;
    e.depth = (int8_t)(depth < -100 ? -100 : depth > 127 ? 127 : depth);
    e.bound = (uint8_t)(bound | tt->age << 2);
    e.key = key ^ e.move ^ entry_data(&e);
    volatile TTEntry *v = slot;
    v->key = e.key;
    v->move = e.move;
    v->score = e.score;
    v->eval = e.eval;
    v->depth = e.depth;
    v->bound = e.bound;
}

int tt_hashfull(const TT *tt)
{
    size_t n = tt->buckets * TT_WAYS < 1000 ? tt->buckets * TT_WAYS : 1000, used = 0;
    for (size_t i = 0; i < n; i++) {
        const TTEntry *e = &tt->bucket[i / TT_WAYS].e[i % TT_WAYS];
        used += e->bound && (e->bound >> 2) == tt->age;
    }
    return (int)(used * 1000 / n);
}
