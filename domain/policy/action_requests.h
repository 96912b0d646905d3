// ActionRequests: a person asking the box for an action of a kind (the JSON API's POST
// /v1/requests; docs/api.md "Requests"). Every ask is recorded (table action_request, migration
// 17) and decided by the policy gate as a person's instruction (automated = false), with the
// number of adverse actions already asked for against the same person within 30 days (seed 001
// RISK-08): the third within 30 days is elevated to HUMAN_ONLY with the pattern named.
//
// What comes of an ask:
// - human_packet (a HUMAN_ONLY kind, an unknown kind, RISK-08): a packet for a person
//   (packet_book.h); the box never does it;
// - deny / hold / record_only (the kill switch): refused, with the gate's rule;
// - execute / queue_for_approval: the box does not carry these kinds out from a request (it has
//   no executor for them: schedules come from the site file); refused as such, nothing done.
// In every case the ask and the decision are audited ("request.decided"), so a pattern of asks is
// on record even when none was carried out.
//
// Threading: the engine thread (it writes the store). Holds references; all must outlive it.
// Errors: the store's, as values; a refusal is an outcome.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "domain/policy/packet_book.h"
#include "domain/policy/policy_gate.h"

namespace atoms::policy {

struct ActionAsk {
  std::string kind;     // an action kind of etc/policy/actions.json (unknown: a packet)
  std::string subject;  // the person it is about (a person id of the site), or empty
  std::string reason;   // why, in the asker's words (required)
  std::string person;   // who asks (a person id of the site)
};

enum class AskOutcome { kPacket, kRefused, kNotCarriedOut };

struct AskResult {
  AskOutcome outcome = AskOutcome::kRefused;
  std::int64_t request = 0;
  GateDecision decision;
  std::optional<Packet> packet;  // kPacket
  std::string message;           // plain words for the asker
};

class ActionRequests {
 public:
  ActionRequests(const PolicyGate& gate, AuditLog& log, Database& db,
                 std::function<PolicyState()> state)
      : gate_(gate), log_(log), db_(db), state_(std::move(state)) {}

  Result<AskResult> ask(TimePoint at, const ActionAsk& ask);

 private:
  Result<int> priorAdverse(const std::string& subject, TimePoint at);

  const PolicyGate& gate_;
  AuditLog& log_;
  Database& db_;
  std::function<PolicyState()> state_;
};

}  // namespace atoms::policy
