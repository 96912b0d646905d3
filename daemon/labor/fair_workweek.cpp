// placeholder: owned by the helper writing daemon/labor/fair_workweek
#include "daemon/labor/fair_workweek.h"
