/* The search's part of the CPython binding: adds the type Search to the module. */
#ifndef RC_SEARCH_BINDING_H
#define RC_SEARCH_BINDING_H

#include <Python.h>

/* Returns 0, or -1 with an exception set. */
int search_binding_add(PyObject *module);

#endif
