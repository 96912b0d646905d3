#include "sms/mailbox/outbox_row.h"

#include <array>
#include <utility>

namespace atoms::sms::mailbox {
namespace {

constexpr std::array<std::pair<OutboxState, std::string_view>, 8> kStateNames{{
    {OutboxState::kQueued, "queued"},
    {OutboxState::kSending, "sending"},
    {OutboxState::kSent, "sent"},
    {OutboxState::kDelivered, "delivered"},
    {OutboxState::kUndelivered, "undelivered"},
    {OutboxState::kFailed, "failed"},
    {OutboxState::kHeld, "held"},
    {OutboxState::kWithdrawn, "withdrawn"},
}};

constexpr std::array<std::pair<MessageClass, std::string_view>, 3> kClassNames{{
    {MessageClass::kReply, "reply"},
    {MessageClass::kOutreach, "outreach"},
    {MessageClass::kSafety, "safety"},
}};

template <class E, std::size_t N>
std::string_view nameIn(const std::array<std::pair<E, std::string_view>, N>& names, E value) {
  for (const auto& [v, name] : names) {
    if (v == value) return name;
  }
  return names[0].second;  // unreachable: every enumerator is listed
}

template <class E, std::size_t N>
std::optional<E> valueIn(const std::array<std::pair<E, std::string_view>, N>& names,
                         std::string_view name) {
  for (const auto& [v, n] : names) {
    if (n == name) return v;
  }
  return std::nullopt;
}

}  // namespace

std::string_view outboxStateName(OutboxState state) { return nameIn(kStateNames, state); }

std::optional<OutboxState> parseOutboxState(std::string_view name) {
  return valueIn(kStateNames, name);
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

std::string_view messageClassName(MessageClass c) { return nameIn(kClassNames, c); }

std::optional<MessageClass> parseMessageClass(std::string_view name) {
  return valueIn(kClassNames, name);
}

}  // namespace atoms::sms::mailbox
