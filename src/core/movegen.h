/* Move generation for both games: pseudo-legal moves, the legality filter, castling. */
#ifndef RC_MOVEGEN_H
#define RC_MOVEGEN_H

#include "types.h"

void gen_legal(Position *pos, MoveList *list);
/* The legal captures and promotions (quiescence's moves), in the order gen_legal gives them,
 * with the same effect on the piece lists. Returns whether any legal move exists at all, so
 * that a stalemate is still seen. */
int gen_legal_tactical(Position *pos, MoveList *list);
/* Every move of the side to move's pieces that ignores its own King's safety (castling
 * excluded), for explaining why a move is illegal. */
void gen_pseudo_legal(const Position *pos, MoveList *list);
int gen_count_legal(Position *pos);
/* Is m, a move seen in some position (the hash table's, a killer), legal in this one? 1 yes,
 * 0 no, -1 not decided here (Royal Chess, castling, en passant): generate and compare.
 * Leaves the position as it was, piece lists included. */
int gen_move_is_legal(Position *pos, Move m);
/* A Guard's major and minor targets, apart (pseudo-legal, for user interfaces). */
void gen_guard_targets(const Position *pos, int sq, MoveList *major, MoveList *minor);
/* Kinds the side to move may promote to now (bit t set for type t). */
int gen_promotion_mask(const Position *pos);

#endif
