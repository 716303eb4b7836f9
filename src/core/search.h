/* The search: iterative deepening, principal-variation alpha-beta with a transposition table,
 * quiescence, null move, late-move reductions. All its state lives in one Search object, so
 * several searches may run at once on different threads; one Search runs one search at a
 * time, on one thread or on several (search_set_threads). search_go() works on a private
 * copy of the position and may be stopped from another thread with search_stop(). */
#ifndef RC_SEARCH_H
#define RC_SEARCH_H

#include "eval.h"
#include "tt.h"
#include "types.h"

#define MAX_PLY 128
#define SCORE_INF 32001
#define SCORE_MATE 32000
/* Scores beyond this are mates: SCORE_MATE - n is mate in n plies. */
#define SCORE_MATE_BOUND (SCORE_MATE - 2 * MAX_PLY)

typedef struct {
    int depth;             /* deepest iteration, 0 = no limit */
    uint64_t nodes;        /* node budget, 0 = none */
    int64_t movetime;      /* ms per move, 0 = none */
    int64_t time[2];       /* clock of White / Black in ms, negative = not given */
    int64_t inc[2];        /* increments in ms */
    int movestogo;         /* 0 = the rest of the game */
    int infinite;          /* search until stopped (or MAX_PLY) */
    int ponder;            /* pondering: ignore the clock until search_ponderhit() */
    int multipv;           /* number of best lines, >= 1 */
    int64_t overhead;      /* ms kept in hand for the transport */
    const Move *only;      /* restrict the root to these moves (UCI searchmoves), or NULL */
    int nonly;
} SearchLimits;

void search_default_limits(SearchLimits *lim);

/* One line of progress: a finished iteration (or a fail high/low) of one principal line. */
typedef struct {
    int depth, seldepth;
    int multipv;           /* 1 for the best line */
    int score;             /* centipawns, or +-(SCORE_MATE - plies) for a mate */
    int bound;             /* BOUND_EXACT, or BOUND_LOWER / BOUND_UPPER while re-searching */
    uint64_t nodes;
    int64_t time_ms;
    int hashfull;
    int pv_len;
    Move pv[MAX_PLY];
} SearchInfo;

typedef void (*SearchReport)(void *ctx, const SearchInfo *info);

typedef struct {
    Move best;             /* 0 only when the side to move has no legal move */
    Move ponder;           /* the expected reply, or 0 */
    int score;
    int depth;             /* deepest finished iteration */
    uint64_t nodes;
    int64_t time_ms;
} SearchResult;

typedef struct Search Search;

/* A new search object with a hash table of about hash_mb megabytes; NULL if out of memory. */
Search *search_new(size_t hash_mb);
void search_free(Search *s);
/* Changes the hash size (the table is emptied). Returns 0 if out of memory. */
int search_resize(Search *s, size_t hash_mb);
/* Searches on `threads` threads from now on (Lazy SMP: helper searches share the hash
 * table), 1 .. SEARCH_MAX_THREADS; a search with a node budget still runs on one, so that it
 * gives the same answer every time. Builds without POSIX threads stay at one. Returns 0 for
 * a count out of range or when out of memory. */
#define SEARCH_MAX_THREADS 64
int search_set_threads(Search *s, int threads);
int search_threads(const Search *s);
/* Forgets everything learnt (hash table, history): for a new game and for bench. */
void search_clear(Search *s);
EvalParams *search_params(Search *s);
/* Search tunables by name (for self-play tests of changes): count, name, value, set. */
int search_tunable_count(void);
const char *search_tunable_name(int i);
int search_get_tunable(const Search *s, int i);
/* Returns 0 for an unknown name or a bad value. */
int search_set_tunable(Search *s, const char *name, int value);

/* Searches pos (left untouched) within the limits; report, when not NULL, is called with
 * progress from the searching thread. `ticket` names this search for search_stop(). */
void search_go(Search *s, const Position *pos, const SearchLimits *lim, SearchReport report,
               void *ctx, uint64_t ticket, SearchResult *out);
/* Asks the search named by ticket to stop as soon as possible (safe from any thread, also
 * before that search has begun; a ticket of a finished search is ignored). */
void search_stop(Search *s, uint64_t ticket);
/* The opponent played the pondered move: from now on the clock counts. */
void search_ponderhit(Search *s);

#endif
