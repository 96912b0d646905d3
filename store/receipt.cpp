#include "store/receipt.h"
