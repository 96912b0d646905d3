#include "store/audit_log.h"
