/* Static evaluation for both games: material, piece-square tables, mobility, pawn structure,
 * king safety, tapered between middlegame and endgame. */
#ifndef RC_EVAL_H
#define RC_EVAL_H

#include "types.h"

/* Tunable weights. They live in a struct owned by each search (no global mutable state) so
 * that self-play tuning can change them at run time; eval_default_params() fills the values
 * the engine plays with. */
enum {
    /* material, middlegame then endgame, by piece type */
    EP_PAWN_MG, EP_PAWN_EG, EP_KNIGHT_MG, EP_KNIGHT_EG, EP_BISHOP_MG, EP_BISHOP_EG,
    EP_ROOK_MG, EP_ROOK_EG, EP_QUEEN_MG, EP_QUEEN_EG, EP_QGUARD_MG, EP_QGUARD_EG,
    EP_KGUARD_MG, EP_KGUARD_EG,
    /* mobility, per reachable square, by piece type */
    EP_MOB_KNIGHT_MG, EP_MOB_KNIGHT_EG, EP_MOB_BISHOP_MG, EP_MOB_BISHOP_EG,
    EP_MOB_ROOK_MG, EP_MOB_ROOK_EG, EP_MOB_QUEEN_MG, EP_MOB_QUEEN_EG,
    EP_MOB_GUARD_MG, EP_MOB_GUARD_EG,
    /* centralisation of the Guards (percent of the generic centre table) */
    EP_GUARD_CENTRE,
    /* pawns */
    EP_DOUBLED_MG, EP_DOUBLED_EG, EP_ISOLATED_MG, EP_ISOLATED_EG,
    EP_PASSED_MG, EP_PASSED_EG, EP_PASSED_KING_EG, EP_CONNECTED,
    /* pieces */
    EP_BISHOP_PAIR_MG, EP_BISHOP_PAIR_EG, EP_ROOK_OPEN_MG, EP_ROOK_OPEN_EG,
    EP_ROOK_SEMI_MG, EP_ROOK_SEMI_EG,
    /* king safety */
    EP_SHELTER, EP_KING_ATTACK, EP_TEMPO,
    EP_COUNT
};

/* Piece-square tables [phase: 0 middlegame, 1 endgame][piece type][relative rank][distance
 * from the edge file, 0..3]; the QGUARD slot serves both Guards. */
#define PST_SLOTS (2 * NTYPES * 8 * 4)

struct NnueState;

/* A middlegame and an endgame value. */
typedef struct {
    int mg, eg;
} EvalPair;

typedef struct {
    int v[EP_COUNT];
    int pst[2][NTYPES][8][4];
    /* When set for a game, eval_evaluate() answers with that network instead (nnue.h). */
    struct NnueState *nnue[2];
    /* Derived from v and pst by eval_params_update(), so that a node looks a piece's worth
     * up instead of working it out: values by type, and material plus piece-square value by
     * game, colour * NTYPES + type, and mailbox square. */
    int piece_value[NTYPES];
    /* What one piece of a type adds to the evaluation's counts, packed so that one addition
     * does it: its phase weight (bits 0-7), 1 for a Bishop (bits 8-15) and its value as
     * non-pawn material (times 2^16; 0 for Pawns and Kings). */
    int64_t counts[NTYPES];
    EvalPair psq[2][2 * NTYPES][MB_SIZE];
    unsigned version;       /* counts the updates, so caches of evaluations know they are stale */
} EvalParams;

extern const char *const eval_param_names[EP_COUNT];

void eval_default_params(EvalParams *ep);

/* Rebuilds the derived tables: call it after changing any weight in v or pst. */
void eval_params_update(EvalParams *ep);

/* Every weight by name, the scalar ones first, then the tables as pst_<mg|eg>_<piece
 * letter>_<rank>_<edge> (e.g. pst_mg_n_3_2; the letter g for the Guards). Returns a
 * pointer to the weight and writes its name, or NULL past the end. */
int *eval_param_at(EvalParams *ep, int i, char *name, size_t len);

/* Value of a piece type (mean of its middlegame and endgame values), for move ordering and
 * exchange evaluation. */
static inline int eval_piece_value(const EvalParams *ep, int type)
{
    return ep->piece_value[type];
}

/* What the pawns alone decide, kept by pawn key: most positions of a search share their
 * pawns with many others. */
typedef struct {
    uint64_t key;
    int mg, eg;             /* doubled, isolated and connected pawns, White's minus Black's */
    uint8_t pawns[2][10];   /* per file: bit r set when a pawn of that side is on rank r */
    uint8_t passed[2][10];  /* the same for the passed pawns */
    uint16_t passed_files[2]; /* bit f set when file f holds a passed pawn of that side */
    /* The pawn shelter penalty of each side's King (it depends on the pawns and the King's
     * square alone), for the square in shelter_king (0: not worked out yet). */
    uint8_t shelter_king[2];
    int shelter[2];
} EvalPawnEntry;

#define EVAL_PAWN_SLOTS (1 << 13)

/* The position's value in centipawns for the side to move. pawns: a zeroed table of
 * EVAL_PAWN_SLOTS entries made with the same weights, or NULL. */
int eval_evaluate(const Position *pos, const EvalParams *ep, EvalPawnEntry *pawns);

/* Readies the evaluation for a search of pos. A net brings its accumulators up to date from
 * the nearest ancestor that has them; computing the root's here puts every node of the
 * search some updates away from one instead of a refresh (nodes whose evaluation comes from
 * the hash table compute none). */
void eval_prepare(const Position *pos, const EvalParams *ep);

#endif
