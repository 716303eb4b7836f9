/* The search. A node's life: draw and mate-distance checks, the hash table, static eval and
 * the pruning it allows (reverse futility, null move), then the moves in order with late-move
 * reductions and principal-variation re-searches; leaves go on in quiescence until quiet. */
#if !defined(_WIN32)
/* POSIX threads for the helper searches (Lazy SMP); elsewhere a search has one thread. */
#define _POSIX_C_SOURCE 200112L
#include <pthread.h>
#define RC_THREADS 1
#endif
#include <stdlib.h>
#include <string.h>

#include "attack.h"
#include "movegen.h"
#include "nnue.h"
#include "order.h"
#include "position.h"
#include "search.h"
#include "see.h"
#include "timeman.h"
#include "zobrist.h"

typedef struct {
    Move move;
    int score;       /* of the running iteration, -SCORE_INF until it beats the window */
    int prev_score;  /* of the last finished iteration */
    int pv_len;
    Move pv[MAX_PLY];
} RootMove;

typedef struct {
    MoveList list;
    int scores[MAX_MOVES];
    Move killers[2];
    Move move;       /* the move made from this ply (0 for a null move) */
    ContHist *cont;  /* the continuation history of that move (NULL: none, or switched off) */
    int eval;
    int in_check;    /* set by the parent, which has looked already; -1 = not known */
    Move excluded;   /* a singular-extension search of this node leaves this move out */
} Ply;

/* A cache of static evaluations: quiescence nodes that stand pat at once store nothing in
 * the hash table, and the search meets many of them again. Keyed by the base key (pieces,
 * side, castling rights and game), which decides the evaluation. */
typedef struct {
    uint64_t key;
    int eval;
    int used;
} EvalSlot;
#define EVAL_SLOTS (1 << 16)

/* Search tunables, settable at run time for testing changes by self-play (names below). */
enum {
    SP_RFP_DEPTH, SP_RFP_MARGIN, SP_FUT_DEPTH, SP_FUT_BASE, SP_FUT_MARGIN, SP_LMP_DEPTH,
    SP_NULL_BASE, SP_LMR_BASE, SP_LMR_DIV, SP_HIST_DIV, SP_SEE_MARGIN, SP_DELTA,
    SP_CONT_HIST, SP_SE_DEPTH, SP_SE_MARGIN, SP_HIST_AGE, SP_RAZOR_DEPTH, SP_RAZOR_MARGIN,
    SP_SEE_QUIET, SP_CORR_HIST, SP_CORR_MAX, SP_STAGED, SP_PROBCUT_MARGIN, SP_PROBCUT_DEPTH,
    SP_LMR_CUT, SP_IIR_CUT, SP_COUNT
};
static const char *const SP_NAMES[SP_COUNT] = {
    "rfp_depth", "rfp_margin", "fut_depth", "fut_base", "fut_margin", "lmp_depth",
    "null_base", "lmr_base", "lmr_div", "hist_div", "see_margin", "qs_delta",
    "cont_hist", "se_depth", "se_margin", "hist_age", "razor_depth", "razor_margin",
    "see_quiet", "corr_hist", "corr_max", "staged", "probcut_margin", "probcut_depth", "lmr_cut",
    "iir_cut",
};
static const int SP_DEFAULTS[SP_COUNT] = { 6, 90, 6, 100, 90, 5, 3, 75, 225, 6000, 100, 200,
                                           1, 6, 3, 1, 3, 250, 60, 1, 64, 1, 0, 5, 0, 0 };

/* Correction history: by side to move and pawn structure, the running average of how far
 * the search's score at a node came out from its static evaluation, in 1/CORR_GRAIN cp. The
 * evaluation misjudges some pawn structures the same way in every position that has them;
 * adding the average error back makes the pruning that trusts the eval trust it less wrongly.
 * Kept for the whole game (cleared with the rest) and not aged: an average forgets by itself.
 */
#define CORR_SLOTS (1 << 14)
#define CORR_GRAIN 256

struct Search {
    TT *tt;                  /* own_tt, or in a helper the main search's table */
    TT own_tt;
    EvalParams params;
    int sp[SP_COUNT];
    OrderTables order;
    int corr[2][CORR_SLOTS];  /* correction history, see CORR_SLOTS */
    Ply stack[MAX_PLY + 4];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    RootMove root[MAX_MOVES];
    int nroot;
    int root_depth;          /* of the running iteration */
    unsigned char lmr[64][64];
    EvalSlot *evals;         /* EVAL_SLOTS recent evaluations by base key */
    EvalPawnEntry *pawns;    /* EVAL_PAWN_SLOTS pawn structures */
    MoveList quiet;          /* the quiet moves of one node, before they join its list */
    unsigned evals_version;  /* of the weights they were made with */

    Position pos;            /* the private copy being searched */
    SearchLimits lim;
    uint64_t nodes;
    int seldepth;
    int completed;           /* deepest finished iteration; the node budget waits for one */
    int stopped;             /* this search has been told to stop (by time, nodes or ticket) */
    uint64_t ticket;
    volatile uint64_t stop_ticket;
    volatile int pondering;
    volatile int64_t start;
    int64_t soft, hard;      /* ms from start; negative = no limit */
    SearchReport report;
    void *ctx;

    /* Lazy SMP: helpers search the same root on threads of their own, sharing nothing but
     * the hash table (what one finds there steers the others); the main search alone keeps
     * the clock, reports and answers, and tells them to halt when it is done. */
    int nhelpers;
    Search **helpers;
    NnueState *own_nnue[2];  /* a helper's accumulators for the main search's nets */
    const volatile int *halt;  /* a helper's: the main search's `halting` */
    volatile int halting;
};

/* ---- small helpers ---------------------------------------------------------------------- */

/* Natural logarithm, enough for the reduction table (keeps the core free of libm). */
static double ln(double x)
{
    int k = 0;
    while (x >= 2.0)
        x /= 2.0, k++;
    double y = (x - 1.0) / (x + 1.0), y2 = y * y, sum = 0.0, term = y;
    for (int i = 1; i < 30; i += 2) {
        sum += term / i;
        term *= y2;
    }
    return 2.0 * sum + k * 0.69314718055994531;
}

static void init_lmr(Search *s)
{
    for (int d = 0; d < 64; d++)
        for (int m = 0; m < 64; m++) {
            double r = d && m ? s->sp[SP_LMR_BASE] / 100.0 +
                                    ln(d) * ln(m) / (s->sp[SP_LMR_DIV] / 100.0)
                              : 0.0;
            s->lmr[d][m] = (unsigned char)(r < 0 ? 0 : r > 40 ? 40 : r);
        }
}

static inline int reduction(const Search *s, int depth, int moves)
{
    return s->lmr[depth < 63 ? depth : 63][moves < 63 ? moves : 63];
}

/* Mate scores are stored relative to the node, read back relative to the root. */
static inline int score_to_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score + ply : score <= -SCORE_MATE_BOUND ? score - ply
                                                                                : score;
}

static inline int score_from_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score - ply : score <= -SCORE_MATE_BOUND ? score + ply
                                                                                : score;
}

static int has_pieces(const Position *pos, int color)
{
    for (int i = 0; i < pos->pcount[color]; i++) {
        int t = PTYPE(pos->board[pos->plist[color][i]]);
        if (t != PAWN && t != KING)
            return 1;
    }
    return 0;
}

/* A draw by the fifty-move rule, by repetition (once inside the tree, or a third time with
 * the game before the root), or by insufficient material. A mate delivered on the hundredth
 * half-move stands (FIDE 9.3): in check there, it is a draw only with a legal move. */
static int is_draw(Position *pos, int ply)
{
    if (pos->halfmove >= 100)
        return !att_in_check(pos, pos->side) || gen_count_legal(pos) > 0;
    int limit = pos->halfmove < pos->ply ? pos->halfmove : pos->ply, seen = 0;
    for (int i = 4; i <= limit; i += 2)
        if (pos->hist[pos->ply - i].key == pos->key && (i <= ply || ++seen >= 2))
            return 1;
    return pos->pcount[WHITE] + pos->pcount[BLACK] <= 4 && pos_insufficient_material(pos);
}

/* The lines along which a piece of each type can attack (att_kind's geometry). */
static const uint8_t CHECK_KIND[NTYPES] = {
    0, ATT_K_KING, ATT_K_KNIGHT, ATT_K_DIAG, ATT_K_ORTH, ATT_K_ORTH | ATT_K_DIAG,
    ATT_K_ORTH | ATT_K_DIAG, ATT_K_ORTH | ATT_K_DIAG, ATT_K_ORTH | ATT_K_DIAG
};

/* Can move m (not yet made) give check? 0 only when it surely cannot, so the attack test
 * after the move (and, for a pruned move, the move itself) can be skipped. A plain move
 * checks only with the moved piece from its new square, which must then be on a line
 * through the enemy King that its kind attacks along (any line for Queens, Kings and the
 * Guards, whose range limits and queen powers are left to the full test), or by uncovering
 * a line through its old square; a capture leaves its square blocked by the capturer.
 * Castling, en passant and promotions move or change more than one piece: always tested. */
static inline int may_give_check(const Position *pos, Move m)
{
    int flag = MV_FLAG(m);
    if (flag != MF_NORMAL && flag != MF_DOUBLE)
        return 1;
    int king = pos->king[!pos->side];
    uint8_t pc = pos->board[MV_FROM(m)];
    return (att_kind[att_diff(king, MV_FROM(m))] & (ATT_K_ORTH | ATT_K_DIAG)) ||
           (att_kind[att_diff(king, MV_TO(m))] &
            (pc & POWER_BIT ? ATT_K_ORTH | ATT_K_DIAG : CHECK_KIND[PTYPE(pc)]));
}

static int evaluate(Search *s)
{
    const Position *pos = &s->pos;
    EvalSlot *e = &s->evals[pos->bkey & (EVAL_SLOTS - 1)];
    if (e->key != pos->bkey) {
        e->key = pos->bkey;
        e->eval = eval_evaluate(pos, &s->params, s->pawns);
    }
    return e->eval;
}

/* The static evaluation corrected by the correction history (raw when switched off). The raw
 * value is what the hash table keeps, so that a change of the history reaches every node. */
static inline int corrected(const Search *s, int raw)
{
    if (!s->sp[SP_CORR_HIST])
        return raw;
    const Position *pos = &s->pos;
    int v = raw + s->corr[pos->side][pos->pkey & (CORR_SLOTS - 1)] / CORR_GRAIN;
    return v >= SCORE_MATE_BOUND ? SCORE_MATE_BOUND - 1
                                 : v <= -SCORE_MATE_BOUND ? -SCORE_MATE_BOUND + 1 : v;
}

/* Moves the entry of this pawn structure toward score - raw, the more the deeper the search
 * behind the score (at most 1/16 a time), within +-corr_max cp. */
static void update_corr(Search *s, int raw, int score, int depth)
{
    const Position *pos = &s->pos;
    int *c = &s->corr[pos->side][pos->pkey & (CORR_SLOTS - 1)];
    int max = s->sp[SP_CORR_MAX] * CORR_GRAIN, w = depth + 1 < 16 ? depth + 1 : 16;
    int v = (*c * (256 - w) + (score - raw) * CORR_GRAIN * w) / 256;
    *c = v > max ? max : v < -max ? -max : v;
}

/* Empties the caches of evaluations, made with weights that may have changed since. */
static void forget_evals(Search *s)
{
    memset(s->evals, 0, EVAL_SLOTS * sizeof *s->evals);
    memset(s->pawns, 0, EVAL_PAWN_SLOTS * sizeof *s->pawns);
    s->evals_version = s->params.version;
}

static int64_t elapsed(const Search *s)
{
    return tm_now_ms() - s->start;
}

/* Counts a node and decides whether to stop: the node budget at once, the ticket and the
 * clock every 1024 nodes. */
static inline int count_node(Search *s)
{
    s->nodes++;
    if (s->stopped)
        return 1;
    if (s->lim.nodes && s->nodes >= s->lim.nodes && s->completed)
        s->stopped = 1;
    else if ((s->nodes & 1023) == 0) {
        if (s->stop_ticket == s->ticket)
            s->stopped = 1;
        else if (s->hard >= 0 && !s->pondering && elapsed(s) >= s->hard)
            s->stopped = 1;
        else if (s->halt && *s->halt)
            s->stopped = 1;
    }
    return s->stopped;
}

/* ---- quiescence --------------------------------------------------------------------------- */

static int qsearch(Search *s, int alpha, int beta, int ply)
{
    Position *pos = &s->pos;
    if (count_node(s))
        return 0;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (is_draw(pos, ply))
        return 0;
    int known = s->stack[ply].in_check;
    int in_check = known >= 0 ? known : att_in_check(pos, pos->side);
    if (ply >= MAX_PLY)
        return in_check ? 0 : evaluate(s);

    TTEntry e;
    Move tt_move = 0;
    int tt_eval = TT_NO_EVAL;
    if (tt_probe(s->tt, pos->key, &e)) {
        int sc = score_from_tt(e.score, ply), b = e.bound & 3;
        if ((b == BOUND_EXACT) || (b == BOUND_LOWER && sc >= beta) ||
            (b == BOUND_UPPER && sc <= alpha))
            return sc;
        tt_move = e.move;
        tt_eval = e.eval;
    }

    int best = -SCORE_INF, stand = TT_NO_EVAL, raw = TT_NO_EVAL;
    if (!in_check) {
        raw = tt_eval != TT_NO_EVAL ? tt_eval : evaluate(s);
        stand = corrected(s, raw);
        if (stand >= beta)
            return stand;
        if (stand > alpha)
            alpha = stand;
        best = stand;
    }

    Ply *p = &s->stack[ply];
    if (!in_check) {
        /* Only captures and promotions, but a stalemate still counts. */
        if (!gen_legal_tactical(pos, &p->list))
            return 0;
    } else {
        gen_legal(pos, &p->list);
        if (p->list.n == 0)
            return -SCORE_MATE + ply;
    }
    if (in_check) {
        OrderHints h = { tt_move, { 0, 0 }, 0, { NULL, NULL } };
        order_score(pos, &p->list, p->scores, &h, &s->order, &s->params);
    } else {
        order_score_tactical(pos, &p->list, p->scores, tt_move, &s->params);
    }

    int old_alpha = alpha;
    Move best_move = 0;
    for (int i = 0; i < p->list.n; i++) {
        Move m = order_pick(&p->list, p->scores, i);
        if (!in_check) {
            int victim = order_captured(pos, m);
            /* Delta pruning: even winning this piece cannot lift the score to alpha. */
            if (MV_FLAG(m) != MF_PROMO && victim &&
                stand + eval_piece_value(&s->params, victim) + s->sp[SP_DELTA] <= alpha)
                continue;
            /* A capture of a piece worth at least the capturer's cannot lose material. */
            if ((MV_FLAG(m) != MF_NORMAL ||
                 eval_piece_value(&s->params, victim) <
                     eval_piece_value(&s->params, PTYPE(pos->board[MV_FROM(m)]))) &&
                !see_ge(pos, m, &s->params, 0))
                continue;
        }
        int may_check = may_give_check(pos, m);
        pos_make(pos, m);
        tt_prefetch(s->tt, pos->key);
        s->stack[ply + 1].in_check = may_check ? -1 : 0;
        int score = -qsearch(s, -beta, -alpha, ply + 1);
        pos_unmake(pos);
        if (s->stopped)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                if (score >= beta)
                    break;
            }
        }
    }
    int bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(s->tt, pos->key, best_move, score_to_tt(best, ply), raw, 0, bound);
    return best;
}

/* ---- the main search ---------------------------------------------------------------------- */

/* Where the replies to m (about to be made) keep their continuation history. */
static inline ContHist *cont_of(Search *s, Move m)
{
    return s->sp[SP_CONT_HIST] ? order_cont_of(&s->order, &s->pos, m) : NULL;
}

/* A quiet move near the leaves that puts a piece where it is simply lost (see_quiet cp per
 * ply of depth, 0 = never). */
static int see_quiet_loses(Search *s, Move m, int depth)
{
    int margin = s->sp[SP_SEE_QUIET];
    return margin > 0 && depth <= s->sp[SP_FUT_DEPTH] &&
           !see_ge(&s->pos, m, &s->params, -margin * depth);
}

static void update_pv(Search *s, int ply, Move m)
{
    s->pv[ply][0] = m;
    int n = s->pv_len[ply + 1];
    memcpy(&s->pv[ply][1], s->pv[ply + 1], (size_t)n * sizeof(Move));
    s->pv_len[ply] = n + 1;
}

/* ---- staged move generation ----------------------------------------------------------------- */

/* Most nodes need few of their moves: a cut-off by the hash move needs no generation at all,
 * one by a capture no scoring of the quiet moves. So in standard chess (in check too) the moves
 * come in stages: the hash move (its legality checked on the board, not generated), then one
 * generation of every legal move with only the captures and promotions scored and those that
 * win or trade tried (SEE, where a capture needs it, only when its turn comes), then the
 * killers and the counter move (legality checked, castling left to the quiet moves), the
 * quiet moves by history, scored and sorted only now (not even that where all of them are
 * pruned unless they give check: then in generation order), and the losing captures last.
 * Royal Chess, a hash move whose legality is not decided cheaply (castling, en passant)
 * and the switch `staged` off take the whole legal list at once, scored and picked as one
 * (the order before the stages). */
enum { ST_TT, ST_TACTICAL, ST_GOOD, ST_KILLERS, ST_QUIET, ST_QUIETS, ST_PICK, ST_ALL, ST_DONE };

typedef struct {
    int stage;
    int next;          /* the next index of the list to pick from */
    int killer;        /* the next of the killers and the counter move to look at */
    int quiets;        /* how many quiet moves wait unscored behind the end of the list */
    int any;           /* a legal move exists (the hash move counts) */
    int quiet_end;     /* the sorted quiet moves lie in list[next..quiet_end) */
    int quiets_hopeless; /* set by the search: every quiet move left is skipped unless it
                          * gives check, so their order hardly matters */
    Move excluded;     /* left out by a singular-extension search */
    Move tt_done;      /* the hash move, tried before the generation */
    Move killer_done[3]; /* killers and counter move tried before the quiet moves' turn */
    OrderHints hints;
} Picker;

static void picker_init(Picker *mp, int staged, Move excluded, const OrderHints *h)
{
    mp->stage = staged ? ST_TT : ST_ALL;
    mp->next = mp->killer = mp->quiets = mp->any = mp->quiets_hopeless = 0;
    mp->excluded = excluded;
    mp->tt_done = 0;
    mp->killer_done[0] = mp->killer_done[1] = mp->killer_done[2] = 0;
    mp->hints = *h;
}

static inline int killer_done(const Picker *mp, Move m)
{
    return m == mp->killer_done[0] || m == mp->killer_done[1] || m == mp->killer_done[2];
}

/* The next move to try and its ordering score, or 0 when there is none left; mp->any then
 * says whether the node had a legal move at all. */
static Move next_move_stage(Search *s, Ply *p, Picker *mp, int *score);

/* Most calls just take the next sorted quiet move: that path is inlined into the search, the
 * rest (a large function with a costly entry) is called. */
static inline Move next_move(Search *s, Ply *p, Picker *mp, int *score)
{
    if (mp->stage == ST_QUIETS && mp->next < mp->quiet_end) {
        *score = p->scores[mp->next];
        return p->list.moves[mp->next++];
    }
    return next_move_stage(s, p, mp, score);
}

static Move next_move_stage(Search *s, Ply *p, Picker *mp, int *score)
{
    Position *pos = &s->pos;
    MoveList *l = &p->list;
    for (;;) {
        switch (mp->stage) {
        case ST_TT: {
            Move tt = mp->hints.tt_move;
            mp->stage = ST_TACTICAL;
            if (!tt || tt == mp->excluded)
                break;
            int legal = gen_move_is_legal(pos, tt);
            if (legal < 0) {
                mp->stage = ST_ALL;
                break;
            }
            if (legal) {
                mp->any = 1;
                mp->tt_done = tt;
                *score = 1 << 30;
                return tt;
            }
            break;
        }
        case ST_TACTICAL: {
            /* One generation of every legal move: the quiet ones wait behind the captures
             * and promotions, in the order generated, to be scored only if they are needed. */
            MoveList *q = &s->quiet;
            gen_legal(pos, l);
            mp->any |= l->n > 0;
            int n = 0;
            q->n = 0;
            for (int i = 0; i < l->n; i++) {
                Move m = l->moves[i];
                if (m == mp->tt_done || m == mp->excluded)
                    continue;
                if (order_is_tactical(pos, m))
                    l->moves[n++] = m;
                else
                    q->moves[q->n++] = m;
            }
            memcpy(l->moves + n, q->moves, (size_t)q->n * sizeof(Move));
            l->n = n;
            mp->quiets = q->n;
            order_score_captures(pos, l, p->scores, &s->params);
            mp->stage = mp->any ? ST_GOOD : ST_DONE;
            break;
        }
        case ST_GOOD:
            while (mp->next < l->n) {
                Move m = order_pick(l, p->scores, mp->next);
                int sc = p->scores[mp->next];
                if (sc <= 0)
                    break;
                /* SEE only now that the capture's turn has come: one that loses goes
                 * behind the quiet moves, with the score order_score gives it. */
                if ((sc & 1) && !see_ge(pos, m, &s->params, 0)) {
                    p->scores[mp->next] = -ORDER_GOOD + (sc - 1 - ORDER_GOOD) / 2;
                    continue;
                }
                *score = sc;
                mp->next++;
                return m;
            }
            mp->stage = ST_KILLERS;
            break;
        case ST_KILLERS:
            while (mp->killer < 3) {
                int k = mp->killer++;
                Move m = k < 2 ? mp->hints.killers[k] : mp->hints.counter;
                /* Tactical ones are in the list already; castling is left to the quiet
                 * moves, where it keeps its killer score. */
                if (!m || m == mp->tt_done || m == mp->excluded || killer_done(mp, m) ||
                    order_is_tactical(pos, m) || gen_move_is_legal(pos, m) <= 0)
                    continue;
                mp->killer_done[k] = m;
                *score = ORDER_KILLER - k;
                return m;
            }
            mp->stage = ST_QUIET;
            break;
        case ST_QUIET: {
            /* The losing captures left in list[next..n) go behind the quiet moves, which are
             * scored now and sorted once (stable, so equal scores keep the generation
             * order): they are tried in that order, most of them at nodes that try them
             * all, where picking the best each time costs a pass over the rest. */
            MoveList *q = &s->quiet;
            int nbad = l->n - mp->next, first = mp->next;
            q->n = 0;
            for (int i = l->n; i < l->n + mp->quiets; i++)
                if (!killer_done(mp, l->moves[i]))
                    q->moves[q->n++] = l->moves[i];
            /* Scored at the far end of the scores, which a chess position (218 legal moves
             * at most) never reaches. */
            int *qs = p->scores + MAX_MOVES - q->n, n = q->n;
            /* Sorted once, best first and equal scores in generation order, by keys of the
             * score (its order kept in unsigned form) and the place: distinct, and one array
             * of them moves instead of two. */
            uint64_t key[MAX_MOVES];
            if (!mp->quiets_hopeless) {
                order_score(pos, q, qs, &mp->hints, &s->order, &s->params);
                for (int i = 0; i < n; i++) {
                    uint64_t k = ((uint64_t)((uint32_t)qs[i] ^ 0x80000000u) << 10) |
                                 (uint64_t)(1023 - i);
                    int j = i;
                    for (; j > 0 && key[j - 1] < k; j--)
                        key[j] = key[j - 1];
                    key[j] = k;
                }
            }
            /* list: [first, first + nbad) losing captures -> moved behind the quiets. */
            memmove(l->moves + first + n, l->moves + first, (size_t)nbad * sizeof(Move));
            memmove(p->scores + first + n, p->scores + first, (size_t)nbad * sizeof(int));
            if (mp->quiets_hopeless) {
                memcpy(l->moves + first, q->moves, (size_t)n * sizeof(Move));
                memset(p->scores + first, 0, (size_t)n * sizeof(int));
            } else {
                /* (qs lies beyond first + n + nbad: a chess position has 218 moves at most) */
                for (int i = 0; i < n; i++) {
                    int from = 1023 - (int)(key[i] & 1023);
                    l->moves[first + i] = q->moves[from];
                    p->scores[first + i] = qs[from];
                }
            }
            mp->quiet_end = first + q->n;
            l->n = first + q->n + nbad;
            mp->stage = ST_QUIETS;
            break;
        }
        case ST_QUIETS:
            if (mp->next < mp->quiet_end) {
                *score = p->scores[mp->next];
                return l->moves[mp->next++];
            }
            mp->stage = ST_PICK;
            break;
        case ST_ALL:
            gen_legal(pos, l);
            mp->any = l->n > 0;
            order_score(pos, l, p->scores, &mp->hints, &s->order, &s->params);
            mp->stage = ST_PICK;
            break;
        case ST_PICK:
            while (mp->next < l->n) {
                Move m = order_pick(l, p->scores, mp->next);
                *score = p->scores[mp->next++];
                if (m != mp->excluded)
                    return m;
            }
            mp->stage = ST_DONE;
            break;
        default:
            return 0;
        }
    }
}

#ifdef STAGED_VERIFY
#include <stdio.h>
/* Debug build only (-DSTAGED_VERIFY; it changes the search, as its extra generations reorder
 * the piece lists): the stages give every legal move exactly once, and the quick legality
 * test agrees with the generator on the moves of the positions one and two plies up. */
static void staged_verify(Search *s, int ply, int staged, Move excluded, const OrderHints *h)
{
    Ply *tmp = malloc(sizeof *tmp);
    MoveList *lall = malloc(sizeof *lall);
    Move *got = malloc(MAX_MOVES * sizeof *got);
    Position *pos = &s->pos;
    gen_legal(pos, lall);
    for (int up = 1; up <= 2 && up <= ply; up++) {
        const MoveList *l = &s->stack[ply - up].list;
        for (int i = 0; i < l->n; i++) {
            int q = gen_move_is_legal(pos, l->moves[i]), in = 0;
            for (int j = 0; j < lall->n; j++)
                in |= lall->moves[j] == l->moves[i];
            if (q >= 0 && q != in) {
                fprintf(stderr, "STAGED_VERIFY legal mismatch %d %d\n", q, in);
                abort();
            }
        }
    }
    Picker mp;
    picker_init(&mp, staged, excluded, h);
    mp.quiets_hopeless = ply & 1; /* both ways of ordering the quiet moves */
    Move m;
    int n = 0, sc;
    while ((m = next_move(s, tmp, &mp, &sc)) != 0)
        got[n++] = m;
    int want = 0;
    for (int j = 0; j < lall->n; j++) {
        if (lall->moves[j] == excluded)
            continue;
        want++;
        int c = 0;
        for (int i = 0; i < n; i++)
            c += got[i] == lall->moves[j];
        if (c != 1) {
            fprintf(stderr, "STAGED_VERIFY move count %d\n", c);
            abort();
        }
    }
    if (want != n || mp.any != (lall->n > 0)) {
        fprintf(stderr, "STAGED_VERIFY %d moves, wanted %d (any %d)\n", n, want, mp.any);
        abort();
    }
    free(tmp);
    free(lall);
    free(got);
}
#endif

/* cut_node: a null-window node expected to fail high (Stockfish's cutNode). Its first
 * child is expected to fail low (an all node), its later children, and every null-window
 * child of a PV node, to fail high again; PV nodes pass 0. */
static int search(Search *s, int alpha, int beta, int depth, int ply, int null_ok,
                  int cut_node);

/* ProbCut's tries at a non-PV node not in check: the captures and promotions whose exchange
 * alone could lift the static eval to pc_beta, each first by quiescence and, when that holds,
 * by a search 4 plies shallower, at the null window (pc_beta - 1, pc_beta). Returns the first
 * score at or above pc_beta (stored as a lower bound 3 plies shallower than the node), else
 * -SCORE_INF. The moves go in this ply's list, which the node's own generation refills after:
 * making a capture reorders the piece lists, so the later moves come in another order than
 * without ProbCut (a real search change, the bench signature shows it). */
static int probcut(Search *s, int pc_beta, int eval, int raw, int depth, int ply,
                   Move tt_move, int cut_node)
{
    Position *pos = &s->pos;
    Ply *p = &s->stack[ply];
    gen_legal_tactical(pos, &p->list);
    order_score_tactical(pos, &p->list, p->scores, tt_move, &s->params);
    for (int i = 0; i < p->list.n; i++) {
        Move m = order_pick(&p->list, p->scores, i);
        if (!see_ge(pos, m, &s->params, pc_beta - eval))
            continue;
        p->move = m;
        p->cont = cont_of(s, m);
        int may_check = may_give_check(pos, m);
        pos_make(pos, m);
        tt_prefetch(s->tt, pos->key);
        s->stack[ply + 1].in_check = may_check ? -1 : 0;
        int v = -qsearch(s, -pc_beta, -pc_beta + 1, ply + 1);
        if (v >= pc_beta && !s->stopped) {
            s->stack[ply + 1].in_check = may_check ? -1 : 0;
            v = -search(s, -pc_beta, -pc_beta + 1, depth - 4, ply + 1, 1, !cut_node);
        }
        pos_unmake(pos);
        if (s->stopped)
            return 0;
        if (v >= pc_beta) {
            tt_store(s->tt, pos->key, m, score_to_tt(v, ply), raw, depth - 3, BOUND_LOWER);
            return v;
        }
    }
    return -SCORE_INF;
}

static int search(Search *s, int alpha, int beta, int depth, int ply, int null_ok,
                  int cut_node)
{
    Position *pos = &s->pos;
    int pv_node = beta - alpha > 1;
    s->pv_len[ply] = 0;
    if (depth <= 0)
        return qsearch(s, alpha, beta, ply);
    if (count_node(s))
        return 0;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (is_draw(pos, ply))
        return 0;
    int in_check = s->stack[ply].in_check;
    if (in_check < 0)
        in_check = att_in_check(pos, pos->side);
    if (ply >= MAX_PLY)
        return in_check ? 0 : evaluate(s);
    /* Mate distance pruning: no line from here beats a mate already found nearer the root. */
    if (alpha < -SCORE_MATE + ply)
        alpha = -SCORE_MATE + ply;
    if (beta > SCORE_MATE - ply - 1)
        beta = SCORE_MATE - ply - 1;
    if (alpha >= beta)
        return alpha;
    if (in_check)
        depth++;

    Ply *p = &s->stack[ply];
    Move excluded = p->excluded;
    TTEntry e;
    Move tt_move = 0;
    int tt_eval = TT_NO_EVAL, tt_hit = tt_probe(s->tt, pos->key, &e);
    if (tt_hit) {
        tt_move = e.move;
        tt_eval = e.eval;
        int sc = score_from_tt(e.score, ply), b = e.bound & 3;
        if (!pv_node && !excluded && e.depth >= depth &&
            ((b == BOUND_EXACT) || (b == BOUND_LOWER && sc >= beta) ||
             (b == BOUND_UPPER && sc <= alpha)))
            return sc;
    }

    int raw = in_check ? -SCORE_INF : tt_eval != TT_NO_EVAL ? tt_eval : evaluate(s);
    int eval = in_check ? -SCORE_INF : corrected(s, raw);
    p->eval = eval;
    int improving = !in_check && ply >= 2 && eval > s->stack[ply - 2].eval;

    if (!pv_node && !in_check && !excluded && beta < SCORE_MATE_BOUND &&
        beta > -SCORE_MATE_BOUND) {
        /* Reverse futility: far above beta with little depth left, a cut-off is near sure. */
        if (depth <= s->sp[SP_RFP_DEPTH] &&
            eval - s->sp[SP_RFP_MARGIN] * (depth - improving) >= beta)
            return eval;
        /* Razoring: so far below alpha this near the leaves, only a capture could save the
         * node; when quiescence agrees that none does, trust it. */
        if (depth <= s->sp[SP_RAZOR_DEPTH] && eval + s->sp[SP_RAZOR_MARGIN] * depth <= alpha) {
            int v = qsearch(s, alpha, alpha + 1, ply);
            if (s->stopped)
                return 0;
            if (v <= alpha)
                return v;
        }
        /* Null move: if passing still beats beta, a real move will (not in pawn endings,
         * where zugzwang is common). */
        if (null_ok && depth >= 2 && eval >= beta && has_pieces(pos, pos->side)) {
            int r = s->sp[SP_NULL_BASE] + depth / 4 +
                    ((eval - beta) / 200 < 3 ? (eval - beta) / 200 : 3);
            p->move = 0;
            p->cont = NULL;
            pos_make_null(pos);
            s->stack[ply + 1].in_check = 0;
            int score = -search(s, -beta, -beta + 1, depth - 1 - r, ply + 1, 0, !cut_node);
            pos_unmake_null(pos);
            if (s->stopped)
                return 0;
            if (score >= beta)
                return score >= SCORE_MATE_BOUND ? beta : score;
        }
        /* ProbCut: a capture that beats beta by a margin at a shallower depth almost surely
         * beats beta at full depth. Skipped when the hash table already says that a search
         * as deep as the reduced one stayed below that raised bound. */
        int pc_beta = beta + s->sp[SP_PROBCUT_MARGIN];
        if (s->sp[SP_PROBCUT_MARGIN] > 0 && depth >= s->sp[SP_PROBCUT_DEPTH] &&
            pc_beta < SCORE_MATE_BOUND &&
            !(tt_hit && e.depth >= depth - 3 && score_from_tt(e.score, ply) < pc_beta)) {
            int v = probcut(s, pc_beta, eval, raw, depth, ply, tt_move, cut_node);
            if (s->stopped)
                return 0;
            if (v >= pc_beta)
                return v;
        }
    }
    /* Without a hash move this node was not searched before: a shallower look is cheaper.
     * With iir_cut, not at an expected all node, where every move must be searched anyway
     * and a hash move would not have been found either. */
    if (!tt_move && depth >= 4 && !excluded && (!s->sp[SP_IIR_CUT] || pv_node || cut_node))
        depth--;

    /* Singular extension: when every move but the hash move fails well below its stored
     * score, the hash move is forced and gets a ply more. If even without it the node
     * beats beta, several moves do (multi-cut) and it is cut off. */
    int singular = 0;
    if (s->sp[SP_SE_DEPTH] && depth >= s->sp[SP_SE_DEPTH] && tt_hit && tt_move && !excluded &&
        ply > 0 && ply < 2 * s->root_depth && e.depth >= depth - 3 &&
        (e.bound & 3) != BOUND_UPPER) {
        int tt_score = score_from_tt(e.score, ply);
        if (tt_score < SCORE_MATE_BOUND && tt_score > -SCORE_MATE_BOUND) {
            int sbeta = tt_score - s->sp[SP_SE_MARGIN] * depth;
            p->excluded = tt_move;
            int v = search(s, sbeta - 1, sbeta, (depth - 1) / 2, ply, 0, cut_node);
            p->excluded = 0;
            s->pv_len[ply] = 0;
            if (s->stopped)
                return 0;
            if (v < sbeta)
                singular = 1;
            else if (sbeta >= beta)
                return sbeta;
        }
    }

    int staged = s->sp[SP_STAGED] && pos->variant == VARIANT_CHESS;
    Move prev = ply > 0 ? s->stack[ply - 1].move : 0;
    OrderHints hints = { tt_move, { p->killers[0], p->killers[1] },
                         prev ? s->order.counter[MV_FROM(prev)][MV_TO(prev)] : 0,
                         { ply >= 1 ? s->stack[ply - 1].cont : NULL,
                           ply >= 2 ? s->stack[ply - 2].cont : NULL } };
#ifdef STAGED_VERIFY
    staged_verify(s, ply, staged, excluded, &hints);
#endif
    Picker mp;
    picker_init(&mp, staged, excluded, &hints);
    s->stack[ply + 2].killers[0] = s->stack[ply + 2].killers[1] = 0;

    int best = -SCORE_INF, old_alpha = alpha, searched = 0, ntried = 0, sc_order;
    Move best_move = 0, tried[64], m;
    for (;;) {
        /* Near the leaves, moves that look hopeless are skipped unless they give check:
         * quiet moves far down the list or far below alpha, and captures that lose. Once
         * the quiet moves are, they stay so (the count and alpha only grow), and the
         * picker need not sort them. */
        int may_prune = ply > 0 && !in_check && best > -SCORE_MATE_BOUND;
        mp.quiets_hopeless =
            may_prune && ((depth <= s->sp[SP_LMP_DEPTH] &&
                           searched >= (3 + depth * depth) / (improving ? 1 : 2) + 2) ||
                          (depth <= s->sp[SP_FUT_DEPTH] &&
                           eval + s->sp[SP_FUT_BASE] + s->sp[SP_FUT_MARGIN] * depth <= alpha));
        if (!(m = next_move(s, p, &mp, &sc_order)))
            break;
        int tactical = order_is_tactical(pos, m);
        int hopeless = 0;
        if (may_prune) {
            if (!tactical)
                hopeless = mp.quiets_hopeless || see_quiet_loses(s, m, depth);
            else
                hopeless = !pv_node && depth <= 5 && sc_order < 0 &&
                           !see_ge(pos, m, &s->params, -s->sp[SP_SEE_MARGIN] * depth);
        }
        p->move = m;
        int may_check = may_give_check(pos, m);
        /* Not played at all if quiet: making and unmaking a capture (also the en passant
         * capture that pos_make tries after a double step, for the key) reorders the piece
         * lists, and with them the order of later generated moves. */
        if (hopeless && !may_check && MV_FLAG(m) == MF_NORMAL && pos->board[MV_TO(m)] == EMPTY)
            continue;
        p->cont = cont_of(s, m); /* read by the replies only, so not for a skipped move */
        pos_make(pos, m);
        int gives_check = may_check && att_in_check(pos, pos->side);
        if (hopeless && !gives_check) {
            pos_unmake(pos);
            continue;
        }
        tt_prefetch(s->tt, pos->key);
        s->stack[ply + 1].in_check = gives_check;
        int new_depth = depth - 1 + (singular && m == tt_move), score;
        if (searched == 0) {
            score = -search(s, -beta, -alpha, new_depth, ply + 1, 1, !pv_node && !cut_node);
        } else {
            int r = 0;
            if (depth >= 3 && searched >= 2 + pv_node && !tactical) {
                r = reduction(s, depth, searched);
                r -= pv_node;
                r += !improving;
                r -= gives_check || in_check;
                if (cut_node) /* expected to fail high: its late moves matter least */
                    r += s->sp[SP_LMR_CUT];
                if (sc_order >= ORDER_KILLER - 2)
                    r--;
                else
                    r -= sc_order / s->sp[SP_HIST_DIV]; /* good history: reduced less */
                if (r > new_depth - 1)
                    r = new_depth - 1;
                if (r < 0)
                    r = 0;
            }
            /* As Stockfish: the reduced search expects a cut, the full-depth one after it the
             * opposite of this node. */
            score = -search(s, -alpha - 1, -alpha, new_depth - r, ply + 1, 1, r > 0 || !cut_node);
            if (score > alpha && r > 0)
                score = -search(s, -alpha - 1, -alpha, new_depth, ply + 1, 1, !cut_node);
            if (score > alpha && score < beta)
                score = -search(s, -beta, -alpha, new_depth, ply + 1, 1, 0);
        }
        pos_unmake(pos);
        if (s->stopped)
            return 0;
        searched++;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                update_pv(s, ply, m);
                if (score >= beta) {
                    if (!tactical) {
                        if (p->killers[0] != m) {
                            p->killers[1] = p->killers[0];
                            p->killers[0] = m;
                        }
                        order_reward(&s->order, pos, m, tried, ntried, depth, prev,
                                     hints.cont);
                    }
                    break;
                }
            }
        }
        if (!tactical && ntried < 64)
            tried[ntried++] = m;
    }
    if (!mp.any)
        return in_check ? -SCORE_MATE + ply : 0;
    if (excluded)
        return best == -SCORE_INF ? alpha : best; /* no other move: the hash move is forced */
    int bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    /* Learn from the score where it says something about the eval: a quiet best move (a
     * won capture says nothing about a misjudged structure), a bound on the side of the
     * eval it does not contradict, and no mate. */
    if (s->sp[SP_CORR_HIST] && !in_check && !(best_move && order_is_tactical(pos, best_move)) &&
        !(bound == BOUND_LOWER && best <= eval) && !(bound == BOUND_UPPER && best >= eval) &&
        best < SCORE_MATE_BOUND && best > -SCORE_MATE_BOUND)
        update_corr(s, raw, best, depth);
    tt_store(s->tt, pos->key, best_move, score_to_tt(best, ply),
             in_check ? TT_NO_EVAL : raw, depth, bound);
    return best;
}

/* ---- the root ----------------------------------------------------------------------------- */

/* Searches the root moves from index first on; returns the best score. Moves that do not
 * beat the window keep -SCORE_INF, so a stable sort keeps their earlier order. */
static int search_root(Search *s, int alpha, int beta, int depth, int first)
{
    Position *pos = &s->pos;
    int best = -SCORE_INF;
    s->pv_len[0] = 0;
    for (int i = first; i < s->nroot; i++) {
        RootMove *rm = &s->root[i];
        s->stack[0].move = rm->move;
        s->stack[0].cont = cont_of(s, rm->move);
        int quiet = !order_is_tactical(pos, rm->move);
        s->nodes++;
        pos_make(pos, rm->move);
        s->stack[1].in_check = att_in_check(pos, pos->side);
        int score;
        if (i == first) {
            score = -search(s, -beta, -alpha, depth - 1, 1, 1, 0);
        } else {
            int r = depth >= 3 && i >= first + 3 && quiet ? 1 : 0;
            score = -search(s, -alpha - 1, -alpha, depth - 1 - r, 1, 1, 1);
            if (score > alpha && r)
                score = -search(s, -alpha - 1, -alpha, depth - 1, 1, 1, 1);
            if (score > alpha)
                score = -search(s, -beta, -alpha, depth - 1, 1, 1, 0);
        }
        pos_unmake(pos);
        if (s->stopped)
            break;
        if (i == first || score > alpha) {
            rm->score = score;
            rm->pv[0] = rm->move;
            rm->pv_len = 1 + s->pv_len[1];
            memcpy(&rm->pv[1], s->pv[1], (size_t)s->pv_len[1] * sizeof(Move));
        } else {
            rm->score = -SCORE_INF;
        }
        if (score > best)
            best = score;
        if (score > alpha) {
            alpha = score;
            if (score >= beta)
                break;
        }
    }
    return best;
}

static void sort_root(RootMove *r, int from, int to)
{
    /* insertion sort: stable, and the list is nearly sorted */
    for (int i = from + 1; i < to; i++) {
        RootMove tmp = r[i];
        int j = i;
        while (j > from && r[j - 1].score < tmp.score) {
            r[j] = r[j - 1];
            j--;
        }
        r[j] = tmp;
    }
}

/* The nodes of this search and its helpers. A helper's count is read while it runs: a
 * moment's figure, which is all a report needs. */
static uint64_t total_nodes(const Search *s)
{
    uint64_t n = s->nodes;
    for (int i = 0; i < s->nhelpers; i++)
        n += s->helpers[i]->nodes;
    return n;
}

static void send_report(Search *s, int depth, int line, int score, int bound)
{
    if (!s->report)
        return;
    SearchInfo info;
    RootMove *rm = &s->root[line];
    info.depth = depth;
    info.seldepth = s->seldepth;
    info.multipv = line + 1;
    info.score = score;
    info.bound = bound;
    info.nodes = total_nodes(s);
    info.time_ms = elapsed(s);
    info.hashfull = tt_hashfull(s->tt);
    info.pv_len = rm->pv_len;
    memcpy(info.pv, rm->pv, (size_t)rm->pv_len * sizeof(Move));
    s->report(s->ctx, &info);
}

static int root_allowed(const SearchLimits *lim, Move m)
{
    if (!lim->only || lim->nonly <= 0)
        return 1;
    for (int i = 0; i < lim->nonly; i++)
        if (lim->only[i] == m)
            return 1;
    return 0;
}

static void init_root(Search *s)
{
    Ply *p = &s->stack[0];
    gen_legal(&s->pos, &p->list);
    TTEntry e;
    OrderHints h = { tt_probe(s->tt, s->pos.key, &e) ? e.move : 0, { 0, 0 }, 0,
                     { NULL, NULL } };
    order_score(&s->pos, &p->list, p->scores, &h, &s->order, &s->params);
    s->nroot = 0;
    for (int i = 0; i < p->list.n; i++) {
        Move m = order_pick(&p->list, p->scores, i);
        if (!root_allowed(&s->lim, m))
            continue;
        RootMove *rm = &s->root[s->nroot++];
        rm->move = m;
        rm->score = rm->prev_score = -SCORE_INF;
        rm->pv[0] = m;
        rm->pv_len = 1;
    }
    if (s->nroot == 0 && s->lim.only) { /* no searchmove is legal: search them all */
        s->lim.only = NULL;
        init_root(s);
    }
}

static int time_is_up(const Search *s)
{
    return !s->lim.infinite && !s->pondering && s->soft >= 0 && elapsed(s) >= s->soft;
}

static void iterate(Search *s, SearchResult *out)
{
    int max_depth = s->lim.depth > 0 && s->lim.depth < MAX_PLY ? s->lim.depth : MAX_PLY;
    int lines = s->lim.multipv < 1 ? 1 : s->lim.multipv;
    if (lines > s->nroot)
        lines = s->nroot;
    for (int depth = 1; depth <= max_depth; depth++) {
        s->seldepth = 0;
        s->root_depth = depth;
        for (int line = 0; line < lines && !s->stopped; line++) {
            int prev = s->root[line].prev_score, delta = 25;
            int alpha = -SCORE_INF, beta = SCORE_INF;
            if (depth >= 5 && prev > -SCORE_MATE_BOUND && prev < SCORE_MATE_BOUND) {
                alpha = prev - delta;
                beta = prev + delta;
            }
            for (;;) {
                int score = search_root(s, alpha, beta, depth, line);
                sort_root(s->root, line, s->nroot);
                if (s->stopped)
                    break;
                if (score <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = score - delta > -SCORE_INF ? score - delta : -SCORE_INF;
                    send_report(s, depth, line, score, BOUND_UPPER);
                } else if (score >= beta) {
                    beta = score + delta < SCORE_INF ? score + delta : SCORE_INF;
                    send_report(s, depth, line, score, BOUND_LOWER);
                } else {
                    break;
                }
                delta += delta / 2;
            }
        }
        if (s->stopped)
            break;
        /* A later line can overtake an earlier one: report them all once sorted. */
        sort_root(s->root, 0, lines);
        for (int line = 0; line < lines; line++)
            send_report(s, depth, line, s->root[line].score, BOUND_EXACT);
        for (int i = 0; i < s->nroot; i++)
            s->root[i].prev_score = s->root[i].score;
        out->depth = s->completed = depth;
        int best = s->root[0].score;
        /* A mate found within this depth cannot be bettered by searching deeper. */
        if (!s->lim.infinite && best > -SCORE_INF &&
            (best >= SCORE_MATE_BOUND || best <= -SCORE_MATE_BOUND) &&
            SCORE_MATE - abs(best) <= depth)
            break;
        /* One legal move under a clock: play it. */
        if (s->nroot == 1 && s->soft >= 0 && !s->lim.infinite && !s->lim.movetime)
            break;
        if (time_is_up(s))
            break;
    }
}

/* ---- the public side ---------------------------------------------------------------------- */

void search_default_limits(SearchLimits *lim)
{
    memset(lim, 0, sizeof *lim);
    lim->time[WHITE] = lim->time[BLACK] = -1;
    lim->multipv = 1;
    lim->overhead = 20;
}

/* A search without a table of its own: the main search's, or a helper's (tt set later). */
static Search *search_alloc(void)
{
    Search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->evals = calloc(EVAL_SLOTS, sizeof *s->evals);
    s->pawns = calloc(EVAL_PAWN_SLOTS, sizeof *s->pawns);
    if (!s->evals || !s->pawns) {
        free(s->evals);
        free(s->pawns);
        free(s);
        return NULL;
    }
    eval_default_params(&s->params);
    memcpy(s->sp, SP_DEFAULTS, sizeof s->sp);
    init_lmr(s);
    return s;
}

Search *search_new(size_t hash_mb)
{
    Search *s = search_alloc();
    if (!s)
        return NULL;
    if (!tt_init(&s->own_tt, hash_mb)) {
        search_free(s);
        return NULL;
    }
    s->tt = &s->own_tt;
    return s;
}

static void free_helper(Search *h)
{
    for (int v = 0; v < 2; v++)
        nnue_state_free(h->own_nnue[v]);
    free(h->evals);
    free(h->pawns);
    free(h);
}

void search_free(Search *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nhelpers; i++)
        free_helper(s->helpers[i]);
    free(s->helpers);
    tt_free(&s->own_tt);
    free(s->evals);
    free(s->pawns);
    free(s);
}

int search_resize(Search *s, size_t hash_mb)
{
    TT fresh;
    if (!tt_init(&fresh, hash_mb))
        return 0;
    tt_free(&s->own_tt);
    s->own_tt = fresh; /* the helpers point at own_tt, which stays where it is */
    return 1;
}

int search_set_threads(Search *s, int threads)
{
#if !defined(RC_THREADS)
    threads = 1;
#endif
    if (threads < 1 || threads > SEARCH_MAX_THREADS)
        return 0;
    int want = threads - 1;
    if (want > s->nhelpers) {
        Search **more = realloc(s->helpers, (size_t)want * sizeof *more);
        if (!more)
            return 0;
        s->helpers = more;
        while (s->nhelpers < want) {
            Search *h = search_alloc();
            if (!h)
                return 0;
            h->tt = &s->own_tt;
            h->halt = &s->halting;
            s->helpers[s->nhelpers++] = h;
        }
    }
    while (s->nhelpers > want)
        free_helper(s->helpers[--s->nhelpers]);
    return 1;
}

int search_threads(const Search *s)
{
    return 1 + s->nhelpers;
}

static void reset_killers(Search *s)
{
    for (int i = 0; i < MAX_PLY + 4; i++)
        s->stack[i].killers[0] = s->stack[i].killers[1] = 0;
}

static void clear_learnt(Search *s)
{
    forget_evals(s);
    memset(&s->order, 0, sizeof s->order);
    memset(s->corr, 0, sizeof s->corr);
    reset_killers(s);
}

void search_clear(Search *s)
{
    for (int i = 0; i < s->nhelpers; i++) {
        Search *h = s->helpers[i];
        clear_learnt(h);
        /* Nets change only with a clear (set_net): a helper's accumulators may belong to a
         * net already freed, whose address a new one could take. */
        for (int v = 0; v < 2; v++) {
            nnue_state_free(h->own_nnue[v]);
            h->own_nnue[v] = NULL;
        }
    }
    tt_clear(s->tt);
    clear_learnt(s);
}

EvalParams *search_params(Search *s)
{
    return &s->params;
}

int search_tunable_count(void)
{
    return SP_COUNT;
}

const char *search_tunable_name(int i)
{
    return SP_NAMES[i];
}

int search_get_tunable(const Search *s, int i)
{
    return s->sp[i];
}

int search_set_tunable(Search *s, const char *name, int value)
{
    for (int i = 0; i < SP_COUNT; i++)
        if (strcmp(name, SP_NAMES[i]) == 0) {
            if (value <= 0 && (i == SP_LMR_DIV || i == SP_HIST_DIV))
                return 0;
            s->sp[i] = value;
            init_lmr(s);
            return 1;
        }
    return 0;
}

void search_stop(Search *s, uint64_t ticket)
{
    s->stop_ticket = ticket;
}

void search_ponderhit(Search *s)
{
    s->start = tm_now_ms();
    s->pondering = 0;
}

/* What the last search learnt about quiet moves is partly stale after the moves played
 * since: each search starts from the history divided by 2^hist_age (0 keeps it
 * whole), so fresh results outweigh old ones without losing the order they give. */
static void age_history(Search *s)
{
    int *h = &s->order.history[0][0][0];
    int16_t *c = &s->order.cont[0][0][0][0];
    /* Halving by a constant, once per bit, keeps the loops vectorised: the tables are
     * megabytes and this runs before every search. */
    for (int k = 0; k < s->sp[SP_HIST_AGE] && k < 15; k++) {
        for (size_t i = 0; i < sizeof s->order.history / sizeof *h; i++)
            h[i] /= 2;
        for (size_t i = 0; i < sizeof s->order.cont / sizeof *c; i++)
            c[i] = (int16_t)(c[i] / 2);
    }
}

/* What every search, main or helper, does once its position is in place. */
static void start_search(Search *s)
{
    if (s->evals_version != s->params.version)
        forget_evals(s);
    age_history(s);
    reset_killers(s);
    init_root(s);
    eval_prepare(&s->pos, &s->params);
}

#if defined(RC_THREADS)
/* Readies helper h to search pos beside s: s's weights, tunables and root moves, its nets
 * through accumulators of h's own, no limit but s's halt. Returns 0 when out of memory. */
static int helper_ready(Search *h, const Search *s, const Position *pos)
{
    h->params = s->params;
    for (int v = 0; v < 2; v++) {
        if (!s->params.nnue[v]) {
            h->params.nnue[v] = NULL;
            continue;
        }
        const NnueNet *net = nnue_state_net(s->params.nnue[v]);
        if (!h->own_nnue[v] || nnue_state_net(h->own_nnue[v]) != net) {
            nnue_state_free(h->own_nnue[v]);
            if (!(h->own_nnue[v] = nnue_state_new(net)))
                return 0;
        }
        h->params.nnue[v] = h->own_nnue[v];
    }
    if (memcmp(h->sp, s->sp, sizeof h->sp) != 0) {
        memcpy(h->sp, s->sp, sizeof h->sp);
        init_lmr(h);
    }
    search_default_limits(&h->lim);
    h->lim.infinite = 1;
    h->lim.only = s->lim.only;
    h->lim.nonly = s->lim.nonly;
    h->report = NULL;
    h->ctx = NULL;
    h->ticket = 1;
    h->stop_ticket = 0;
    h->start = s->start;
    h->completed = 0;
    h->stopped = 0;
    h->pondering = 0;
    h->soft = h->hard = -1;
    if (!pos_copy(&h->pos, pos) || !pos_reserve(&h->pos, pos->ply + MAX_PLY + 8)) {
        pos_free(&h->pos);
        return 0;
    }
    start_search(h);
    return 1;
}

static void *helper_main(void *arg)
{
    Search *h = arg;
    SearchResult unused;
    iterate(h, &unused);
    return NULL;
}
#endif

void search_go(Search *s, const Position *pos, const SearchLimits *lim, SearchReport report,
               void *ctx, uint64_t ticket, SearchResult *out)
{
    memset(out, 0, sizeof *out);
    s->start = tm_now_ms();
    s->lim = *lim;
    s->report = report;
    s->ctx = ctx;
    s->ticket = ticket;
    s->nodes = 0;
    s->completed = 0;
    s->stopped = s->stop_ticket == ticket;
    s->pondering = lim->ponder;
    s->soft = s->hard = -1;
    /* A clock given for one side only is taken for both (a GUI's slip). */
    int us = lim->time[pos->side] >= 0 ? pos->side : !pos->side;
    if (lim->movetime > 0 || (!lim->infinite && lim->time[us] >= 0))
        tm_budget(lim->time[us], lim->inc[us], lim->movestogo, lim->movetime, lim->overhead,
                  &s->soft, &s->hard);
    if (!pos_copy(&s->pos, pos) || !pos_reserve(&s->pos, pos->ply + MAX_PLY + 8)) {
        pos_free(&s->pos);
        return; /* out of memory: no move */
    }
    tt_new_search(s->tt);
    start_search(s);
    for (int i = 0; i < s->nhelpers; i++)
        s->helpers[i]->nodes = 0;
#if defined(RC_THREADS)
    int running = 0;
    pthread_t threads[SEARCH_MAX_THREADS];
    /* A node budget asks for the same answer every time, which only one thread gives. */
    if (s->nroot > 0 && !lim->nodes) {
        s->halting = 0;
        while (running < s->nhelpers && helper_ready(s->helpers[running], s, pos)) {
            if (pthread_create(&threads[running], NULL, helper_main, s->helpers[running])) {
                pos_free(&s->helpers[running]->pos);
                break;
            }
            running++;
        }
    }
#endif
    if (s->nroot > 0) {
        iterate(s, out);
        out->best = s->root[0].move;
        out->ponder = s->root[0].pv_len > 1 ? s->root[0].pv[1] : 0;
        out->score = s->root[0].score > -SCORE_INF ? s->root[0].score : s->root[0].prev_score;
    }
#if defined(RC_THREADS)
    s->halting = 1;
    for (int i = 0; i < running; i++) {
        pthread_join(threads[i], NULL);
        pos_free(&s->helpers[i]->pos);
    }
#endif
    out->nodes = total_nodes(s);
    out->time_ms = elapsed(s);
    pos_free(&s->pos);
}
