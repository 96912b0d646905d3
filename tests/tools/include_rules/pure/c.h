// The second violation the check must name: pure/ includes a library its README bans.
#pragma once

#include <Poco/Logger.h>

#include "low/a.h"
