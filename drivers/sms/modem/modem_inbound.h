// ModemInbound: the inbound side of the modem driver (modem_gateway.h; docs/sms-modem.md), on the
// worker's thread:
// - stored delivery (+CMTI/+CDSI, and a scan of every storage each storageScanInterval with
//   AT+CMGL for what arrived unannounced): AT+CMGR reads a message, which goes to the sink; only
//   once the sink committed it is it deleted (AT+CMGD). A refused one stays in storage and is
//   offered again after refusedRetryInterval; one that cannot be read stays and is not read again
//   (health: undecodable); an outgoing message saved on the SIM is skipped.
// - direct delivery (+CMT/+CDS): to the sink, then AT+CNMA (positive), or a negative
//   acknowledgement so the network delivers it again; a part of a longer message is acknowledged
//   at once and held in memory, and offered again when refused.
// - the parts of a concatenated message go to the ConcatReassembler; a message is delivered when
//   it is complete, or incomplete after reassemblyTimeout. Its provider id is "gsm:" and a hash of
//   what identifies it, so a message read twice is deduplicated by the inbox. A part of a message
//   already committed that comes again (the network delivers it again, a stored copy whose
//   deletion failed) is dropped: acknowledged or deleted, counted (health: duplicateParts), told
//   once (ModemConfig::onNotice), never held for a later release as a truncated message.
// - status reports go to ModemOutbound::applyReport; a stored one is deleted unless the sink
//   refused the report.
//
// Threading: the worker's thread only. Errors: in the HealthBoard, as one line.
#pragma once

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "drivers/sms/modem/at_channel.h"
#include "drivers/sms/modem/at_parser.h"
#include "drivers/sms/modem/concat_reassembler.h"
#include "drivers/sms/modem/modem_config.h"
#include "drivers/sms/modem/modem_health.h"
#include "drivers/sms/modem/modem_outbound.h"
#include "drivers/sms/modem/modem_session.h"
#include "drivers/sms/modem/pdu.h"
#include "drivers/sms/sms_gateway.h"

namespace atoms::drivers::modem {

class ModemInbound {
 public:
  using Steady = std::chrono::steady_clock;

  // All must outlive it.
  ModemInbound(const ModemConfig& config, ModemSession& session, HealthBoard& health, SmsSink& sink,
               ModemOutbound& reports);

  // After each init: storage indexes may have changed (a restart, another program), so what was
  // read from storage is forgotten and read again at once.
  void afterInit();
  // The session's unsolicited lines: stored messages and reports to read, direct ones.
  void processEvents();
  // Incomplete messages past reassemblyTimeout, refused ones due again, and the storage scan when
  // it is due (or a refused stored message is).
  void runTimers();
  // The earliest of its timers, on the steady clock (`steadyNow` and `now` read together).
  Steady::time_point nextDue(Steady::time_point steadyNow, SmsClock::time_point now) const;

 private:
  struct PendingDelivery {
    AssembledMessage message;
    SmsClock::time_point retryAt;
  };
  enum class Disposition { kCommitted, kHeld, kRefused, kIgnored };

  void onDirectMessage(const UnsolicitedLine& e);
  void onDirectReport(const UnsolicitedLine& e);
  void undecodableDirect(const char* what, const std::string& why);
  void acknowledge(bool positive);
  bool held(const StoredLocation& loc) const;
  void readStored(const StoredLocation& loc);
  void scanStorage();
  void markBad(const StoredLocation& loc, const std::string& why);
  void processStored(const StoredLocation& loc, const StoredMessage& m);
  void deleteStored(const StoredLocation& loc);
  Disposition handlePart(ReceivedPart part, bool keepOnRefusal);
  void dropRepeat(const ReceivedPart& part, bool firstRepeat);
  Disposition deliver(AssembledMessage message, bool keepOnRefusal);
  Disposition handleReport(const StatusReportPdu& report);
  bool retryDue(SmsClock::time_point now) const;

  const ModemConfig& config_;
  ModemSession& session_;
  HealthBoard& health_;
  SmsSink& sink_;
  ModemOutbound& reports_;

  ConcatReassembler reassembler_;
  std::vector<PendingDelivery> pending_;  // refused, held in memory (nothing stored to re-read)
  std::map<StoredLocation, SmsClock::time_point> retryAfter_;  // refused, left in storage
  std::set<StoredLocation> bad_;   // cannot be read: left in storage, not read again
  std::set<StoredLocation> skip_;  // not a received message
  Steady::time_point scanDue_{};
};

}  // namespace atoms::drivers::modem
