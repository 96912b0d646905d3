#include "store/checkpoint.h"
