// The audit entries of one kind, oldest first: what tests read back to check what a component
// recorded. Reads the whole log (tests keep logs small). Errors: the log or an entry cannot be
// read.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "store/audit_entry.h"
#include "store/audit_log.h"

namespace atoms::testing {

inline Result<std::vector<Entry>> entriesOfKind(const AuditLog& log, std::string_view kind) {
  auto texts = log.entryTexts(0, log.size());
  if (!texts) return texts.error();
  std::vector<Entry> out;
  for (const std::string& text : *texts) {
    auto entry = parseEntry(text);
    if (!entry) return entry.error();
    if (entry->kind == kind) out.push_back(std::move(*entry));
  }
  return out;
}

// The same through a store runner (sms/mailbox/store_runner.h: anything with
// run(std::function<Status(SiteStore&)>)), for fixtures whose store belongs to a runner.
template <typename Runner>
Result<std::vector<Entry>> entriesOfKindVia(Runner& runner, std::string_view kind) {
  std::vector<Entry> out;
  Status s = runner.run([&](auto& store) -> Status {
    auto found = entriesOfKind(store.log(), kind);
    if (!found) return found.error();
    out = std::move(*found);
    return Status::success();
  });
  if (!s) return s.error();
  return out;
}

// Every entry text, oldest first, one per line: for checking that nothing secret was recorded.
template <typename Runner>
Result<std::string> allEntryTextsVia(Runner& runner) {
  std::string all;
  Status s = runner.run([&](auto& store) -> Status {
    auto texts = store.log().entryTexts(0, store.log().size());
    if (!texts) return texts.error();
    for (const std::string& text : *texts) all += text + "\n";
    return Status::success();
  });
  if (!s) return s.error();
  return all;
}

}  // namespace atoms::testing
