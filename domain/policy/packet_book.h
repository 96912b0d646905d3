// PacketBook: HUMAN_ONLY packets (seed 001; issue 7 item 1; docs/policy-gate.md "Packets"). When
// the policy gate decides that an action is for a person only (a HUMAN_ONLY kind, an unknown kind,
// RISK-08's repeated adverse actions against one person), the box never does it: it opens a
// packet with the evidence for the human it is for, and a person closes it once they have dealt
// with it themselves, with a note. Kept in the store (table human_packet, migration 17).
//
// Audit: "packet.opened" {id, kind, subject, askedBy, rule, pattern?, summary} in the batch that
// decided; "packet.closed" {id, by, note}. The silent-stall watchdog escalates a packet still
// open after twice kPacketSla (daemon/service/watchdog_subsystem.cpp).
//
// Threading: the owner thread of the Database and AuditLog (the engine thread). Holds references;
// both must outlive it. Errors: values, one line.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/canonical_json.h"
#include "base/clock.h"
#include "base/result.h"
#include "domain/policy/policy_gate.h"
#include "store/audit_log.h"
#include "store/database.h"

namespace atoms::policy {

// How soon a person should look at a packet (the watchdog escalates at twice this).
inline constexpr std::chrono::hours kPacketSla{24};

struct Packet {
  std::int64_t id = 0;
  std::string kind;     // the action kind ("schedule.reduce_hours")
  std::string subject;  // the person it is about, or empty
  std::string askedBy;  // who asked ("panel:p-marco", "engine")
  TimePoint openedAt;
  std::string rule;      // the gate's rule that made it a packet
  std::string pattern;   // RISK-08: the pattern named; else empty
  std::string summary;   // one line for the person it is for
  json::Value evidence;  // the gate's decision and what the asker gave
  bool open = true;
  std::string closedBy;  // "panel:p-gm"
  std::optional<TimePoint> closedAt;
  std::string note;
  // {"id","kind","subject","askedBy","openedAt","rule","pattern","summary","evidence","state",
  //  "closedBy","closedAt","note"}; empty strings and absent instants are null.
  json::Value toJson() const;
};

class PacketBook {
 public:
  PacketBook(AuditLog& log, Database& db) : log_(&log), db_(&db) {}

  // Opens a packet for `decision` (whose outcome should be human_packet) inside `batch`; returns
  // it as stored (its id included), open.
  Result<Packet> open(AuditLog::Batch& batch, TimePoint at, const GateDecision& decision,
                      std::string_view subject, std::string_view askedBy, std::string_view summary,
                      json::Value evidence);
  // Open ones oldest first, then the last 50 closed ones, newest first.
  Result<std::vector<Packet>> list() const;
  Result<std::optional<Packet>> find(std::int64_t id) const;
  // A person closes an open packet, saying what they did (a note of 1..500 bytes). Errors, with
  // nothing changed: unknown id, closed already, an empty note.
  Result<Packet> close(TimePoint at, std::int64_t id, std::string_view by, std::string_view note);

 private:
  AuditLog* log_;
  Database* db_;
};

}  // namespace atoms::policy
