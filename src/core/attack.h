/* Attack detection: is a square attacked by a side (both games, all Royal Chess rules). */
#ifndef RC_ATTACK_H
#define RC_ATTACK_H

#include "types.h"

/* recap/recap_rook: a recapture right of rule 3.1c held by `by` (0 when none). */
int att_attacked(const Position *pos, int sq, int by, int recap, int recap_rook);

/* The squares of every piece of `by` that attacks sq (same rules as att_attacked), written
 * to out (room for 24); returns how many. For explanations, not for search. */
int att_attackers(const Position *pos, int sq, int by, int recap, int recap_rook, int *out);

/* Is `color`'s King attacked, counting a recapture right the opponent holds now? */
int att_in_check(const Position *pos, int color);

#endif
