#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue.h"

/* The hot loops below are plain C that gcc vectorises; where the compiler and the C library
 * can pick an implementation at load time, an AVX2 one is built beside the baseline. */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define NNUE_SIMD __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef NNUE_SIMD
#define NNUE_SIMD
#endif

#define RING 256            /* accumulator ring entries (a power of two > MAX_PLY) */
#define MAX_BACK 160        /* how far back an ancestor's accumulator is looked for: more
                             * than a search's depth (MAX_PLY), so the root is in reach */

int nnue_kinds(int variant) { return variant == VARIANT_ROYAL ? 10 : 6; }

int nnue_inputs(int variant)
{
    return 2 * nnue_kinds(variant) * (variant == VARIANT_ROYAL ? 80 : 64);
}

int nnue_feature(const Position *pos, int persp, uint8_t pc, int sq)
{
    int kind = PTYPE(pc) - 1;
    if ((pc & POWER_BIT) && (PTYPE(pc) == QGUARD || PTYPE(pc) == KGUARD))
        kind += 2; /* a Guard with queen powers is a kind of its own */
    int rank = RANK_OF(sq), file = FILE_OF(sq);
    if (persp == BLACK)
        rank = pos->ranks - 1 - rank;
    int rel = PCOLOR(pc) != persp;
    return (rel * nnue_kinds(pos->variant) + kind) * (pos->files * pos->ranks) +
           rank * pos->files + file;
}

int nnue_active(const Position *pos, int persp, int *out)
{
    int n = 0;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < pos->pcount[c]; i++) {
            int sq = pos->plist[c][i];
            out[n++] = nnue_feature(pos, persp, pos->board[sq], sq);
        }
    return n;
}

int nnue_king_state(const NnueNet *net, const Position *pos, int persp, int ksq)
{
    int rank = RANK_OF(ksq);
    if (persp == BLACK)
        rank = pos->ranks - 1 - rank;
    return net->kmap[rank * pos->files + FILE_OF(ksq)];
}

/* The net's row of piece pc on sq for perspective persp in king state ks: the base feature,
 * its file mirrored when ks says so, in the input set of ks. */
static inline int net_feature(const NnueNet *net, const Position *pos, int persp, uint8_t pc,
                              int sq, int ks)
{
    int f = nnue_feature(pos, persp, pc, sq);
    if (ks & NNUE_KMIRROR)
        f += pos->files - 1 - 2 * FILE_OF(sq);
    return f + (ks & ~NNUE_KMIRROR) * net->inputs;
}

uint32_t nnue_crc32(uint32_t crc, const uint8_t *data, size_t n)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= data[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static uint32_t read_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int16_t read_i16(const uint8_t *p)
{
    return (int16_t)(uint16_t)((unsigned)p[0] | (unsigned)p[1] << 8);
}

static const char *game_name(long v)
{
    return v == VARIANT_ROYAL ? "Royal Chess" : v == VARIANT_CHESS ? "chess" : "an unknown game";
}

/* Header (little-endian u32 after the magic): version, game, inputs, hidden, activation, qa,
 * qb, scale, [buckets: version 2 on,] [king buckets: version 3,] payload bytes; [version 3:
 * the king-square map, a byte per square;] then the payload; then the CRC-32 of all that
 * precedes it. */
NnueNet *nnue_load(const uint8_t *data, size_t n, int variant, char *err, size_t errlen)
{
    if (n < NNUE_HEADER_BYTES) {
        snprintf(err, errlen, "net file is truncated: %zu bytes, shorter than its %d-byte header",
                 n, NNUE_HEADER_BYTES);
        return NULL;
    }
    if (memcmp(data, NNUE_MAGIC, 4) != 0) {
        snprintf(err, errlen, "not a royalchess net file: bad magic (expected \"%s\")",
                 NNUE_MAGIC);
        return NULL;
    }
    uint32_t version = read_u32(data + 4);
    if (version < 1 || version > NNUE_VERSION) {
        snprintf(err, errlen, "net file format version %lu is not supported (this engine reads "
                 "versions 1 to %d)", (unsigned long)version, NNUE_VERSION);
        return NULL;
    }
    size_t squares = variant == VARIANT_ROYAL ? 80 : 64;
    size_t fields = 8 + (version >= 2) + (version >= 3) + 1;
    size_t header = 4 + 4 * fields + (version >= 3 ? squares : 0);
    if (n < header) {
        snprintf(err, errlen, "net file is truncated: %zu bytes, shorter than its %zu-byte header",
                 n, header);
        return NULL;
    }
    uint32_t h[11];
    for (size_t i = 0; i < fields; i++)
        h[i] = read_u32(data + 4 + 4 * i);
    uint32_t buckets = version >= 2 ? h[8] : 1, kbuckets = version >= 3 ? h[9] : 1;
    uint32_t declared = h[fields - 1];
    if (h[1] != (uint32_t)variant) {
        snprintf(err, errlen, "net file is for %s, not for %s", game_name((long)h[1]),
                 game_name(variant));
        return NULL;
    }
    uint32_t inputs = h[2], hidden = h[3], act = h[4], qa = h[5], qb = h[6], scale = h[7];
    if (inputs != (uint32_t)nnue_inputs(variant)) {
        snprintf(err, errlen, "net file has %lu inputs; %s has %d features",
                 (unsigned long)inputs, game_name(variant), nnue_inputs(variant));
        return NULL;
    }
    if (hidden < 16 || hidden > NNUE_MAX_HIDDEN || hidden % 16) {
        snprintf(err, errlen, "net file has a hidden layer of %lu; it must be a multiple of 16 "
                 "from 16 to %d", (unsigned long)hidden, NNUE_MAX_HIDDEN);
        return NULL;
    }
    if (act != NNUE_CRELU && act != NNUE_SCRELU) {
        snprintf(err, errlen, "net file has an unknown activation %lu", (unsigned long)act);
        return NULL;
    }
    if (qa < 1 || qa > 4096 || qb < 1 || qb > 4096 || scale < 1 || scale > 4096) {
        snprintf(err, errlen, "net file has bad quantisation scales (qa %lu, qb %lu, scale %lu)",
                 (unsigned long)qa, (unsigned long)qb, (unsigned long)scale);
        return NULL;
    }
    if (buckets < 1 || buckets > NNUE_MAX_BUCKETS) {
        snprintf(err, errlen, "net file has %lu output buckets; it must have 1 to %d",
                 (unsigned long)buckets, NNUE_MAX_BUCKETS);
        return NULL;
    }
    if (kbuckets < 1 || kbuckets > NNUE_MAX_KBUCKETS) {
        snprintf(err, errlen, "net file has %lu king buckets; it must have 1 to %d",
                 (unsigned long)kbuckets, NNUE_MAX_KBUCKETS);
        return NULL;
    }
    const uint8_t *kmap = version >= 3 ? data + 4 + 4 * fields : NULL;
    for (size_t i = 0; kmap && i < squares; i++)
        if ((uint32_t)(kmap[i] & ~NNUE_KMIRROR) >= kbuckets) {
            snprintf(err, errlen, "net file's king-square map sends square %zu to king bucket "
                     "%d; it has %lu", i, kmap[i] & ~NNUE_KMIRROR, (unsigned long)kbuckets);
            return NULL;
        }
    size_t rows = (size_t)inputs * kbuckets;
    size_t weights = rows * hidden + hidden + 2 * (size_t)hidden * buckets;
    size_t payload = 2 * weights + 4 * (size_t)buckets;
    if (declared != payload) {
        snprintf(err, errlen, "net file declares a payload of %lu bytes; this architecture has "
                 "%zu", (unsigned long)declared, payload);
        return NULL;
    }
    size_t total = header + payload + 4;
    if (n < total) {
        snprintf(err, errlen, "net file is truncated: %zu bytes of %zu", n, total);
        return NULL;
    }
    if (n > total) {
        snprintf(err, errlen, "net file has %zu bytes after its end", n - total);
        return NULL;
    }
    uint32_t crc = nnue_crc32(0, data, total - 4);
    if (crc != read_u32(data + total - 4)) {
        snprintf(err, errlen, "net file is corrupted: checksum %08lx, the file says %08lx",
                 (unsigned long)crc, (unsigned long)read_u32(data + total - 4));
        return NULL;
    }
    NnueNet *net = calloc(1, sizeof *net);
    int16_t *w = net ? malloc(weights * sizeof *w) : NULL;
    int32_t *ob = w ? malloc(buckets * sizeof *ob) : NULL;
    if (!ob) {
        free(w);
        free(net);
        snprintf(err, errlen, "out of memory loading the net");
        return NULL;
    }
    const uint8_t *p = data + header;
    for (size_t i = 0; i < weights; i++)
        w[i] = read_i16(p + 2 * i);
    for (uint32_t b = 0; b < buckets; b++)
        ob[b] = (int32_t)read_u32(p + 2 * weights + 4 * b);
    net->variant = variant;
    net->inputs = (int)inputs;
    net->hidden = (int)hidden;
    net->activation = (int)act;
    net->qa = (int)qa;
    net->qb = (int)qb;
    net->scale = (int)scale;
    net->buckets = (int)buckets;
    net->max_pieces = variant == VARIANT_ROYAL ? 40 : 32;
    net->kbuckets = (int)kbuckets;
    net->kdyn = 0;
    for (size_t i = 0; i < squares; i++) {
        net->kmap[i] = kmap ? kmap[i] : 0;
        net->kdyn |= net->kmap[i] != net->kmap[0];
    }
    net->ft_w = w;
    net->ft_b = w + rows * hidden;
    net->out_w = net->ft_b + hidden;
    net->out_b = ob;
    int maxw = 0;
    for (int i = 0; i < 2 * net->hidden * net->buckets; i++)
        maxw = abs(net->out_w[i]) > maxw ? abs(net->out_w[i]) : maxw;
    net->narrow = net->qa <= 255 && net->qa * maxw <= INT16_MAX;
    return net;
}

void nnue_free(NnueNet *net)
{
    if (!net)
        return;
    free(net->ft_w);
    free(net->out_b);
    free(net);
}

static void add_row(int16_t *restrict acc, const int16_t *restrict row, int h)
{
    for (int i = 0; i < h; i++)
        acc[i] = (int16_t)(acc[i] + row[i]);
}

static void sub_row(int16_t *restrict acc, const int16_t *restrict row, int h)
{
    for (int i = 0; i < h; i++)
        acc[i] = (int16_t)(acc[i] - row[i]);
}

static void refresh_side(const NnueNet *net, const Position *pos, int p, int16_t *a)
{
    int h = net->hidden, ks = nnue_king_state(net, pos, p, pos->king[p]);
    memcpy(a, net->ft_b, (size_t)h * sizeof *a);
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < pos->pcount[c]; i++) {
            int sq = pos->plist[c][i];
            add_row(a, net->ft_w + (size_t)net_feature(net, pos, p, pos->board[sq], sq, ks) * h,
                    h);
        }
}

void nnue_refresh(const NnueNet *net, const Position *pos, int16_t *acc)
{
    for (int p = 0; p < 2; p++)
        refresh_side(net, pos, p, acc + p * net->hidden);
}

/* One perspective's share of the output, in units of qa * qb (qa^2 * qb for SCReLU). */
NNUE_SIMD
static int64_t dot(const NnueNet *net, const int16_t *restrict a, const int16_t *restrict w)
{
    int h = net->hidden, qa = net->qa;
    int64_t sum = 0;
    if (net->activation == NNUE_SCRELU && net->narrow) {
        /* v * w fits int16, so (v * w) * v is one multiply-add of int16 pairs into int32
         * lanes; blocks of 128 keep those sums below 2^31 (128 * 255 * 32767). */
        for (int b = 0; b < h; b += 128) {
            int32_t s = 0;
            int end = b + 128 < h ? b + 128 : h;
            for (int i = b; i < end; i++) {
                int16_t v = a[i] < 0 ? 0 : a[i] > qa ? (int16_t)qa : a[i];
                int16_t vw = (int16_t)(v * w[i]);
                s += (int32_t)vw * v;
            }
            sum += s;
        }
    } else if (net->activation == NNUE_SCRELU) {
        for (int i = 0; i < h; i++) {
            int32_t v = a[i] < 0 ? 0 : a[i] > qa ? qa : a[i];
            sum += (int64_t)(v * w[i]) * v;
        }
    } else {
        int32_t s = 0; /* qa * |w| * hidden stays far below 2^31 */
        for (int i = 0; i < h; i++) {
            int32_t v = a[i] < 0 ? 0 : a[i] > qa ? qa : a[i];
            s += v * w[i];
        }
        sum = s;
    }
    return sum;
}

/* Buckets split the piece counts 2 .. the start position's evenly (the fewest pieces in
 * bucket 0); more pieces than that (never in play) take the last. */
int nnue_bucket(const NnueNet *net, int pieces)
{
    int b = (pieces - 2) * net->buckets / (net->max_pieces - 1);
    return b < 0 ? 0 : b >= net->buckets ? net->buckets - 1 : b;
}

int nnue_output(const NnueNet *net, const int16_t *acc, int side, int pieces)
{
    int h = net->hidden, b = nnue_bucket(net, pieces);
    const int16_t *w = net->out_w + (size_t)b * 2 * h;
    int64_t sum = dot(net, acc + side * h, w) + dot(net, acc + (!side) * h, w + h);
    if (net->activation == NNUE_SCRELU)
        sum /= net->qa;
    sum += net->out_b[b];
    int64_t cp = sum * net->scale / ((int64_t)net->qa * net->qb);
    return cp > NNUE_EVAL_MAX ? NNUE_EVAL_MAX : cp < -NNUE_EVAL_MAX ? -NNUE_EVAL_MAX : (int)cp;
}

/* ---- per-search accumulators ---------------------------------------------------------- */

typedef struct {
    uint64_t key;
    int ply;               /* -1: empty */
    uint8_t ks[2];         /* each perspective's king state (nnue_king_state) */
} Tag;

/* With king buckets, a King's move to another input set rebuilds its perspective. Rather
 * than from every piece, it starts from the last accumulator built in that set (a "Finny
 * table", as Stockfish calls it) and applies the squares that changed since. */
typedef struct {
    uint8_t board[NNUE_MAX_SQUARES]; /* the pieces it was built for, by rank * files + file */
    int16_t *acc;                    /* hidden; an empty board's (the biases) to start */
} Finny;

struct NnueState {
    const NnueNet *net;
    Tag tag[RING];
    int16_t *acc;          /* RING x 2 x hidden */
    Finny *finny;          /* [2][2 * kbuckets] (perspective, set, mirrored), or NULL */
    int16_t *finny_acc;
};

NnueState *nnue_state_new(const NnueNet *net)
{
    NnueState *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->net = net;
    st->acc = malloc((size_t)RING * 2 * net->hidden * sizeof *st->acc);
    size_t entries = net->kdyn ? 2 * 2 * (size_t)net->kbuckets : 0;
    if (entries) {
        st->finny = calloc(entries, sizeof *st->finny);
        st->finny_acc = malloc(entries * net->hidden * sizeof *st->finny_acc);
    }
    if (!st->acc || (entries && (!st->finny || !st->finny_acc))) {
        nnue_state_free(st);
        return NULL;
    }
    for (size_t i = 0; i < entries; i++) {
        st->finny[i].acc = st->finny_acc + i * net->hidden;
        memcpy(st->finny[i].acc, net->ft_b, (size_t)net->hidden * sizeof *net->ft_b);
    }
    for (int i = 0; i < RING; i++)
        st->tag[i].ply = -1;
    return st;
}

void nnue_state_free(NnueState *st)
{
    if (!st)
        return;
    free(st->acc);
    free(st->finny);
    free(st->finny_acc);
    free(st);
}

const NnueNet *nnue_state_net(const NnueState *st) { return st->net; }

static uint64_t key_at(const Position *pos, int ply)
{
    return ply == pos->ply ? pos->bkey : pos->hist[ply].bkey;
}

/* next = prev + the rows in add - the rows in sub, in one pass over the accumulator for
 * the usual shapes (a move: one of each; a capture: one add, two subs). */
NNUE_SIMD
static void update_rows(int16_t *restrict next, const int16_t *restrict prev,
                        const int16_t *add[], int nadd, const int16_t *sub[], int nsub, int h)
{
    if (nadd == 1 && nsub == 1) {
        const int16_t *restrict a0 = add[0], *restrict s0 = sub[0];
        for (int i = 0; i < h; i++)
            next[i] = (int16_t)(prev[i] + a0[i] - s0[i]);
    } else if (nadd == 1 && nsub == 2) {
        const int16_t *restrict a0 = add[0], *restrict s0 = sub[0], *restrict s1 = sub[1];
        for (int i = 0; i < h; i++)
            next[i] = (int16_t)(prev[i] + a0[i] - s0[i] - s1[i]);
    } else {
        memcpy(next, prev, (size_t)h * sizeof *next);
        for (int k = 0; k < nadd; k++)
            add_row(next, add[k], h);
        for (int k = 0; k < nsub; k++)
            sub_row(next, sub[k], h);
    }
}

/* Brings next from prev by the square changes one move made (recorded by pos_make), for the
 * perspectives in live, each in its king state ks (the same before and after the move). */
static void apply_changes(const NnueNet *net, const Position *pos, const Undo *u,
                          const int16_t *prev, int16_t *next, const uint8_t ks[2],
                          const int live[2])
{
    int h = net->hidden;
    for (int p = 0; p < 2; p++) {
        if (!live[p])
            continue;
        const int16_t *add[UNDO_MAX_CHANGES], *sub[UNDO_MAX_CHANGES];
        int nadd = 0, nsub = 0;
        for (int i = 0; i < u->nchg; i++) {
            uint8_t old = u->chg_old[i], now = u->chg_new[i];
            if (old == now)
                continue;
            int sq = u->chg_sq[i];
            if (old)
                sub[nsub++] = net->ft_w + (size_t)net_feature(net, pos, p, old, sq, ks[p]) * h;
            if (now)
                add[nadd++] = net->ft_w + (size_t)net_feature(net, pos, p, now, sq, ks[p]) * h;
        }
        update_rows(next + p * h, prev + p * h, add, nadd, sub, nsub, h);
    }
}

/* The king state of perspective p after move u, from ks before it. */
static int king_state_after(const NnueNet *net, const Position *pos, const Undo *u, int p,
                            int ks)
{
    for (int i = 0; i < u->nchg; i++) {
        uint8_t now = u->chg_new[i];
        if (now && PTYPE(now) == KING && PCOLOR(now) == p)
            return nnue_king_state(net, pos, p, u->chg_sq[i]);
    }
    return ks;
}

/* Perspective p's accumulator of pos into out, through its set's Finny entry. */
static void refresh_side_cached(NnueState *st, const Position *pos, int p, int16_t *out)
{
    const NnueNet *net = st->net;
    int h = net->hidden, ks = nnue_king_state(net, pos, p, pos->king[p]);
    Finny *f = &st->finny[(p * net->kbuckets + (ks & ~NNUE_KMIRROR)) * 2 + !!(ks & NNUE_KMIRROR)];
    for (int r = 0; r < pos->ranks; r++) {
        int i = r * pos->files;
        /* a rank of the mailbox is a run of bytes: most ranks did not change */
        if (memcmp(f->board + i, pos->board + SQ(0, r), (size_t)pos->files) == 0)
            continue;
        for (int c = 0; c < pos->files; c++, i++) {
            int sq = SQ(c, r);
            uint8_t old = f->board[i], now = pos->board[sq];
            if (old == now)
                continue;
            if (old)
                sub_row(f->acc, net->ft_w + (size_t)net_feature(net, pos, p, old, sq, ks) * h, h);
            if (now)
                add_row(f->acc, net->ft_w + (size_t)net_feature(net, pos, p, now, sq, ks) * h, h);
            f->board[i] = now;
        }
    }
    memcpy(out, f->acc, (size_t)h * sizeof *out);
}

const int16_t *nnue_state_accumulator(NnueState *st, const Position *pos)
{
    const NnueNet *net = st->net;
    int h = net->hidden;
    size_t size = 2 * (size_t)h;
    int ply = pos->ply, from = -1;
    int stop = ply - MAX_BACK < 0 ? 0 : ply - MAX_BACK;
    for (int j = ply; j >= stop; j--) {
        const Tag *t = &st->tag[j & (RING - 1)];
        if (t->ply == j && t->key == key_at(pos, j)) {
            from = j;
            break;
        }
    }
    int16_t *cur = st->acc + (size_t)(ply & (RING - 1)) * size;
    if (from < 0 && st->finny) {
        refresh_side_cached(st, pos, WHITE, cur);
        refresh_side_cached(st, pos, BLACK, cur + h);
    } else if (from < 0) {
        nnue_refresh(net, pos, cur);
    } else {
        /* A perspective whose King changes its input set on the way cannot be updated: it
         * drops out (plies after that are left untagged) and is rebuilt at the end. */
        uint8_t ks[2] = { st->tag[from & (RING - 1)].ks[0], st->tag[from & (RING - 1)].ks[1] };
        int live[2] = { 1, 1 };
        for (int j = from + 1; j <= ply; j++) {
            const Undo *u = &pos->hist[j - 1];
            for (int p = 0; net->kdyn && p < 2; p++)
                if (live[p] && king_state_after(net, pos, u, p, ks[p]) != ks[p])
                    live[p] = 0;
            int16_t *prev = st->acc + (size_t)((j - 1) & (RING - 1)) * size;
            int16_t *next = st->acc + (size_t)(j & (RING - 1)) * size;
            apply_changes(net, pos, u, prev, next, ks, live);
            Tag *t = &st->tag[j & (RING - 1)];
            *t = (Tag){ key_at(pos, j), live[0] && live[1] ? j : -1, { ks[0], ks[1] } };
        }
        for (int p = 0; p < 2; p++)
            if (!live[p])
                refresh_side_cached(st, pos, p, cur + p * h);
    }
    st->tag[ply & (RING - 1)] = (Tag){
        pos->bkey, ply,
        { (uint8_t)nnue_king_state(net, pos, WHITE, pos->king[WHITE]),
          (uint8_t)nnue_king_state(net, pos, BLACK, pos->king[BLACK]) }
    };
    return cur;
}

int nnue_evaluate(NnueState *st, const Position *pos)
{
    return nnue_output(st->net, nnue_state_accumulator(st, pos), pos->side,
                       pos->pcount[WHITE] + pos->pcount[BLACK]);
}
