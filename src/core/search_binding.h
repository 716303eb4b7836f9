/* The search's part of the CPython binding: adds the type Search to the module. */
#ifndef RC_SEARCH_BINDING_H
#define RC_SEARCH_BINDING_H

#include <Python.h>

#include "position.h"

/* Returns 0, or -1 with an exception set. */
int search_binding_add(PyObject *module);

/* Fills pos from a FEN and the move codes played from it (moves may be NULL or None); shared
 * by the Search and Net bindings. Returns 0, with pos freed and an exception set, on bad input. */
int build_position(Position *pos, const char *fen, int variant, PyObject *moves);

#endif
