/* Move ordering: the hash move first, then winning captures (MVV/LVA, checked by SEE), the
 * killer and counter moves, quiet moves by history, and losing captures last. */
#ifndef RC_ORDER_H
#define RC_ORDER_H

#include "eval.h"
#include "types.h"

/* Continuation histories are indexed by piece (colour and kind, 16) and board square (80,
 * the 10x8 board's; chess uses the first 8 files). */
#define ORDER_PIECES 16
#define ORDER_SQUARES 80
/* How good a quiet move (piece, to) has been after one particular earlier move. */
typedef int16_t ContHist[ORDER_PIECES][ORDER_SQUARES];

/* What the search learns about quiet moves, by side and from/to square, and by the moves
 * one and two plies before them. */
typedef struct {
    int history[2][MB_SIZE][MB_SIZE];
    Move counter[MB_SIZE][MB_SIZE];   /* the refutation of the opponent's last move */
    ContHist cont[ORDER_PIECES][ORDER_SQUARES]; /* by the earlier move's piece and target */
} OrderTables;

typedef struct {
    Move tt_move;
    Move killers[2];
    Move counter;
    ContHist *cont[2];                /* after the moves 1 and 2 plies back, or NULL */
} OrderHints;

static inline int order_piece_index(uint8_t piece)
{
    return PCOLOR(piece) * 8 + PTYPE(piece) - 1;
}

/* RANK_OF(sq) * 10 + FILE_OF(sq) for every mailbox square, looked up rather than divided
 * out: it is asked for every quiet move scored (off-board cells are never asked). */
#define ORDER_ROW(r) \
    (r) * 10 - 1, (r) * 10, (r) * 10 + 1, (r) * 10 + 2, (r) * 10 + 3, (r) * 10 + 4, \
        (r) * 10 + 5, (r) * 10 + 6, (r) * 10 + 7, (r) * 10 + 8, (r) * 10 + 9, (r) * 10 + 10
static const int8_t ORDER_SQUARE[MB_SIZE] = { ORDER_ROW(-2), ORDER_ROW(-1), ORDER_ROW(0),
                                              ORDER_ROW(1),  ORDER_ROW(2),  ORDER_ROW(3),
                                              ORDER_ROW(4),  ORDER_ROW(5),  ORDER_ROW(6),
                                              ORDER_ROW(7),  ORDER_ROW(8),  ORDER_ROW(9) };
#undef ORDER_ROW

static inline int order_square_index(int sq)
{
    return ORDER_SQUARE[sq];
}

/* The continuation table of move m (not yet made) in pos: where the history of the
 * replies to m lives. */
static inline ContHist *order_cont_of(OrderTables *t, const Position *pos, Move m)
{
    return &t->cont[order_piece_index(pos->board[MV_FROM(m)])][order_square_index(MV_TO(m))];
}

#define ORDER_HISTORY_MAX 16384

/* The type of the piece a move captures (0 for none); castling with a capturing Guard
 * counts. */
static inline int order_captured(const Position *pos, Move m)
{
    int flag = MV_FLAG(m);
    if (flag == MF_EP)
        return PAWN;
    if (flag == MF_CASTLE)
        return MV_GFROM(m) && pos->board[MV_GTO(m)] ? PTYPE(pos->board[MV_GTO(m)]) : 0;
    uint8_t p = pos->board[MV_TO(m)];
    return p ? PTYPE(p) : 0;
}
/* Captures and promotions: the moves quiescence search looks at. */
static inline int order_is_tactical(const Position *pos, Move m)
{
    int flag = MV_FLAG(m);
    return flag == MF_PROMO || flag == MF_PROMO_WAIVED || order_captured(pos, m) != 0;
}

/* Gives every move of l a score, higher first. Captures get see_value() when it can matter. */
void order_score(const Position *pos, const MoveList *l, int *scores, const OrderHints *hints,
                 const OrderTables *tables, const EvalParams *ep);
/* Captures and promotions (only) for the staged search: order_score's order without its
 * SEE, which waits until the move's turn comes. A winning or even capture scores
 * ORDER_GOOD + 2 * MVV/LVA, plus 1 while SEE has still to confirm it (a capture by a piece
 * worth more than its victim); a minor promotion that takes nothing scores -ORDER_GOOD +
 * MVV/LVA, as there. */
void order_score_captures(const Position *pos, const MoveList *l, int *scores,
                          const EvalParams *ep);
/* Quiescence: captures and promotions only, MVV/LVA; other moves are dropped from l. */
void order_score_tactical(const Position *pos, MoveList *l, int *scores, Move tt_move,
                          const EvalParams *ep);
/* Swaps the best-scored move among l[i..] into place i and returns it. */
Move order_pick(MoveList *l, int *scores, int i);
/* A quiet move caused a cut-off: reward it, punish the quiet moves tried before it. */
void order_reward(OrderTables *t, const Position *pos, Move best, const Move *tried,
                  int ntried, int depth, Move previous, ContHist *const cont[2]);
/* Scores at or above this are the hash move, winning captures, killers and counter moves. */
#define ORDER_GOOD (1 << 24)
#define ORDER_KILLER (ORDER_GOOD - 3)

#endif
