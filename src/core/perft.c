#include "movegen.h"
#include "perft.h"
#include "position.h"

uint64_t perft(Position *pos, int depth, int bulk)
{
    if (depth <= 0)
        return 1;
    MoveList l;
    gen_legal(pos, &l);
    if (depth == 1 && bulk)
        return (uint64_t)l.n;
    uint64_t nodes = 0;
    for (int i = 0; i < l.n; i++) {
        pos_make(pos, l.moves[i]);
        nodes += perft(pos, depth - 1, bulk);
        pos_unmake(pos);
    }
    return nodes;
}
