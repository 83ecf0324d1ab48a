// A timing shim around nneonneo's 2048-ai (https://github.com/nneonneo/2048-ai, MIT licence),
// for bench/game2048_native.py's second baseline. It is built outside this repository, from
// a checkout of that program (see the bench's --nneonneo option):
//
//   ./configure && g++ -O3 -fPIC -shared -I. -Dmain=nneonneo_main \
//       /path/to/termarcade/bench/nneonneo_shim.cpp -o nneonneo_shim.so
//
// It searches each top-level move as the program's score_toplevel_move does (one
// transposition table per move, CPROB_THRESH_BASE 1e-4, CACHE_DEPTH_LIMIT 15), but at a
// depth the caller gives (the program itself picks max(3, distinct tiles - 2)) and without the
// program's printf, and returns the CPU time (CLOCK_PROCESS_CPUTIME_ID) of `reps` searches.
#include "2048.cpp"

#include <time.h>

static double cpu_now() {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

extern "C" {

// Moves' scores (up, down, left, right; 0 for an illegal move) at `depth` spawns, `reps`
// times; returns CPU seconds in all and the moves made by the last search in *moves.
double nneonneo_search(uint64_t board, int depth, int reps, float *out, unsigned long *moves) {
    static bool ready = false;
    if (!ready) {
        init_tables();
        ready = true;
    }
    double t0 = cpu_now();
    for (int r = 0; r < reps; ++r) {
        *moves = 0;
        for (int move = 0; move < 4; ++move) {
            eval_state state;
            state.depth_limit = depth;
            out[move] = _score_toplevel_move(state, board, move);
            *moves += state.moves_evaled;
        }
    }
    return cpu_now() - t0;
}
}
