#include "codec.h"
#include "geometry.h"
#include "movegen.h"

uint64_t codec_export(const Position *pos, Move m)
{
    int files = pos->files;
    uint64_t c = (uint64_t)geo_to_public(MV_FROM(m), files) |
                 (uint64_t)geo_to_public(MV_TO(m), files) << 7;
    int flag = MV_FLAG(m);
    if (flag == MF_PROMO || flag == MF_PROMO_WAIVED) {
        c |= (uint64_t)MV_PROMO(m) << 14;
        if (flag == MF_PROMO_WAIVED)
            c |= 1ULL << 18;
    }
    if (flag == MF_CASTLE && pos->variant == VARIANT_ROYAL) {
        c |= 1ULL << 19;
        c |= (uint64_t)geo_to_public(MV_RFROM(m), files) << 20;
        c |= (uint64_t)geo_to_public(MV_RTO(m), files) << 27;
        if (MV_GFROM(m)) {
            c |= 1ULL << 34;
            c |= (uint64_t)geo_to_public(MV_GFROM(m), files) << 35;
            c |= (uint64_t)geo_to_public(MV_GTO(m), files) << 42;
        }
    }
    return c;
}

Move codec_find_legal(Position *pos, uint64_t code)
{
    MoveList l;
    gen_legal(pos, &l);
    for (int i = 0; i < l.n; i++)
        if (codec_export(pos, l.moves[i]) == code)
            return l.moves[i];
    return 0;
}
