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

/* Standard chess only: the pieces of one side grouped by how they attack, so that several
 * attack tests in one position look at a few pieces instead of walking eight rays each. */
typedef struct {
    int ndiag, north, nknight;
    uint8_t diag[32], orth[32], knight[32]; /* Bishops and Queens; Rooks and Queens; Knights */
    int king;
    int by;
} Attackers;

/* Builds the direction and distance tables below; called once at start-up. */
void att_init_tables(void);

/* Mailbox squares as rank * 32 + file, so that the difference of two squares tells their
 * geometry (files differ by at most 9, less than half of 32). */
extern uint8_t att_coord[MB_SIZE];
/* Indexed by att_coord[to] - att_coord[from] + ATT_DIFF_OFFSET: the step from `from` towards
 * `to` when they share a file, rank or diagonal (0 otherwise), and the kinds of piece that
 * attack `to` from `from` on an empty board (ATT_K_* bits). */
#define ATT_DIFF_OFFSET 256
enum { ATT_K_KING = 1, ATT_K_KNIGHT = 2, ATT_K_DIAG = 4, ATT_K_ORTH = 8 };
extern int8_t att_line_step[2 * ATT_DIFF_OFFSET];
extern uint8_t att_kind[2 * ATT_DIFF_OFFSET];

static inline int att_diff(int from, int to)
{
    return att_coord[to] - att_coord[from] + ATT_DIFF_OFFSET;
}

void att_collect(const Position *pos, int by, Attackers *a);
/* Is sq attacked by a's side (standard chess, pieces as collected, board as it is now)? */
int att_attacked_by(const uint8_t *board, const Attackers *a, int sq);

#endif
