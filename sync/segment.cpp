#include "sync/segment.h"
