// placeholder: owned by the helper writing daemon/labor/schedule_check
#include "daemon/labor/schedule_check.h"
