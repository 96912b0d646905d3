#include "drivers/sms/sms_gateway.h"

#include "base/name_table.h"

namespace atoms::drivers {

namespace {

constexpr NameTable<DeliveryState, 5> kStateNames{{{DeliveryState::kQueued, "queued"},
                                                   {DeliveryState::kSent, "sent"},
                                                   {DeliveryState::kDelivered, "delivered"},
                                                   {DeliveryState::kUndelivered, "undelivered"},
                                                   {DeliveryState::kFailed, "failed"}}};

constexpr NameTable<SendErrorCause, 4> kCauseNames{{{SendErrorCause::kTransport, "transport"},
                                                    {SendErrorCause::kAccount, "account"},
                                                    {SendErrorCause::kRecipient, "recipient"},
                                                    {SendErrorCause::kContent, "content"}}};

}  // namespace

std::string_view sendErrorCauseName(SendErrorCause cause) { return nameOf(kCauseNames, cause); }

std::string_view deliveryStateName(DeliveryState state) { return nameOf(kStateNames, state); }

std::optional<DeliveryState> parseDeliveryState(std::string_view name) {
  return fromName(kStateNames, name);
}

}  // namespace atoms::drivers
