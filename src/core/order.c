#include "order.h"
#include "position.h"
#include "see.h"

/* Most valuable victim first, then least valuable attacker; promotions count their piece. */
static int mvv_lva(const Position *pos, Move m, int victim, const EvalParams *ep)
{
    int flag = MV_FLAG(m), gain = victim ? eval_piece_value(ep, victim) : 0;
    if (flag == MF_PROMO || flag == MF_PROMO_WAIVED)
        gain += eval_piece_value(ep, MV_PROMO(m)) - eval_piece_value(ep, PAWN) -
                (flag == MF_PROMO_WAIVED);
    int attacker = flag == MF_CASTLE ? PTYPE(pos->board[MV_GFROM(m)])
                                     : PTYPE(pos->board[MV_FROM(m)]);
    return gain * 16 - (attacker == KING ? 0 : eval_piece_value(ep, attacker) / 16);
}

/* How a capture or promotion stands before any exchange is played out: surely good, bad
 * (a minor promotion that takes nothing: rarely worth a look before the quiet moves), or
 * good only if the static exchange does not lose. */
enum { CAPTURE_GOOD, CAPTURE_SEE, CAPTURE_BAD };

static inline int capture_kind(const Position *pos, Move m, int victim, const EvalParams *ep)
{
    int flag = MV_FLAG(m);
    /* Only a capture by a piece worth more than its victim can lose material. */
    if (flag == MF_CASTLE || (victim && eval_piece_value(ep, PTYPE(pos->board[MV_FROM(m)])) <=
                                            eval_piece_value(ep, victim)))
        return CAPTURE_GOOD;
    if ((flag == MF_PROMO || flag == MF_PROMO_WAIVED) && !victim && MV_PROMO(m) != QUEEN &&
        pos->variant == VARIANT_CHESS)
        return CAPTURE_BAD;
    return CAPTURE_SEE;
}

void order_score(const Position *pos, const MoveList *l, int *scores, const OrderHints *hints,
                 const OrderTables *tables, const EvalParams *ep)
{
    int side = pos->side;
    for (int i = 0; i < l->n; i++) {
        Move m = l->moves[i];
        int victim = order_captured(pos, m), flag = MV_FLAG(m);
        int promo = flag == MF_PROMO || flag == MF_PROMO_WAIVED;
        if (m == hints->tt_move) {
            scores[i] = 1 << 30;
        } else if (victim || promo) {
            int value = mvv_lva(pos, m, victim, ep), kind = capture_kind(pos, m, victim, ep);
            int good = kind == CAPTURE_GOOD ||
                       (kind == CAPTURE_SEE && see_ge(pos, m, ep, 0));
            scores[i] = good ? ORDER_GOOD + value : -ORDER_GOOD + value;
        } else if (m == hints->killers[0]) {
            scores[i] = ORDER_KILLER;
        } else if (m == hints->killers[1]) {
            scores[i] = ORDER_KILLER - 1;
        } else if (m == hints->counter) {
            scores[i] = ORDER_KILLER - 2;
        } else {
            int h = tables->history[side][MV_FROM(m)][MV_TO(m)];
            if (hints->cont[0] || hints->cont[1]) {
                int pi = order_piece_index(pos->board[MV_FROM(m)]);
                int to = order_square_index(MV_TO(m));
                for (int k = 0; k < 2; k++)
                    if (hints->cont[k])
                        h += (*hints->cont[k])[pi][to];
            }
            scores[i] = h;
        }
    }
}

void order_score_captures(const Position *pos, const MoveList *l, int *scores,
                          const EvalParams *ep)
{
    for (int i = 0; i < l->n; i++) {
        Move m = l->moves[i];
        int victim = order_captured(pos, m), value = mvv_lva(pos, m, victim, ep);
        int kind = capture_kind(pos, m, victim, ep);
        scores[i] = kind == CAPTURE_BAD ? -ORDER_GOOD + value
                                        : ORDER_GOOD + 2 * value + (kind == CAPTURE_SEE);
    }
}

void order_score_tactical(const Position *pos, MoveList *l, int *scores, Move tt_move,
                          const EvalParams *ep)
{
    int n = 0;
    for (int i = 0; i < l->n; i++) {
        Move m = l->moves[i];
        int victim = order_captured(pos, m), flag = MV_FLAG(m);
        int promo = flag == MF_PROMO || flag == MF_PROMO_WAIVED;
        if (!victim && !promo)
            continue;
        l->moves[n] = m;
        scores[n++] = m == tt_move ? 1 << 30 : mvv_lva(pos, m, victim, ep);
    }
    l->n = n;
}

Move order_pick(MoveList *l, int *scores, int i)
{
    /* The first of the best-scored moves, found in two passes: the maximum alone is a loop
     * without branches that the compiler turns into vector code. */
    int top = scores[i], n = l->n;
    for (int j = i + 1; j < n; j++)
        top = scores[j] > top ? scores[j] : top;
    int best = i;
    while (scores[best] != top)
        best++;
    if (best != i) {
        Move m = l->moves[i];
        int sc = scores[i];
        l->moves[i] = l->moves[best];
        scores[i] = scores[best];
        l->moves[best] = m;
        scores[best] = sc;
    }
    return l->moves[i];
}

/* History with gravity: a bonus shrinks as the entry nears the bound, so old news fades. */
static void nudge(int *h, int bonus)
{
    int b = bonus < 0 ? -bonus : bonus;
    *h += bonus - *h * b / ORDER_HISTORY_MAX;
}

static void nudge16(int16_t *h, int bonus)
{
    int v = *h;
    nudge(&v, bonus);
    *h = (int16_t)v;
}

static void reward_cont(const Position *pos, ContHist *const cont[2], Move m, int bonus)
{
    int pi = order_piece_index(pos->board[MV_FROM(m)]), to = order_square_index(MV_TO(m));
    for (int k = 0; k < 2; k++)
        if (cont[k])
            nudge16(&(*cont[k])[pi][to], bonus);
}

void order_reward(OrderTables *t, const Position *pos, Move best, const Move *tried,
                  int ntried, int depth, Move previous, ContHist *const cont[2])
{
    int side = pos->side, bonus = depth * depth + 2 * depth;
    if (bonus > 1200)
        bonus = 1200;
    nudge(&t->history[side][MV_FROM(best)][MV_TO(best)], bonus);
    reward_cont(pos, cont, best, bonus);
    for (int i = 0; i < ntried; i++)
        if (tried[i] != best) {
            nudge(&t->history[side][MV_FROM(tried[i])][MV_TO(tried[i])], -bonus);
            reward_cont(pos, cont, tried[i], -bonus);
        }
    if (previous)
        t->counter[MV_FROM(previous)][MV_TO(previous)] = best;
}
