#if defined(_WIN32)
#include <windows.h>
#else
#define _POSIX_C_SOURCE 199309L
#include <time.h>
#endif

#include "timeman.h"

int64_t tm_now_ms(void)
{
#if defined(_WIN32)
    return (int64_t)GetTickCount64();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
#endif
}

void tm_budget(int64_t time_left, int64_t inc, int movestogo, int64_t movetime,
               int64_t overhead, int64_t *soft, int64_t *hard)
{
    if (movetime > 0) {
        /* A fixed time: use it all, less a small margin to answer in time. */
        int64_t margin = overhead < movetime / 10 ? overhead : movetime / 10;
        *soft = *hard = movetime - margin > 1 ? movetime - margin : 1;
        return;
    }
    int64_t avail = time_left - overhead;
    if (avail < 1)
        avail = 1;
    int mtg = movestogo > 0 ? (movestogo < 40 ? movestogo : 40) : 30;
    int64_t target = avail / mtg + (inc > 0 ? inc * 3 / 4 : 0);
    if (target > avail * 7 / 10)
        target = avail * 7 / 10;
    /* An iteration costs about as much as all before it, so stop starting new ones early;
     * let a running one go on up to a few targets, never past most of the clock. */
    *soft = target * 6 / 10 > 1 ? target * 6 / 10 : 1;
    *hard = target * 3 < avail * 8 / 10 ? target * 3 : avail * 8 / 10;
    if (*hard < *soft)
        *hard = *soft;
}
