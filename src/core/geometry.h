/* Board geometry: directions, square conversions and the tables built once at start-up. */
#ifndef RC_GEOMETRY_H
#define RC_GEOMETRY_H

#include "types.h"

enum { DIR_N = MB_W, DIR_S = -MB_W, DIR_E = 1, DIR_W = -1,
       DIR_NE = MB_W + 1, DIR_NW = MB_W - 1, DIR_SE = -MB_W + 1, DIR_SW = -MB_W - 1 };

/* Defined here, static, so that every file sees the steps as constants: a loop over them
 * that the compiler unrolls then walks with constant offsets instead of loaded ones. */
static const int geo_orth[4] = { DIR_N, DIR_S, DIR_E, DIR_W };
static const int geo_diag[4] = { DIR_NE, DIR_NW, DIR_SE, DIR_SW };
static const int geo_king[8] = { DIR_N, DIR_S, DIR_E, DIR_W, DIR_NE, DIR_NW, DIR_SE, DIR_SW };
static const int geo_knight[8] = { 2 * MB_W + 1, 2 * MB_W - 1, -2 * MB_W + 1, -2 * MB_W - 1,
                                   MB_W + 2,     MB_W - 2,     -MB_W + 2,     -MB_W - 2 };

/* Public square (rank * files + file) <-> mailbox square. */
static inline int geo_to_mailbox(int pub, int files) { return SQ(pub % files, pub / files); }
static inline int geo_to_public(int sq, int files) { return RANK_OF(sq) * files + FILE_OF(sq); }

/* Rank counted from colour's own side, 0-based (0 = its first rank). */
static inline int geo_rel_rank(int sq, int color, int ranks)
{
    return color == WHITE ? RANK_OF(sq) : ranks - 1 - RANK_OF(sq);
}

static inline int geo_on_board(int sq, int files, int ranks)
{
    int f = FILE_OF(sq), r = RANK_OF(sq);
    return sq >= 0 && sq < MB_SIZE && f >= 0 && f < files && r >= 0 && r < ranks;
}

#endif
