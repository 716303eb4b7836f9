/* The geometry lives in geometry.h (static constants); this file keeps the module's place. */
#include "geometry.h"
