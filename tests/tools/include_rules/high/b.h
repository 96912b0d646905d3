// Allowed: high/ may include low/.
#pragma once

#include "low/a.h"
