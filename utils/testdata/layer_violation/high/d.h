/* the upper layer, reaching into its own private header: allowed */
#include "high/c_internal.h"
