/* The NNUE part of the CPython binding: the type _core.Net and the feature functions. */
#ifndef RC_NNUE_BINDING_H
#define RC_NNUE_BINDING_H

#include <Python.h>

#include "nnue.h"

/* Adds Net, nnue_features, nnue_inputs and crc32 to the module. Returns 0, or -1 with an
 * exception set. */
int nnue_binding_add(PyObject *module);

/* The net inside a _core.Net object, or NULL with TypeError set. */
const NnueNet *nnue_binding_net(PyObject *obj);

#endif
