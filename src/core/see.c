#include <string.h>

#include "attack.h"
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

/* geo_king lists the orthogonal steps first, then the diagonals: line i is diagonal when
 * i >= 4, as reaches() is asked below. */

/* The attackers of the target square during an exchange, on a copy of the board: the first
 * piece along each of the 8 lines and the Knights a jump away are found once, and a line is
 * walked again only when its first piece joins the exchange, instead of walking all 8 lines
 * for every capture. */
typedef struct {
    uint8_t b[MB_SIZE];
    int to;
    int line_sq[8];       /* first occupied (or OFF) square along geo_king[i] */
    int line_dist[8];
    int line_value[2][8]; /* that piece's value for its side when it reaches the target, else
                           * NO_ATTACKER */
    unsigned knights[2];  /* bit i: a plain Knight of that side on to + geo_knight[i] */
    /* How much of the above is filled: 0 nothing, 1 the Knights, 2 the lines too. Each
     * only when the cheaper attackers before it did not answer: many exchanges end first. */
    int known;
} Exchange;

#define NO_ATTACKER (1 << 30)

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
static inline int lowest_bit(unsigned x) { return __builtin_ctz(x); }
#else
#define NOINLINE
static inline int lowest_bit(unsigned x)
{
    int i = 0;
    while (!(x >> i & 1))
        i++;
    return i;
}
#endif

/* The att_kind bits under which a piece (colour and queen powers included) may join an
 * exchange on a square: a superset of what cheapest_attacker finds (any neighbour for a
 * Pawn, any line for the Guards, every kind with queen powers). */
#define K_ALL (ATT_K_KING | ATT_K_KNIGHT | ATT_K_DIAG | ATT_K_ORTH)
#define SEE_KINDS_COLOUR                                                                   \
    0, ATT_K_KING, ATT_K_KNIGHT, ATT_K_DIAG, ATT_K_ORTH, ATT_K_DIAG | ATT_K_ORTH, ATT_K_KING, \
        ATT_K_DIAG | ATT_K_ORTH, ATT_K_DIAG | ATT_K_ORTH, 0, 0, 0, 0, 0, 0, 0
#define SEE_KINDS_POWER K_ALL, K_ALL, K_ALL, K_ALL, K_ALL, K_ALL, K_ALL, K_ALL, K_ALL, K_ALL, \
        K_ALL, K_ALL, K_ALL, K_ALL, K_ALL, K_ALL
static const uint8_t SEE_KINDS[OFF] = { SEE_KINDS_COLOUR, SEE_KINDS_COLOUR, SEE_KINDS_POWER,
                                        SEE_KINDS_POWER };

static inline void line_scan(Exchange *x, int i, int s, int dist, const EvalParams *ep)
{
    int d = geo_king[i];
    while (x->b[s] == EMPTY)
        s += d, dist++;
    uint8_t p = x->b[s];
    x->line_sq[i] = s;
    x->line_dist[i] = dist;
    x->line_value[WHITE][i] = x->line_value[BLACK][i] = NO_ATTACKER;
    if (p != OFF && reaches(p, dist, i >= 4))
        x->line_value[PCOLOR(p)][i] = eval_piece_value(ep, PTYPE(p));
}

/* (Not inlined: called once an exchange at most, and GCC then loses track of the board copy
 * being filled.) Unrolled, so that each walk gets its step as a constant. */
NOINLINE static void exchange_lines(Exchange *x, const EvalParams *ep)
{
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++)
        line_scan(x, i, x->to + geo_king[i], 1, ep);
    x->known = 2;
}

static void exchange_knights(Exchange *x)
{
    x->known = 1;
    x->knights[WHITE] = x->knights[BLACK] = 0;
    for (int i = 0; i < 8; i++) {
        uint8_t p = x->b[x->to + geo_knight[i]];
        if (p == MAKE_PIECE(KNIGHT, WHITE))
            x->knights[WHITE] |= 1u << i;
        else if (p == MAKE_PIECE(KNIGHT, BLACK))
            x->knights[BLACK] |= 1u << i;
    }
}

/* The square of side's cheapest piece attacking the target: a Pawn, then a Knight, then the
 * cheapest line piece (the first line of the cheapest value), or 0. */
static inline int exchange_attacker(Exchange *x, int side, const EvalParams *ep)
{
    int to = x->to, back = side == WHITE ? -MB_W : MB_W;
    uint8_t pawn = MAKE_PIECE(PAWN, side);
    if (x->b[to + back - 1] == pawn)
        return to + back - 1;
    if (x->b[to + back + 1] == pawn)
        return to + back + 1;
    if (!x->known)
        exchange_knights(x);
    if (x->knights[side])
        return to + geo_knight[lowest_bit(x->knights[side])];
    if (x->known < 2)
        exchange_lines(x, ep);
    int best = -1, best_value = NO_ATTACKER;
    for (int i = 0; i < 8; i++)
        if (x->line_value[side][i] < best_value)
            best_value = x->line_value[side][i], best = i;
    return best < 0 ? 0 : x->line_sq[best];
}

/* The piece on sq captures on the target: the line it stood on is walked on beyond it. */
static inline void exchange_capture(Exchange *x, int sq, int side, const EvalParams *ep)
{
    x->b[x->to] = x->b[sq];
    x->b[sq] = EMPTY;
    /* (Before the lines are walked, only Pawns and Knights can have left.) */
    for (int i = 0; i < 8 && x->known == 2; i++)
        if (x->line_sq[i] == sq) {
            line_scan(x, i, sq + geo_king[i], x->line_dist[i] + 1, ep);
            return;
        }
    /* not on a line: a Knight (or a Pawn, found before the Knights or the lines) */
    for (int i = 0; i < 8 && x->known; i++)
        if (x->to + geo_knight[i] == sq)
            x->knights[side] &= ~(1u << i);
}

/* The capture m's first gain for the mover and the value then standing on the target (what
 * the first recapture wins), both as eval_piece_value counts them. */
static void exchange_gain(const Position *pos, Move m, const EvalParams *ep, int *gain,
                          int *on_square)
{
    const uint8_t *board = pos->board;
    int flag = MV_FLAG(m), to = MV_TO(m);
    *gain = flag == MF_EP ? eval_piece_value(ep, PAWN)
                          : (board[to] ? eval_piece_value(ep, PTYPE(board[to])) : 0);
    *on_square = eval_piece_value(ep, PTYPE(board[MV_FROM(m)]));
    if (flag == MF_PROMO || flag == MF_PROMO_WAIVED) {
        int promo = eval_piece_value(ep, MV_PROMO(m));
        *gain += promo - eval_piece_value(ep, PAWN);
        *on_square = promo;
    }
}

/* x: the board after m (the mover on the target, a pawn taken en passant gone), no attacker
 * known yet. */
static void exchange_begin(Exchange *x, const Position *pos, Move m)
{
    int from = MV_FROM(m), to = MV_TO(m);
    memcpy(x->b, pos->board, sizeof x->b);
    x->to = to;
    if (MV_FLAG(m) == MF_EP)
        x->b[to + (PCOLOR(pos->board[from]) == WHITE ? -MB_W : MB_W)] = EMPTY;
    x->b[to] = x->b[from];
    x->b[from] = EMPTY;
    x->known = 0;
}

int see_value(const Position *pos, Move m, const EvalParams *ep)
{
    if (MV_FLAG(m) == MF_CASTLE)
        return 0;
    int gain[40], d = 0, on_square;
    exchange_gain(pos, m, ep, &gain[0], &on_square);
    Exchange x;
    exchange_begin(&x, pos, m);
    int side = !PCOLOR(pos->board[MV_FROM(m)]);
    while (d < 38) {
        int sq = exchange_attacker(&x, side, ep);
        if (!sq)
            break;
        d++;
        gain[d] = on_square - gain[d - 1]; /* if the exchange stopped after this capture */
        on_square = eval_piece_value(ep, PTYPE(x.b[sq]));
        exchange_capture(&x, sq, side, ep);
        side = !side;
    }
    /* Each side may stop capturing when going on would lose. */
    for (; d > 0; d--)
        gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
    return gain[0];
}

int see_ge(const Position *pos, Move m, const EvalParams *ep, int threshold)
{
    int flag = MV_FLAG(m);
    if (flag == MF_CASTLE)
        return 0 >= threshold;
    const uint8_t *board = pos->board;
    int from = MV_FROM(m), to = MV_TO(m), side = PCOLOR(board[from]);
    int gain, on_square;
    exchange_gain(pos, m, ep, &gain, &on_square);
    /* swap: by how much the side that just captured is ahead of the threshold (negated at
     * every turn), as Stockfish's see_ge keeps it. The opponent may stop at once... */
    int swap = gain - threshold;
    if (swap < 0)
        return 0;
    /* ...or take the piece back and still leave the mover at the threshold. */
    swap = on_square - swap;
    if (swap <= 0)
        return 1;
    /* Most targets, above all those of quiet moves, are attacked by no enemy piece at all:
     * then the mover keeps what it took, which the test above found enough. The enemy's
     * pieces that could reach the target on an empty board are few and cheap to find. */
    int opp = !side, near = 0;
    int gone = flag == MF_EP ? to + (side == WHITE ? -MB_W : MB_W) : from;
    for (int i = 0; i < pos->pcount[opp] && !near; i++) {
        int sq = pos->plist[opp][i];
        int kind = att_kind[att_diff(sq, to)] & SEE_KINDS[board[sq] & (OFF - 1)];
        if (!(kind & (ATT_K_DIAG | ATT_K_ORTH)) || (kind & ATT_K_KING)) {
            near = kind;
            continue;
        }
        /* a piece on a line through the target: does it see it (the mover and a pawn
         * taken en passant gone)? */
        int d = att_line_step[att_diff(to, sq)], s = to + d;
        while (s != sq && (board[s] == EMPTY || s == from || s == gone))
            s += d;
        near = s == sq;
    }
    if (!near)
        return 1;
    Exchange x;
    exchange_begin(&x, pos, m);
    int res = 1, stm = !side;
    /* as see_value, at most 38 recaptures */
    for (int d = 0; d < 38; d++) {
        int sq = exchange_attacker(&x, stm, ep);
        if (!sq)
            break;
        res ^= 1;
        swap = eval_piece_value(ep, PTYPE(x.b[sq])) - swap;
        if (swap < res)
            break;
        exchange_capture(&x, sq, stm, ep);
        stm = !stm;
    }
    return res;
}
