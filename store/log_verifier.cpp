#include "store/log_verifier.h"
