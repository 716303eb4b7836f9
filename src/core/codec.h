/* Moves as the Python side sees them: the public move code of docs/core-binding.md. */
#ifndef RC_CODEC_H
#define RC_CODEC_H

#include "types.h"

uint64_t codec_export(const Position *pos, Move m);
/* The legal move whose public code is `code`, or 0 if there is none. */
Move codec_find_legal(Position *pos, uint64_t code);

#endif
