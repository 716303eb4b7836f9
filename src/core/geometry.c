#include "geometry.h"

const int geo_orth[4] = { DIR_N, DIR_S, DIR_E, DIR_W };
const int geo_diag[4] = { DIR_NE, DIR_NW, DIR_SE, DIR_SW };
const int geo_king[8] = { DIR_N, DIR_S, DIR_E, DIR_W, DIR_NE, DIR_NW, DIR_SE, DIR_SW };
const int geo_knight[8] = { 2 * MB_W + 1, 2 * MB_W - 1, -2 * MB_W + 1, -2 * MB_W - 1,
                            MB_W + 2, MB_W - 2, -MB_W + 2, -MB_W - 2 };
