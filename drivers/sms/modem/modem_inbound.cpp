#include "drivers/sms/modem/modem_inbound.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <variant>

#include "base/bytes.h"
#include "drivers/sms/modem/text_mode.h"

namespace atoms::drivers::modem {

namespace {

std::string lastParameter(std::string_view params) {
  const std::vector<std::string> p = splitAtParameters(params);
  return p.back();
}

Result<ReceivedPart> partOf(const DeliverPdu& pdu) {
  auto text = userDataText(pdu.userData);
  if (!text) return text.error();
  return ReceivedPart{pdu.originator.text, pdu.userData.concat, std::move(*text), pdu.timestamp,
                      std::nullopt};
}

}  // namespace

ModemInbound::ModemInbound(const ModemConfig& config, ModemSession& session, HealthBoard& health,
                           SmsSink& sink, ModemOutbound& reports)
    : config_(config),
      session_(session),
      health_(health),
      sink_(sink),
      reports_(reports),
      reassembler_(config.reassemblyTimeout) {}

void ModemInbound::afterInit() {
  reassembler_.dropStored();
  std::erase_if(pending_, [](const PendingDelivery& p) { return !p.message.locations.empty(); });
  retryAfter_.clear();
  bad_.clear();
  skip_.clear();
  scanDue_ = Steady::now();
}

void ModemInbound::processEvents() {
  while (!session_.needsReset()) {
    std::optional<UnsolicitedLine> e = session_.takeEvent();
    if (!e) return;
    switch (e->urc.kind) {
      case Urc::Kind::kNewMessageStored:
      case Urc::Kind::kStatusReportStored:
        if (!isStorageName(e->urc.storage)) break;
        session_.addStorage(e->urc.storage);
        readStored(StoredLocation{e->urc.storage, e->urc.index});
        break;
      case Urc::Kind::kNewMessage:
        onDirectMessage(*e);
        break;
      case Urc::Kind::kStatusReport:
        onDirectReport(*e);
        break;
      default:
        break;
    }
  }
}

// --- direct (+CMT / +CDS) -----------------------------------------------------------------------

void ModemInbound::onDirectMessage(const UnsolicitedLine& e) {
  const std::string params = afterColon(e.urc.header);
  std::optional<ReceivedPart> part;
  if (session_.pduMode()) {
    const auto length = parseAtInteger(lastParameter(params), 0, 255);
    auto pdu = decodeIncoming(e.body, length ? std::optional<int>(*length) : std::nullopt);
    if (pdu && std::holds_alternative<DeliverPdu>(*pdu)) {
      auto p = partOf(std::get<DeliverPdu>(*pdu));
      if (p)
        part = std::move(*p);
      else
        pdu = p.error();
    }
    if (!part) {
      undecodableDirect("+CMT", pdu ? "not an SMS-DELIVER" : pdu.error().message);
      return;
    }
  } else {
    auto header = parseTextDeliverHeader(params, 0);
    if (!header) {
      undecodableDirect("+CMT", header.error().message);
      return;
    }
    part = ReceivedPart{header->originator, std::nullopt, textModeReceived(e.body),
                        header->timestamp, std::nullopt};
  }
  const bool multiPart = part->concat && part->concat->total > 1;
  const Disposition d = handlePart(std::move(*part), /*keepOnRefusal=*/multiPart);
  // A part of a longer message is held in memory from here on (docs/sms-modem.md).
  acknowledge(multiPart || d != Disposition::kRefused);
}

void ModemInbound::onDirectReport(const UnsolicitedLine& e) {
  const std::string params = afterColon(e.urc.header);
  Result<StatusReportPdu> report = makeError("not a status report");
  if (session_.pduMode()) {
    const auto length = parseAtInteger(lastParameter(params), 0, 255);
    auto pdu = decodeIncoming(e.body, length ? std::optional<int>(*length) : std::nullopt);
    if (pdu && std::holds_alternative<StatusReportPdu>(*pdu)) {
      report = std::get<StatusReportPdu>(*pdu);
    } else if (!pdu) {
      report = pdu.error();
    }
  } else {
    report = parseTextStatusReport(params);
  }
  if (!report) {
    undecodableDirect("+CDS", report.error().message);
    return;
  }
  acknowledge(handleReport(*report) != Disposition::kRefused);
}

void ModemInbound::undecodableDirect(const char* what, const std::string& why) {
  // Nothing can be committed from it; a negative acknowledgement would only bring it back.
  health_.setError(std::string("unreadable ") + what + " dropped: " + why);
  health_.update([](ModemHealth& h) { ++h.undecodable; });
  acknowledge(true);
}

// +CNMA is expected only with the phase 2+ service (AT+CSMS=1).
void ModemInbound::acknowledge(bool positive) {
  if (session_.service() != 1) return;
  if (positive) {
    (void)session_.at("AT+CNMA", config_.commandTimeout);
  } else if (session_.pduMode()) {
    (void)session_.at("AT+CNMA=2", config_.commandTimeout);  // RP-ERROR: the network retries
  }
  // Text mode has no negative acknowledgement: the modem times out, and may turn routing off.
  else {
    session_.requestReinit();
  }
}

// --- stored (+CMTI / +CDSI, scans) --------------------------------------------------------------

bool ModemInbound::held(const StoredLocation& loc) const {
  if (reassembler_.holds(loc) || bad_.contains(loc) || skip_.contains(loc)) return true;
  const auto r = retryAfter_.find(loc);
  if (r != retryAfter_.end() && config_.now() < r->second) return true;
  for (const PendingDelivery& p : pending_) {
    if (std::find(p.message.locations.begin(), p.message.locations.end(), loc) !=
        p.message.locations.end())
      return true;
  }
  return false;
}

void ModemInbound::readStored(const StoredLocation& loc) {
  if (held(loc) || !session_.selectStorage(loc.storage)) return;
  const AtResponse r = session_.at("AT+CMGR=" + std::to_string(loc.index), config_.commandTimeout);
  if (!r.ok()) return;  // gone already (+CMS ERROR: 321), or accounted as a failure
  auto message = parseReadMessage(r.lines);
  if (!message) return;
  processStored(loc, *message);
}

void ModemInbound::scanStorage() {
  scanDue_ = Steady::now() + config_.storageScanInterval;
  const auto now = config_.now();
  std::erase_if(retryAfter_, [&](const auto& r) { return r.second <= now; });  // read again
  std::set<std::string> storages = session_.storages();
  if (!session_.currentStorage().empty()) storages.insert(session_.currentStorage());
  if (storages.empty()) storages.insert("");  // the modem's default, whatever it is called
  for (const std::string& storage : storages) {
    if (!storage.empty() && !session_.selectStorage(storage)) continue;
    const std::string list = session_.pduMode() ? "AT+CMGL=4" : "AT+CMGL=\"ALL\"";
    const AtResponse r = session_.at(list, config_.commandTimeout * 4);
    if (!r.ok()) continue;
    std::vector<std::string> errors;
    for (const StoredMessage& m : parseMessageList(r.lines, errors)) {
      const StoredLocation loc{storage.empty() ? session_.currentStorage() : storage, m.index};
      if (!held(loc)) processStored(loc, m);
      if (session_.needsReset()) return;
    }
    if (!errors.empty()) health_.update([&](ModemHealth& h) { h.garbageLines += errors.size(); });
  }
  session_.readStorageStatus();
}

void ModemInbound::markBad(const StoredLocation& loc, const std::string& why) {
  bad_.insert(loc);
  health_.setError("stored message " + loc.storage + "/" + std::to_string(loc.index) +
                   " cannot be read (left in storage): " + why);
  health_.update([&](ModemHealth& h) { h.undecodable = static_cast<int>(bad_.size()); });
}

void ModemInbound::processStored(const StoredLocation& loc, const StoredMessage& m) {
  Disposition d = Disposition::kIgnored;
  bool isReport = false;
  if (session_.pduMode()) {
    if (m.status == 2 || m.status == 3) {  // an outgoing message someone saved on the SIM
      skip_.insert(loc);
      return;
    }
    const auto length = parseAtInteger(lastParameter(m.header), 0, 255);
    auto pdu = decodeIncoming(m.body, length ? std::optional<int>(*length) : std::nullopt);
    if (!pdu) return markBad(loc, pdu.error().message);
    if (auto* deliver = std::get_if<DeliverPdu>(&*pdu)) {
      auto part = partOf(*deliver);
      if (!part) return markBad(loc, part.error().message);
      part->location = loc;
      d = handlePart(std::move(*part), false);
    } else {
      isReport = true;
      d = handleReport(std::get<StatusReportPdu>(*pdu));
    }
  } else {
    const std::vector<std::string> p = splitAtParameters(m.header);
    const std::size_t statusAt = m.index >= 0 ? 1 : 0;
    if (p.size() > statusAt && p[statusAt].rfind("STO", 0) == 0) {
      skip_.insert(loc);
      return;
    }
    auto header = parseTextDeliverHeader(m.header, m.index >= 0 ? 2 : 1);
    if (!header) return markBad(loc, header.error().message);
    d = handlePart(ReceivedPart{header->originator, std::nullopt, textModeReceived(m.body),
                                header->timestamp, loc},
                   false);
  }
  if (d == Disposition::kRefused) {
    retryAfter_[loc] = config_.now() + config_.refusedRetryInterval;
  } else if (isReport) {
    deleteStored(loc);  // committed, or nothing to commit (unknown or intermediate report)
  }
}

void ModemInbound::deleteStored(const StoredLocation& loc) {
  if (!session_.selectStorage(loc.storage)) return;
  const AtResponse r = session_.at("AT+CMGD=" + std::to_string(loc.index), config_.commandTimeout);
  if (!r.ok() && !r.silent()) health_.setError(r.describe("AT+CMGD"));  // read again, deduplicated
  retryAfter_.erase(loc);
}

// --- messages and reports -----------------------------------------------------------------------

ModemInbound::Disposition ModemInbound::handlePart(ReceivedPart part, bool keepOnRefusal) {
  const ConcatReassembler::Repeat repeat = reassembler_.repeatOf(part, config_.now());
  if (repeat != ConcatReassembler::Repeat::kNo) {
    dropRepeat(part, repeat == ConcatReassembler::Repeat::kFirst);
    return Disposition::kCommitted;  // handled already: acknowledged, its stored copy deleted
  }
  auto message = reassembler_.add(std::move(part), config_.now());
  if (!message) return Disposition::kHeld;
  return deliver(std::move(*message), keepOnRefusal);
}

ModemInbound::Disposition ModemInbound::deliver(AssembledMessage message, bool keepOnRefusal) {
  InboundSms in;
  in.providerId = "gsm:" + toHex(sha256(asBytes(message.identity))).substr(0, 32);
  in.from = message.originator;
  in.to = config_.ownNumber;
  in.body = message.text;
  in.receivedAt = message.firstTimestamp.utc().value_or(config_.now());
  Status s;
  try {
    s = sink_.acceptInbound(in);
  } catch (...) {
    s = makeError("the sink threw");
  }
  if (s) {
    reassembler_.remember(message, config_.now());
    health_.update([](ModemHealth& h) { ++h.received; });
    for (const StoredLocation& loc : message.locations) deleteStored(loc);
    return Disposition::kCommitted;
  }
  health_.update([&](ModemHealth& h) {
    ++h.refusedBySink;
    h.lastError = "the inbox refused a message (kept, offered again later): " + s.message();
  });
  if (message.locations.empty() && keepOnRefusal) {
    pending_.push_back({std::move(message), config_.now() + config_.refusedRetryInterval});
  } else {
    for (const StoredLocation& loc : message.locations)
      retryAfter_[loc] = config_.now() + config_.refusedRetryInterval;
  }
  return Disposition::kRefused;
}

void ModemInbound::dropRepeat(const ReceivedPart& part, bool firstRepeat) {
  health_.update([](ModemHealth& h) { ++h.duplicateParts; });
  if (firstRepeat && config_.onNotice) {
    const ConcatInfo& c = *part.concat;
    ModemNotice notice;
    notice.kind = ModemNotice::Kind::kRepeatedPart;
    notice.number = part.originator;
    notice.detail = "part " + std::to_string(c.sequence) + " of " + std::to_string(c.total) +
                    ", reference " + std::to_string(c.reference);
    try {
      config_.onNotice(notice);
    } catch (...) {  // a log line is not worth the worker
    }
  }
  if (part.location) deleteStored(*part.location);
}

ModemInbound::Disposition ModemInbound::handleReport(const StatusReportPdu& report) {
  switch (reports_.applyReport(report)) {
    case ReportOutcome::kCommitted:
      return Disposition::kCommitted;
    case ReportOutcome::kRefused:
      return Disposition::kRefused;
    case ReportOutcome::kIgnored:
      break;
  }
  return Disposition::kIgnored;
}

// --- timers -------------------------------------------------------------------------------------

void ModemInbound::runTimers() {
  const auto now = config_.now();
  for (AssembledMessage& m : reassembler_.expire(now)) {
    deliver(std::move(m), true);
    if (session_.needsReset()) return;
  }
  std::vector<PendingDelivery> due;
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->retryAt <= now) {
      due.push_back(std::move(*it));
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
  for (PendingDelivery& p : due) deliver(std::move(p.message), true);
  if (Steady::now() >= scanDue_ || retryDue(now)) scanStorage();
}

bool ModemInbound::retryDue(SmsClock::time_point now) const {
  return std::any_of(retryAfter_.begin(), retryAfter_.end(),
                     [&](const auto& r) { return r.second <= now; });
}

ModemInbound::Steady::time_point ModemInbound::nextDue(Steady::time_point steadyNow,
                                                       SmsClock::time_point now) const {
  const auto inSteady = [&](SmsClock::time_point t) {
    return steadyNow + std::chrono::duration_cast<Steady::duration>(t - now);
  };
  auto next = scanDue_;
  if (const auto d = reassembler_.nextDeadline()) next = std::min(next, inSteady(*d));
  for (const PendingDelivery& p : pending_) next = std::min(next, inSteady(p.retryAt));
  for (const auto& [loc, at] : retryAfter_) next = std::min(next, inSteady(at));
  return next;
}

}  // namespace atoms::drivers::modem
