#include "store/audit_entry.h"
