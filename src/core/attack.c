#include "attack.h"
#include "geometry.h"
#include "position.h"

/* Walks one ray from sq and returns the square of the piece of `by` that attacks along it, or
 * 0 (never a board square). On `by`'s own first rank its Rooks see through their Guards
 * (rule 3.1a), so the walk goes on past them. */
static int ray_attacked(const uint8_t *b, int sq, int d, int by, int diagonal, int rook_xray)
{
    int s = sq + d, dist = 1, passed_guard = 0;
    for (;; s += d, dist++) {
        uint8_t p = b[s];
        if (p == EMPTY)
            continue;
        if (p == OFF || PCOLOR(p) != by)
            return 0;
        int t = PTYPE(p);
        if (!passed_guard) {
            if (t == QUEEN || (p & POWER_BIT))
                return s;
            if (diagonal) {
                if (t == BISHOP || (t == QGUARD && dist <= 3) || (t == KGUARD && dist == 1))
                    return s;
            } else {
                if (t == ROOK || (t == KGUARD && dist <= 3) || (t == QGUARD && dist == 1))
                    return s;
            }
        } else if (t == ROOK) {
            return s;
        }
        if (rook_xray && (t == QGUARD || t == KGUARD)) {
            passed_guard = 1;
            continue;
        }
        return 0;
    }
}

/* Standard chess has no Guards and no queen powers: the first piece on each line decides. */
static int chess_ray_attacked(const uint8_t *b, int sq, int by)
{
    uint8_t queen = MAKE_PIECE(QUEEN, by), bishop = MAKE_PIECE(BISHOP, by);
    uint8_t rook = MAKE_PIECE(ROOK, by);
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        int d = geo_diag[i], s = sq + d;
        while (b[s] == EMPTY)
            s += d;
        if (b[s] == queen || b[s] == bishop)
            return 1;
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        int d = geo_orth[i], s = sq + d;
        while (b[s] == EMPTY)
            s += d;
        if (b[s] == queen || b[s] == rook)
            return 1;
    }
    return 0;
}

int att_attacked(const Position *pos, int sq, int by, int recap, int recap_rook)
{
    const uint8_t *b = pos->board;
    int back = by == WHITE ? -MB_W : MB_W;
    uint8_t pawn = MAKE_PIECE(PAWN, by), knight = MAKE_PIECE(KNIGHT, by);
    if (b[sq + back - 1] == pawn || b[sq + back + 1] == pawn)
        return 1;
    for (int i = 0; i < 8; i++)
        if (b[sq + geo_knight[i]] == knight)
            return 1;
    int ks = pos->king[by] - sq;
    if (ks == DIR_N || ks == DIR_S || ks == DIR_E || ks == DIR_W || ks == DIR_NE ||
        ks == DIR_NW || ks == DIR_SE || ks == DIR_SW)
        return 1;
    int royal = pos->variant == VARIANT_ROYAL;
    if (!royal)
        return chess_ray_attacked(b, sq, by);
    int xray = RANK_OF(sq) == pos_first_rank(pos, by);
    for (int i = 0; i < 4; i++) {
        if (ray_attacked(b, sq, geo_diag[i], by, 1, 0))
            return 1;
        int horizontal = geo_orth[i] == DIR_E || geo_orth[i] == DIR_W;
        if (ray_attacked(b, sq, geo_orth[i], by, 0, xray && horizontal))
            return 1;
    }
    /* Rule 3.1c: the Rook holding a recapture right attacks S through its own Guards. */
    if (royal && recap == sq && recap_rook && pos->board[recap_rook] == MAKE_PIECE(ROOK, by) &&
        pos_rook_line(pos, recap_rook, sq, by) >= 0)
        return 1;
    return 0;
}

int att_attackers(const Position *pos, int sq, int by, int recap, int recap_rook, int *out)
{
    /* The same tests as att_attacked, in the same order, collecting instead of stopping. */
    const uint8_t *b = pos->board;
    int back = by == WHITE ? -MB_W : MB_W, n = 0;
    uint8_t pawn = MAKE_PIECE(PAWN, by), knight = MAKE_PIECE(KNIGHT, by);
    for (int side = -1; side <= 1; side += 2)
        if (b[sq + back + side] == pawn)
            out[n++] = sq + back + side;
    for (int i = 0; i < 8; i++)
        if (b[sq + geo_knight[i]] == knight)
            out[n++] = sq + geo_knight[i];
    for (int i = 0; i < 8; i++)
        if (pos->king[by] == sq + geo_king[i] && b[sq + geo_king[i]] == MAKE_PIECE(KING, by))
            out[n++] = sq + geo_king[i];
    int royal = pos->variant == VARIANT_ROYAL;
    int xray = royal && RANK_OF(sq) == pos_first_rank(pos, by);
    for (int i = 0; i < 4; i++) {
        int s = ray_attacked(b, sq, geo_diag[i], by, 1, 0);
        if (s)
            out[n++] = s;
        int horizontal = geo_orth[i] == DIR_E || geo_orth[i] == DIR_W;
        s = ray_attacked(b, sq, geo_orth[i], by, 0, xray && horizontal);
        if (s)
            out[n++] = s;
    }
    if (royal && recap == sq && recap_rook && pos->board[recap_rook] == MAKE_PIECE(ROOK, by) &&
        pos_rook_line(pos, recap_rook, sq, by) >= 0) {
        int seen = 0;
        for (int i = 0; i < n; i++)
            seen |= out[i] == recap_rook;
        if (!seen)
            out[n++] = recap_rook;
    }
    return n;
}

uint8_t att_coord[MB_SIZE];
int8_t att_line_step[2 * ATT_DIFF_OFFSET];
uint8_t att_kind[2 * ATT_DIFF_OFFSET];

void att_init_tables(void)
{
    for (int sq = 0; sq < MB_SIZE; sq++) {
        int f = FILE_OF(sq), r = RANK_OF(sq);
        att_coord[sq] = f >= 0 && f < 10 && r >= 0 && r < 8 ? (uint8_t)(r * 32 + f) : 0;
    }
    for (int df = -9; df <= 9; df++)
        for (int dr = -7; dr <= 7; dr++) {
            int i = dr * 32 + df + ATT_DIFF_OFFSET, adf = df < 0 ? -df : df;
            int adr = dr < 0 ? -dr : dr, kind = 0, step = 0;
            if (!df && !dr)
                continue;
            if (adf <= 1 && adr <= 1)
                kind |= ATT_K_KING;
            if ((adf == 1 && adr == 2) || (adf == 2 && adr == 1))
                kind |= ATT_K_KNIGHT;
            if (adf == adr || !df || !dr) {
                int sf = df > 0 ? 1 : df < 0 ? -1 : 0, sr = dr > 0 ? 1 : dr < 0 ? -1 : 0;
                step = sr * MB_W + sf;
                kind |= adf == adr ? ATT_K_DIAG : ATT_K_ORTH;
            }
            att_kind[i] = (uint8_t)kind;
            att_line_step[i] = (int8_t)step;
        }
}

void att_collect(const Position *pos, int by, Attackers *a)
{
    a->ndiag = a->north = a->nknight = 0;
    a->king = pos->king[by];
    a->by = by;
    for (int i = 0; i < pos->pcount[by]; i++) {
        int sq = pos->plist[by][i];
        switch (PTYPE(pos->board[sq])) {
        case KNIGHT:
            a->knight[a->nknight++] = (uint8_t)sq;
            break;
        case BISHOP:
            a->diag[a->ndiag++] = (uint8_t)sq;
            break;
        case ROOK:
            a->orth[a->north++] = (uint8_t)sq;
            break;
        case QUEEN:
            a->diag[a->ndiag++] = (uint8_t)sq;
            a->orth[a->north++] = (uint8_t)sq;
            break;
        default:
            break;
        }
    }
}

/* Is the line from `from` to `to` (known to be one) empty strictly between them? */
static inline int line_clear(const uint8_t *b, int from, int to)
{
    int d = att_line_step[att_diff(from, to)];
    for (int s = from + d; s != to; s += d)
        if (b[s] != EMPTY)
            return 0;
    return 1;
}

int att_attacked_by(const uint8_t *b, const Attackers *a, int sq)
{
    int back = a->by == WHITE ? -MB_W : MB_W;
    uint8_t pawn = MAKE_PIECE(PAWN, a->by);
    if (b[sq + back - 1] == pawn || b[sq + back + 1] == pawn)
        return 1;
    if (att_kind[att_diff(a->king, sq)] & ATT_K_KING)
        return 1;
    /* A piece standing on sq itself is the one being taken: its difference is 0, no kind. */
    for (int i = 0; i < a->nknight; i++)
        if (att_kind[att_diff(a->knight[i], sq)] & ATT_K_KNIGHT)
            return 1;
    for (int i = 0; i < a->ndiag; i++)
        if ((att_kind[att_diff(a->diag[i], sq)] & ATT_K_DIAG) && line_clear(b, a->diag[i], sq))
            return 1;
    for (int i = 0; i < a->north; i++)
        if ((att_kind[att_diff(a->orth[i], sq)] & ATT_K_ORTH) && line_clear(b, a->orth[i], sq))
            return 1;
    return 0;
}

/* Does the piece of `by` on sq attack k (standard chess)? */
static int chess_piece_attacks(const uint8_t *b, int sq, int k, int by)
{
    int kind = att_kind[att_diff(sq, k)], ahead = sq + (by == WHITE ? MB_W : -MB_W);
    switch (PTYPE(b[sq])) {
    case PAWN:
        return k == ahead - 1 || k == ahead + 1;
    case KNIGHT:
        return (kind & ATT_K_KNIGHT) != 0;
    case BISHOP:
        return (kind & ATT_K_DIAG) && line_clear(b, sq, k);
    case ROOK:
        return (kind & ATT_K_ORTH) && line_clear(b, sq, k);
    case QUEEN:
        return (kind & (ATT_K_DIAG | ATT_K_ORTH)) && line_clear(b, sq, k);
    default:
        return 0;
    }
}

/* Is there a slider of `by` on the line from k through the (now empty) square sq, with
 * nothing between? */
static int chess_opened_line(const uint8_t *b, int k, int sq, int by)
{
    int kind = att_kind[att_diff(k, sq)];
    if (!(kind & (ATT_K_DIAG | ATT_K_ORTH)))
        return 0;
    int d = att_line_step[att_diff(k, sq)], s = k + d;
    while (b[s] == EMPTY)
        s += d;
    uint8_t p = b[s];
    if (p == OFF || PCOLOR(p) != by)
        return 0;
    int t = PTYPE(p);
    return t == QUEEN || t == (kind & ATT_K_DIAG ? BISHOP : ROOK);
}

/* After a legal move m in standard chess, the side to move was safe before it, so a check
 * can only come from the piece that moved (or the castling Rook) or along a line the move
 * opened: a handful of tests instead of every line from the King. */
static int chess_check_after(const Position *pos, Move m)
{
    const uint8_t *b = pos->board;
    int by = !pos->side, k = pos->king[pos->side];
    int from = MV_FROM(m), to = MV_TO(m), flag = MV_FLAG(m);
    if (chess_piece_attacks(b, to, k, by) || chess_opened_line(b, k, from, by))
        return 1;
    if (flag == MF_EP)
        return chess_opened_line(b, k, to - (by == WHITE ? MB_W : -MB_W), by);
    if (flag == MF_CASTLE)
        return chess_piece_attacks(b, MV_RTO(m), k, by) || chess_opened_line(b, k, MV_RFROM(m), by);
    return 0;
}

int att_in_check(const Position *pos, int color)
{
    if (color == pos->side && pos->variant != VARIANT_ROYAL && pos->ply > 0 &&
        pos->hist[pos->ply - 1].move)
        return chess_check_after(pos, pos->hist[pos->ply - 1].move);
    /* The recorded recapture right belongs to the side to move. */
    int theirs = pos->side != color;
    return att_attacked(pos, pos->king[color], !color, theirs ? pos->recap : 0,
                        theirs ? pos->recap_rook : 0);
}
