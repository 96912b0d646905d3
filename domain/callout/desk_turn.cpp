#include "domain/callout/desk_turn.h"

#include <utility>

#include "base/timestamp.h"

namespace atoms::callout {

Status audit(DeskStep& step, std::string_view kind, json::Object body) {
  auto added =
      step.batch.add(formatTimestamp(step.now), kind, "engine", json::Value(std::move(body)));
  if (!added) return added.error();
  return Status::success();
}

}  // namespace atoms::callout
