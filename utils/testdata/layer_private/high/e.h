/* a higher layer may include low/ headers, never its private ones */
#include "low/a_internal.h"
