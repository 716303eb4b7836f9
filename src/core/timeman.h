/* Time: a monotonic clock and the time budget of one move. */
#ifndef RC_TIMEMAN_H
#define RC_TIMEMAN_H

#include <stdint.h>

/* Milliseconds from an arbitrary fixed point, never going back. */
int64_t tm_now_ms(void);

/* The budget for one move, in ms from the start of the search: after `soft` no new iteration
 * is begun, at `hard` the search stops. From the clock (time left, increment, moves to the
 * next time control or 0) or from a fixed time per move (movetime > 0). `overhead` is kept in
 * hand for the transport (pipes, the GUI). */
void tm_budget(int64_t time_left, int64_t inc, int movestogo, int64_t movetime,
               int64_t overhead, int64_t *soft, int64_t *hard);

#endif
