/* Static evaluation for both games. One pass over each side's piece list adds material and
 * piece-square values (looked up in tables derived from the weights), marks the squares the
 * pawns attack and sorts the pawns from the pieces; then the pieces' walks score mobility and
 * attacks on the enemy King's zone, and the pawns their structure. Tables are indexed by
 * relative rank and by distance from the nearest edge file (capped at 3), so the same tables
 * serve the 8- and the 10-file board. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "geometry.h"
#include "nnue.h"
#include "position.h"
#include "zobrist.h"

const char *const eval_param_names[EP_COUNT] = {
    "pawn_mg", "pawn_eg", "knight_mg", "knight_eg", "bishop_mg", "bishop_eg",
    "rook_mg", "rook_eg", "queen_mg", "queen_eg", "qguard_mg", "qguard_eg",
    "kguard_mg", "kguard_eg",
    "mob_knight_mg", "mob_knight_eg", "mob_bishop_mg", "mob_bishop_eg",
    "mob_rook_mg", "mob_rook_eg", "mob_queen_mg", "mob_queen_eg",
    "mob_guard_mg", "mob_guard_eg",
    "guard_centre",
    "doubled_mg", "doubled_eg", "isolated_mg", "isolated_eg",
    "passed_mg", "passed_eg", "passed_king_eg", "connected",
    "bishop_pair_mg", "bishop_pair_eg", "rook_open_mg", "rook_open_eg",
    "rook_semi_mg", "rook_semi_eg",
    "shelter", "king_attack", "tempo",
};

/* Weights fitted with bench/tune.py: the chess ones to Stockfish's evaluations of 18,000
 * quiet self-play positions, the Guards' to deeper searches of Royal Chess self-play
 * positions; each set kept only after self-play showed a gain (docs/strength.md). */
static const int DEFAULT_PARAMS[EP_COUNT] = {
    74, 106, 370, 348, 409, 379,
    450, 641, 1171, 1121, 396, 429,
    432, 463,
    8, 9, 10, 5,
    5, 4, 4, 4,
    4, 6,
    140,
    23, 23, 9, 7,
    10, 25, 11, 6,
    25, 34, 58, -2,
    26, 19,
    21, 197, 34,
};

/* Piece-square tables [relative rank][distance from the edge file, 0..3], White's view:
 * hand-made, then fitted with bench/tune.py (each entry kept within 40 cp of the hand-made
 * value, as rarely visited squares have too few samples). The engine plays with the copies
 * in EvalParams. */

static const int PST_MG[NTYPES][8][4] = {
    [PAWN] = {
        { 0, 0, 0, 0 },
        { -6, -5, -4, -12 },
        { -9, 2, 2, 8 },
        { 0, -8, 14, 13 },
        { 5, -17, 24, 44 },
        { -19, 38, 65, 43 },
        { -10, 80, 21, 69 },
        { 0, 0, 0, 0 },
    },
    [KNIGHT] = {
        { -5, -34, -23, -1 },
        { -28, -55, -15, 15 },
        { -38, -8, 5, -5 },
        { -15, 43, 28, -10 },
        { 30, 17, 14, 44 },
        { -47, 26, 60, 65 },
        { 15, -4, 0, 5 },
        { -72, -39, -16, -13 },
    },
    [BISHOP] = {
        { 25, -4, -10, -10 },
        { -12, 24, 29, 3 },
        { -13, 40, 14, 5 },
        { -24, 18, -13, 0 },
        { -40, -10, 8, 24 },
        { 9, 10, -23, 31 },
        { -46, -32, -14, 6 },
        { -15, -19, -14, -16 },
    },
    [ROOK] = {
        { -5, -9, 5, 8 },
        { -21, 5, 22, 0 },
        { -24, -8, -4, 5 },
        { -7, -4, 0, 16 },
        { 35, -1, 40, 0 },
        { -1, 10, 6, 8 },
        { 10, 15, 15, 15 },
        { 8, 34, 45, 45 },
    },
    [QUEEN] = {
        { -49, -18, -5, 18 },
        { -1, -3, -2, 7 },
        { -14, 0, -19, 5 },
        { 12, -4, -7, 5 },
        { -2, -26, 7, 45 },
        { -11, -6, 40, -12 },
        { 30, -45, -12, -27 },
        { -2, 30, 11, -3 },
    },
    [KING] = {
        { 15, 27, 5, -6 },
        { 3, 29, -35, -45 },
        { -60, -27, -70, -68 },
        { -34, -80, -63, -90 },
        { -10, -90, -83, -20 },
        { -49, -25, -25, -30 },
        { -41, -25, -30, -30 },
        { -25, -110, -35, -35 },
    },
};

static const int PST_EG[NTYPES][8][4] = {
    [PAWN] = {
        { 0, 0, 0, 0 },
        { -5, -5, 7, -7 },
        { -5, -17, -8, 7 },
        { -1, 4, 0, -18 },
        { 35, 10, -9, 10 },
        { 45, 21, -15, 57 },
        { 76, 79, 18, 70 },
        { 0, 0, 0, 0 },
    },
    [KNIGHT] = {
        { -62, -32, -10, -15 },
        { -20, -46, -13, 5 },
        { -14, -14, -7, 11 },
        { -10, 11, 15, 26 },
        { -15, 6, 40, 22 },
        { -19, 27, 33, 15 },
        { -65, -37, 5, 7 },
        { -80, 15, -18, 30 },
    },
    [BISHOP] = {
        { 25, -31, -11, 7 },
        { -20, -4, -19, -18 },
        { -3, 1, -7, 7 },
        { -8, 1, 5, -18 },
        { -9, 4, 5, 20 },
        { -3, 1, -34, 24 },
        { -7, -5, 10, 3 },
        { -14, -50, -45, -10 },
    },
    [ROOK] = {
        { 0, 0, 0, -4 },
        { 0, 0, 0, 0 },
        { -4, -1, 13, 0 },
        { -3, 10, 22, 0 },
        { 40, 16, 11, 0 },
        { 34, 5, 25, 45 },
        { 50, 36, 40, 35 },
        { 24, 45, 20, 40 },
    },
    [QUEEN] = {
        { -42, -16, -22, -24 },
        { -15, -8, -1, 5 },
        { -12, -1, 9, 16 },
        { -6, 10, 15, 21 },
        { 15, 5, 23, 14 },
        { -7, 1, 12, 27 },
        { -11, -6, 1, 5 },
        { -65, -14, 30, 5 },
    },
    [KING] = {
        { -80, -36, -26, -15 },
        { -36, -10, 2, 5 },
        { -22, -15, 20, 15 },
        { -24, 19, 8, 39 },
        { -55, 21, 20, 42 },
        { -50, -1, 13, 34 },
        { 10, 22, -17, 42 },
        { -10, 10, -10, 25 },
    },
};

/* Both Guards: a plain centre table, scaled by the guard_centre parameter (percent). */
static const int PST_GUARD[8][4] = {
    { -15, -10, -5, -5 }, { -10, 0, 5, 5 }, { -5, 5, 10, 10 }, { -5, 5, 10, 15 },
    { -5, 5, 10, 15 }, { -5, 5, 10, 10 }, { -10, 0, 5, 5 }, { -15, -10, -5, -5 },
};

void eval_default_params(EvalParams *ep)
{
    for (int i = 0; i < EP_COUNT; i++)
        ep->v[i] = DEFAULT_PARAMS[i];
    memcpy(ep->pst[0], PST_MG, sizeof ep->pst[0]);
    memcpy(ep->pst[1], PST_EG, sizeof ep->pst[1]);
    memcpy(ep->pst[0][QGUARD], PST_GUARD, sizeof PST_GUARD);
    memcpy(ep->pst[1][QGUARD], PST_GUARD, sizeof PST_GUARD);
    eval_params_update(ep);
}

int *eval_param_at(EvalParams *ep, int i, char *name, size_t len)
{
    static const char letters[] = " pnbrqkg";
    if (i < 0)
        return NULL;
    if (i < EP_COUNT) {
        snprintf(name, len, "%s", eval_param_names[i]);
        return &ep->v[i];
    }
    i -= EP_COUNT;
    int per_type = 8 * 4, per_phase = 7 * per_type; /* types PAWN..QGUARD */
    if (i >= 2 * per_phase)
        return NULL;
    int phase = i / per_phase, t = 1 + i % per_phase / per_type, r = i % per_type / 4, e = i % 4;
    snprintf(name, len, "pst_%s_%c_%d_%d", phase ? "eg" : "mg", letters[t], r, e);
    return &ep->pst[phase][t][r][e];
}

static inline int edge_dist(int file, int files)
{
    int e = file < files - 1 - file ? file : files - 1 - file;
    return e > 3 ? 3 : e;
}

/* Material plus piece-square value of a piece of type t and colour c on sq, phase 0 or 1. */
static int psq_value(const EvalParams *ep, int phase, int t, int c, int sq, int files)
{
    const int *v = ep->v;
    int rr = geo_rel_rank(sq, c, 8), e = edge_dist(FILE_OF(sq), files);
    if (t == KING)
        return ep->pst[phase][KING][rr][e];
    if (t == QGUARD || t == KGUARD) {
        int base = t == QGUARD ? EP_QGUARD_MG : EP_KGUARD_MG;
        return v[base + phase] + ep->pst[phase][QGUARD][rr][e] * v[EP_GUARD_CENTRE] / 100;
    }
    return v[EP_PAWN_MG + 2 * (t - PAWN) + phase] + ep->pst[phase][t][rr][e];
}

static const int PHASE_WEIGHT[NTYPES] = { 0, 0, 1, 1, 2, 4, 0, 1, 1 };

void eval_params_update(EvalParams *ep)
{
    ep->version++;
    static const int index[NTYPES] = { -1, EP_PAWN_MG, EP_KNIGHT_MG, EP_BISHOP_MG, EP_ROOK_MG,
                                       EP_QUEEN_MG, -1, EP_QGUARD_MG, EP_KGUARD_MG };
    for (int t = 0; t < NTYPES; t++)
        /* between the middlegame and endgame values: exchanges happen in both */
        ep->piece_value[t] = t == KING ? 20000
                             : index[t] < 0 ? 0
                                            : (ep->v[index[t]] + ep->v[index[t] + 1]) / 2;
    for (int t = 0; t < NTYPES; t++)
        ep->counts[t] = PHASE_WEIGHT[t] + (t == BISHOP ? 1 << 8 : 0) +
                        (t == PAWN || t == KING ? 0 : (int64_t)ep->piece_value[t] * 65536);
    memset(ep->psq, 0, sizeof ep->psq);
    for (int variant = 0; variant < 2; variant++) {
        int files = variant == VARIANT_ROYAL ? 10 : 8;
        for (int c = 0; c < 2; c++)
            for (int t = PAWN; t < NTYPES; t++)
                for (int sq = 0; sq < MB_SIZE; sq++) {
                    if (!geo_on_board(sq, files, 8))
                        continue;
                    EvalPair *e = &ep->psq[variant][c * NTYPES + t][sq];
                    e->mg = psq_value(ep, 0, t, c, sq, files);
                    e->eg = psq_value(ep, 1, t, c, sq, files);
                }
    }
}

/* Passed pawn bonus by relative rank, in eighths of the passed_mg / passed_eg parameters. */
static const int PASSED_RANK[8] = { 0, 0, 4, 8, 16, 32, 56, 0 };
/* King attack: weight of one attacked zone square by attacker type, and the share (percent)
 * of the summed weight that counts with n attackers. */
static const int ATTACK_WEIGHT[NTYPES] = { 0, 0, 8, 8, 12, 20, 0, 8, 8 };
static const int ATTACKERS_SHARE[8] = { 0, 0, 50, 75, 88, 94, 97, 99 };
/* Mobility: the middlegame weight's index by type (the endgame one follows it), and the
 * number of reachable squares that scores zero. */
static const int MOB_INDEX[NTYPES] = { 0, 0, EP_MOB_KNIGHT_MG, EP_MOB_BISHOP_MG, EP_MOB_ROOK_MG,
                                       EP_MOB_QUEEN_MG, 0, EP_MOB_GUARD_MG, EP_MOB_GUARD_MG };
static const int MOB_TYPICAL[NTYPES] = { 0, 0, 4, 6, 7, 13, 0, 8, 8 };

/* File and rank of every mailbox square, and the directions as compile-time constants: the
 * walks below run at every node, and table loads are cheaper than dividing by MB_W, as are
 * unrolled loops with known steps. */
#define FILES12 -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
#define ROW12(r) r, r, r, r, r, r, r, r, r, r, r, r
static const int8_t SQ_FILE[MB_SIZE] = { FILES12, FILES12, FILES12, FILES12, FILES12, FILES12,
                                         FILES12, FILES12, FILES12, FILES12, FILES12, FILES12 };
static const int8_t SQ_RANK[MB_SIZE] = { ROW12(-2), ROW12(-1), ROW12(0), ROW12(1),
                                         ROW12(2),  ROW12(3),  ROW12(4), ROW12(5),
                                         ROW12(6),  ROW12(7),  ROW12(8), ROW12(9) };
static const int ORTH[4] = { DIR_N, DIR_S, DIR_E, DIR_W };
static const int DIAG[4] = { DIR_NE, DIR_NW, DIR_SE, DIR_SW };
static const int KING_STEPS[8] = { DIR_N, DIR_S, DIR_E, DIR_W, DIR_NE, DIR_NW, DIR_SE, DIR_SW };
static const int KNIGHT_STEPS[8] = { 2 * MB_W + 1, 2 * MB_W - 1, -2 * MB_W + 1, -2 * MB_W - 1,
                                     MB_W + 2,     MB_W - 2,     -MB_W + 2,     -MB_W - 2 };

/* Mobility and King attacks are counted in one sum per piece: every square a piece reaches
 * adds its byte of the mover's map, 1 when no enemy pawn attacks the square (it counts for
 * mobility) plus ZONE_HIT when it lies in the enemy King's zone, so a walk adds one byte a
 * square instead of testing two flags. */
enum { SAFE = 1, ZONE_HIT = 64, MOB_MASK = ZONE_HIT - 1 };

typedef struct {
    int mg[2], eg[2];
    int phase;
    int nonpawn[2];              /* non-pawn material, middlegame values */
    int bishops[2];
    int attackers[2], attack[2]; /* on colour c's King zone: pieces and summed weight */
    int npieces[2];
    uint8_t pawns[2][10];        /* per file: bit r set when a pawn of that side is on rank r */
    EvalPawnEntry *entry;        /* the pawn terms of these pawns */
    /* everything above starts at zero */
    /* Per square, for colour c's pieces: SAFE unless an enemy pawn attacks it, plus ZONE_HIT
     * in the enemy King's zone (its square and the squares around it). */
    uint8_t map[2][MB_SIZE];
    uint8_t piece_sq[2][32];     /* and of its pieces other than pawns and the King */
} EvalState;

static inline int distance(int a, int b)
{
    int df = abs(SQ_FILE[a] - SQ_FILE[b]), dr = abs(SQ_RANK[a] - SQ_RANK[b]);
    return df > dr ? df : dr;
}

/* Which bits of a square's map byte count, by the piece on it, for the White and the Black
 * mover: all on an empty square; the King zone's under any piece, mobility only under an
 * enemy one; none on an OFF cell. */
#define BLOCK_ROW(own, enemy) \
    0xFF, own, own, own, own, own, own, own, own, own, own, own, own, own, own, own, \
    enemy, enemy, enemy, enemy, enemy, enemy, enemy, enemy, enemy, enemy, enemy, enemy, enemy, \
    enemy, enemy, enemy
#define BLOCK_COLOUR(own, enemy) BLOCK_ROW(own, enemy), BLOCK_ROW(own, enemy)
static const uint8_t BLOCK[2][2 * OFF] = {
    { BLOCK_COLOUR(ZONE_HIT, 0xFF), [OFF] = 0 },
    { BLOCK_COLOUR(0xFF, ZONE_HIT), [OFF] = 0 },
};

/* Walks up to len squares along d from sq; a blocker ends the line. */
static inline int walk(const uint8_t *b, const uint8_t *map, const uint8_t *block, int sq,
                       int d, int len)
{
    int s = sq, sum = 0;
    for (int k = 0; k < len; k++) {
        s += d;
        uint8_t p = b[s];
        if (p != EMPTY)
            return sum + (map[s] & block[p]);
        sum += map[s];
    }
    return sum;
}

/* A slider's line: to the edge or the first piece (no board is long enough to cut it). */
static inline int slide(const uint8_t *b, const uint8_t *map, const uint8_t *block, int sq,
                        int d)
{
    int s = sq + d, sum = 0;
    uint8_t p;
    while ((p = b[s]) == EMPTY) {
        sum += map[s];
        s += d;
    }
    return sum + (map[s] & block[p]);
}

/* The piece's sum of map bytes (see SAFE). */
static inline int piece_reach(const uint8_t *b, const uint8_t *map, const uint8_t *block,
                              int sq, uint8_t pc)
{
    int t = PTYPE(pc), sum = 0;
    if (pc & POWER_BIT)
        t = QUEEN;
    /* The loops over directions are unrolled, so that every walk has its step as a constant
     * (an addressing offset) instead of a loaded, loop-carried value. */
    switch (t) {
    case KNIGHT:
        /* one step each, an OFF cell adds nothing */
#pragma GCC unroll 8
        for (int i = 0; i < 8; i++) {
            int s = sq + KNIGHT_STEPS[i];
            sum += map[s] & block[b[s]];
        }
        break;
    case BISHOP:
#pragma GCC unroll 4
        for (int i = 0; i < 4; i++)
            sum += slide(b, map, block, sq, DIAG[i]);
        break;
    case ROOK:
#pragma GCC unroll 4
        for (int i = 0; i < 4; i++)
            sum += slide(b, map, block, sq, ORTH[i]);
        break;
    case QUEEN:
#pragma GCC unroll 8
        for (int i = 0; i < 8; i++)
            sum += slide(b, map, block, sq, KING_STEPS[i]);
        break;
    default:
        /* Guards: 1-3 squares both ways; the minor move's limits are left to the search. */
#pragma GCC unroll 8
        for (int i = 0; i < 8; i++)
            sum += walk(b, map, block, sq, KING_STEPS[i], 3);
        break;
    }
    return sum;
}

/* Material, piece-square values and phase of every piece; pawn files and attacks, King zones
 * and the list of pieces that the later passes walk. Counts are kept in locals:
 * the byte stores into the maps could alias anything the compiler would otherwise reload. */
static void collect(const Position *pos, const EvalParams *ep, EvalState *es)
{
    const EvalPair(*psq)[MB_SIZE] = ep->psq[pos->variant];
    const uint8_t *board = pos->board;
    memset(es->map, SAFE, sizeof es->map);
    int phase = 0;
    for (int c = 0; c < 2; c++) {
        int fwd = c == WHITE ? MB_W : -MB_W, mg = 0, eg = 0;
        int64_t counts = 0;
        int npc = 0, n = pos->pcount[c];
        const uint8_t *list = pos->plist[c];
        const EvalPair *own = psq[c * NTYPES];
        uint8_t *theirs = es->map[!c];
        for (int i = 0; i < n; i++) {
            int sq = list[i], t = PTYPE(board[sq]);
            const EvalPair *e = &own[t * MB_SIZE + sq];
            mg += e->mg;
            eg += e->eg;
            counts += ep->counts[t];
            if (t == PAWN) {
                /* the enemy's pieces are not safe there */
                theirs[sq + fwd - 1] = 0;
                theirs[sq + fwd + 1] = 0;
            } else if (t != KING) {
                es->piece_sq[c][npc++] = (uint8_t)sq;
            }
        }
        es->mg[c] = mg;
        es->eg[c] = eg;
        /* (no field can carry into the next: 255 phase units, 255 Bishops) */
        phase += (int)(counts & 0xFF);
        es->bishops[c] = (int)(counts >> 8 & 0xFF);
        es->nonpawn[c] = (int)((counts - (counts & 0xFFFF)) / 65536);
        es->npieces[c] = npc;
    }
    es->phase = phase;
    /* after the pawns, which clear whole bytes */
    for (int c = 0; c < 2; c++) {
        int k = pos->king[c];
        uint8_t *theirs = es->map[!c];
        theirs[k] |= ZONE_HIT;
        for (int i = 0; i < 8; i++)
            theirs[k + KING_STEPS[i]] |= ZONE_HIT;
    }
}

static void add(EvalState *es, int c, int mg, int eg)
{
    es->mg[c] += mg;
    es->eg[c] += eg;
}

/* Rooks on open and half-open files (called by eval_mobility, which has the Rooks at hand). */
static inline void rook_file(const EvalParams *ep, EvalState *es, int c, int sq)
{
    const int *v = ep->v;
    int f = SQ_FILE[sq];
    if (!es->pawns[c][f])
        add(es, c, es->pawns[!c][f] ? v[EP_ROOK_SEMI_MG] : v[EP_ROOK_OPEN_MG],
            es->pawns[!c][f] ? v[EP_ROOK_SEMI_EG] : v[EP_ROOK_OPEN_EG]);
}

static void eval_files(const EvalParams *ep, EvalState *es, int c)
{
    const int *v = ep->v;
    if (es->bishops[c] >= 2)
        add(es, c, v[EP_BISHOP_PAIR_MG], v[EP_BISHOP_PAIR_EG]);
}
static void eval_mobility(const Position *pos, const EvalParams *ep, EvalState *es, int c)
{
    const int *v = ep->v;
    const uint8_t *board = pos->board, *map = es->map[c], *block = BLOCK[c];
    int mg = 0, eg = 0, attackers = 0, attack = 0;
    for (int i = 0; i < es->npieces[c]; i++) {
        int sq = es->piece_sq[c][i];
        uint8_t pc = board[sq];
        int t = PTYPE(pc);
        int sum = piece_reach(board, map, block, sq, pc);
        if (t == ROOK)
            rook_file(ep, es, c, sq);
        int extra = (sum & MOB_MASK) - MOB_TYPICAL[t], zone_hits = sum / ZONE_HIT;
        mg += v[MOB_INDEX[t]] * extra;
        eg += v[MOB_INDEX[t] + 1] * extra;
        if (zone_hits) {
            attackers++;
            attack += ATTACK_WEIGHT[t] * zone_hits;
        }
    }
    es->attackers[!c] += attackers;
    es->attack[!c] += attack;
    add(es, c, mg, eg);
}

/* Ranks strictly ahead of absolute rank r for colour c, as a bit mask. */
static inline unsigned ahead_mask(int r, int c)
{
    return c == WHITE ? (0xFFu << (r + 1)) & 0xFFu : (1u << r) - 1u;
}

/* The pawns' files, their structure terms and which of them are passed, into e. */
static void pawn_structure(const Position *pos, const EvalParams *ep, EvalPawnEntry *e)
{
    const int *v = ep->v;
    int files = pos->files, mg = 0, eg = 0;
    /* The pawns, picked out of the piece lists here: the table spares most evaluations this. */
    uint8_t pawn_sq[2][32];
    int npawns[2] = { 0, 0 };
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < pos->pcount[c]; i++) {
            int sq = pos->plist[c][i];
            if (PTYPE(pos->board[sq]) == PAWN)
                pawn_sq[c][npawns[c]++] = (uint8_t)sq;
        }
    memset(e->pawns, 0, sizeof e->pawns);
    memset(e->passed, 0, sizeof e->passed);
    e->passed_files[WHITE] = e->passed_files[BLACK] = 0;
    e->shelter_king[WHITE] = e->shelter_king[BLACK] = 0;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < npawns[c]; i++) {
            int sq = pawn_sq[c][i];
            e->pawns[c][SQ_FILE[sq]] |= (uint8_t)(1 << SQ_RANK[sq]);
        }
    for (int c = 0; c < 2; c++) {
        const uint8_t *own = e->pawns[c], *their = e->pawns[!c];
        int sign = c == WHITE ? 1 : -1;
        for (int i = 0; i < npawns[c]; i++) {
            int sq = pawn_sq[c][i];
            int f = SQ_FILE[sq], r = SQ_RANK[sq], rr = c == WHITE ? r : pos->ranks - 1 - r;
            unsigned ahead = ahead_mask(r, c);
            unsigned left = f > 0 ? own[f - 1] : 0, right = f < files - 1 ? own[f + 1] : 0;
            if (own[f] & ahead)
                mg -= sign * v[EP_DOUBLED_MG], eg -= sign * v[EP_DOUBLED_EG];
            if (!left && !right)
                mg -= sign * v[EP_ISOLATED_MG], eg -= sign * v[EP_ISOLATED_EG];
            /* Connected: a neighbour beside it or one rank behind, defending it. */
            unsigned near =
                (1u << r) | (c == WHITE ? (r > 0 ? 1u << (r - 1) : 0) : 1u << (r + 1));
            if ((left | right) & near)
                mg += sign * (v[EP_CONNECTED] + 2 * rr), eg += sign * (v[EP_CONNECTED] + rr);
            int passed = !(their[f] & ahead);
            if (f > 0 && (their[f - 1] & ahead))
                passed = 0;
            if (f < files - 1 && (their[f + 1] & ahead))
                passed = 0;
            if (passed) {
                e->passed[c][f] |= (uint8_t)(1 << r);
                e->passed_files[c] |= (uint16_t)(1 << f);
            }
        }
    }
    e->mg = mg;
    e->eg = eg;
}

/* Passed pawns: their bonus depends on the Kings and on what stands in front of them. */
static void eval_passed(const Position *pos, const EvalParams *ep, EvalState *es,
                        const EvalPawnEntry *e, int c)
{
    const int *v = ep->v;
    int fwd = c == WHITE ? MB_W : -MB_W;
    unsigned files = e->passed_files[c];
    for (int f = 0; files >> f; f++)
        for (int r = 0; e->passed[c][f] >> r; r++) {
            if (!(e->passed[c][f] >> r & 1))
                continue;
            int sq = SQ(f, r);
            int rr = c == WHITE ? r : pos->ranks - 1 - r;
            int w = PASSED_RANK[rr];
            int mg = v[EP_PASSED_MG] * w / 8, eg = v[EP_PASSED_EG] * w / 8;
            int block = sq + fwd;
            if (pos->board[block] != EMPTY)
                eg = eg * 2 / 3;
            /* In the endgame the Kings' distances to the square in front decide a lot. */
            eg += v[EP_PASSED_KING_EG] * w *
                  (distance(pos->king[!c], block) * 2 - distance(pos->king[c], block)) / 16;
            add(es, c, mg, eg);
        }
}

/* The pawn terms, from the table when it knows these pawns. */
static void eval_pawns(const Position *pos, const EvalParams *ep, EvalState *es,
                       EvalPawnEntry *table, EvalPawnEntry *local)
{
    EvalPawnEntry *e = local;
    if (table) {
        /* The position keeps its pawn key up to date; the board's width changes the terms. */
        uint64_t key = pos->pkey ^ (pos->variant == VARIANT_ROYAL ? zob.variant : 0);
        e = &table[key & (EVAL_PAWN_SLOTS - 1)];
        if (e->key != key) {
            pawn_structure(pos, ep, e);
            e->key = key;
        }
    } else {
        pawn_structure(pos, ep, e);
    }
    memcpy(es->pawns, e->pawns, sizeof es->pawns);
    es->entry = e;
    add(es, WHITE, e->mg, e->eg);
    for (int c = 0; c < 2; c++)
        eval_passed(pos, ep, es, e, c);
}

/* The pawn shelter penalty of colour c's King on k: own pawns missing in front of it or far
 * ahead, on its file and the files beside it (only while the King stays on its first two
 * ranks). */
static int shelter(const Position *pos, const EvalParams *ep, const EvalState *es, int c, int k)
{
    const int *v = ep->v;
    int kf = SQ_FILE[k], kr = SQ_RANK[k], penalty = 0;
    if (geo_rel_rank(k, c, pos->ranks) > 1)
        return 0;
    for (int f = kf - 1; f <= kf + 1; f++) {
        if (f < 0 || f >= pos->files)
            continue;
        unsigned mine = es->pawns[c][f] & ahead_mask(kr, c);
        if (!mine) {
            penalty += es->pawns[!c][f] ? v[EP_SHELTER] : v[EP_SHELTER] * 3 / 2;
            continue;
        }
        /* nearest own pawn in front of the King */
        int r = kr;
        do
            r += c == WHITE ? 1 : -1;
        while (!(mine & 1u << r));
        int dist = abs(r - kr);
        if (dist >= 2)
            penalty += v[EP_SHELTER] * (dist - 1) / 3;
    }
    return penalty;
}

static void eval_king(const Position *pos, const EvalParams *ep, EvalState *es, int c)
{
    const int *v = ep->v;
    int k = pos->king[c];
    /* The pawn entry keeps the last King square's shelter: Kings move less than pawns. */
    EvalPawnEntry *e = es->entry;
    if (e->shelter_king[c] != k) {
        e->shelter[c] = shelter(pos, ep, es, c, k);
        e->shelter_king[c] = (uint8_t)k;
    }
    add(es, c, -e->shelter[c], 0);
    int n = es->attackers[c] > 7 ? 7 : es->attackers[c];
    add(es, c, -es->attack[c] * ATTACKERS_SHARE[n] / 100 * v[EP_KING_ATTACK] / 100, 0);
}

/* Against a bare King: drive it to the edge and bring the own King near, which is how
 * every mate with a heavy piece or a Guard is forced. */
static int mop_up(const Position *pos, int strong)
{
    int k = pos->king[!strong], f = FILE_OF(k), r = RANK_OF(k);
    int df = abs(2 * f - (pos->files - 1)) / 2, dr = abs(2 * r - (pos->ranks - 1)) / 2;
    int kd = abs(FILE_OF(pos->king[strong]) - f) + abs(RANK_OF(pos->king[strong]) - r);
    return 12 * (df + dr) + 6 * (16 - kd);
}

void eval_prepare(const Position *pos, const EvalParams *ep)
{
    if (ep->nnue[pos->variant])
        nnue_state_accumulator(ep->nnue[pos->variant], pos);
}

int eval_evaluate(const Position *pos, const EvalParams *ep, EvalPawnEntry *pawns)
{
    if (ep->nnue[pos->variant])
        return nnue_evaluate(ep->nnue[pos->variant], pos);
    EvalState es;
    memset(&es, 0, offsetof(EvalState, map));
    collect(pos, ep, &es);
    EvalPawnEntry local;
    eval_pawns(pos, ep, &es, pawns, &local);
    for (int c = 0; c < 2; c++)
        eval_mobility(pos, ep, &es, c);
    for (int c = 0; c < 2; c++) {
        eval_files(ep, &es, c);
        eval_king(pos, ep, &es, c);
    }
    int us = pos->side;
    es.mg[us] += ep->v[EP_TEMPO];
    int mg = es.mg[WHITE] - es.mg[BLACK], eg = es.eg[WHITE] - es.eg[BLACK];

    /* Endgame scaling: without pawns, a side up by less than a Rook rarely wins, unless
     * the other side has nothing but its King (then the mop-up below leads the way). */
    int strong = eg > 0 ? WHITE : BLACK;
    int strong_pawns = 0;
    for (int f = 0; f < pos->files; f++)
        strong_pawns |= es.pawns[strong][f];
    if (pos->pcount[!strong] == 1)
        eg += strong == WHITE ? mop_up(pos, WHITE) : -mop_up(pos, BLACK);
    else if (!strong_pawns && es.nonpawn[strong] - es.nonpawn[!strong] < 400)
        eg /= 4;
    else if (es.nonpawn[WHITE] == eval_piece_value(ep, BISHOP) &&
             es.nonpawn[BLACK] == eval_piece_value(ep, BISHOP) && es.bishops[WHITE] == 1 &&
             es.bishops[BLACK] == 1)
        eg /= 2; /* bishops only: often a draw, above all on opposite colours */

    int max_phase = pos->variant == VARIANT_ROYAL ? 28 : 24;
    int phase = es.phase > max_phase ? max_phase : es.phase;
    int score = (mg * phase + eg * (max_phase - phase)) / max_phase;
    return us == WHITE ? score : -score;
}
