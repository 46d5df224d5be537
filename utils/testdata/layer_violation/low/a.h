/* the lower layer reaching up: what the check must reject */
#include "high/b.h"
