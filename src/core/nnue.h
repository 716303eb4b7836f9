/* NNUE: an efficiently updatable neural network evaluation for both games.
 *
 * Inputs: one feature per (colour relative to the perspective, kind, square), the square seen
 * from the perspective's side (ranks mirrored for Black). Kinds: P N B R Q K for chess (6);
 * for Royal Chess also the Queen's and the King's Guard, and each Guard with queen powers as a
 * kind of its own (10). So 2 x 6 x 64 = 768 inputs for chess, 2 x 10 x 80 = 1600 for Royal.
 * Two accumulators of `hidden` int16 (one per perspective) feed, side to move first, an
 * activation (clipped ReLU or squared clipped ReLU) and one int32 output scaled to
 * centipawns; a version-2 net has several output neurons ("buckets") and uses the one of the
 * position's piece count. A version-3 net also has king buckets: a map from the square of
 * the perspective's own King (seen from its side) to one of several input sets, optionally
 * reflecting the board left to right (the files mirrored) for that perspective; when a King
 * move changes its set, that perspective's accumulator is rebuilt. The file format is in
 * docs/nnue.md. */
#ifndef RC_NNUE_H
#define RC_NNUE_H

#include <stddef.h>
#include <stdint.h>

#include "types.h"

#define NNUE_MAGIC "RCNN"
#define NNUE_VERSION 3        /* the newest format read; versions 1 and 2 are read too */
#define NNUE_HEADER_BYTES 40  /* of version 1; version 2 adds the bucket count (44), version 3
                               * the king-bucket count (48) and the king-square map */
#define NNUE_MAX_HIDDEN 1024
#define NNUE_MAX_BUCKETS 16
#define NNUE_MAX_KBUCKETS 32
#define NNUE_MAX_SQUARES 80
#define NNUE_KMIRROR 0x80   /* in a king-square map entry: mirror the files */
#define NNUE_EVAL_MAX 30000 /* outputs are clamped inside the engine's non-mate scores */

enum { NNUE_CRELU = 0, NNUE_SCRELU = 1 };

typedef struct {
    int variant;
    int inputs, hidden, activation;
    int qa, qb, scale;     /* accumulator and output-weight scales, centipawns per unit */
    int16_t *ft_w;         /* [inputs][hidden] */
    int16_t *ft_b;         /* [hidden] */
    int buckets;           /* output neurons, picked by piece count (1 in version 1) */
    int max_pieces;        /* of the game's start position: the bucket scale */
    int16_t *out_w;        /* [buckets][2][hidden]: side to move, then the other side */
    int32_t *out_b;        /* [buckets] */
    int narrow;            /* qa <= 255 and qa * |out_w| fits int16: the output's fast path */
    int kbuckets;          /* input sets (1 before version 3); ft_w has kbuckets x inputs rows */
    int kdyn;              /* a King move can change a perspective's set or mirroring */
    uint8_t kmap[NNUE_MAX_SQUARES]; /* own King's relative square -> set | NNUE_KMIRROR */
} NnueNet;

/* Input count and kind count of a game. */
int nnue_inputs(int variant);
int nnue_kinds(int variant);

/* The feature of piece pc on mailbox square sq seen by perspective persp (WHITE/BLACK). */
int nnue_feature(const Position *pos, int persp, uint8_t pc, int sq);

/* The active features of one perspective; out needs room for 64. Returns their count.
 * These are the base features (without king buckets), which the trainer reads. */
int nnue_active(const Position *pos, int persp, int *out);

/* The king-bucket state (set | NNUE_KMIRROR) of perspective persp with its King on ksq. */
int nnue_king_state(const NnueNet *net, const Position *pos, int persp, int ksq);

/* CRC-32 (the zlib / PNG polynomial), continued from crc (0 to start). */
uint32_t nnue_crc32(uint32_t crc, const uint8_t *data, size_t n);

/* Parses a net file's bytes for a game. Returns NULL with a message naming the problem in
 * err (truncated, bad magic, version, game, architecture, checksum) or on no memory. */
NnueNet *nnue_load(const uint8_t *data, size_t n, int variant, char *err, size_t errlen);
void nnue_free(NnueNet *net);

/* acc: 2 x hidden int16, the White then the Black perspective, computed from scratch. */
void nnue_refresh(const NnueNet *net, const Position *pos, int16_t *acc);
/* The output bucket of a position with `pieces` pieces (both Kings included). */
int nnue_bucket(const NnueNet *net, int pieces);
/* The output in centipawns for the side to move from both accumulators, through the output
 * bucket of a position with `pieces` pieces. */
int nnue_output(const NnueNet *net, const int16_t *acc, int side, int pieces);

/* Per-search accumulators: a ring indexed by ply, each entry tagged with the ply and the
 * position's base key, brought up to date from the nearest valid ancestor with the square
 * changes make() records in the undo history (or refreshed when none is near). */
typedef struct NnueState NnueState;
NnueState *nnue_state_new(const NnueNet *net);
void nnue_state_free(NnueState *st);
const NnueNet *nnue_state_net(const NnueState *st);
/* The up-to-date accumulators (2 x hidden) of pos. */
const int16_t *nnue_state_accumulator(NnueState *st, const Position *pos);
/* The evaluation of pos in centipawns for the side to move. */
int nnue_evaluate(NnueState *st, const Position *pos);

#endif
