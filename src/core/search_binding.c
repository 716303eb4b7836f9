/* The CPython binding of the search: the type _core.Search. It converts and delegates; the
 * search runs with the GIL released, on a position built from a FEN and the moves played
 * since (so repetitions with the game's earlier positions are seen). Progress reaches
 * Python through a callback, called from the searching thread with the GIL held again. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "codec.h"
#include "fen.h"
#include "nnue_binding.h"
#include "position.h"
#include "search.h"
#include "search_binding.h"
#include "see.h"

typedef struct {
    PyObject_HEAD
    Search *search;
    int busy;                       /* a call is using it (see claim); only with the GIL */
    uint64_t last_ticket;           /* tickets handed out so far */
    uint64_t running;               /* ticket of the running search, 0 when idle */
    PyObject *nets[2];              /* the _core.Net evaluating each game, or NULL */
    NnueState *nnue[2];             /* their accumulators, owned here */
} PySearch;

/* ---- positions ---------------------------------------------------------------------------- */

int build_position(Position *pos, const char *fen, int variant, PyObject *moves)
{
    char err[256];
    if (variant != VARIANT_CHESS && variant != VARIANT_ROYAL) {
        PyErr_Format(PyExc_ValueError, "unknown variant %d", variant);
        return 0;
    }
    if (!fen_parse(pos, fen, variant, err, sizeof err)) {
        pos_free(pos);
        PyErr_SetString(PyExc_ValueError, err);
        return 0;
    }
    if (!moves || moves == Py_None)
        return 1;
    PyObject *seq = PySequence_Fast(moves, "moves must be a sequence of move codes");
    if (!seq) {
        pos_free(pos);
        return 0;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (!pos_reserve(pos, (int)n + 8)) {
        Py_DECREF(seq);
        pos_free(pos);
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long code = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        Move m = 0;
        if (!(code == (unsigned long long)-1 && PyErr_Occurred()))
            m = codec_find_legal(pos, code);
        if (!m) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "move %zd (code %llu) is not legal there", i,
                             code);
            Py_DECREF(seq);
            pos_free(pos);
            return 0;
        }
        pos_make(pos, m);
    }
    Py_DECREF(seq);
    return 1;
}

/* ---- progress ----------------------------------------------------------------------------- */

typedef struct {
    PyThreadState *tstate;          /* the searching thread's state while the GIL is free */
    PyObject *callback;
    const Position *pos;
    Search *search;
    uint64_t ticket;
    int failed;                     /* the callback raised: its exception is pending */
    PyObject *etype, *evalue, *etb;
} ReportCtx;

static PyObject *pv_list(const Position *pos, const Move *pv, int n)
{
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int i = 0; i < n; i++)
        PyList_SET_ITEM(list, i, PyLong_FromUnsignedLongLong(codec_export(pos, pv[i])));
    return list;
}

/* Adds "score" (centipawns) or "mate" (moves, negative when being mated) to d. */
static int put_score(PyObject *d, int score)
{
    PyObject *v;
    const char *key;
    if (score >= SCORE_MATE_BOUND) {
        key = "mate";
        v = PyLong_FromLong((SCORE_MATE - score + 1) / 2);
    } else if (score <= -SCORE_MATE_BOUND) {
        key = "mate";
        v = PyLong_FromLong(-((SCORE_MATE + score) / 2));
    } else {
        key = "score";
        v = PyLong_FromLong(score);
    }
    if (!v)
        return -1;
    int rc = PyDict_SetItemString(d, key, v);
    Py_DECREF(v);
    return rc;
}

static int put_long(PyObject *d, const char *key, long long value)
{
    PyObject *v = PyLong_FromLongLong(value);
    if (!v)
        return -1;
    int rc = PyDict_SetItemString(d, key, v);
    Py_DECREF(v);
    return rc;
}

static PyObject *info_dict(const Position *pos, const SearchInfo *info)
{
    static const char *const bounds[4] = { "exact", "upper", "lower", "exact" };
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    long long ms = info->time_ms, nps = ms > 0 ? (long long)(info->nodes * 1000 / ms) : 0;
    PyObject *pv = pv_list(pos, info->pv, info->pv_len);
    PyObject *bound = PyUnicode_FromString(bounds[info->bound & 3]);
    if (!pv || !bound || put_long(d, "depth", info->depth) < 0 ||
        put_long(d, "seldepth", info->seldepth) < 0 ||
        put_long(d, "multipv", info->multipv) < 0 || put_score(d, info->score) < 0 ||
        put_long(d, "nodes", (long long)info->nodes) < 0 || put_long(d, "time", ms) < 0 ||
        put_long(d, "nps", nps) < 0 || put_long(d, "hashfull", info->hashfull) < 0 ||
        PyDict_SetItemString(d, "pv", pv) < 0 || PyDict_SetItemString(d, "bound", bound) < 0) {
        Py_XDECREF(pv);
        Py_XDECREF(bound);
        Py_DECREF(d);
        return NULL;
    }
    Py_DECREF(pv);
    Py_DECREF(bound);
    return d;
}

static void report(void *arg, const SearchInfo *info)
{
    ReportCtx *c = arg;
    if (!c->callback || c->failed)
        return;
    PyEval_RestoreThread(c->tstate);
    PyObject *d = info_dict(c->pos, info);
    PyObject *r = d ? PyObject_CallFunctionObjArgs(c->callback, d, NULL) : NULL;
    Py_XDECREF(d);
    if (!r) {
        /* Keep the exception for the caller of go() and end the search. */
        c->failed = 1;
        PyErr_Fetch(&c->etype, &c->evalue, &c->etb);
        search_stop(c->search, c->ticket);
    }
    Py_XDECREF(r);
    c->tstate = PyEval_SaveThread();
}

/* ---- the type ----------------------------------------------------------------------------- */

static int Search_init(PySearch *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "hash_mb", NULL };
    Py_ssize_t mb = 16;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|n", kwlist, &mb))
        return -1;
    if (mb < 1 || mb > 65536) {
        PyErr_Format(PyExc_ValueError, "hash size %zd MB is out of range 1..65536", mb);
        return -1;
    }
    if (self->search) {
        PyErr_SetString(PyExc_RuntimeError, "Search is already initialised");
        return -1;
    }
    self->search = search_new((size_t)mb);
    if (!self->search) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Search_dealloc(PySearch *self)
{
    for (int v = 0; v < 2; v++) {
        nnue_state_free(self->nnue[v]);
        Py_XDECREF(self->nets[v]);
    }
    search_free(self->search);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Claims the Search for one call, or fails if it was not initialised or is in use. A call
 * claims it before converting any argument: converting can run Python code (an argument's
 * __index__, a sequence's items) that could otherwise start a go() or a resize() on this same
 * Search, or let another thread do so, and two calls would then share (and free) one
 * position and table. Every claim is released by the GUARDED wrapper that made it. */
static int claim(PySearch *self)
{
    if (!self->search) {
        PyErr_SetString(PyExc_RuntimeError, "Search was not initialised");
        return 0;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Search is busy with another search");
        return 0;
    }
    self->busy = 1;
    return 1;
}

/* Defines Search_NAME(self, ARGS) as NAME_unguarded(self, ARGS) run under a claim, released
 * on every path; the object is kept alive for the call. */
#define GUARDED(name, params, args)                                                        \
    static PyObject *Search_##name params                                                  \
    {                                                                                      \
        if (!claim(self))                                                                  \
            return NULL;                                                                   \
        Py_INCREF(self);                                                                   \
        PyObject *result = name##_unguarded args;                                          \
        self->busy = 0;                                                                    \
        Py_DECREF(self);                                                                   \
        return result;                                                                     \
    }

static PyObject *Search_new_ticket(PySearch *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLongLong(++self->last_ticket);
}

static int get_moves(Position *pos, PyObject *codes, Move **out, int *n)
{
    *out = NULL;
    *n = 0;
    if (!codes || codes == Py_None)
        return 1;
    PyObject *seq = PySequence_Fast(codes, "searchmoves must be a sequence of move codes");
    if (!seq)
        return 0;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    *out = PyMem_Malloc(((size_t)len + 1) * sizeof(Move));
    if (!*out) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned long long code = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (code == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return 0;
        }
        Move m = codec_find_legal(pos, code);
        if (m)
            (*out)[(*n)++] = m;
    }
    Py_DECREF(seq);
    return 1;
}

static PyObject *code_or_none(const Position *pos, Move m)
{
    if (m)
        return PyLong_FromUnsignedLongLong(codec_export(pos, m));
    Py_INCREF(Py_None);
    return Py_None;
}

static PyObject *go_unguarded(PySearch *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "fen", "variant", "moves", "depth", "nodes", "movetime",
                              "wtime", "btime", "winc", "binc", "movestogo", "infinite",
                              "ponder", "multipv", "overhead", "searchmoves", "callback",
                              "ticket", NULL };
    const char *fen;
    int variant = VARIANT_CHESS, depth = 0, movestogo = 0, infinite = 0, ponder = 0;
    int multipv = 1;
    unsigned long long nodes = 0, ticket = 0;
    long long movetime = 0, wtime = -1, btime = -1, winc = 0, binc = 0, overhead = 20;
    PyObject *moves = NULL, *searchmoves = NULL, *callback = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "s|iO$iKLLLLLippiLOOK", kwlist, &fen,
                                     &variant, &moves, &depth, &nodes, &movetime, &wtime,
                                     &btime, &winc, &binc, &movestogo, &infinite, &ponder,
                                     &multipv, &overhead, &searchmoves, &callback, &ticket))
        return NULL;
    if (callback == Py_None)
        callback = NULL;
    if (callback && !PyCallable_Check(callback)) {
        PyErr_SetString(PyExc_TypeError, "callback must be callable");
        return NULL;
    }
    if (depth < 0 || multipv < 1 || multipv > 500 || movestogo < 0 || movetime < 0) {
        PyErr_SetString(PyExc_ValueError, "depth, multipv, movestogo or movetime out of range");
        return NULL;
    }
    Position pos;
    if (!build_position(&pos, fen, variant, moves))
        return NULL;
    SearchLimits lim;
    search_default_limits(&lim);
    lim.depth = depth;
    lim.nodes = nodes;
    lim.movetime = movetime;
    lim.time[WHITE] = wtime;
    lim.time[BLACK] = btime;
    lim.inc[WHITE] = winc;
    lim.inc[BLACK] = binc;
    lim.movestogo = movestogo;
    lim.infinite = infinite;
    lim.ponder = ponder;
    lim.multipv = multipv;
    lim.overhead = overhead < 0 ? 0 : overhead;
    Move *only;
    if (!get_moves(&pos, searchmoves, &only, &lim.nonly)) {
        PyMem_Free(only);
        pos_free(&pos);
        return NULL;
    }
    lim.only = only;

    if (!ticket)
        ticket = ++self->last_ticket;
    ReportCtx ctx = { NULL, callback, &pos, self->search, ticket, 0, NULL, NULL, NULL };
    SearchResult res;
    self->running = ticket;
    Py_XINCREF(callback);
    ctx.tstate = PyEval_SaveThread();
    search_go(self->search, &pos, &lim, report, &ctx, ticket, &res);
    PyEval_RestoreThread(ctx.tstate);
    Py_XDECREF(callback);
    self->running = 0;
    PyMem_Free(only);

    PyObject *result = NULL;
    if (ctx.failed) {
        PyErr_Restore(ctx.etype, ctx.evalue, ctx.etb);
    } else {
        PyObject *best = code_or_none(&pos, res.best), *pond = code_or_none(&pos, res.ponder);
        result = PyDict_New();
        if (!best || !pond || !result || PyDict_SetItemString(result, "best", best) < 0 ||
            PyDict_SetItemString(result, "ponder", pond) < 0 ||
            (res.best && res.score > -SCORE_INF && put_score(result, res.score) < 0) ||
            put_long(result, "depth", res.depth) < 0 ||
            put_long(result, "nodes", (long long)res.nodes) < 0 ||
            put_long(result, "time", res.time_ms) < 0) {
            Py_CLEAR(result);
        }
        Py_XDECREF(best);
        Py_XDECREF(pond);
    }
    pos_free(&pos);
    return result;
}

GUARDED(go, (PySearch *self, PyObject *args, PyObject *kwds), (self, args, kwds))

static PyObject *Search_stop(PySearch *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "ticket", NULL };
    unsigned long long ticket = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|K", kwlist, &ticket))
        return NULL;
    if (!self->search)
        Py_RETURN_NONE;
    if (!ticket)
        ticket = self->running; /* the running search, if any */
    if (ticket)
        search_stop(self->search, ticket);
    Py_RETURN_NONE;
}

static PyObject *Search_ponderhit(PySearch *self, PyObject *Py_UNUSED(ignored))
{
    if (self->search && self->running)
        search_ponderhit(self->search);
    Py_RETURN_NONE;
}

static PyObject *clear_unguarded(PySearch *self)
{
    search_clear(self->search);
    Py_RETURN_NONE;
}

GUARDED(clear, (PySearch *self, PyObject *Py_UNUSED(ignored)), (self))

static PyObject *resize_unguarded(PySearch *self, PyObject *arg)
{
    Py_ssize_t mb = PyLong_AsSsize_t(arg);
    if (mb == -1 && PyErr_Occurred())
        return NULL;
    if (mb < 1 || mb > 65536) {
        PyErr_Format(PyExc_ValueError, "hash size %zd MB is out of range 1..65536", mb);
        return NULL;
    }
    if (!search_resize(self->search, (size_t)mb))
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

GUARDED(resize, (PySearch *self, PyObject *arg), (self, arg))

static PyObject *set_threads_unguarded(PySearch *self, PyObject *arg)
{
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 1 || n > SEARCH_MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "thread count %zd is out of range 1..%d", n,
                     SEARCH_MAX_THREADS);
        return NULL;
    }
    if (!search_set_threads(self->search, (int)n))
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

GUARDED(set_threads, (PySearch *self, PyObject *arg), (self, arg))

static PyObject *evaluate_unguarded(PySearch *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "fen", "variant", "moves", NULL };
    const char *fen;
    int variant = VARIANT_CHESS;
    PyObject *moves = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "s|iO", kwlist, &fen, &variant, &moves))
        return NULL;
    Position pos;
    if (!build_position(&pos, fen, variant, moves))
        return NULL;
    int v = eval_evaluate(&pos, search_params(self->search), NULL);
    pos_free(&pos);
    return PyLong_FromLong(v);
}

GUARDED(evaluate, (PySearch *self, PyObject *args, PyObject *kwds), (self, args, kwds))

static PyObject *see_unguarded(PySearch *self, PyObject *args)
{
    const char *fen;
    int variant;
    unsigned long long code;
    PyObject *threshold = Py_None;
    if (!PyArg_ParseTuple(args, "siK|O", &fen, &variant, &code, &threshold))
        return NULL;
    int t = 0;
    if (threshold != Py_None) {
        long lt = PyLong_AsLong(threshold);
        if (lt == -1 && PyErr_Occurred())
            return NULL;
        if (lt < -1000000 || lt > 1000000) {
            PyErr_SetString(PyExc_ValueError, "threshold out of range (+-1000000)");
            return NULL;
        }
        t = (int)lt;
    }
    Position pos;
    if (!build_position(&pos, fen, variant, NULL))
        return NULL;
    Move m = codec_find_legal(&pos, code);
    const EvalParams *ep = search_params(self->search);
    /* With a threshold: the search's own test (see_ge), so that it can be checked against
     * the value. */
    int v = !m ? 0 : threshold == Py_None ? see_value(&pos, m, ep) : see_ge(&pos, m, ep, t);
    pos_free(&pos);
    if (!m) {
        PyErr_Format(PyExc_ValueError, "move code %llu is not legal here", code);
        return NULL;
    }
    return threshold == Py_None ? PyLong_FromLong(v) : PyBool_FromLong(v);
}

GUARDED(see, (PySearch *self, PyObject *args), (self, args))

static PyObject *params_unguarded(PySearch *self)
{
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    EvalParams *ep = search_params(self->search);
    char name[64];
    int *value;
    for (int i = 0; (value = eval_param_at(ep, i, name, sizeof name)) != NULL; i++)
        if (put_long(d, name, *value) < 0) {
            Py_DECREF(d);
            return NULL;
        }
    for (int i = 0; i < search_tunable_count(); i++)
        if (put_long(d, search_tunable_name(i), search_get_tunable(self->search, i)) < 0) {
            Py_DECREF(d);
            return NULL;
        }
    return d;
}

GUARDED(params, (PySearch *self, PyObject *Py_UNUSED(ignored)), (self))

static PyObject *set_param_unguarded(PySearch *self, PyObject *args)
{
    const char *name;
    int value;
    if (!PyArg_ParseTuple(args, "si", &name, &value))
        return NULL;
    EvalParams *ep = search_params(self->search);
    char each[64];
    int *slot;
    for (int i = 0; (slot = eval_param_at(ep, i, each, sizeof each)) != NULL; i++)
        if (strcmp(name, each) == 0) {
            *slot = value;
            eval_params_update(ep);
            Py_RETURN_NONE;
        }
    if (search_set_tunable(self->search, name, value))
        Py_RETURN_NONE;
    PyErr_Format(PyExc_KeyError, "no parameter named %s (or a bad value %d)", name, value);
    return NULL;
}

GUARDED(set_param, (PySearch *self, PyObject *args), (self, args))

/* set_net(variant, net): evaluate that game with a _core.Net (None: the hand-written
 * evaluation). The hash table is cleared, since it keeps evaluations. */
static PyObject *set_net_unguarded(PySearch *self, PyObject *args)
{
    int variant;
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "iO", &variant, &obj))
        return NULL;
    if (variant != VARIANT_CHESS && variant != VARIANT_ROYAL) {
        PyErr_Format(PyExc_ValueError, "unknown variant %d", variant);
        return NULL;
    }
    NnueState *st = NULL;
    if (obj != Py_None) {
        const NnueNet *net = nnue_binding_net(obj);
        if (!net)
            return NULL;
        if (net->variant != variant) {
            PyErr_Format(PyExc_ValueError, "the net is for variant %d, not %d", net->variant,
                         variant);
            return NULL;
        }
        if (!(st = nnue_state_new(net)))
            return PyErr_NoMemory();
        Py_INCREF(obj);
    }
    search_params(self->search)->nnue[variant] = st;
    nnue_state_free(self->nnue[variant]);
    Py_XDECREF(self->nets[variant]);
    self->nnue[variant] = st;
    self->nets[variant] = obj == Py_None ? NULL : obj;
    search_clear(self->search);
    Py_RETURN_NONE;
}

GUARDED(set_net, (PySearch *self, PyObject *args), (self, args))

static PyObject *Search_get_busy(PySearch *self, void *Py_UNUSED(closure))
{
    return PyBool_FromLong(self->busy);
}

static PyObject *Search_get_threads(PySearch *self, void *Py_UNUSED(closure))
{
    if (!self->search) {
        PyErr_SetString(PyExc_RuntimeError, "Search was not initialised");
        return NULL;
    }
    return PyLong_FromLong(search_threads(self->search));
}

static PyGetSetDef Search_getset[] = {
    { "threads", (getter)Search_get_threads, NULL,
      "Threads a search without a node budget runs on (set_threads())", NULL },
    { "busy", (getter)Search_get_busy, NULL,
      "True while a call (go(), or a resize() etc.) is using this Search", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

static PyMethodDef Search_methods[] = {
    { "go", (PyCFunction)(void (*)(void))Search_go, METH_VARARGS | METH_KEYWORDS,
      "Search a position (FEN, variant, moves played since) and return the result dict." },
    { "stop", (PyCFunction)(void (*)(void))Search_stop, METH_VARARGS | METH_KEYWORDS,
      "Stop the search with this ticket (default: the running one); any thread." },
    { "new_ticket", (PyCFunction)Search_new_ticket, METH_NOARGS,
      "A fresh ticket to name a search before it starts." },
    { "ponderhit", (PyCFunction)Search_ponderhit, METH_NOARGS,
      "The pondered move was played: start the clock." },
    { "clear", (PyCFunction)Search_clear, METH_NOARGS, "Forget the hash table and history." },
    { "resize", (PyCFunction)Search_resize, METH_O, "Set the hash size in MB (clears it)." },
    { "set_threads", (PyCFunction)Search_set_threads, METH_O,
      "Search on this many threads (helpers share the hash table; one under a node budget)." },
    { "evaluate", (PyCFunction)(void (*)(void))Search_evaluate, METH_VARARGS | METH_KEYWORDS,
      "Static evaluation in centipawns for the side to move." },
    { "set_net", (PyCFunction)Search_set_net, METH_VARARGS,
      "set_net(variant, net): evaluate that game with a _core.Net, or None for the classic." },
    { "see", (PyCFunction)Search_see, METH_VARARGS,
      "Static exchange value of a legal move: see(fen, variant, code); with a threshold, "
      "whether it reaches it: see(fen, variant, code, threshold)." },
    { "params", (PyCFunction)Search_params, METH_NOARGS,
      "The evaluation weights and search tunables by name." },
    { "set_param", (PyCFunction)Search_set_param, METH_VARARGS,
      "Set one weight or tunable: set_param(name, value)." },
    { NULL, NULL, 0, NULL },
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "royalchess._core.Search",
    .tp_basicsize = sizeof(PySearch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An engine search with its own hash table; one search at a time.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

int search_binding_add(PyObject *module)
{
    if (PyType_Ready(&SearchType) < 0)
        return -1;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(module, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        return -1;
    }
    return 0;
}
