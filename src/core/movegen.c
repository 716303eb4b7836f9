#include <stdlib.h>
#include <string.h>

#include "attack.h"
#include "geometry.h"
#include "movegen.h"
#include "position.h"

/* The generators write through a cursor and return it, so the count stays in a register. */
static inline Move *put(Move *o, int from, int to, int promo, int flag)
{
    *o = MAKE_MOVE(from, to, promo, flag);
    return o + 1;
}

static inline void add(MoveList *l, int from, int to, int promo, int flag)
{
    l->moves[l->n++] = MAKE_MOVE(from, to, promo, flag);
}

/* An enemy piece: for White a cell with the colour bit and not OFF; for Black, subtracting
 * one wraps EMPTY round to a value with both bits set and leaves only White's pieces with
 * neither. One subtraction and one mask instead of three tests. */
static inline int is_enemy(uint8_t p, int us)
{
    return ((uint8_t)(p - us) & (BLACK_BIT | OFF)) == (us ? 0 : BLACK_BIT);
}

int gen_promotion_mask(const Position *pos)
{
    if (pos->variant != VARIANT_ROYAL)
        return 1 << QUEEN | 1 << ROOK | 1 << BISHOP | 1 << KNIGHT;
    int count[NTYPES] = { 0 }, us = pos->side, mask = 0;
    for (int i = 0; i < pos->pcount[us]; i++)
        count[PTYPE(pos->board[pos->plist[us][i]])]++;
    /* Rule 6.1: only kinds captured earlier, i.e. with fewer on the board than at the start. */
    for (int t = KNIGHT; t < NTYPES; t++)
        if (t != KING && count[t] < pos_royal_start_count[t])
            mask |= 1 << t;
    return mask;
}

static Move *put_promotions(Move *o, int from, int to, int mask)
{
    static const int order[6] = { QUEEN, ROOK, BISHOP, KNIGHT, QGUARD, KGUARD };
    for (int i = 0; i < 6; i++) {
        int t = order[i];
        if (!(mask & 1 << t))
            continue;
        o = put(o, from, to, t, MF_PROMO);
        if (t == QGUARD || t == KGUARD)
            o = put(o, from, to, t, MF_PROMO_WAIVED);
    }
    return o;
}

static inline Move *gen_pawn(const Position *pos, int sq, Move *o, int *promo_mask)
{
    const uint8_t *b = pos->board;
    int us = pos->side, fwd = us == WHITE ? MB_W : -MB_W;
    /* Both boards have eight ranks: the second and seventh ranks by their mailbox rows, which
     * is cheaper than dividing by the row width. */
    int second = us == WHITE ? SQ(-1, 1) : SQ(-1, 6), seventh = us == WHITE ? SQ(-1, 6) : SQ(-1, 1);
    int to = sq + fwd;
    if ((unsigned)(sq - seventh) < MB_W) {
        if (*promo_mask < 0)
            *promo_mask = gen_promotion_mask(pos);
        if (!*promo_mask)
            return o; /* rule 6.1: nothing to promote to, so the pawn cannot reach its last rank */
        if (b[to] == EMPTY)
            o = put_promotions(o, sq, to, *promo_mask);
        if (is_enemy(b[to - 1], us))
            o = put_promotions(o, sq, to - 1, *promo_mask);
        if (is_enemy(b[to + 1], us))
            o = put_promotions(o, sq, to + 1, *promo_mask);
        return o;
    }
    if (b[to] == EMPTY) {
        o = put(o, sq, to, 0, MF_NORMAL);
        if ((unsigned)(sq - second) < MB_W && b[to + fwd] == EMPTY)
            o = put(o, sq, to + fwd, 0, MF_DOUBLE);
    }
    for (int side = -1; side <= 1; side += 2) {
        int t = to + side;
        if (is_enemy(b[t], us))
            o = put(o, sq, t, 0, MF_NORMAL);
        else if (t == pos->ep && pos->ep)
            o = put(o, sq, t, 0, MF_EP);
    }
    return o;
}

static Move *gen_steps(const uint8_t *b, int sq, const int *steps, int us, Move *o)
{
    for (int i = 0; i < 8; i++) {
        int t = sq + steps[i];
        uint8_t p = b[t];
        if (p == EMPTY || is_enemy(p, us))
            o = put(o, sq, t, 0, MF_NORMAL);
    }
    return o;
}

static inline Move *slide(const uint8_t *b, int sq, int d, int us, Move *o)
{
    int s = sq + d;
    for (; b[s] == EMPTY; s += d)
        o = put(o, sq, s, 0, MF_NORMAL);
    if (is_enemy(b[s], us))
        o = put(o, sq, s, 0, MF_NORMAL);
    return o;
}

static Move *gen_rook(const Position *pos, int sq, const uint8_t *rooks, int nrooks, Move *o)
{
    const uint8_t *b = pos->board;
    int us = pos->side;
    if (pos->variant != VARIANT_ROYAL) {
        for (int i = 0; i < 4; i++)
            o = slide(b, sq, geo_orth[i], us, o);
        return o;
    }
    int partner = pos_rook_partner_among(pos, sq, us, rooks, nrooks);
    int first = RANK_OF(sq) == pos_first_rank(pos, us);
    int pdir = 0;
    if (partner)
        pdir = FILE_OF(partner) == FILE_OF(sq) ? (partner > sq ? MB_W : -MB_W)
                                               : (partner > sq ? 1 : -1);
    for (int i = 0; i < 4; i++) {
        int d = geo_orth[i];
        if (d == pdir) {
            /* Rule 3.1b: any empty square between the pair, over their own Guards. */
            for (int s = sq + d; s != partner; s += d)
                if (b[s] == EMPTY)
                    o = put(o, sq, s, 0, MF_NORMAL);
        } else if (first && (d == 1 || d == -1)) {
            /* Rule 3.1a: along its first rank a Rook passes over its own Guards. */
            for (int s = sq + d;; s += d) {
                uint8_t p = b[s];
                if (p == EMPTY) {
                    o = put(o, sq, s, 0, MF_NORMAL);
                } else if (p != OFF && PCOLOR(p) == us && pos_is_guard(p)) {
                    continue;
                } else {
                    if (is_enemy(p, us))
                        o = put(o, sq, s, 0, MF_NORMAL);
                    break;
                }
            }
        } else {
            o = slide(b, sq, d, us, o);
        }
    }
    return o;
}

/* A Guard's major moves go to `major`, its minor ones to `minor` (section 4). */
static void gen_guard(const Position *pos, int sq, MoveList *major, MoveList *minor)
{
    const uint8_t *b = pos->board;
    uint8_t pc = b[sq];
    int us = PCOLOR(pc);
    if (pc & POWER_BIT) {
        /* Rule 6.2: on its promotion square a promoted Guard moves as a Queen. */
        Move *o = major->moves + major->n;
        for (int i = 0; i < 8; i++)
            o = slide(b, sq, geo_king[i], us, o);
        major->n = (int)(o - major->moves);
        return;
    }
    int qguard = PTYPE(pc) == QGUARD;
    const int *maj = qguard ? geo_diag : geo_orth;
    const int *min = qguard ? geo_orth : geo_diag;
    uint8_t own_king = MAKE_PIECE(KING, us);
    /* Rule 4.4: a Guard may pass over its own King standing on its first rank. */
    int king_home = RANK_OF(pos->king[us]) == pos_first_rank(pos, us);
    for (int i = 0; i < 4; i++) {
        int d = maj[i], s = sq, passed = 0;
        for (int step = 1; step <= 3; step++) {
            s += d;
            uint8_t p = b[s];
            if (p == EMPTY) {
                add(major, sq, s, 0, MF_NORMAL);
                continue;
            }
            if (p == own_king && king_home) {
                passed = 1;
                continue;
            }
            if (!passed && is_enemy(p, us))
                add(major, sq, s, 0, MF_NORMAL);
            break;
        }
    }
    int r = geo_rel_rank(sq, us, pos->ranks);
    int half = pos->ranks / 2; /* relative ranks 0..half-1 are the Guard's own territory */
    for (int i = 0; i < 4; i++) {
        int d = min[i], len = 3;
        if (r >= half) {
            /* Rule 4.2.2: in enemy territory one square, unless it leads home, or a Queen's
             * Guard on the fifth rank moves along it. */
            int first = sq + d;
            if (b[first] == OFF)
                continue;
            int back_home = geo_rel_rank(first, us, pos->ranks) == half - 1;
            int sideways = qguard && r == half && (d == 1 || d == -1);
            len = back_home || sideways ? 3 : 1;
        }
        int s = sq, passed = 0;
        for (int step = 1; step <= len; step++) {
            s += d;
            uint8_t p = b[s];
            if (p == EMPTY) {
                add(minor, sq, s, 0, MF_NORMAL);
                /* Rule 4.2.1: from home the line ends on the first enemy-territory square. */
                if (r < half && geo_rel_rank(s, us, pos->ranks) >= half)
                    break;
                continue;
            }
            if (p == own_king && king_home) {
                passed = 1;
                continue;
            }
            if (step == 1 && !passed && is_enemy(p, us))
                add(minor, sq, s, 0, MF_NORMAL); /* rule 4.1: captures on the first square only */
            break;
        }
    }
}

void gen_guard_targets(const Position *pos, int sq, MoveList *major, MoveList *minor)
{
    major->n = minor->n = 0;
    if (pos_is_guard(pos->board[sq]) && pos->board[sq] != OFF)
        gen_guard(pos, sq, major, minor);
}

/* Each side's pieces grouped by kind, in piece-list order: grouping first keeps each
 * generation loop free of mispredicted jumps, and the order is the one the search relies on. */
typedef struct {
    uint8_t sq[NTYPES][32];
    int n[NTYPES];
} ByType;

static void group_by_type(const Position *pos, ByType *bt)
{
    int us = pos->side;
    memset(bt->n, 0, sizeof bt->n);
    for (int i = 0; i < pos->pcount[us]; i++) {
        int sq = pos->plist[us][i], t = PTYPE(pos->board[sq]);
        bt->sq[t][bt->n[t]++] = (uint8_t)sq;
    }
}

static void gen_pseudo(const Position *pos, MoveList *l)
{
    const uint8_t *b = pos->board;
    int us = pos->side, promo_mask = -1;
    ByType bt;
    group_by_type(pos, &bt);
    Move *o = l->moves;
    for (int i = 0; i < bt.n[PAWN]; i++)
        o = gen_pawn(pos, bt.sq[PAWN][i], o, &promo_mask);
    for (int i = 0; i < bt.n[KNIGHT]; i++)
        o = gen_steps(b, bt.sq[KNIGHT][i], geo_knight, us, o);
    for (int i = 0; i < bt.n[BISHOP]; i++)
        for (int k = 0; k < 4; k++)
            o = slide(b, bt.sq[BISHOP][i], geo_diag[k], us, o);
    for (int i = 0; i < bt.n[ROOK]; i++)
        o = gen_rook(pos, bt.sq[ROOK][i], bt.sq[ROOK], bt.n[ROOK], o);
    for (int i = 0; i < bt.n[QUEEN]; i++)
        for (int k = 0; k < 8; k++)
            o = slide(b, bt.sq[QUEEN][i], geo_king[k], us, o);
    o = gen_steps(b, pos->king[us], geo_king, us, o);
    l->n = (int)(o - l->moves);
    for (int t = QGUARD; t <= KGUARD; t++)
        for (int i = 0; i < bt.n[t]; i++)
            gen_guard(pos, bt.sq[t][i], l, l);
    /* Rule 3.1c: a recapture through the Rook's own Guards. */
    if (pos->recap && pos_recapture_extra(pos))
        add(l, pos->recap_rook, pos->recap, 0, MF_NORMAL);
}

void gen_pseudo_legal(const Position *pos, MoveList *list)
{
    gen_pseudo(pos, list);
}

static int leaves_king_safe(Position *pos, Move m)
{
    int us = pos->side, from = MV_FROM(m), to = MV_TO(m), flag = MV_FLAG(m);
    uint8_t *b = pos->board;
    if (b[to] == EMPTY && (flag == MF_NORMAL || flag == MF_PROMO || flag == MF_PROMO_WAIVED)) {
        /* A quiet move gives no recapture right and no en passant square, and our piece only
         * blocks lines whatever its kind: moving it on the board alone is the whole trial
         * (and leaves the piece lists untouched, as make and unmake would). */
        uint8_t pc = b[from];
        int k = from == pos->king[us] ? to : pos->king[us];
        b[to] = pc;
        b[from] = EMPTY;
        int ok = !att_attacked(pos, k, !us, 0, 0);
        b[from] = pc;
        b[to] = EMPTY;
        return ok;
    }
    pos_make(pos, m);
    int ok = !att_in_check(pos, us);
    pos_unmake(pos);
    return ok;
}

/* Chess castling (out of check): the King's two-square move, the usual conditions. */
static void gen_castling_chess(Position *pos, const Attackers *a, MoveList *l)
{
    int us = pos->side, fr = pos_first_rank(pos, us);
    int rights = pos->castle & (us == WHITE ? (WK | WQ) : (BK | BQ));
    int ksq = SQ(4, fr);
    const uint8_t *b = pos->board;
    if (!rights || b[ksq] != MAKE_PIECE(KING, us))
        return;
    uint8_t rook = MAKE_PIECE(ROOK, us);
    if ((rights & (WK | BK)) && b[SQ(7, fr)] == rook && b[SQ(5, fr)] == EMPTY &&
        b[SQ(6, fr)] == EMPTY && !att_attacked_by(b, a, SQ(5, fr)) &&
        !att_attacked_by(b, a, SQ(6, fr)))
        l->moves[l->n++] = MAKE_CASTLE(ksq, SQ(6, fr), SQ(7, fr), SQ(5, fr), 0, 0);
    if ((rights & (WQ | BQ)) && b[SQ(0, fr)] == rook && b[SQ(1, fr)] == EMPTY &&
        b[SQ(2, fr)] == EMPTY && b[SQ(3, fr)] == EMPTY && !att_attacked_by(b, a, SQ(3, fr)) &&
        !att_attacked_by(b, a, SQ(2, fr)))
        l->moves[l->n++] = MAKE_CASTLE(ksq, SQ(2, fr), SQ(0, fr), SQ(3, fr), 0, 0);
}

/* Royal castling on the board as it stands (after the optional Guard move gf-gt). Adds
 * candidates; the caller checks the whole move for leaving the King in check. */
static void try_royal_castle(Position *pos, MoveList *out, int ksq, int rsq, int dir,
                             int gf, int gt, int recap, int recap_rook)
{
    const uint8_t *b = pos->board;
    int us = pos->side, them = !us;
    for (int s = ksq + dir; s != rsq; s += dir)
        if (b[s] != EMPTY && !(PCOLOR(b[s]) == us && pos_is_guard(b[s])))
            return; /* rule 5.1: only Guards between */
    if (att_attacked(pos, ksq, them, recap, recap_rook))
        return;
    /* Rule 5.2: kingside g, h, i; queenside d, c, b (one, two, three files past the Guard). */
    int first = dir > 0 ? 1 : 2;
    int s = ksq;
    for (int k = 1; k <= first + 2; k++) {
        s += dir;
        /* Every square the King crosses or reaches must be safe (rule 5.5). */
        if (att_attacked(pos, s, them, recap, recap_rook))
            return;
        if (k < first || b[s] != EMPTY)
            continue;
        int rt = s - dir;
        while (rt != ksq && b[rt] != EMPTY)
            rt -= dir; /* rule 5.3: first empty square beside the King towards the centre */
        out->moves[out->n++] = MAKE_CASTLE(ksq, s, rsq, rt, gf, gt);
    }
}

/* Castling needs only Guards between King and Rook once the Guard has moved, and a Guard
 * move takes at most one enemy piece away: with another piece of ours, or two enemy pieces,
 * between them no castling can come out on that side. */
static int castle_path_blocked(const uint8_t *b, int ksq, int rsq, int dir, int us)
{
    int enemies = 0;
    for (int s = ksq + dir; s != rsq; s += dir) {
        uint8_t p = b[s];
        if (p == EMPTY)
            continue;
        if (PCOLOR(p) != us ? ++enemies > 1 : !pos_is_guard(p))
            return 1;
    }
    return 0;
}

/* Could the Guard on g take anything? Without queen powers it reaches three squares. */
static int guard_may_capture(const Position *pos, int g)
{
    if (pos->board[g] & POWER_BIT)
        return 1;
    int them = !PCOLOR(pos->board[g]), f = FILE_OF(g), r = RANK_OF(g);
    for (int i = 0; i < pos->pcount[them]; i++) {
        int s = pos->plist[them][i];
        if (abs(FILE_OF(s) - f) <= 3 && abs(RANK_OF(s) - r) <= 3)
            return 1;
    }
    return 0;
}

static void gen_castling_royal(Position *pos, MoveList *l)
{
    int us = pos->side, them = !us, fr = pos_first_rank(pos, us);
    int rights = pos->castle & (us == WHITE ? (WK | WQ) : (BK | BQ));
    int ksq = SQ(5, fr);
    if (!rights || pos->board[ksq] != MAKE_PIECE(KING, us))
        return;
    MoveList cand;
    cand.n = 0;
    for (int side = 0; side < 2; side++) {
        int right = side == 0 ? (WK | BK) : (WQ | BQ);
        int rsq = side == 0 ? SQ(pos->files - 1, fr) : SQ(0, fr);
        int dir = side == 0 ? 1 : -1;
        if (!(rights & right) || pos->board[rsq] != MAKE_PIECE(ROOK, us))
            continue;
        int blocked = castle_path_blocked(pos->board, ksq, rsq, dir, us);
        if (!blocked)
            try_royal_castle(pos, &cand, ksq, rsq, dir, 0, 0, 0, 0);
        /* Rule 5.4: a Guard standing between may move first, as part of the castling. */
        for (int g = ksq + dir; g != rsq; g += dir) {
            uint8_t guard = pos->board[g];
            if (guard == EMPTY || PCOLOR(guard) != us || !pos_is_guard(guard))
                continue;
            /* On a blocked side the Guard's captures are still tried, because taking a piece
             * off and putting it back reorders the piece lists, which the move order follows. */
            if (blocked && !guard_may_capture(pos, g))
                continue;
            MoveList gm;
            gm.n = 0;
            gen_guard(pos, g, &gm, &gm);
            for (int i = 0; i < gm.n; i++) {
                int gt = MV_TO(gm.moves[i]);
                uint8_t victim = pos->board[gt];
                int recap = 0, recap_rook = 0;
                if (victim && PTYPE(victim) == ROOK) {
                    recap_rook = pos_rook_partner(pos, gt, them);
                    recap = recap_rook ? gt : 0;
                }
                if (victim)
                    pos_remove(pos, gt);
                pos_relocate(pos, g, gt);
                try_royal_castle(pos, &cand, ksq, rsq, dir, g, gt, recap, recap_rook);
                pos_relocate(pos, gt, g);
                if (victim)
                    pos_put(pos, gt, victim);
            }
        }
    }
    for (int i = 0; i < cand.n; i++)
        if (leaves_king_safe(pos, cand.moves[i]))
            l->moves[l->n++] = cand.moves[i];
}

/* Own pieces that may be pinned: the first own piece on a line from the King with, further
 * on, an enemy piece that could attack along that line. Conservative for Royal Chess (any
 * enemy Guard counts), so a listed piece is only tested, never wrongly trusted. */
static int find_pins(const Position *pos, int *pins)
{
    const uint8_t *b = pos->board;
    int us = pos->side, ksq = pos->king[us], n = 0;
    for (int i = 0; i < 8; i++) {
        int d = geo_king[i], diagonal = i >= 4, s = ksq + d;
        while (b[s] == EMPTY)
            s += d;
        if (b[s] == OFF || PCOLOR(b[s]) != us)
            continue;
        int cand = s;
        s += d;
        while (b[s] == EMPTY)
            s += d;
        uint8_t p = b[s];
        if (p == OFF || PCOLOR(p) == us)
            continue;
        int t = PTYPE(p);
        if (t == QUEEN || t == QGUARD || t == KGUARD || (diagonal ? t == BISHOP : t == ROOK))
            pins[n++] = cand;
    }
    return n;
}

/* A King step is safe if the target is not attacked with the King lifted off its square.
 * Taking a Rook of a pair creates a recapture right, so that case is played out in full. */
static int king_step_safe(Position *pos, Move m)
{
    int us = pos->side, from = MV_FROM(m), to = MV_TO(m);
    uint8_t victim = pos->board[to];
    if (pos->variant == VARIANT_ROYAL && victim != EMPTY && PTYPE(victim) == ROOK)
        return leaves_king_safe(pos, m);
    uint8_t king = pos->board[from];
    pos->board[from] = EMPTY;
    int safe = !att_attacked(pos, to, !us, 0, 0);
    pos->board[from] = king;
    return safe;
}

/* Royal Chess: pseudo-legal moves through a filter that trusts the moves of unpinned pieces
 * out of check and plays out the rest (its pins and checks have too many forms to trust). */
static void gen_legal_royal(Position *pos, MoveList *l)
{
    gen_pseudo(pos, l);
    int us = pos->side, ksq = pos->king[us];
    int check = att_in_check(pos, us);
    int pins[8], npins = check ? 0 : find_pins(pos, pins);
    int n = 0;
    for (int i = 0; i < l->n; i++) {
        Move m = l->moves[i];
        int from = MV_FROM(m), ok = 1;
        if (from == ksq) {
            ok = check ? leaves_king_safe(pos, m) : king_step_safe(pos, m);
        } else if (check || MV_FLAG(m) == MF_EP) {
            ok = leaves_king_safe(pos, m);
        } else {
            for (int k = 0; k < npins; k++)
                if (pins[k] == from) {
                    ok = leaves_king_safe(pos, m);
                    break;
                }
        }
        if (ok)
            l->moves[n++] = m;
    }
    l->n = n;
    gen_castling_royal(pos, l);
}

/* ---- standard chess: legal moves generated directly --------------------------------------- */

/* Sets of mailbox squares, one bit per cell. */
typedef struct {
    uint64_t w[(MB_SIZE + 63) / 64];
} SquareSet;

static inline void set_add(SquareSet *s, int sq) { s->w[sq >> 6] |= 1ULL << (sq & 63); }
static inline int set_has(const SquareSet *s, int sq)
{
    return (int)(s->w[sq >> 6] >> (sq & 63)) & 1;
}

/* What the lines through the King say: how many pieces give check, the squares that answer a
 * single check (the checker's and those between), and the pinned pieces with the direction
 * from the King to each. In standard chess these are exact, so the generator needs no trial
 * moves apart from en passant. */
typedef struct {
    int checks;
    SquareSet evade;
    SquareSet pinned;
    int npins;
    uint8_t pin_sq[8];
    int pin_dir[8];
} KingLines;

/* A slider of `them` on s lines up with the King: with nothing between it gives check, with
 * one piece of ours between that piece is pinned. */
static void king_line(const uint8_t *b, int ksq, int s, int us, KingLines *kl)
{
    int d = att_line_step[att_diff(ksq, s)], own = 0;
    for (int t = ksq + d; t != s; t += d) {
        if (b[t] == EMPTY)
            continue;
        if (own || PCOLOR(b[t]) != us)
            return;
        own = t;
    }
    if (own) {
        set_add(&kl->pinned, own);
        kl->pin_sq[kl->npins] = (uint8_t)own;
        kl->pin_dir[kl->npins++] = d;
        return;
    }
    kl->checks++;
    for (int t = ksq + d;; t += d) {
        set_add(&kl->evade, t);
        if (t == s)
            break;
    }
}

static void scan_king(const Position *pos, const Attackers *a, KingLines *kl)
{
    const uint8_t *b = pos->board;
    int us = pos->side, ksq = pos->king[us];
    int fwd = us == WHITE ? MB_W : -MB_W;
    uint8_t pawn = MAKE_PIECE(PAWN, !us);
    memset(kl, 0, sizeof *kl);
    for (int i = 0; i < a->nknight; i++)
        if (att_kind[att_diff(a->knight[i], ksq)] & ATT_K_KNIGHT) {
            kl->checks++;
            set_add(&kl->evade, a->knight[i]);
        }
    for (int side = -1; side <= 1; side += 2)
        if (b[ksq + fwd + side] == pawn) {
            kl->checks++;
            set_add(&kl->evade, ksq + fwd + side);
        }
    for (int i = 0; i < a->ndiag; i++)
        if (att_kind[att_diff(a->diag[i], ksq)] & ATT_K_DIAG)
            king_line(b, ksq, a->diag[i], us, kl);
    for (int i = 0; i < a->north; i++)
        if (att_kind[att_diff(a->orth[i], ksq)] & ATT_K_ORTH)
            king_line(b, ksq, a->orth[i], us, kl);
}

static int pin_dir_of(const KingLines *kl, int sq)
{
    for (int i = 0; i < kl->npins; i++)
        if (kl->pin_sq[i] == sq)
            return kl->pin_dir[i];
    return 0;
}

/* Would playing m out and taking it back reorder the piece lists? A capture puts its victim
 * back at the end of its list, and a double step is followed by a trial of the en passant
 * reply. The search's move order follows the piece lists, so the generator plays out exactly
 * the moves it always has (those of pinned pieces, en passant, evasions): trusting more of
 * them would change the search (the `royalchess bench` signature), not its correctness. */
static inline int trial_reorders(const Position *pos, Move m)
{
    int flag = MV_FLAG(m);
    return pos->board[MV_TO(m)] != EMPTY || flag == MF_EP || flag == MF_DOUBLE;
}

/* A pinned piece keeps the moves that stay on its line from the King (d: the pin's step). */
static Move *keep_pinned(Position *pos, Move *start, Move *end, int d)
{
    int ksq = pos->king[pos->side];
    Move *o = start;
    for (Move *m = start; m < end; m++) {
        int keep = trial_reorders(pos, *m) ? leaves_king_safe(pos, *m)
                                           : att_line_step[att_diff(ksq, MV_TO(*m))] == d;
        if (keep)
            *o++ = *m;
    }
    return o;
}

/* En passant removes two pawns from one rank, which no pin test sees: play it out. */
static Move *keep_safe_ep(Position *pos, Move *start, Move *end)
{
    Move *o = start;
    for (Move *m = start; m < end; m++)
        if (MV_FLAG(*m) != MF_EP || leaves_king_safe(pos, *m))
            *o++ = *m;
    return o;
}

/* King steps to squares no enemy piece attacks with the King lifted off its square. */
static Move *gen_king_legal(Position *pos, const Attackers *a, Move *o)
{
    uint8_t *b = pos->board;
    int us = pos->side, ksq = pos->king[us];
    uint8_t king = b[ksq];
    b[ksq] = EMPTY;
    for (int i = 0; i < 8; i++) {
        int t = ksq + geo_king[i];
        uint8_t p = b[t];
        if ((p == EMPTY || is_enemy(p, us)) && !att_attacked_by(b, a, t))
            o = put(o, ksq, t, 0, MF_NORMAL);
    }
    b[ksq] = king;
    return o;
}

static inline Move *gen_slider(Position *pos, const KingLines *kl, int sq, const int *dirs,
                               int ndirs, Move *o)
{
    Move *start = o;
    /* Unrolled: a loop over four or eight directions mispredicts its exit. */
#pragma GCC unroll 8
    for (int j = 0; j < ndirs; j++)
        o = slide(pos->board, sq, dirs[j], pos->side, o);
    if (kl->npins && set_has(&kl->pinned, sq))
        o = keep_pinned(pos, start, o, pin_dir_of(kl, sq));
    return o;
}

/* Out of check: every move of an unpinned piece is legal, a pinned one keeps its line. */
static void gen_out_of_check_chess(Position *pos, const Attackers *a, const KingLines *kl,
                                   MoveList *l)
{
    const uint8_t *b = pos->board;
    int us = pos->side, promo_mask = -1, fwd = us == WHITE ? MB_W : -MB_W;
    ByType bt;
    group_by_type(pos, &bt);
    Move *o = l->moves;
    for (int i = 0; i < bt.n[PAWN]; i++) {
        int sq = bt.sq[PAWN][i], pin = kl->npins ? pin_dir_of(kl, sq) : 0;
        Move *start = o;
        o = gen_pawn(pos, sq, o, &promo_mask);
        if (pin)
            o = keep_pinned(pos, start, o, pin);
        else if (pos->ep && (sq + fwd + 1 == pos->ep || sq + fwd - 1 == pos->ep))
            o = keep_safe_ep(pos, start, o);
    }
    for (int i = 0; i < bt.n[KNIGHT]; i++) {
        int sq = bt.sq[KNIGHT][i], pin = kl->npins ? pin_dir_of(kl, sq) : 0;
        Move *start = o;
        o = gen_steps(b, sq, geo_knight, us, o);
        if (pin)
            o = keep_pinned(pos, start, o, pin);
    }
    for (int i = 0; i < bt.n[BISHOP]; i++)
        o = gen_slider(pos, kl, bt.sq[BISHOP][i], geo_diag, 4, o);
    for (int i = 0; i < bt.n[ROOK]; i++)
        o = gen_slider(pos, kl, bt.sq[ROOK][i], geo_orth, 4, o);
    for (int i = 0; i < bt.n[QUEEN]; i++)
        o = gen_slider(pos, kl, bt.sq[QUEEN][i], geo_king, 8, o);
    o = gen_king_legal(pos, a, o);
    l->n = (int)(o - l->moves);
}

/* In check: the King steps to safety; otherwise, with one checker, an unpinned piece takes
 * it or blocks its line. Moves whose trial reorders the piece lists are played out. */
static void gen_evasions_chess(Position *pos, const Attackers *a, const KingLines *kl,
                               MoveList *l)
{
    gen_pseudo(pos, l);
    int ksq = pos->king[pos->side], n = 0;
    uint8_t king = pos->board[ksq];
    for (int i = 0; i < l->n; i++) {
        Move m = l->moves[i];
        int from = MV_FROM(m), ok;
        if (trial_reorders(pos, m)) {
            ok = leaves_king_safe(pos, m);
        } else if (from == ksq) {
            pos->board[ksq] = EMPTY;
            ok = !att_attacked_by(pos->board, a, MV_TO(m));
            pos->board[ksq] = king;
        } else {
            ok = kl->checks == 1 && !set_has(&kl->pinned, from) && set_has(&kl->evade, MV_TO(m));
        }
        if (ok)
            l->moves[n++] = m;
    }
    l->n = n;
}

void gen_legal(Position *pos, MoveList *l)
{
    if (pos->variant == VARIANT_ROYAL) {
        gen_legal_royal(pos, l);
        return;
    }
    Attackers a;
    KingLines kl;
    att_collect(pos, !pos->side, &a);
    scan_king(pos, &a, &kl);
    if (kl.checks) {
        gen_evasions_chess(pos, &a, &kl, l);
        return;
    }
    gen_out_of_check_chess(pos, &a, &kl, l);
    gen_castling_chess(pos, &a, l);
}

/* ---- captures and promotions, for quiescence ----------------------------------------------- */

/* The moves quiescence keeps (the search's order_is_tactical): captures, en passant, a
 * castling whose Guard captures, promotions. */
static inline int is_tactical(const Position *pos, Move m)
{
    int flag = MV_FLAG(m);
    if (flag == MF_PROMO || flag == MF_PROMO_WAIVED || flag == MF_EP)
        return 1;
    if (flag == MF_CASTLE)
        return MV_GFROM(m) && pos->board[MV_GTO(m)] != EMPTY;
    return pos->board[MV_TO(m)] != EMPTY;
}

static Move *keep_tactical(const Position *pos, Move *start, Move *end)
{
    Move *o = start;
    for (Move *m = start; m < end; m++)
        if (is_tactical(pos, *m))
            *o++ = *m;
    return o;
}

/* Any legal move that is not a capture or a promotion (none of those being legal)? No move
 * is played out here, so the piece lists stay as the tactical generator left them. */
static int has_quiet_move(Position *pos, const Attackers *a, const KingLines *kl)
{
    const uint8_t *b = pos->board;
    int us = pos->side, fwd = us == WHITE ? MB_W : -MB_W;
    int seventh = us == WHITE ? SQ(-1, 6) : SQ(-1, 1);
    for (int i = 0; i < pos->pcount[us]; i++) {
        int sq = pos->plist[us][i], t = PTYPE(b[sq]);
        int pin = kl->npins ? pin_dir_of(kl, sq) : 0;
        if (t == PAWN) {
            /* A push from the seventh rank is a promotion; a pinned pawn pushes only along
             * a file. */
            if ((unsigned)(sq - seventh) >= MB_W && b[sq + fwd] == EMPTY &&
                (!pin || pin == MB_W || pin == -MB_W))
                return 1;
        } else if (t == KNIGHT) {
            if (!pin)
                for (int k = 0; k < 8; k++)
                    if (b[sq + geo_knight[k]] == EMPTY)
                        return 1;
        } else if (t != KING) {
            const int *dirs = t == BISHOP ? geo_diag : t == ROOK ? geo_orth : geo_king;
            int ndirs = t == QUEEN ? 8 : 4;
            for (int k = 0; k < ndirs; k++)
                if (b[sq + dirs[k]] == EMPTY && (!pin || dirs[k] == pin || dirs[k] == -pin))
                    return 1;
        }
    }
    Move buf[8];
    if (gen_king_legal(pos, a, buf) > buf)
        return 1; /* only empty squares are left: every King step is quiet */
    MoveList castles;
    castles.n = 0;
    gen_castling_chess(pos, a, &castles);
    return castles.n > 0;
}

/* Standard chess out of check: the tactical moves in the order gen_legal gives them. Pieces
 * whose moves gen_legal plays out (pinned ones, pawns beside an en passant square) take the
 * full path, so the same trials leave the piece lists in the same order. */
static void gen_tactical_chess(Position *pos, const Attackers *a, const KingLines *kl,
                               MoveList *l)
{
    const uint8_t *b = pos->board;
    int us = pos->side, promo_mask = -1, fwd = us == WHITE ? MB_W : -MB_W;
    int seventh = us == WHITE ? SQ(-1, 6) : SQ(-1, 1);
    ByType bt;
    group_by_type(pos, &bt);
    Move *o = l->moves;
    for (int i = 0; i < bt.n[PAWN]; i++) {
        int sq = bt.sq[PAWN][i], pin = kl->npins ? pin_dir_of(kl, sq) : 0;
        Move *start = o;
        if (pin || (pos->ep && (sq + fwd + 1 == pos->ep || sq + fwd - 1 == pos->ep))) {
            o = gen_pawn(pos, sq, o, &promo_mask);
            o = pin ? keep_pinned(pos, start, o, pin) : keep_safe_ep(pos, start, o);
            o = keep_tactical(pos, start, o);
        } else if ((unsigned)(sq - seventh) < MB_W) {
            o = gen_pawn(pos, sq, o, &promo_mask); /* all its moves are promotions */
        } else {
            if (is_enemy(b[sq + fwd - 1], us))
                o = put(o, sq, sq + fwd - 1, 0, MF_NORMAL);
            if (is_enemy(b[sq + fwd + 1], us))
                o = put(o, sq, sq + fwd + 1, 0, MF_NORMAL);
        }
    }
    for (int i = 0; i < bt.n[KNIGHT]; i++) {
        int sq = bt.sq[KNIGHT][i];
        if (kl->npins && set_has(&kl->pinned, sq)) {
            Move *start = o;
            o = gen_steps(b, sq, geo_knight, us, o);
            o = keep_pinned(pos, start, o, pin_dir_of(kl, sq));
            o = keep_tactical(pos, start, o);
            continue;
        }
        for (int k = 0; k < 8; k++)
            if (is_enemy(b[sq + geo_knight[k]], us))
                o = put(o, sq, sq + geo_knight[k], 0, MF_NORMAL);
    }
    static const int kinds[3] = { BISHOP, ROOK, QUEEN };
    for (int j = 0; j < 3; j++) {
        int t = kinds[j], ndirs = t == QUEEN ? 8 : 4;
        const int *dirs = t == BISHOP ? geo_diag : t == ROOK ? geo_orth : geo_king;
        for (int i = 0; i < bt.n[t]; i++) {
            int sq = bt.sq[t][i];
            if (kl->npins && set_has(&kl->pinned, sq)) {
                Move *start = o;
                o = gen_slider(pos, kl, sq, dirs, ndirs, o);
                o = keep_tactical(pos, start, o);
                continue;
            }
            for (int k = 0; k < ndirs; k++) {
                int d = dirs[k], s = sq + d;
                while (b[s] == EMPTY)
                    s += d;
                if (is_enemy(b[s], us))
                    o = put(o, sq, s, 0, MF_NORMAL);
            }
        }
    }
    int ksq = pos->king[us];
    for (int k = 0; k < 8; k++) {
        int t = ksq + geo_king[k];
        if (!is_enemy(b[t], us))
            continue;
        pos->board[ksq] = EMPTY;
        int safe = !att_attacked_by(b, a, t);
        pos->board[ksq] = MAKE_PIECE(KING, us);
        if (safe)
            o = put(o, ksq, t, 0, MF_NORMAL);
    }
    l->n = (int)(o - l->moves);
}

int gen_legal_tactical(Position *pos, MoveList *l)
{
    if (pos->variant != VARIANT_ROYAL) {
        Attackers a;
        KingLines kl;
        att_collect(pos, !pos->side, &a);
        scan_king(pos, &a, &kl);
        if (!kl.checks) {
            gen_tactical_chess(pos, &a, &kl, l);
            return l->n > 0 || has_quiet_move(pos, &a, &kl);
        }
    }
    gen_legal(pos, l);
    int any = l->n > 0;
    l->n = (int)(keep_tactical(pos, l->moves, l->moves + l->n) - l->moves);
    return any;
}

int gen_count_legal(Position *pos)
{
    MoveList l;
    gen_legal(pos, &l);
    return l.n;
}

/* ---- one move from elsewhere (the hash table, a killer): is it legal here? ---------------- */

int gen_move_is_legal(Position *pos, Move m)
{
    if (pos->variant != VARIANT_CHESS)
        return -1;
    int flag = MV_FLAG(m);
    if (flag == MF_CASTLE || flag == MF_EP)
        return -1;
    int from = MV_FROM(m), to = MV_TO(m), promo = MV_PROMO(m);
    /* A move of another position or game may carry any bits: every field is checked. */
    if (m != MAKE_MOVE(from, to, promo, flag) || from >= MB_SIZE || to >= MB_SIZE)
        return 0;
    uint8_t *b = pos->board;
    int us = pos->side;
    uint8_t pc = b[from], victim = b[to];
    if (pc == EMPTY || pc == OFF || PCOLOR(pc) != us)
        return 0;
    if (victim != EMPTY && (!is_enemy(victim, us) || PTYPE(victim) == KING))
        return 0;
    int t = PTYPE(pc);
    if (t == PAWN) {
        int fwd = us == WHITE ? MB_W : -MB_W;
        int second = us == WHITE ? SQ(-1, 1) : SQ(-1, 6);
        int seventh = us == WHITE ? SQ(-1, 6) : SQ(-1, 1);
        int last = (unsigned)(from - seventh) < MB_W;
        if (flag == MF_DOUBLE) {
            if (promo || (unsigned)(from - second) >= MB_W || to != from + 2 * fwd ||
                b[from + fwd] != EMPTY || victim != EMPTY)
                return 0;
        } else {
            if (flag == MF_PROMO ? !last || promo < KNIGHT || promo > QUEEN
                                 : flag != MF_NORMAL || last || promo)
                return 0;
            int diagonal = to == from + fwd - 1 || to == from + fwd + 1;
            if (to == from + fwd ? victim != EMPTY : !diagonal || victim == EMPTY)
                return 0;
        }
    } else {
        static const uint8_t need[NTYPES] = { 0, 0, ATT_K_KNIGHT, ATT_K_DIAG, ATT_K_ORTH,
                                              ATT_K_DIAG | ATT_K_ORTH, ATT_K_KING, 0, 0 };
        int diff = att_diff(from, to);
        if (flag != MF_NORMAL || promo || !(att_kind[diff] & need[t]))
            return 0;
        if (t == BISHOP || t == ROOK || t == QUEEN) {
            int d = att_line_step[diff];
            for (int s = from + d; s != to; s += d)
                if (b[s] != EMPTY)
                    return 0;
        }
    }
    /* Chess attack tests read the board alone (and the enemy King's square): the move made
     * on the board is the whole trial, and the piece lists are not touched. */
    b[to] = pc;
    b[from] = EMPTY;
    int safe = !att_attacked(pos, t == KING ? to : pos->king[us], !us, 0, 0);
    b[from] = pc;
    b[to] = victim;
    return safe;
}
