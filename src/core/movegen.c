#include <stdlib.h>

#include "attack.h"
#include "geometry.h"
#include "movegen.h"
#include "position.h"

static inline void add(MoveList *l, int from, int to, int promo, int flag)
{
    l->moves[l->n++] = MAKE_MOVE(from, to, promo, flag);
}

static inline int is_enemy(uint8_t p, int us) { return p != EMPTY && p != OFF && PCOLOR(p) != us; }

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

static void add_promotions(MoveList *l, int from, int to, int mask)
{
    static const int order[6] = { QUEEN, ROOK, BISHOP, KNIGHT, QGUARD, KGUARD };
    for (int i = 0; i < 6; i++) {
        int t = order[i];
        if (!(mask & 1 << t))
            continue;
        add(l, from, to, t, MF_PROMO);
        if (t == QGUARD || t == KGUARD)
            add(l, from, to, t, MF_PROMO_WAIVED);
    }
}

static void gen_pawn(const Position *pos, int sq, MoveList *l, int *promo_mask)
{
    const uint8_t *b = pos->board;
    int us = pos->side, fwd = us == WHITE ? MB_W : -MB_W;
    int rel = geo_rel_rank(sq, us, pos->ranks), last = pos->ranks - 1;
    int to = sq + fwd;
    if (rel + 1 == last) {
        if (*promo_mask < 0)
            *promo_mask = gen_promotion_mask(pos);
        if (!*promo_mask)
            return; /* rule 6.1: with nothing to promote to, the pawn cannot reach its last rank */
        if (b[to] == EMPTY)
            add_promotions(l, sq, to, *promo_mask);
        if (is_enemy(b[to - 1], us))
            add_promotions(l, sq, to - 1, *promo_mask);
        if (is_enemy(b[to + 1], us))
            add_promotions(l, sq, to + 1, *promo_mask);
        return;
    }
    if (b[to] == EMPTY) {
        add(l, sq, to, 0, MF_NORMAL);
        if (rel == 1 && b[to + fwd] == EMPTY)
            add(l, sq, to + fwd, 0, MF_DOUBLE);
    }
    for (int side = -1; side <= 1; side += 2) {
        int t = to + side;
        if (is_enemy(b[t], us))
            add(l, sq, t, 0, MF_NORMAL);
        else if (t == pos->ep && pos->ep)
            add(l, sq, t, 0, MF_EP);
    }
}

static void gen_steps(const Position *pos, int sq, const int *steps, MoveList *l)
{
    int us = pos->side;
    for (int i = 0; i < 8; i++) {
        int t = sq + steps[i];
        uint8_t p = pos->board[t];
        if (p == EMPTY || is_enemy(p, us))
            add(l, sq, t, 0, MF_NORMAL);
    }
}

static void slide(const Position *pos, int sq, int d, MoveList *l)
{
    const uint8_t *b = pos->board;
    int s = sq + d;
    for (; b[s] == EMPTY; s += d)
        add(l, sq, s, 0, MF_NORMAL);
    if (is_enemy(b[s], PCOLOR(b[sq])))
        add(l, sq, s, 0, MF_NORMAL);
}

static void gen_rook(const Position *pos, int sq, MoveList *l)
{
    if (pos->variant != VARIANT_ROYAL) {
        for (int i = 0; i < 4; i++)
            slide(pos, sq, geo_orth[i], l);
        return;
    }
    const uint8_t *b = pos->board;
    int us = pos->side;
    int partner = pos_rook_partner(pos, sq, us);
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
                    add(l, sq, s, 0, MF_NORMAL);
        } else if (first && (d == 1 || d == -1)) {
            /* Rule 3.1a: along its first rank a Rook passes over its own Guards. */
            for (int s = sq + d;; s += d) {
                uint8_t p = b[s];
                if (p == EMPTY) {
                    add(l, sq, s, 0, MF_NORMAL);
                } else if (p != OFF && PCOLOR(p) == us && pos_is_guard(p)) {
                    continue;
                } else {
                    if (is_enemy(p, us))
                        add(l, sq, s, 0, MF_NORMAL);
                    break;
                }
            }
        } else {
            slide(pos, sq, d, l);
        }
    }
}

/* A Guard's major moves go to `major`, its minor ones to `minor` (section 4). */
static void gen_guard(const Position *pos, int sq, MoveList *major, MoveList *minor)
{
    const uint8_t *b = pos->board;
    uint8_t pc = b[sq];
    int us = PCOLOR(pc);
    if (pc & POWER_BIT) {
        /* Rule 6.2: on its promotion square a promoted Guard moves as a Queen. */
        for (int i = 0; i < 8; i++)
            slide(pos, sq, geo_king[i], major);
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

static void gen_pseudo(const Position *pos, MoveList *l)
{
    int us = pos->side, promo_mask = -1;
    /* Grouping the pieces by kind first keeps each loop below free of mispredicted jumps. */
    uint8_t by_type[NTYPES][32];
    int count[NTYPES] = { 0 };
    for (int i = 0; i < pos->pcount[us]; i++) {
        int sq = pos->plist[us][i], t = PTYPE(pos->board[sq]);
        by_type[t][count[t]++] = (uint8_t)sq;
    }
    l->n = 0;
    for (int i = 0; i < count[PAWN]; i++)
        gen_pawn(pos, by_type[PAWN][i], l, &promo_mask);
    for (int i = 0; i < count[KNIGHT]; i++)
        gen_steps(pos, by_type[KNIGHT][i], geo_knight, l);
    for (int i = 0; i < count[BISHOP]; i++)
        for (int k = 0; k < 4; k++)
            slide(pos, by_type[BISHOP][i], geo_diag[k], l);
    for (int i = 0; i < count[ROOK]; i++)
        gen_rook(pos, by_type[ROOK][i], l);
    for (int i = 0; i < count[QUEEN]; i++)
        for (int k = 0; k < 8; k++)
            slide(pos, by_type[QUEEN][i], geo_king[k], l);
    gen_steps(pos, pos->king[us], geo_king, l);
    for (int t = QGUARD; t <= KGUARD; t++)
        for (int i = 0; i < count[t]; i++)
            gen_guard(pos, by_type[t][i], l, l);
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
    int us = pos->side;
    pos_make(pos, m);
    int ok = !att_in_check(pos, us);
    pos_unmake(pos);
    return ok;
}

/* Chess castling: the King's two-square move, the usual conditions. */
static void gen_castling_chess(Position *pos, MoveList *l)
{
    int us = pos->side, them = !us, fr = pos_first_rank(pos, us);
    int rights = pos->castle & (us == WHITE ? (WK | WQ) : (BK | BQ));
    int ksq = SQ(4, fr);
    const uint8_t *b = pos->board;
    if (!rights || b[ksq] != MAKE_PIECE(KING, us) || att_attacked(pos, ksq, them, 0, 0))
        return;
    uint8_t rook = MAKE_PIECE(ROOK, us);
    if ((rights & (WK | BK)) && b[SQ(7, fr)] == rook && b[SQ(5, fr)] == EMPTY &&
        b[SQ(6, fr)] == EMPTY && !att_attacked(pos, SQ(5, fr), them, 0, 0) &&
        !att_attacked(pos, SQ(6, fr), them, 0, 0))
        l->moves[l->n++] = MAKE_CASTLE(ksq, SQ(6, fr), SQ(7, fr), SQ(5, fr), 0, 0);
    if ((rights & (WQ | BQ)) && b[SQ(0, fr)] == rook && b[SQ(1, fr)] == EMPTY &&
        b[SQ(2, fr)] == EMPTY && b[SQ(3, fr)] == EMPTY &&
        !att_attacked(pos, SQ(3, fr), them, 0, 0) && !att_attacked(pos, SQ(2, fr), them, 0, 0))
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
        try_royal_castle(pos, &cand, ksq, rsq, dir, 0, 0, 0, 0);
        /* Rule 5.4: a Guard standing between may move first, as part of the castling. */
        for (int g = ksq + dir; g != rsq; g += dir) {
            uint8_t guard = pos->board[g];
            if (guard == EMPTY || PCOLOR(guard) != us || !pos_is_guard(guard))
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

void gen_legal(Position *pos, MoveList *l)
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
    if (pos->variant == VARIANT_ROYAL)
        gen_castling_royal(pos, l);
    else if (!check)
        gen_castling_chess(pos, l);
}

int gen_count_legal(Position *pos)
{
    MoveList l;
    gen_legal(pos, &l);
    return l.n;
}
