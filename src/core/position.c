#include <stdlib.h>
#include <string.h>

#include "attack.h"
#include "geometry.h"
#include "position.h"

const int pos_royal_start_count[NTYPES] = { 0, 10, 2, 2, 2, 1, 1, 1, 1 };

void pos_init(Position *pos, int variant)
{
    memset(pos, 0, sizeof *pos);
    pos->variant = variant;
    pos->files = variant == VARIANT_ROYAL ? 10 : 8;
    pos->ranks = 8;
    for (int sq = 0; sq < MB_SIZE; sq++)
        pos->board[sq] = geo_on_board(sq, pos->files, pos->ranks) ? EMPTY : OFF;
    pos->fullmove = 1;
}

void pos_free(Position *pos)
{
    free(pos->hist);
    pos->hist = NULL;
    pos->cap = 0;
}

int pos_reserve(Position *pos, int plies)
{
    if (plies <= pos->cap)
        return 1;
    int cap = pos->cap ? pos->cap : 64;
    while (cap < plies)
        cap *= 2;
    Undo *h = realloc(pos->hist, (size_t)cap * sizeof *h);
    if (!h)
        return 0;
    pos->hist = h;
    pos->cap = cap;
    return 1;
}

int pos_copy(Position *dst, const Position *src)
{
    *dst = *src;
    dst->hist = NULL;
    dst->cap = 0;
    if (!pos_reserve(dst, src->ply + 64))
        return 0;
    if (src->ply)
        memcpy(dst->hist, src->hist, (size_t)src->ply * sizeof *src->hist);
    return 1;
}

static uint8_t castle_masks[2][MB_SIZE];

/* The castling rights lost when a move starts or ends on a square: built once at start-up. */
void pos_init_tables(void)
{
    att_init_tables();
    for (int v = 0; v < 2; v++) {
        int kf = v == VARIANT_ROYAL ? 5 : 4, last = v == VARIANT_ROYAL ? 9 : 7, top = 7;
        uint8_t *m = castle_masks[v];
        m[SQ(kf, 0)] = WK | WQ;
        m[SQ(last, 0)] = WK;
        m[SQ(0, 0)] = WQ;
        m[SQ(kf, top)] = BK | BQ;
        m[SQ(last, top)] = BK;
        m[SQ(0, top)] = BQ;
    }
}

int pos_castle_mask(const Position *pos, int sq)
{
    return castle_masks[pos->variant][sq];
}

int pos_count_type(const Position *pos, int color, int type)
{
    int n = 0;
    for (int i = 0; i < pos->pcount[color]; i++)
        n += PTYPE(pos->board[pos->plist[color][i]]) == type;
    return n;
}

/* The walk every Rook jump rule shares: from and to on one file or rank with only empty
 * squares and `color`'s Guards strictly between. Returns how many Guards stand between, or -1
 * when the squares are not on one line or something else is in the way. */
int pos_rook_line(const Position *pos, int from, int to, int color)
{
    int d;
    if (FILE_OF(from) == FILE_OF(to))
        d = to > from ? MB_W : -MB_W;
    else if (RANK_OF(from) == RANK_OF(to))
        d = to > from ? 1 : -1;
    else
        return -1;
    int guards = 0;
    for (int s = from + d; s != to; s += d) {
        uint8_t p = pos->board[s];
        if (p == EMPTY)
            continue;
        if (PCOLOR(p) != color || !pos_is_guard(p))
            return -1;
        guards++;
    }
    return guards;
}

/* Rule 3.1b: is the Rook of `color` on sq one of two Rooks on one file, or one rank other
 * than their first, with only empty squares and their own Guards between? Returns the other
 * Rook's square, or 0. A Rook may also be asked for the pair it would form on sq. */
int pos_rook_partner(const Position *pos, int sq, int color)
{
    return pos_rook_partner_among(pos, sq, color, pos->plist[color], pos->pcount[color]);
}

int pos_rook_partner_among(const Position *pos, int sq, int color, const uint8_t *squares, int n)
{
    for (int i = 0; i < n; i++) {
        int o = squares[i];
        if (o == sq || PTYPE(pos->board[o]) != ROOK)
            continue;
        if (FILE_OF(o) != FILE_OF(sq) && RANK_OF(o) == pos_first_rank(pos, color))
            continue; /* along their first rank rule 3.1a applies instead */
        if (pos_rook_line(pos, sq, o, color) >= 0)
            return o;
    }
    return 0;
}

/* Does the recapture right of rule 3.1c give the side to move a capture that no ordinary
 * Rook move already gives (a Guard stands between the two squares)? Returns 1 if so. */
int pos_recapture_extra(const Position *pos)
{
    int s = pos->recap, r = pos->recap_rook, us = pos->side;
    if (!s || !r || pos->board[r] != MAKE_PIECE(ROOK, us))
        return 0;
    /* Along its own first rank rule 3.1a already lets the Rook capture through Guards. */
    if (RANK_OF(r) == RANK_OF(s) && RANK_OF(r) == pos_first_rank(pos, us))
        return 0;
    return pos_rook_line(pos, r, s, us) > 0;
}

uint64_t pos_pawn_key(const Position *pos)
{
    uint64_t k = 0;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < pos->pcount[c]; i++) {
            int sq = pos->plist[c][i];
            if (PTYPE(pos->board[sq]) == PAWN)
                k ^= zob.piece[pos->board[sq]][sq];
        }
    return k;
}

uint64_t pos_base_key(const Position *pos)
{
    uint64_t k = pos->variant == VARIANT_ROYAL ? zob.variant : 0;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < pos->pcount[c]; i++) {
            int sq = pos->plist[c][i];
            k ^= zob.piece[pos->board[sq]][sq];
        }
    if (pos->side == BLACK)
        k ^= zob.side;
    return k ^ zob.castle[pos->castle];
}

/* Is the move (a capture the side to move may make) legal: does it keep the king safe? */
static int capture_is_legal(Position *pos, Move m)
{
    int us = pos->side;
    pos_make(pos, m);
    int ok = !att_attacked(pos, pos->king[us], !us, pos->recap, pos->recap_rook);
    pos_unmake(pos);
    return ok;
}

/* Positions repeat only when the same en passant and recapture captures are legal in both,
 * so those parts enter the key only when such a capture is really playable. */
void pos_update_key(Position *pos)
{
    uint64_t k = pos->bkey;
    if (!pos->ep && !pos->recap) {
        pos->key = k;
        return;
    }
    int us = pos->side;
    if (pos->ep) {
        int fwd = us == WHITE ? MB_W : -MB_W;
        uint8_t pawn = MAKE_PIECE(PAWN, us);
        int from[2] = { pos->ep - fwd - 1, pos->ep - fwd + 1 };
        for (int i = 0; i < 2; i++)
            if (pos->board[from[i]] == pawn &&
                capture_is_legal(pos, MAKE_MOVE(from[i], pos->ep, 0, MF_EP))) {
                k ^= zob.ep[pos->ep];
                break;
            }
    }
    if (pos->recap && pos_recapture_extra(pos) &&
        capture_is_legal(pos, MAKE_MOVE(pos->recap_rook, pos->recap, 0, MF_NORMAL)))
        k ^= zob.recap[pos->recap];
    pos->key = k;
}

/* Capturing one Rook of a pair (rule 3.1c) gives the other the right to recapture on sq. */
static void note_rook_capture(Position *pos, int sq, int *recap, int *recap_rook)
{
    uint8_t victim = pos->board[sq];
    if (pos->variant != VARIANT_ROYAL || PTYPE(victim) != ROOK)
        return;
    int partner = pos_rook_partner(pos, sq, PCOLOR(victim));
    if (partner) {
        *recap = sq;
        *recap_rook = partner;
    }
}

#define XOR_PIECE(pos, pc, sq) ((pos)->bkey ^= zob.piece[(pc)][(sq)])

/* Saves what every move changes, so that unmake can restore it. */
static Undo *push_undo(Position *pos, Move m)
{
    if (pos->ply >= pos->cap && !pos_reserve(pos, pos->ply + 1))
        abort(); /* out of memory: nothing sensible is left to do */
    Undo *u = &pos->hist[pos->ply++];
    u->move = m;
    u->key = pos->key;
    u->bkey = pos->bkey;
    u->pkey = pos->pkey;
    u->castle = pos->castle;
    u->ep = pos->ep;
    u->recap = pos->recap;
    u->recap_rook = pos->recap_rook;
    u->halfmove = pos->halfmove;
    u->captured = EMPTY;
    u->moved = EMPTY;
    u->nchg = 0;
    return u;
}

/* Notes a square a move may change, with its piece before the move (once per square). */
static void touch(const Position *pos, Undo *u, int sq)
{
    for (int i = 0; i < u->nchg; i++)
        if (u->chg_sq[i] == sq)
            return;
    u->chg_sq[u->nchg] = (uint8_t)sq;
    u->chg_old[u->nchg++] = pos->board[sq];
}

/* Every square a move can change, whatever its kind: both ends, the en passant victim's
 * square, the Rook's and the Guard's ends of a castling. */
static void touch_move(const Position *pos, Undo *u, Move m)
{
    /* The two ends of a move are distinct squares: only castling can repeat one. */
    u->chg_sq[0] = (uint8_t)MV_FROM(m);
    u->chg_old[0] = pos->board[MV_FROM(m)];
    u->chg_sq[1] = (uint8_t)MV_TO(m);
    u->chg_old[1] = pos->board[MV_TO(m)];
    u->nchg = 2;
    if (MV_FLAG(m) == MF_EP)
        touch(pos, u, MV_TO(m) - (pos->side == WHITE ? MB_W : -MB_W));
    if (MV_FLAG(m) == MF_CASTLE) {
        touch(pos, u, MV_RFROM(m));
        touch(pos, u, MV_RTO(m));
        if (MV_GFROM(m)) {
            touch(pos, u, MV_GFROM(m));
            touch(pos, u, MV_GTO(m));
        }
    }
}

static void restore_state(Position *pos, const Undo *u)
{
    pos->key = u->key;
    pos->bkey = u->bkey;
    pos->pkey = u->pkey;
    pos->castle = u->castle;
    pos->ep = u->ep;
    pos->recap = u->recap;
    pos->recap_rook = u->recap_rook;
    pos->halfmove = u->halfmove;
}

/* The null move (the side to move passes), for the search's null-move pruning. It keeps the
 * history, and resets the clock so no repetition is counted across the pass. */
void pos_make_null(Position *pos)
{
    push_undo(pos, 0);
    pos->ep = pos->recap = pos->recap_rook = 0;
    pos->halfmove = 0;
    pos->side = !pos->side;
    pos->bkey ^= zob.side;
    pos->key = pos->bkey;
}

void pos_unmake_null(Position *pos)
{
    restore_state(pos, &pos->hist[--pos->ply]);
    pos->side = !pos->side;
}

void pos_make(Position *pos, Move m)
{
    Undo *u = push_undo(pos, m);
    int us = pos->side, them = !us;
    int from = MV_FROM(m), to = MV_TO(m), flag = MV_FLAG(m);
    int recap = 0, recap_rook = 0;
    int fwd = us == WHITE ? MB_W : -MB_W;

    u->moved = pos->board[from];
    touch_move(pos, u, m);
    pos->halfmove++;
    pos->ep = 0;
    const uint8_t *masks = castle_masks[pos->variant];
    int cmask = masks[from] | masks[to];

    if (flag == MF_CASTLE) {
        int gf = MV_GFROM(m), gt = MV_GTO(m), rf = MV_RFROM(m), rt = MV_RTO(m);
        if (gf) {
            uint8_t cap = pos->board[gt];
            if (cap) {
                note_rook_capture(pos, gt, &recap, &recap_rook);
                XOR_PIECE(pos, cap, gt);
                pos_remove(pos, gt);
                u->captured = cap;
                pos->halfmove = 0;
                cmask |= masks[gt];
            }
            XOR_PIECE(pos, pos->board[gf], gf);
            XOR_PIECE(pos, pos->board[gf], gt);
            pos_relocate(pos, gf, gt);
        }
        uint8_t king = pos->board[from], rook = pos->board[rf];
        XOR_PIECE(pos, king, from);
        XOR_PIECE(pos, king, to);
        pos_relocate(pos, from, to);
        XOR_PIECE(pos, rook, rf);
        XOR_PIECE(pos, rook, rt);
        pos_relocate(pos, rf, rt);
        cmask |= us == WHITE ? (WK | WQ) : (BK | BQ);
    } else {
        uint8_t pc = pos->board[from];
        if (flag == MF_EP) {
            int capsq = to - fwd;
            u->captured = pos->board[capsq];
            XOR_PIECE(pos, u->captured, capsq);
            pos_remove(pos, capsq);
        } else if (pos->board[to]) {
            u->captured = pos->board[to];
            note_rook_capture(pos, to, &recap, &recap_rook);
            XOR_PIECE(pos, u->captured, to);
            pos_remove(pos, to);
        }
        if (u->captured || PTYPE(pc) == PAWN)
            pos->halfmove = 0;
        XOR_PIECE(pos, pc, from);
        pos_relocate(pos, from, to);
        uint8_t now = pc;
        if (flag == MF_PROMO || flag == MF_PROMO_WAIVED) {
            now = MAKE_PIECE(MV_PROMO(m), us);
            int t = MV_PROMO(m);
            if (flag == MF_PROMO && pos->variant == VARIANT_ROYAL && (t == QGUARD || t == KGUARD))
                now |= POWER_BIT;
        } else {
            now &= (uint8_t)~POWER_BIT; /* queen powers end when the Guard leaves its square */
        }
        pos->board[to] = now;
        XOR_PIECE(pos, now, to);
        if (flag == MF_DOUBLE)
            pos->ep = (uint8_t)(from + fwd);
    }
    /* The pawn key follows the squares the move changed: a pawn left, arrived or died. */
    for (int i = 0; i < u->nchg; i++) {
        int sq = u->chg_sq[i];
        uint8_t old = u->chg_old[i], now = pos->board[sq];
        u->chg_new[i] = now;
        if (PTYPE(old) == PAWN)
            pos->pkey ^= zob.piece[old][sq];
        if (PTYPE(now) == PAWN)
            pos->pkey ^= zob.piece[now][sq];
    }
    pos->bkey ^= zob.castle[pos->castle];
    pos->castle &= (uint8_t)~cmask;
    pos->bkey ^= zob.castle[pos->castle];
    pos->recap = (uint8_t)recap;
    pos->recap_rook = (uint8_t)recap_rook;
    if (us == BLACK)
        pos->fullmove++;
    pos->side = them;
    pos->bkey ^= zob.side;
    pos_update_key(pos);
}

void pos_unmake(Position *pos)
{
    Undo *u = &pos->hist[--pos->ply];
    Move m = u->move;
    int them = pos->side, us = !them;
    int from = MV_FROM(m), to = MV_TO(m), flag = MV_FLAG(m);

    pos->side = us;
    if (us == BLACK)
        pos->fullmove--;
    if (flag == MF_CASTLE) {
        int gf = MV_GFROM(m), gt = MV_GTO(m), rf = MV_RFROM(m), rt = MV_RTO(m);
        pos_relocate(pos, rt, rf);
        pos_relocate(pos, to, from);
        if (gf) {
            pos_relocate(pos, gt, gf);
            if (u->captured)
                pos_put(pos, gt, u->captured);
        }
    } else {
        pos_relocate(pos, to, from);
        pos->board[from] = u->moved;
        if (flag == MF_EP)
            pos_put(pos, to - (us == WHITE ? MB_W : -MB_W), u->captured);
        else if (u->captured)
            pos_put(pos, to, u->captured);
    }
    restore_state(pos, u);
}

int pos_repetition_count(const Position *pos)
{
    int n = 1;
    int limit = pos->halfmove < pos->ply ? pos->halfmove : pos->ply;
    for (int i = 2; i <= limit; i += 2)
        if (pos->hist[pos->ply - i].key == pos->key)
            n++;
    return n;
}

static int square_colour(int sq) { return (FILE_OF(sq) + RANK_OF(sq)) & 1; }

int pos_insufficient_material(const Position *pos)
{
    int minor[2] = { 0, 0 }, knights[2] = { 0, 0 }, bishops[2] = { 0, 0 }, others = 0;
    int bishop_colours = 0;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < pos->pcount[c]; i++) {
            int sq = pos->plist[c][i], t = PTYPE(pos->board[sq]);
            if (t == KING)
                continue;
            if (t == KNIGHT) {
                knights[c]++;
                minor[c]++;
            } else if (t == BISHOP) {
                bishops[c]++;
                minor[c]++;
                bishop_colours |= 1 << square_colour(sq);
            } else {
                others++;
            }
        }
    if (others)
        return 0;
    if (pos->variant == VARIANT_ROYAL)
        /* Spec section 7: K v K, or K and one minor piece against a lone King. */
        return minor[WHITE] + minor[BLACK] <= 1;
    /* Standard chess: neither side can mate by any series of legal moves (the usual
     * approximation: a lone minor piece, or bishops all on one square colour). */
    if (knights[WHITE] + knights[BLACK] == 0)
        return bishop_colours != 3;
    return minor[WHITE] + minor[BLACK] <= 1;
}
