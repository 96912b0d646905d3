// The action table shipped with this build: etc/policy/actions.json, compiled into the binary
// (domain/policy/shipped_actions.cpp.in, filled in by CMake), so a box never runs without its
// policy and a running box's policy cannot be edited under it. Changing the table is a release.
#pragma once

#include <string_view>

#include "base/result.h"
#include "domain/policy/action_classes.h"

namespace atoms::policy {

// The text of etc/policy/actions.json at build time.
std::string_view shippedActionTableText();
// That text parsed. An error only when the shipped file is broken (tests catch that).
Result<ActionClassTable> shippedActionTable();

}  // namespace atoms::policy
