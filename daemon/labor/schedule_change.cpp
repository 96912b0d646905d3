// placeholder: owned by the helper writing daemon/labor/schedule_change
#include "daemon/labor/schedule_change.h"
