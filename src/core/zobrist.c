#include "zobrist.h"

ZobristKeys zob;

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void zob_init(void)
{
    /* A fixed seed keeps keys (and so search node counts) the same from run to run. */
    uint64_t s = 0x526F79616C436865ULL;
    for (int p = 0; p < 64; p++)
        for (int sq = 0; sq < MB_SIZE; sq++)
            zob.piece[p][sq] = splitmix64(&s);
    for (int i = 0; i < 16; i++)
        zob.castle[i] = splitmix64(&s);
    for (int sq = 0; sq < MB_SIZE; sq++) {
        zob.ep[sq] = splitmix64(&s);
        zob.recap[sq] = splitmix64(&s);
    }
    zob.side = splitmix64(&s);
    zob.variant = splitmix64(&s);
}
