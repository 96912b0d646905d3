#include "domain/callout/callout_settings.h"

namespace atoms::callout {

Status validateCalloutSettings(const CalloutSettings& s) {
  if (s.waveSize < 1 || s.waveSize > 50) return makeError("callout.wave_size must be 1..50");
  if (s.waveInterval < std::chrono::minutes(1) || s.waveInterval > std::chrono::minutes(120)) {
    return makeError("callout.wave_interval_minutes must be 1..120");
  }
  if (s.escalateAfter < std::chrono::minutes(1) || s.escalateAfter > std::chrono::minutes(240)) {
    return makeError("callout.escalate_after_minutes must be 1..240");
  }
  if (s.approvalExpiry < std::chrono::minutes(5) || s.approvalExpiry > std::chrono::minutes(1440)) {
    return makeError("callout.approval_expiry_minutes must be 5..1440");
  }
  if (s.lookahead < std::chrono::hours(1) || s.lookahead > std::chrono::hours(48)) {
    return makeError("callout.lookahead_hours must be 1..48");
  }
  return Status::success();
}

}  // namespace atoms::callout
