/* FEN in and out for both games (Royal Chess: 7 fields, Guards G/W, `*` for queen powers). */
#ifndef RC_FEN_H
#define RC_FEN_H

#include "types.h"

/* Fills pos from fen. Returns 1 on success; on failure 0 with a message naming the bad part
 * in err. pos must have been initialised with pos_init (its history is reset). */
int fen_parse(Position *pos, const char *fen, int variant, char *err, size_t errlen);
void fen_format(const Position *pos, char *buf, size_t len);

#endif
