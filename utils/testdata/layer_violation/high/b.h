/* the upper layer */
#include "low/a.h"
