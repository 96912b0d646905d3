// Members of audit entry bodies and JSON objects, read the way tests read them.
#pragma once

#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/canonical_json.h"
#include "store/audit_entry.h"

namespace atoms::testing {

// The string member `name` of the entry's body; fails the test case when there is none.
inline std::string field(const Entry& e, std::string_view name) {
  const json::Value* v = e.body.find(name);
  BOOST_REQUIRE_MESSAGE(v && v->isString(), "no string field " << name);
  return v->asString();
}

// The string member `key` of `v`; "" when there is none.
inline std::string field(const json::Value& v, std::string_view key) {
  const json::Value* f = v.find(key);
  return f != nullptr && f->isString() ? f->asString() : std::string();
}

// The integer member `key` of `v`; -1 when there is none.
inline std::int64_t intField(const json::Value& v, std::string_view key) {
  const json::Value* f = v.find(key);
  return f != nullptr && f->isInt() ? f->asInt() : -1;
}

}  // namespace atoms::testing
