/* The transposition table: what earlier searches learnt about positions, by Zobrist key. */
#ifndef RC_TT_H
#define RC_TT_H

#include "types.h"

enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

typedef struct {
    uint64_t key;    /* in the table: the key xor the other fields (tt.c); probed: the key */
    Move move;
    int16_t score;   /* mate scores relative to this node, see search.c */
    int16_t eval;    /* static evaluation, or TT_NO_EVAL */
    int8_t depth;
    uint8_t bound;   /* BOUND_* in the low two bits, the search's age above them */
} TTEntry;

#define TT_NO_EVAL (-32768)

#define TT_WAYS 2
#define TT_LINE 64

/* A bucket fills one cache line of its own (48 bytes of entries, padded and aligned), so a
 * probe reads one line and the prefetch brings all of it; unpadded, half the buckets
 * straddled two lines. */
typedef struct {
    TTEntry e[TT_WAYS];
    unsigned char pad[TT_LINE - TT_WAYS * sizeof(TTEntry)];
} TTBucket;

typedef struct {
    TTBucket *bucket; /* aligned to TT_LINE, inside mem */
    void *mem;
    size_t buckets;  /* a power of two */
    uint8_t age;
} TT;

/* Allocates about mb megabytes (at least one bucket). Returns 0 when out of memory. */
int tt_init(TT *tt, size_t mb);
void tt_free(TT *tt);
void tt_clear(TT *tt);
/* Marks the start of a new search, so older entries are replaced first. */
void tt_new_search(TT *tt);
/* Copies the entry for key into *out and returns 1, or returns 0. */
int tt_probe(const TT *tt, uint64_t key, TTEntry *out);
void tt_store(TT *tt, uint64_t key, Move move, int score, int eval, int depth, int bound);
/* Asks the processor to start loading key's bucket (a hint; a no-op without GCC/Clang). */
static inline void tt_prefetch(const TT *tt, uint64_t key)
{
#if defined(__GNUC__)
    __builtin_prefetch(tt->bucket + (size_t)(key & (tt->buckets - 1)));
#else
    (void)tt;
    (void)key;
#endif
}

/* Per mille of the sampled entries written by the current search. */
int tt_hashfull(const TT *tt);

#endif
