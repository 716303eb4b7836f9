/* Zobrist keys: filled once at module start-up, read-only afterwards. */
#ifndef RC_ZOBRIST_H
#define RC_ZOBRIST_H

#include "types.h"

typedef struct {
    uint64_t piece[64][MB_SIZE];   /* indexed by the full piece code (powers included) */
    uint64_t castle[16];
    uint64_t ep[MB_SIZE];
    uint64_t recap[MB_SIZE];
    uint64_t side;
    uint64_t variant;
} ZobristKeys;

extern ZobristKeys zob;
void zob_init(void);

#endif
