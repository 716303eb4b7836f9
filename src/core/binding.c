/* The CPython binding: converts and delegates to the core; no rules here. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "attack.h"
#include "codec.h"
#include "fen.h"
#include "geometry.h"
#include "movegen.h"
#include "nnue_binding.h"
#include "perft.h"
#include "position.h"
#include "search_binding.h"
#include "zobrist.h"

typedef struct {
    PyObject_HEAD
    Position pos;
    int ready;
} PyPosition;

static PyTypeObject PositionType;

static int get_square(PyPosition *self, PyObject *arg, int *sq)
{
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred())
        return 0;
    if (v < 0 || v >= self->pos.files * self->pos.ranks) {
        PyErr_Format(PyExc_ValueError, "square %ld is off the %dx%d board", v, self->pos.files,
                     self->pos.ranks);
        return 0;
    }
    *sq = geo_to_mailbox((int)v, self->pos.files);
    return 1;
}

static int get_legal(PyPosition *self, PyObject *arg, Move *m)
{
    unsigned long long code = PyLong_AsUnsignedLongLong(arg);
    if (code == (unsigned long long)-1 && PyErr_Occurred())
        return 0;
    *m = codec_find_legal(&self->pos, code);
    if (!*m) {
        PyErr_Format(PyExc_ValueError, "move code %llu is not legal here", code);
        return 0;
    }
    return 1;
}

static int Position_init(PyPosition *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "fen", "variant", NULL };
    const char *fen;
    int variant = VARIANT_CHESS;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "s|i", kwlist, &fen, &variant))
        return -1;
    if (variant != VARIANT_CHESS && variant != VARIANT_ROYAL) {
        PyErr_Format(PyExc_ValueError, "unknown variant %d", variant);
        return -1;
    }
    if (self->ready)
        pos_free(&self->pos);
    self->ready = 0;
    char err[256];
    Position tmp;
    if (!fen_parse(&tmp, fen, variant, err, sizeof err)) {
        pos_free(&tmp);
        PyErr_SetString(PyExc_ValueError, err);
        return -1;
    }
    self->pos = tmp;
    if (!pos_reserve(&self->pos, 256)) {
        PyErr_NoMemory();
        return -1;
    }
    self->ready = 1;
    return 0;
}

static void Position_dealloc(PyPosition *self)
{
    if (self->ready)
        pos_free(&self->pos);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

#define CHECK_READY(self)                                                         \
    do {                                                                          \
        if (!(self)->ready) {                                                     \
            PyErr_SetString(PyExc_RuntimeError, "Position was not initialised");  \
            return NULL;                                                          \
        }                                                                         \
    } while (0)

static PyObject *Position_copy(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    PyPosition *c = (PyPosition *)PositionType.tp_alloc(&PositionType, 0);
    if (!c)
        return NULL;
    if (!pos_copy(&c->pos, &self->pos)) {
        Py_DECREF(c);
        return PyErr_NoMemory();
    }
    c->ready = 1;
    return (PyObject *)c;
}

static PyObject *Position_fen(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    char buf[256];
    fen_format(&self->pos, buf, sizeof buf);
    return PyUnicode_FromString(buf);
}

static PyObject *Position_turn(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    return PyBool_FromLong(self->pos.side == WHITE);
}

static PyObject *Position_board(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    int n = self->pos.files * self->pos.ranks;
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int i = 0; i < n; i++) {
        uint8_t p = self->pos.board[geo_to_mailbox(i, self->pos.files)];
        long v = 0;
        if (p != EMPTY)
            v = PTYPE(p) | (PCOLOR(p) == WHITE ? 16 : 0) | ((p & POWER_BIT) ? 32 : 0);
        PyList_SET_ITEM(list, i, PyLong_FromLong(v));
    }
    return list;
}

static PyObject *Position_piece_at(PyPosition *self, PyObject *arg)
{
    CHECK_READY(self);
    int sq;
    if (!get_square(self, arg, &sq))
        return NULL;
    uint8_t p = self->pos.board[sq];
    if (p == EMPTY)
        Py_RETURN_NONE;
    return Py_BuildValue("(iNN)", PTYPE(p), PyBool_FromLong(PCOLOR(p) == WHITE),
                         PyBool_FromLong((p & POWER_BIT) != 0));
}

static PyObject *move_list(PyPosition *self, const MoveList *l)
{
    PyObject *list = PyList_New(l->n);
    if (!list)
        return NULL;
    for (int i = 0; i < l->n; i++)
        PyList_SET_ITEM(list, i,
                        PyLong_FromUnsignedLongLong(codec_export(&self->pos, l->moves[i])));
    return list;
}

static PyObject *Position_legal_moves(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    MoveList l;
    gen_legal(&self->pos, &l);
    return move_list(self, &l);
}

static PyObject *Position_is_legal(PyPosition *self, PyObject *arg)
{
    CHECK_READY(self);
    unsigned long long code = PyLong_AsUnsignedLongLong(arg);
    if (code == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return NULL;
        PyErr_Clear();
        Py_RETURN_FALSE;
    }
    return PyBool_FromLong(codec_find_legal(&self->pos, code) != 0);
}

static PyObject *Position_push(PyPosition *self, PyObject *arg)
{
    CHECK_READY(self);
    Move m;
    if (!get_legal(self, arg, &m))
        return NULL;
    if (!pos_reserve(&self->pos, self->pos.ply + 1))
        return PyErr_NoMemory();
    pos_make(&self->pos, m);
    Py_RETURN_NONE;
}

static PyObject *Position_pop(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    if (self->pos.ply == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from a position with no moves played");
        return NULL;
    }
    pos_unmake(&self->pos);
    Py_RETURN_NONE;
}

static PyObject *Position_ply(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    return PyLong_FromLong(self->pos.ply);
}

static PyObject *Position_is_check(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    return PyBool_FromLong(att_in_check(&self->pos, self->pos.side));
}

static PyObject *Position_is_attacked_by(PyPosition *self, PyObject *args)
{
    int white;
    PyObject *square;
    CHECK_READY(self);
    if (!PyArg_ParseTuple(args, "pO", &white, &square))
        return NULL;
    int sq;
    if (!get_square(self, square, &sq))
        return NULL;
    int by = white ? WHITE : BLACK;
    /* The recorded recapture right belongs to the side to move. */
    int mine = self->pos.side == by;
    return PyBool_FromLong(att_attacked(&self->pos, sq, by, mine ? self->pos.recap : 0,
                                        mine ? self->pos.recap_rook : 0));
}

/* Attacker squares (mailbox) as a sorted list of public squares. */
static PyObject *square_list(PyPosition *self, const int *sqs, int n)
{
    int pub[24];
    for (int i = 0; i < n; i++) {
        int v = geo_to_public(sqs[i], self->pos.files), k = i;
        for (; k > 0 && pub[k - 1] > v; k--)
            pub[k] = pub[k - 1];
        pub[k] = v;
    }
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int i = 0; i < n; i++)
        PyList_SET_ITEM(list, i, PyLong_FromLong(pub[i]));
    return list;
}

static PyObject *Position_attackers(PyPosition *self, PyObject *args)
{
    int white;
    PyObject *square;
    CHECK_READY(self);
    if (!PyArg_ParseTuple(args, "pO", &white, &square))
        return NULL;
    int sq;
    if (!get_square(self, square, &sq))
        return NULL;
    int by = white ? WHITE : BLACK, out[24];
    /* As is_attacked_by: the recorded recapture right belongs to the side to move. */
    int mine = self->pos.side == by;
    int n = att_attackers(&self->pos, sq, by, mine ? self->pos.recap : 0,
                          mine ? self->pos.recap_rook : 0, out);
    return square_list(self, out, n);
}

static PyObject *Position_pseudo_legal_moves(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    MoveList l;
    gen_pseudo_legal(&self->pos, &l);
    return move_list(self, &l);
}

/* Plays a pseudo-legal move, lists what then attacks the mover's King, and takes it back. */
static PyObject *Position_checkers_after(PyPosition *self, PyObject *arg)
{
    CHECK_READY(self);
    unsigned long long code = PyLong_AsUnsignedLongLong(arg);
    if (code == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    MoveList l;
    gen_pseudo_legal(&self->pos, &l);
    Move m = 0;
    for (int i = 0; i < l.n && !m; i++)
        if (codec_export(&self->pos, l.moves[i]) == code)
            m = l.moves[i];
    if (!m) {
        PyErr_Format(PyExc_ValueError, "move code %llu is not pseudo-legal here", code);
        return NULL;
    }
    if (!pos_reserve(&self->pos, self->pos.ply + 1))
        return PyErr_NoMemory();
    Position *pos = &self->pos;
    int us = pos->side, out[24];
    pos_make(pos, m);
    /* The recapture right recorded now belongs to the opponent, who is to move. */
    int n = att_attackers(pos, pos->king[us], !us, pos->recap, pos->recap_rook, out);
    pos_unmake(pos);
    return square_list(self, out, n);
}

static PyObject *Position_gives_check(PyPosition *self, PyObject *arg)
{
    CHECK_READY(self);
    Move m;
    if (!get_legal(self, arg, &m))
        return NULL;
    pos_make(&self->pos, m);
    int check = att_in_check(&self->pos, self->pos.side);
    pos_unmake(&self->pos);
    return PyBool_FromLong(check);
}

static PyObject *Position_is_capture(PyPosition *self, PyObject *arg)
{
    CHECK_READY(self);
    Move m;
    if (!get_legal(self, arg, &m))
        return NULL;
    int cap;
    if (MV_FLAG(m) == MF_CASTLE)
        cap = MV_GFROM(m) && self->pos.board[MV_GTO(m)] != EMPTY;
    else
        cap = MV_FLAG(m) == MF_EP || self->pos.board[MV_TO(m)] != EMPTY;
    return PyBool_FromLong(cap);
}

static PyObject *Position_is_en_passant(PyPosition *self, PyObject *arg)
{
    CHECK_READY(self);
    Move m;
    if (!get_legal(self, arg, &m))
        return NULL;
    return PyBool_FromLong(MV_FLAG(m) == MF_EP);
}

/* Castling is the core's to say in both games (its moves carry MF_CASTLE); the public code
 * of standard-chess castling is only the King's move (e1g1), so Python asks here. */
static PyObject *Position_is_castling(PyPosition *self, PyObject *arg)
{
    CHECK_READY(self);
    Move m;
    if (!get_legal(self, arg, &m))
        return NULL;
    return PyBool_FromLong(MV_FLAG(m) == MF_CASTLE);
}

/* The legal castling moves as (code, rook from, rook to), public squares, both games. */
static PyObject *Position_castling_moves(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    MoveList l;
    gen_legal(&self->pos, &l);
    PyObject *list = PyList_New(0);
    if (!list)
        return NULL;
    int files = self->pos.files;
    for (int i = 0; i < l.n; i++) {
        Move m = l.moves[i];
        if (MV_FLAG(m) != MF_CASTLE)
            continue;
        PyObject *item = Py_BuildValue("(Kii)", (unsigned long long)codec_export(&self->pos, m),
                                       geo_to_public(MV_RFROM(m), files),
                                       geo_to_public(MV_RTO(m), files));
        if (!item || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(item);
    }
    return list;
}

static PyObject *Position_halfmove_clock(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    return PyLong_FromLong(self->pos.halfmove);
}

static PyObject *Position_fullmove_number(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    return PyLong_FromLong(self->pos.fullmove);
}

static PyObject *Position_castling_rights(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    char buf[5], *o = buf;
    uint8_t c = self->pos.castle;
    if (c & WK) *o++ = 'K';
    if (c & WQ) *o++ = 'Q';
    if (c & BK) *o++ = 'k';
    if (c & BQ) *o++ = 'q';
    if (o == buf) *o++ = '-';
    *o = '\0';
    return PyUnicode_FromString(buf);
}

static PyObject *public_square(PyPosition *self, int sq)
{
    return PyLong_FromLong(sq ? geo_to_public(sq, self->pos.files) : -1);
}

static PyObject *Position_ep_square(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    return public_square(self, self->pos.ep);
}

static PyObject *Position_recapture_square(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    return public_square(self, self->pos.recap);
}

static PyObject *Position_hash(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    return PyLong_FromUnsignedLongLong(self->pos.key);
}

static PyObject *Position_repetition_count(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    return PyLong_FromLong(pos_repetition_count(&self->pos));
}

static PyObject *Position_is_insufficient_material(PyPosition *self,
                                                   PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    return PyBool_FromLong(pos_insufficient_material(&self->pos));
}

static PyObject *Position_promotion_choices(PyPosition *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_READY(self);
    int mask = gen_promotion_mask(&self->pos);
    static const int order[6] = { QUEEN, ROOK, BISHOP, KNIGHT, QGUARD, KGUARD };
    PyObject *list = PyList_New(0);
    if (!list)
        return NULL;
    for (int i = 0; i < 6; i++)
        if (mask & 1 << order[i]) {
            PyObject *v = PyLong_FromLong(order[i]);
            if (!v || PyList_Append(list, v) < 0) {
                Py_XDECREF(v);
                Py_DECREF(list);
                return NULL;
            }
            Py_DECREF(v);
        }
    return list;
}

static PyObject *targets(PyPosition *self, const MoveList *l)
{
    PyObject *list = PyList_New(l->n);
    if (!list)
        return NULL;
    for (int i = 0; i < l->n; i++)
        PyList_SET_ITEM(list, i, PyLong_FromLong(geo_to_public(MV_TO(l->moves[i]),
                                                               self->pos.files)));
    return list;
}

static PyObject *Position_guard_moves(PyPosition *self, PyObject *arg)
{
    CHECK_READY(self);
    int sq;
    if (!get_square(self, arg, &sq))
        return NULL;
    MoveList major, minor;
    gen_guard_targets(&self->pos, sq, &major, &minor);
    return Py_BuildValue("(NN)", targets(self, &major), targets(self, &minor));
}

/* Long counts run on a private copy with the GIL released, so other threads go on. */
static PyObject *Position_perft(PyPosition *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "depth", "bulk", NULL };
    int depth, bulk = 1;
    CHECK_READY(self);
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "i|p", kwlist, &depth, &bulk))
        return NULL;
    if (depth < 0 || depth > 32) {
        PyErr_Format(PyExc_ValueError, "perft depth %d is out of range 0..32", depth);
        return NULL;
    }
    Position work;
    if (!pos_copy(&work, &self->pos) || !pos_reserve(&work, work.ply + depth + 2)) {
        pos_free(&work);
        return PyErr_NoMemory();
    }
    uint64_t nodes;
    Py_BEGIN_ALLOW_THREADS
    nodes = perft(&work, depth, bulk);
    Py_END_ALLOW_THREADS
    pos_free(&work);
    return PyLong_FromUnsignedLongLong(nodes);
}

static PyObject *Position_divide(PyPosition *self, PyObject *args)
{
    int depth;
    CHECK_READY(self);
    if (!PyArg_ParseTuple(args, "i", &depth))
        return NULL;
    if (depth < 1 || depth > 32) {
        PyErr_Format(PyExc_ValueError, "divide depth %d is out of range 1..32", depth);
        return NULL;
    }
    Position work;
    if (!pos_copy(&work, &self->pos) || !pos_reserve(&work, work.ply + depth + 2)) {
        pos_free(&work);
        return PyErr_NoMemory();
    }
    MoveList l;
    uint64_t counts[MAX_MOVES];
    Py_BEGIN_ALLOW_THREADS
    gen_legal(&work, &l);
    for (int i = 0; i < l.n; i++) {
        pos_make(&work, l.moves[i]);
        counts[i] = perft(&work, depth - 1, 1);
        pos_unmake(&work);
    }
    Py_END_ALLOW_THREADS
    /* Codes from the private copy: another thread may have re-initialised self meanwhile. */
    PyObject *list = PyList_New(l.n);
    for (int i = 0; list && i < l.n; i++)
        PyList_SET_ITEM(list, i, Py_BuildValue("(KK)",
                                               (unsigned long long)codec_export(&work,
                                                                                l.moves[i]),
                                               (unsigned long long)counts[i]));
    pos_free(&work);
    return list;
}

static PyObject *Position_get_variant(PyPosition *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(self->pos.variant);
}

static PyObject *Position_get_files(PyPosition *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(self->pos.files);
}

static PyObject *Position_get_ranks(PyPosition *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(self->pos.ranks);
}

static PyGetSetDef Position_getset[] = {
    { "variant", (getter)Position_get_variant, NULL, "0 = chess, 1 = Royal Chess", NULL },
    { "files", (getter)Position_get_files, NULL, "number of files", NULL },
    { "ranks", (getter)Position_get_ranks, NULL, "number of ranks", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

#define METH0(name, doc) { #name, (PyCFunction)Position_##name, METH_NOARGS, doc }
#define METH1(name, doc) { #name, (PyCFunction)Position_##name, METH_O, doc }

static PyMethodDef Position_methods[] = {
    METH0(copy, "An independent copy, history included."),
    METH0(fen, "The position as FEN."),
    METH0(turn, "True when White is to move."),
    METH0(board, "One int per square: 0 or type | 16 (white) | 32 (queen powers)."),
    METH1(piece_at, "(type, white, queen_powers) of the piece on a square, or None."),
    METH0(legal_moves, "The legal moves as move codes."),
    METH1(is_legal, "Is the move code legal here?"),
    METH1(push, "Play a legal move code."),
    METH0(pop, "Take back the last move."),
    METH0(ply, "Number of moves that can be taken back."),
    METH0(is_check, "Is the side to move in check?"),
    METH1(gives_check, "Does the legal move give check?"),
    { "is_attacked_by", (PyCFunction)Position_is_attacked_by, METH_VARARGS,
      "is_attacked_by(white, square): does that side attack the square?" },
    { "attackers", (PyCFunction)Position_attackers, METH_VARARGS,
      "attackers(white, square): squares of that side's pieces attacking the square." },
    METH0(pseudo_legal_moves, "Moves that ignore the mover's King safety (no castling)."),
    METH1(checkers_after, "Squares attacking the mover's King after a pseudo-legal move."),
    METH1(is_capture, "Does the legal move capture?"),
    METH1(is_en_passant, "Is the legal move an en passant capture?"),
    METH1(is_castling, "Is the legal move castling (either game)?"),
    METH0(castling_moves, "The legal castling moves as (code, rook_from, rook_to)."),
    METH0(halfmove_clock, "Half-moves since the last capture or pawn move."),
    METH0(fullmove_number, "The full-move number."),
    METH0(castling_rights, "Castling rights as in FEN field 3."),
    METH0(ep_square, "The en passant square (FEN field 4) or -1."),
    METH0(recapture_square, "The recapture square (Royal FEN field 7) or -1."),
    METH0(hash, "Zobrist key of the position's repetition identity."),
    METH0(repetition_count, "How often the current position has occurred."),
    METH0(is_insufficient_material, "Can neither side mate?"),
    METH0(promotion_choices, "Piece types the side to move may promote to."),
    METH1(guard_moves, "(major, minor) target squares of the Guard on a square."),
    { "perft", (PyCFunction)(void (*)(void))Position_perft, METH_VARARGS | METH_KEYWORDS,
      "Leaf count of the legal move tree to a depth." },
    { "divide", (PyCFunction)Position_divide, METH_VARARGS,
      "(move code, leaf count) for every root move." },
    { NULL, NULL, 0, NULL },
};

static PyTypeObject PositionType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "royalchess._core.Position",
    .tp_basicsize = sizeof(PyPosition),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A position of chess or Royal Chess, with its move history.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Position_init,
    .tp_dealloc = (destructor)Position_dealloc,
    .tp_methods = Position_methods,
    .tp_getset = Position_getset,
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "royalchess._core", "The C core of royalchess.", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    zob_init();
    pos_init_tables();
    if (PyType_Ready(&PositionType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    Py_INCREF(&PositionType);
    if (PyModule_AddObject(m, "Position", (PyObject *)&PositionType) < 0) {
        Py_DECREF(&PositionType);
        Py_DECREF(m);
        return NULL;
    }
    if (search_binding_add(m) < 0) { Py_DECREF(m); return NULL; }
    if (nnue_binding_add(m) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
