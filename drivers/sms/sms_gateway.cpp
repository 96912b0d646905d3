#include "drivers/sms/sms_gateway.h"

namespace atoms::drivers {

std::string_view deliveryStateName(DeliveryState state) {
  switch (state) {
    case DeliveryState::kQueued:
      return "queued";
    case DeliveryState::kSent:
      return "sent";
    case DeliveryState::kDelivered:
      return "delivered";
    case DeliveryState::kUndelivered:
      return "undelivered";
    case DeliveryState::kFailed:
      return "failed";
  }
  return "failed";
}

std::optional<DeliveryState> parseDeliveryState(std::string_view name) {
  for (DeliveryState s : {DeliveryState::kQueued, DeliveryState::kSent, DeliveryState::kDelivered,
                          DeliveryState::kUndelivered, DeliveryState::kFailed}) {
    if (deliveryStateName(s) == name) return s;
  }
  return std::nullopt;
}

}  // namespace atoms::drivers
