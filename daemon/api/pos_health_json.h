// The POS health as the JSON API shows it (docs/api.md "Settings", docs/pos.md "Health"):
//   {"on":true,"fresh":false,"staleSince":"2026-11-30T19:05:00.000Z","reason":"POS square is
//    failing: ...","sources":[{"source":"square","state":"failing","since":"...","lastOk":"...",
//    "detail":"..."}]}
// staleSince, since and lastOk are null when there is none. Pure; thread-safe.
#pragma once

#include "base/canonical_json.h"
#include "domain/pos/pos_health.h"

namespace atoms::api {

json::Value posHealthJson(const pos::PosHealth& health, pos::HealthTime now);

}  // namespace atoms::api
