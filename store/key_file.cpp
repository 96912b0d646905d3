#include "store/key_file.h"
