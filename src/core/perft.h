/* Perft: count the leaf nodes of the legal move tree (the proof of the move generator). */
#ifndef RC_PERFT_H
#define RC_PERFT_H

#include "types.h"

/* bulk: count the legal moves at depth 1 instead of making them. */
uint64_t perft(Position *pos, int depth, int bulk);

#endif
