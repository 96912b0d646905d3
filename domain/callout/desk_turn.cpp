#include "domain/callout/desk_turn.h"

#include <utility>

namespace atoms::callout {

Status audit(DeskStep& step, std::string_view kind, json::Object body) {
  return step.batch.record(step.now, kind, "engine", std::move(body));
}

}  // namespace atoms::callout
