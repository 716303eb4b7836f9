/* Basic types shared by every part of the core: pieces, squares, moves, the position. */
#ifndef RC_TYPES_H
#define RC_TYPES_H

#include <stdint.h>
#include <stddef.h>

enum { VARIANT_CHESS = 0, VARIANT_ROYAL = 1 };
enum { WHITE = 0, BLACK = 1 };
enum { EMPTY = 0, PAWN = 1, KNIGHT, BISHOP, ROOK, QUEEN, KING, QGUARD, KGUARD, NTYPES };

/* A board cell: 0 empty, OFF outside the board, else type | colour bit | queen-power bit. */
#define BLACK_BIT 16
#define POWER_BIT 32
#define OFF 64
#define MAKE_PIECE(type, color) ((uint8_t)((type) | ((color) ? BLACK_BIT : 0)))
#define PTYPE(p) ((p) & 15)
#define PCOLOR(p) (((p) >> 4) & 1)

/* Padded mailbox: 12 columns (10 files + 2 guards) x 12 rows (8 ranks + 2 guards each
 * side), shared by both boards so one generator serves both; on the 8x8 board the two
 * extra files are OFF cells. */
#define MB_W 12
#define MB_SIZE 144
#define SQ(file, rank) (((rank) + 2) * MB_W + (file) + 1)
#define FILE_OF(sq) ((sq) % MB_W - 1)
#define RANK_OF(sq) ((sq) / MB_W - 2)

/* Internal move: mailbox squares packed in 64 bits. */
typedef uint64_t Move;
enum { MF_NORMAL = 0, MF_DOUBLE = 1, MF_EP = 2, MF_CASTLE = 3, MF_PROMO = 4, MF_PROMO_WAIVED = 5 };
#define MV_FROM(m) ((int)((m) & 0xFF))
#define MV_TO(m) ((int)(((m) >> 8) & 0xFF))
#define MV_PROMO(m) ((int)(((m) >> 16) & 0xF))
#define MV_FLAG(m) ((int)(((m) >> 20) & 0xF))
#define MV_GFROM(m) ((int)(((m) >> 24) & 0xFF))
#define MV_GTO(m) ((int)(((m) >> 32) & 0xFF))
#define MV_RFROM(m) ((int)(((m) >> 40) & 0xFF))
#define MV_RTO(m) ((int)(((m) >> 48) & 0xFF))
#define MAKE_MOVE(from, to, promo, flag) \
    ((Move)(from) | ((Move)(to) << 8) | ((Move)(promo) << 16) | ((Move)(flag) << 20))
#define MAKE_CASTLE(kf, kt, rf, rt, gf, gt) \
    (MAKE_MOVE(kf, kt, 0, MF_CASTLE) | ((Move)(gf) << 24) | ((Move)(gt) << 32) | \
     ((Move)(rf) << 40) | ((Move)(rt) << 48))

#define MAX_MOVES 768
typedef struct {
    Move moves[MAX_MOVES];
    int n;
} MoveList;

/* Castling right bits. */
enum { WK = 1, WQ = 2, BK = 4, BQ = 8 };

#define UNDO_MAX_CHANGES 8

/* What make() needs to undo a move, plus the state before it. */
typedef struct {
    Move move;
    uint64_t key;          /* repetition key before the move */
    uint64_t bkey;         /* base key before the move */
    uint64_t pkey;         /* pawn key before the move */
    uint8_t captured;      /* piece taken by the move (or by its Guard part) */
    uint8_t moved;         /* the moving piece as it was (queen powers included) */
    uint8_t castle;
    uint8_t ep;
    uint8_t recap;
    uint8_t recap_rook;
    int halfmove;
    /* The squares the move touched with their pieces before and after it (NNUE updates its
     * accumulators from these, so it needs no knowledge of move kinds). */
    uint8_t nchg;
    uint8_t chg_sq[UNDO_MAX_CHANGES], chg_old[UNDO_MAX_CHANGES], chg_new[UNDO_MAX_CHANGES];
} Undo;

typedef struct {
    uint8_t board[MB_SIZE];
    int variant;
    int files, ranks;
    int side;
    int king[2];
    uint8_t plist[2][32];   /* squares of each side's pieces */
    uint8_t pindex[MB_SIZE];/* index of a square's piece in its side's list */
    int pcount[2];
    uint8_t castle;
    uint8_t ep;             /* FEN field 4 square, 0 = none */
    uint8_t recap;          /* Royal rule 3.1c square S, 0 = none */
    uint8_t recap_rook;     /* the Rook that may recapture on S */
    int halfmove;
    int fullmove;
    uint64_t bkey;          /* key of pieces, side to move and castling rights */
    uint64_t key;           /* repetition key of the current position */
    uint64_t pkey;          /* key of the pawns alone (pawn tables, correction history) */
    Undo *hist;
    int ply, cap;
} Position;

#endif
