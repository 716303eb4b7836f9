/* Static exchange evaluation: what a capture wins once every piece that bears on the target
 * square has joined in, cheapest first. An estimate for ordering and pruning only: Royal
 * Chess's Rook jumps are left out, and the moves it looks at need not be legal. */
#ifndef RC_SEE_H
#define RC_SEE_H

#include "eval.h"
#include "types.h"

/* Material balance of the capture m for the side making it (0 for castling). */
int see_value(const Position *pos, Move m, const EvalParams *ep);

/* see_value(pos, m, ep) >= threshold, decided with less work: the exchange stops as soon as
 * the answer is known (often before any attacker is looked for), and the attackers are found
 * incrementally. */
int see_ge(const Position *pos, Move m, const EvalParams *ep, int threshold);

#endif
