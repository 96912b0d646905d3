// The violation the check must name: low/ includes high/.
#pragma once

#include "high/b.h"
