#include "store/merkle.h"
