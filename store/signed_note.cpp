#include "store/signed_note.h"
