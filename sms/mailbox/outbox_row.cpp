#include "sms/mailbox/outbox_row.h"

#include "base/name_table.h"

namespace atoms::sms::mailbox {
namespace {

constexpr NameTable<OutboxState, 8> kOutboxStateNames{{
    {OutboxState::kQueued, "queued"},
    {OutboxState::kSending, "sending"},
    {OutboxState::kSent, "sent"},
    {OutboxState::kDelivered, "delivered"},
    {OutboxState::kUndelivered, "undelivered"},
    {OutboxState::kFailed, "failed"},
    {OutboxState::kHeld, "held"},
    {OutboxState::kWithdrawn, "withdrawn"},
}};

constexpr NameTable<MessageClass, 3> kClassNames{{
    {MessageClass::kReply, "reply"},
    {MessageClass::kOutreach, "outreach"},
    {MessageClass::kSafety, "safety"},
}};

}  // namespace

std::string_view outboxStateName(OutboxState state) { return nameOf(kOutboxStateNames, state); }

std::optional<OutboxState> parseOutboxState(std::string_view name) {
  return fromName(kOutboxStateNames, name);
}

int outboxStateRank(OutboxState state) {
  switch (state) {
    case OutboxState::kQueued:
    case OutboxState::kSending:
    case OutboxState::kHeld:
      return 0;
    case OutboxState::kSent:
      return 1;
    case OutboxState::kUndelivered:
    case OutboxState::kFailed:
    case OutboxState::kWithdrawn:
      return 2;
    case OutboxState::kDelivered:
      return 3;
  }
  return 0;
}

std::string_view messageClassName(MessageClass c) { return nameOf(kClassNames, c); }

std::optional<MessageClass> parseMessageClass(std::string_view name) {
  return fromName(kClassNames, name);
}

}  // namespace atoms::sms::mailbox
