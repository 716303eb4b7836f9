/* The CPython binding of the NNUE: _core.Net (a loaded net file) and the feature functions
 * the trainer shares with the engine. It converts and delegates to nnue.c. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "codec.h"
#include "fen.h"
#include "movegen.h"
#include "nnue_binding.h"
#include "position.h"
#include "search_binding.h"

typedef struct {
    PyObject_HEAD
    NnueNet *net;
} PyNet;

static PyTypeObject NetType;

const NnueNet *nnue_binding_net(PyObject *obj)
{
    if (!PyObject_TypeCheck(obj, &NetType) || !((PyNet *)obj)->net) {
        PyErr_SetString(PyExc_TypeError, "expected a loaded royalchess._core.Net");
        return NULL;
    }
    return ((PyNet *)obj)->net;
}

static int Net_init(PyNet *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "data", "variant", NULL };
    Py_buffer buf;
    int variant;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*i", kwlist, &buf, &variant))
        return -1;
    if (variant != VARIANT_CHESS && variant != VARIANT_ROYAL) {
        PyBuffer_Release(&buf);
        PyErr_Format(PyExc_ValueError, "unknown variant %d", variant);
        return -1;
    }
    char err[256];
    NnueNet *net = nnue_load(buf.buf, (size_t)buf.len, variant, err, sizeof err);
    PyBuffer_Release(&buf);
    if (!net) {
        PyErr_SetString(PyExc_ValueError, err);
        return -1;
    }
    nnue_free(self->net);
    self->net = net;
    return 0;
}

static void Net_dealloc(PyNet *self)
{
    nnue_free(self->net);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ready(PyNet *self)
{
    if (!self->net) {
        PyErr_SetString(PyExc_RuntimeError, "Net was not initialised");
        return 0;
    }
    return 1;
}

static PyObject *Net_evaluate(PyNet *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "fen", "moves", NULL };
    const char *fen;
    PyObject *moves = NULL;
    if (!ready(self) || !PyArg_ParseTupleAndKeywords(args, kwds, "s|O", kwlist, &fen, &moves))
        return NULL;
    Position pos;
    if (!build_position(&pos, fen, self->net->variant, moves))
        return NULL;
    int16_t acc[2 * NNUE_MAX_HIDDEN];
    nnue_refresh(self->net, &pos, acc);
    int v = nnue_output(self->net, acc, pos.side, pos.pcount[WHITE] + pos.pcount[BLACK]);
    pos_free(&pos);
    return PyLong_FromLong(v);
}

static PyObject *Net_accumulator(PyNet *self, PyObject *args)
{
    const char *fen;
    if (!ready(self) || !PyArg_ParseTuple(args, "s", &fen))
        return NULL;
    Position pos;
    if (!build_position(&pos, fen, self->net->variant, NULL))
        return NULL;
    int16_t acc[2 * NNUE_MAX_HIDDEN];
    nnue_refresh(self->net, &pos, acc);
    int h = self->net->hidden, side = pos.side;
    pos_free(&pos);
    PyObject *out = PyList_New(2 * h);
    if (!out)
        return NULL;
    for (int i = 0; i < 2 * h; i++) {
        /* side to move first, as the output layer reads them */
        int v = i < h ? acc[side * h + i] : acc[(!side) * h + i - h];
        PyList_SET_ITEM(out, i, PyLong_FromLong(v));
    }
    return out;
}

/* Compares the incremental accumulators of st with a refresh of pos; 0 with an error set. */
static int same_as_refresh(NnueState *st, const Position *pos, int16_t *fresh,
                           const char *what, int step)
{
    const NnueNet *net = nnue_state_net(st);
    nnue_refresh(net, pos, fresh);
    const int16_t *inc = nnue_state_accumulator(st, pos);
    if (memcmp(inc, fresh, 2 * (size_t)net->hidden * sizeof *fresh) != 0) {
        char fen[256];
        fen_format(pos, fen, sizeof fen);
        PyErr_Format(PyExc_AssertionError,
                     "incremental accumulator differs from a refresh after %s at step %d: %s",
                     what, step, fen);
        return 0;
    }
    return 1;
}

/* check_incremental(fen, moves): along the game, after every legal move of every position
 * (made and unmade), after a null move, and after each move played, the incrementally
 * updated accumulators must equal a fresh refresh. Returns the number of comparisons. */
static PyObject *Net_check_incremental(PyNet *self, PyObject *args)
{
    const char *fen;
    PyObject *moves;
    if (!ready(self) || !PyArg_ParseTuple(args, "sO", &fen, &moves))
        return NULL;
    Position pos;
    if (!build_position(&pos, fen, self->net->variant, NULL))
        return NULL;
    PyObject *seq = PySequence_Fast(moves, "moves must be a sequence of move codes");
    NnueState *st = seq ? nnue_state_new(self->net) : NULL;
    int16_t *fresh = st ? malloc(2 * (size_t)self->net->hidden * sizeof *fresh) : NULL;
    MoveList *list = fresh ? malloc(sizeof *list) : NULL;
    MoveList *replies = list ? malloc(sizeof *replies) : NULL;
    long checks = 0;
    int ok = replies != NULL;
    if (seq && !ok)
        PyErr_NoMemory();
    Py_ssize_t n = ok ? PySequence_Fast_GET_SIZE(seq) : 0;
    if (ok && !pos_reserve(&pos, (int)n + 16)) {
        PyErr_NoMemory();
        ok = 0;
    }
    ok = ok && same_as_refresh(st, &pos, fresh, "the start", 0);
    for (Py_ssize_t i = 0; ok && i <= n; i++) {
        gen_legal(&pos, list);
        for (int k = 0; ok && k < list->n; k++) {
            pos_make(&pos, list->moves[k]);
            if (k & 1) {
                /* two plies before the first look: the accumulators catch up over both
                 * moves, and the one in between must come out right too (looked at next) */
                gen_legal(&pos, replies);
                if (replies->n) {
                    pos_make(&pos, replies->moves[(k / 2) % replies->n]);
                    ok = same_as_refresh(st, &pos, fresh, "a legal move and a reply", (int)i);
                    pos_unmake(&pos);
                    checks++;
                }
            }
            ok = ok && same_as_refresh(st, &pos, fresh, "a legal move", (int)i);
            pos_unmake(&pos);
            ok = ok && same_as_refresh(st, &pos, fresh, "taking a move back", (int)i);
            checks += 2;
        }
        if (ok) {
            pos_make_null(&pos);
            ok = same_as_refresh(st, &pos, fresh, "a null move", (int)i);
            pos_unmake_null(&pos);
            checks++;
        }
        if (!ok || i == n)
            break;
        unsigned long long code = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        Move m = 0;
        if (!(code == (unsigned long long)-1 && PyErr_Occurred()))
            m = codec_find_legal(&pos, code);
        if (!m) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "move %zd (code %llu) is not legal there", i,
                             code);
            ok = 0;
            break;
        }
        pos_make(&pos, m);
        ok = same_as_refresh(st, &pos, fresh, "the game's move", (int)i);
        checks++;
    }
    free(replies);
    free(list);
    free(fresh);
    nnue_state_free(st);
    Py_XDECREF(seq);
    pos_free(&pos);
    return ok ? PyLong_FromLong(checks) : NULL;
}

#define GET(name, expr, doc)                                                               \
    static PyObject *Net_get_##name(PyNet *self, void *Py_UNUSED(closure))                  \
    {                                                                                      \
        return ready(self) ? PyLong_FromLong(expr) : NULL;                                 \
    }
GET(variant, self->net->variant, "")
GET(inputs, self->net->inputs, "")
GET(king_buckets, self->net->kbuckets, "")
GET(hidden, self->net->hidden, "")
GET(activation, self->net->activation, "")
GET(qa, self->net->qa, "")
GET(qb, self->net->qb, "")
GET(scale, self->net->scale, "")
GET(buckets, self->net->buckets, "")

static PyGetSetDef Net_getset[] = {
    { "variant", (getter)Net_get_variant, NULL, "0 = chess, 1 = Royal Chess", NULL },
    { "inputs", (getter)Net_get_inputs, NULL, "number of input features", NULL },
    { "hidden", (getter)Net_get_hidden, NULL, "accumulator size per perspective", NULL },
    { "activation", (getter)Net_get_activation, NULL, "0 = clipped ReLU, 1 = squared", NULL },
    { "qa", (getter)Net_get_qa, NULL, "accumulator quantisation scale", NULL },
    { "qb", (getter)Net_get_qb, NULL, "output weight quantisation scale", NULL },
    { "scale", (getter)Net_get_scale, NULL, "centipawns per output unit", NULL },
    { "buckets", (getter)Net_get_buckets, NULL, "output buckets (by piece count)", NULL },
    { "king_buckets", (getter)Net_get_king_buckets, NULL,
      "input sets (by the own King's square; 1 before format version 3)", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

static PyMethodDef Net_methods[] = {
    { "evaluate", (PyCFunction)(void (*)(void))Net_evaluate, METH_VARARGS | METH_KEYWORDS,
      "evaluate(fen, moves=None): centipawns for the side to move (accumulators refreshed)." },
    { "accumulator", (PyCFunction)Net_accumulator, METH_VARARGS,
      "accumulator(fen): both accumulators, the side to move's first (2 x hidden ints)." },
    { "check_incremental", (PyCFunction)Net_check_incremental, METH_VARARGS,
      "check_incremental(fen, moves): incremental updates equal refreshes along the game "
      "(every legal move made and unmade, a null move); the number of comparisons, or "
      "AssertionError." },
    { NULL, NULL, 0, NULL },
};

static PyTypeObject NetType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "royalchess._core.Net",
    .tp_basicsize = sizeof(PyNet),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Net(data, variant): an NNUE net file's bytes, checked and loaded for a game.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Net_init,
    .tp_dealloc = (destructor)Net_dealloc,
    .tp_methods = Net_methods,
    .tp_getset = Net_getset,
};

/* nnue_features(fen, variant): the active features (side to move's view, other view). */
static PyObject *nnue_features(PyObject *Py_UNUSED(module), PyObject *args)
{
    const char *fen;
    int variant;
    if (!PyArg_ParseTuple(args, "si", &fen, &variant))
        return NULL;
    Position pos;
    if (!build_position(&pos, fen, variant, NULL))
        return NULL;
    int feats[2][64], n[2];
    for (int p = 0; p < 2; p++)
        n[p] = nnue_active(&pos, p, feats[p]);
    int side = pos.side;
    pos_free(&pos);
    PyObject *out = PyTuple_New(2);
    for (int k = 0; out && k < 2; k++) {
        int p = k == 0 ? side : !side;
        PyObject *l = PyList_New(n[p]);
        if (!l) {
            Py_DECREF(out);
            return NULL;
        }
        for (int i = 0; i < n[p]; i++)
            PyList_SET_ITEM(l, i, PyLong_FromLong(feats[p][i]));
        PyTuple_SET_ITEM(out, k, l);
    }
    return out;
}

static PyObject *nnue_inputs_py(PyObject *Py_UNUSED(module), PyObject *arg)
{
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred())
        return NULL;
    if (v != VARIANT_CHESS && v != VARIANT_ROYAL) {
        PyErr_Format(PyExc_ValueError, "unknown variant %ld", v);
        return NULL;
    }
    return PyLong_FromLong(nnue_inputs((int)v));
}

static PyObject *crc32_py(PyObject *Py_UNUSED(module), PyObject *arg)
{
    Py_buffer buf;
    if (PyObject_GetBuffer(arg, &buf, PyBUF_SIMPLE) < 0)
        return NULL;
    uint32_t crc = nnue_crc32(0, buf.buf, (size_t)buf.len);
    PyBuffer_Release(&buf);
    return PyLong_FromUnsignedLong(crc);
}

static PyMethodDef module_functions[] = {
    { "nnue_features", nnue_features, METH_VARARGS,
      "nnue_features(fen, variant): active NNUE features (side to move's view, the other)." },
    { "nnue_inputs", nnue_inputs_py, METH_O, "nnue_inputs(variant): the NNUE input count." },
    { "crc32", crc32_py, METH_O, "crc32(data): the CRC-32 the net files carry." },
    { NULL, NULL, 0, NULL },
};

int nnue_binding_add(PyObject *module)
{
    if (PyType_Ready(&NetType) < 0)
        return -1;
    Py_INCREF(&NetType);
    if (PyModule_AddObject(module, "Net", (PyObject *)&NetType) < 0) {
        Py_DECREF(&NetType);
        return -1;
    }
    return PyModule_AddFunctions(module, module_functions);
}
