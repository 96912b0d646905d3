#include "store/migrations.h"
