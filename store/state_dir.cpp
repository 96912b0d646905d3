#include "store/state_dir.h"
