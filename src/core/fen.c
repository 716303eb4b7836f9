#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "attack.h"
#include "fen.h"
#include "geometry.h"
#include "position.h"

static const char *const FIELD_NAMES[] = { "placement", "side to move", "castling",
                                           "en passant", "half-move clock",
                                           "full-move number", "recapture square" };

static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return 0;
}

static int piece_from_letter(char c, int variant)
{
    switch (toupper((unsigned char)c)) {
    case 'P': return PAWN;
    case 'N': return KNIGHT;
    case 'B': return BISHOP;
    case 'R': return ROOK;
    case 'Q': return QUEEN;
    case 'K': return KING;
    case 'G': return variant == VARIANT_ROYAL ? QGUARD : 0;
    case 'W': return variant == VARIANT_ROYAL ? KGUARD : 0;
    default: return 0;
    }
}

static const char LETTERS[] = " PNBRQKGW";

/* Reads a square name like "e3" or "j6"; returns the mailbox square or 0. */
static int parse_square(const Position *pos, const char *s)
{
    if (strlen(s) != 2 || s[0] < 'a' || s[0] >= 'a' + pos->files || s[1] < '1' ||
        s[1] >= '1' + pos->ranks)
        return 0;
    return SQ(s[0] - 'a', s[1] - '1');
}

static int parse_number(const char *s, long max, long *out)
{
    if (!*s || strlen(s) > 9)
        return 0;
    for (const char *p = s; *p; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    long v = 0;
    sscanf(s, "%ld", &v);
    if (v > max)
        return 0;
    *out = v;
    return 1;
}

static int parse_placement(Position *pos, const char *f, char *err, size_t elen)
{
    const char *name = FIELD_NAMES[0];
    int rank = pos->ranks - 1, file = 0;
    const char *p = f;
    for (;; p++) {
        char c = *p;
        if (c == '/' || c == '\0') {
            if (file != pos->files)
                return fail(err, elen, "FEN field 1 (%s): rank %d has %d squares, expected %d",
                            name, rank + 1, file, pos->files);
            if (c == '\0')
                break;
            if (--rank < 0)
                return fail(err, elen, "FEN field 1 (%s): more than %d ranks", name,
                            pos->ranks);
            file = 0;
            continue;
        }
        if (isdigit((unsigned char)c)) {
            int n = c - '0';
            if (c == '1' && p[1] == '0') {
                n = 10;
                p++;
            }
            if (n == 0)
                return fail(err, elen, "FEN field 1 (%s): '0' is not a square count", name);
            if (isdigit((unsigned char)p[1]))
                return fail(err, elen, "FEN field 1 (%s): two digits in a row in rank %d",
                            name, rank + 1);
            file += n;
            if (file > pos->files)
                return fail(err, elen, "FEN field 1 (%s): rank %d has more than %d squares",
                            name, rank + 1, pos->files);
            continue;
        }
        int t = piece_from_letter(c, pos->variant);
        if (!t)
            return fail(err, elen, "FEN field 1 (%s): unknown piece letter '%c'", name, c);
        if (file >= pos->files)
            return fail(err, elen, "FEN field 1 (%s): rank %d has more than %d squares",
                        name, rank + 1, pos->files);
        uint8_t pc = MAKE_PIECE(t, islower((unsigned char)c) ? BLACK : WHITE);
        if (p[1] == '*') {
            if (t != QGUARD && t != KGUARD)
                return fail(err, elen,
                            "FEN field 1 (%s): '*' after '%c': only a Guard can have queen "
                            "powers", name, c);
            int promo_rank = PCOLOR(pc) == WHITE ? pos->ranks - 1 : 0;
            if (rank != promo_rank)
                return fail(err, elen,
                            "FEN field 1 (%s): '%c*' on rank %d: a Guard has queen powers only "
                            "on its promotion rank", name, c, rank + 1);
            pc |= POWER_BIT;
            p++;
        }
        int sq = SQ(file, rank);
        if (pos->pcount[PCOLOR(pc)] >= 30)
            return fail(err, elen, "FEN field 1 (%s): too many pieces", name);
        pos_put(pos, sq, pc);
        file++;
    }
    if (rank != 0)
        return fail(err, elen, "FEN field 1 (%s): %d ranks, expected %d", name,
                    pos->ranks - rank, pos->ranks);
    return 1;
}

/* Checks that the pieces could stand so: one King each, no pawn on a back rank, Royal piece
 * counts within the set, the side not to move not in check. */
static int check_material(Position *pos, char *err, size_t elen)
{
    static const char *const COLOUR[2] = { "white", "black" };
    static const char *const NAME[NTYPES] = { "", "pawns", "knights", "bishops", "rooks",
                                             "queens", "kings", "Queen's Guards",
                                             "King's Guards" };
    for (int c = 0; c < 2; c++) {
        int count[NTYPES] = { 0 };
        for (int i = 0; i < pos->pcount[c]; i++) {
            int sq = pos->plist[c][i];
            int t = PTYPE(pos->board[sq]);
            count[t]++;
            if (t == PAWN && (RANK_OF(sq) == 0 || RANK_OF(sq) == pos->ranks - 1))
                return fail(err, elen, "impossible position: %s pawn on %c%d (a back rank)",
                            COLOUR[c], 'a' + FILE_OF(sq), RANK_OF(sq) + 1);
        }
        if (count[KING] != 1)
            return fail(err, elen, "impossible position: %d %s kings, expected 1", count[KING],
                        COLOUR[c]);
        int limit_pawns = pos->files;
        if (count[PAWN] > limit_pawns)
            return fail(err, elen, "impossible position: %d %s pawns, at most %d", count[PAWN],
                        COLOUR[c], limit_pawns);
        if (pos->variant == VARIANT_ROYAL)
            for (int t = KNIGHT; t < NTYPES; t++)
                if (count[t] > pos_royal_start_count[t])
                    return fail(err, elen,
                                "impossible position: %d %s %s; Royal Chess has at most %d "
                                "(promotion only brings back captured pieces)",
                                count[t], COLOUR[c], NAME[t], pos_royal_start_count[t]);
        if (pos->pcount[c] > 2 * pos->files)
            return fail(err, elen, "impossible position: %d %s pieces, at most %d",
                        pos->pcount[c], COLOUR[c], 2 * pos->files);
    }
    return 1;
}

static int parse_castling(Position *pos, const char *f, char *err, size_t elen)
{
    const char *name = FIELD_NAMES[2];
    if (!strcmp(f, "-"))
        return 1;
    int kf = pos->variant == VARIANT_ROYAL ? 5 : 4;
    for (const char *p = f; *p; p++) {
        int bit;
        switch (*p) {
        case 'K': bit = WK; break;
        case 'Q': bit = WQ; break;
        case 'k': bit = BK; break;
        case 'q': bit = BQ; break;
        default:
            return fail(err, elen, "FEN field 3 (%s): '%s' has an unknown letter '%c'", name, f,
                        *p);
        }
        if (pos->castle & bit)
            return fail(err, elen, "FEN field 3 (%s): '%s' repeats '%c'", name, f, *p);
        int c = (bit & (WK | WQ)) ? WHITE : BLACK;
        int fr = pos_first_rank(pos, c);
        int rf = (bit & (WK | BK)) ? pos->files - 1 : 0;
        if (pos->board[SQ(kf, fr)] != MAKE_PIECE(KING, c))
            return fail(err, elen, "FEN field 3 (%s): '%c' but the %s king is not on %c%d", name,
                        *p, c == WHITE ? "white" : "black", 'a' + kf, fr + 1);
        if (pos->board[SQ(rf, fr)] != MAKE_PIECE(ROOK, c))
            return fail(err, elen, "FEN field 3 (%s): '%c' but no %s rook on %c%d", name, *p,
                        c == WHITE ? "white" : "black", 'a' + rf, fr + 1);
        pos->castle |= (uint8_t)bit;
    }
    return 1;
}

static int parse_ep(Position *pos, const char *f, char *err, size_t elen)
{
    const char *name = FIELD_NAMES[3];
    if (!strcmp(f, "-"))
        return 1;
    int sq = parse_square(pos, f);
    if (!sq)
        return fail(err, elen, "FEN field 4 (%s): '%s' is not a square", name, f);
    int us = pos->side, them = !us;
    int fwd_them = them == WHITE ? MB_W : -MB_W;
    /* The square a pawn of `them` just passed over with a double step. */
    if (geo_rel_rank(sq, them, pos->ranks) != 2 || pos->board[sq] != EMPTY ||
        pos->board[sq - fwd_them] != EMPTY ||
        pos->board[sq + fwd_them] != MAKE_PIECE(PAWN, them))
        return fail(err, elen,
                    "FEN field 4 (%s): '%s' is not a square a %s pawn just passed over", name, f,
                    them == WHITE ? "white" : "black");
    pos->ep = (uint8_t)sq;
    return 1;
}

static int parse_recap(Position *pos, const char *f, char *err, size_t elen)
{
    const char *name = FIELD_NAMES[6];
    if (!strcmp(f, "-"))
        return 1;
    int sq = parse_square(pos, f);
    if (!sq)
        return fail(err, elen, "FEN field 7 (%s): '%s' is not a square", name, f);
    int us = pos->side;
    uint8_t p = pos->board[sq];
    if (p == EMPTY || PCOLOR(p) == us)
        return fail(err, elen,
                    "FEN field 7 (%s): %s holds no piece of the side that just moved", name, f);
    /* The remaining Rook of the pair must stand on the line with only empty squares and its
     * own Guards between. */
    int r = pos_rook_partner(pos, sq, us);
    if (r) {
        pos->recap = (uint8_t)sq;
        pos->recap_rook = (uint8_t)r;
        return 1;
    }
    return fail(err, elen, "FEN field 7 (%s): no %s rook could recapture on %s", name,
                us == WHITE ? "white" : "black", f);
}

int fen_parse(Position *pos, const char *fen, int variant, char *err, size_t elen)
{
    char buf[512];
    char *fields[8];
    int n = 0;
    int max_fields = variant == VARIANT_ROYAL ? 7 : 6;
    pos_init(pos, variant);
    if (strlen(fen) >= sizeof buf)
        return fail(err, elen, "FEN too long (%zu characters)", strlen(fen));
    strcpy(buf, fen);
    for (char *p = buf; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        if (n == 8)
            break;
        fields[n++] = p;
        while (*p && *p != ' ')
            p++;
        if (*p)
            *p++ = '\0';
    }
    for (const char *p = fen; *p; p++)
        if (*p != ' ' && !isgraph((unsigned char)*p))
            return fail(err, elen, "FEN contains a character that is not allowed (code %d)",
                        (unsigned char)*p);
    if (n == 0)
        return fail(err, elen, "empty FEN");
    if (n > max_fields)
        return fail(err, elen, "FEN has %d fields, at most %d for %s", n, max_fields,
                    variant == VARIANT_ROYAL ? "Royal Chess" : "chess");
    if (n < 4)
        return fail(err, elen, "FEN has %d field%s, expected at least 4 (%s missing)", n,
                    n == 1 ? "" : "s", FIELD_NAMES[n]);
    if (!parse_placement(pos, fields[0], err, elen))
        return 0;
    if (!strcmp(fields[1], "w"))
        pos->side = WHITE;
    else if (!strcmp(fields[1], "b"))
        pos->side = BLACK;
    else
        return fail(err, elen, "FEN field 2 (%s): '%s', expected 'w' or 'b'", FIELD_NAMES[1],
                    fields[1]);
    if (!check_material(pos, err, elen))
        return 0;
    if (!parse_castling(pos, fields[2], err, elen) || !parse_ep(pos, fields[3], err, elen))
        return 0;
    long v;
    if (n > 4) {
        if (!parse_number(fields[4], 100000, &v))
            return fail(err, elen, "FEN field 5 (%s): '%s' is not a number from 0", FIELD_NAMES[4],
                        fields[4]);
        pos->halfmove = (int)v;
    }
    if (n > 5) {
        if (!parse_number(fields[5], 100000, &v) || v < 1)
            return fail(err, elen, "FEN field 6 (%s): '%s' is not a number from 1",
                        FIELD_NAMES[5], fields[5]);
        pos->fullmove = (int)v;
    }
    if (n > 6 && !parse_recap(pos, fields[6], err, elen))
        return 0;
    if (att_attacked(pos, pos->king[!pos->side], pos->side, 0, 0))
        return fail(err, elen, "impossible position: the side not to move (%s) is in check",
                    pos->side == WHITE ? "black" : "white");
    pos->ply = 0;
    pos->bkey = pos_base_key(pos);
    pos->pkey = pos_pawn_key(pos);
    pos_update_key(pos);
    return 1;
}

static char *put_square(char *o, int sq)
{
    *o++ = (char)('a' + FILE_OF(sq));
    *o++ = (char)('1' + RANK_OF(sq));
    return o;
}

void fen_format(const Position *pos, char *buf, size_t len)
{
    char tmp[256];
    char *o = tmp;
    for (int r = pos->ranks - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < pos->files; f++) {
            uint8_t p = pos->board[SQ(f, r)];
            if (p == EMPTY) {
                empty++;
                continue;
            }
            if (empty)
                o += sprintf(o, "%d", empty);
            empty = 0;
            char c = LETTERS[PTYPE(p)];
            *o++ = PCOLOR(p) == BLACK ? (char)tolower((unsigned char)c) : c;
            if (p & POWER_BIT)
                *o++ = '*';
        }
        if (empty)
            o += sprintf(o, "%d", empty);
        if (r)
            *o++ = '/';
    }
    *o++ = ' ';
    *o++ = pos->side == WHITE ? 'w' : 'b';
    *o++ = ' ';
    if (!pos->castle)
        *o++ = '-';
    if (pos->castle & WK) *o++ = 'K';
    if (pos->castle & WQ) *o++ = 'Q';
    if (pos->castle & BK) *o++ = 'k';
    if (pos->castle & BQ) *o++ = 'q';
    *o++ = ' ';
    if (pos->ep)
        o = put_square(o, pos->ep);
    else
        *o++ = '-';
    o += sprintf(o, " %d %d", pos->halfmove, pos->fullmove);
    if (pos->recap) {
        *o++ = ' ';
        o = put_square(o, pos->recap);
    }
    *o = '\0';
    snprintf(buf, len, "%s", tmp);
}
