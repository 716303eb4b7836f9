/* The position: piece bookkeeping, make/unmake, keys, repetition and draw facts. */
#ifndef RC_POSITION_H
#define RC_POSITION_H

#include "types.h"
#include "zobrist.h"

/* Start counts of each piece type in Royal Chess; promotion may only restore these. */
extern const int pos_royal_start_count[NTYPES];

void pos_init_tables(void);
void pos_init(Position *pos, int variant);
void pos_free(Position *pos);
int pos_copy(Position *dst, const Position *src);
int pos_reserve(Position *pos, int plies);

void pos_make(Position *pos, Move m);
void pos_unmake(Position *pos);
void pos_make_null(Position *pos);
void pos_unmake_null(Position *pos);

/* Base key of pieces, side and castling; the repetition key adds en passant and recapture
 * parts only when such a capture is really legal. */
uint64_t pos_base_key(const Position *pos);
void pos_update_key(Position *pos);
/* Key of the pawns alone (zobrist piece keys of the pawns), kept in pos->pkey by make. */
uint64_t pos_pawn_key(const Position *pos);
int pos_repetition_count(const Position *pos);
int pos_insufficient_material(const Position *pos);
int pos_castle_mask(const Position *pos, int sq);
int pos_rook_line(const Position *pos, int from, int to, int color);
int pos_rook_partner(const Position *pos, int sq, int color);
/* The same, looking only at the pieces on `squares` (in that order: the first pair found
 * wins), e.g. a side's Rooks collected once for a whole move generation. */
int pos_rook_partner_among(const Position *pos, int sq, int color, const uint8_t *squares, int n);
int pos_recapture_extra(const Position *pos);
int pos_count_type(const Position *pos, int color, int type);

static inline int pos_first_rank(const Position *pos, int color)
{
    return color == WHITE ? 0 : pos->ranks - 1;
}

static inline int pos_is_guard(uint8_t p)
{
    return PTYPE(p) == QGUARD || PTYPE(p) == KGUARD;
}

/* Piece bookkeeping: the board, the piece lists and the king squares move together. */
static inline void pos_put(Position *pos, int sq, uint8_t pc)
{
    int c = PCOLOR(pc);
    pos->board[sq] = pc;
    pos->pindex[sq] = (uint8_t)pos->pcount[c];
    pos->plist[c][pos->pcount[c]++] = (uint8_t)sq;
    if (PTYPE(pc) == KING)
        pos->king[c] = sq;
}

static inline void pos_remove(Position *pos, int sq)
{
    int c = PCOLOR(pos->board[sq]);
    int last = pos->plist[c][--pos->pcount[c]];
    pos->plist[c][pos->pindex[sq]] = (uint8_t)last;
    pos->pindex[last] = pos->pindex[sq];
    pos->board[sq] = EMPTY;
}

static inline void pos_relocate(Position *pos, int from, int to)
{
    uint8_t pc = pos->board[from];
    int c = PCOLOR(pc);
    pos->board[to] = pc;
    pos->board[from] = EMPTY;
    pos->plist[c][pos->pindex[from]] = (uint8_t)to;
    pos->pindex[to] = pos->pindex[from];
    if (PTYPE(pc) == KING)
        pos->king[c] = to;
}

#endif
