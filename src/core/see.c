#include <string.h>

#include "geometry.h"
#include "position.h"
#include "see.h"

/* Can a piece pc, dist squares away along a diagonal (or orthogonal) line, capture there? */
static int reaches(uint8_t pc, int dist, int diagonal)
{
    int t = PTYPE(pc);
    if (t == QUEEN || (pc & POWER_BIT))
        return 1;
    switch (t) {
    case BISHOP: return diagonal;
    case ROOK: return !diagonal;
    case KING: return dist == 1;
    case QGUARD: return diagonal ? dist <= 3 : dist == 1;
    case KGUARD: return diagonal ? dist == 1 : dist <= 3;
    default: return 0;
    }
}

/* The steps as compile-time constants (geo_king and geo_knight are not, in this file), so
 * the unrolled loops below need no table loads. Diagonals come last, as reaches() expects. */
static const int KING_STEPS[8] = { DIR_N, DIR_S, DIR_E, DIR_W, DIR_NE, DIR_NW, DIR_SE, DIR_SW };
static const int KNIGHT_STEPS[8] = { 2 * MB_W + 1, 2 * MB_W - 1, -2 * MB_W + 1, -2 * MB_W - 1,
                                     MB_W + 2,     MB_W - 2,     -MB_W + 2,     -MB_W - 2 };

/* The square of side's cheapest piece attacking sq on board b, or 0. */
static int cheapest_attacker(const uint8_t *b, int sq, int side, const EvalParams *ep)
{
    int back = side == WHITE ? -MB_W : MB_W;
    uint8_t pawn = MAKE_PIECE(PAWN, side), knight = MAKE_PIECE(KNIGHT, side);
    if (b[sq + back - 1] == pawn)
        return sq + back - 1;
    if (b[sq + back + 1] == pawn)
        return sq + back + 1;
    for (int i = 0; i < 8; i++)
        if (b[sq + KNIGHT_STEPS[i]] == knight)
            return sq + KNIGHT_STEPS[i];
    int best = 0, best_value = 1 << 30;
    for (int i = 0; i < 8; i++) {
        int d = KING_STEPS[i], s = sq + d, dist = 1;
        while (b[s] == EMPTY)
            s += d, dist++;
        uint8_t p = b[s];
        if (p == OFF || PCOLOR(p) != side || !reaches(p, dist, i >= 4))
            continue;
        int value = eval_piece_value(ep, PTYPE(p));
        if (value < best_value)
            best_value = value, best = s;
    }
    return best;
}

int see_value(const Position *pos, Move m, const EvalParams *ep)
{
    int flag = MV_FLAG(m);
    if (flag == MF_CASTLE)
        return 0;
    uint8_t b[MB_SIZE];
    memcpy(b, pos->board, sizeof b);
    int from = MV_FROM(m), to = MV_TO(m), side = PCOLOR(b[from]);
    int gain[40], d = 0;
    gain[0] = flag == MF_EP ? eval_piece_value(ep, PAWN)
                            : (b[to] ? eval_piece_value(ep, PTYPE(b[to])) : 0);
    int on_square = eval_piece_value(ep, PTYPE(b[from]));
    if (flag == MF_PROMO || flag == MF_PROMO_WAIVED) {
        int promo = eval_piece_value(ep, MV_PROMO(m));
        gain[0] += promo - eval_piece_value(ep, PAWN);
        on_square = promo;
    }
    if (flag == MF_EP)
        b[to + (side == WHITE ? -MB_W : MB_W)] = EMPTY;
    b[to] = b[from];
    b[from] = EMPTY;
    side = !side;
    while (d < 38) {
        int sq = cheapest_attacker(b, to, side, ep);
        if (!sq)
            break;
        d++;
        gain[d] = on_square - gain[d - 1]; /* if the exchange stopped after this capture */
        on_square = eval_piece_value(ep, PTYPE(b[sq]));
        b[to] = b[sq];
        b[sq] = EMPTY;
        side = !side;
    }
    /* Each side may stop capturing when going on would lose. */
    for (; d > 0; d--)
        gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
    return gain[0];
}
