#include "store/canonical_json.h"
