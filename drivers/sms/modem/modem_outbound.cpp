#include "drivers/sms/modem/modem_outbound.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

#include "drivers/sms/modem/at_parser.h"
#include "drivers/sms/modem/submit_builder.h"
#include "drivers/sms/modem/text_mode.h"

namespace atoms::drivers::modem {

namespace {

std::string digitsOnly(std::string_view number) {
  std::string out;
  for (char c : number) {
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) out.push_back(c);
  }
  return out;
}

// The recipient of a status report may come back in another format (national vs international):
// the same number when the digits agree, or one ends with the other (at least 6 digits).
bool sameNumber(std::string_view a, std::string_view b) {
  const std::string da = digitsOnly(a), db = digitsOnly(b);
  if (da == db) return !da.empty();
  const std::string& longer = da.size() > db.size() ? da : db;
  const std::string& shorter = da.size() > db.size() ? db : da;
  return shorter.size() >= 6 &&
         longer.compare(longer.size() - shorter.size(), shorter.size(), shorter) == 0;
}

std::int64_t epochMillis(SmsClock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

}  // namespace

// --- +CMS ERROR --------------------------------------------------------------------------------

SendErrorCause cmsErrorCause(int code) {
  switch (code) {
    case 1:   // unassigned (unallocated) number
    case 8:   // operator determined barring
    case 10:  // call barred
    case 21:  // short message transfer rejected
    case 22:  // memory capacity exceeded (the recipient's)
    case 27:  // destination out of service
    case 28:  // unidentified subscriber
    case 30:  // unknown subscriber
      return SendErrorCause::kRecipient;
    case 96:   // invalid mandatory information
    case 97:   // message type non-existent or not implemented
    case 99:   // information element non-existent or not implemented
    case 304:  // invalid PDU mode parameter
    case 305:  // invalid text mode parameter
      return SendErrorCause::kContent;
    default:
      return SendErrorCause::kTransport;
  }
}

// After these, sending the same message again cannot succeed: the number or the subscription is
// wrong, or the PDU itself.
bool cmsErrorIsRetryable(int code) {
  switch (code) {
    case 1:    // unassigned (unallocated) number
    case 8:    // operator determined barring
    case 10:   // call barred
    case 21:   // short message transfer rejected
    case 28:   // unidentified subscriber
    case 29:   // facility rejected
    case 30:   // unknown subscriber
    case 50:   // requested facility not subscribed
    case 96:   // invalid mandatory information
    case 97:   // message type non-existent or not implemented
    case 111:  // protocol error, unspecified
    case 304:  // invalid PDU mode parameter
    case 305:  // invalid text mode parameter
      return false;
    default:
      return true;
  }
}

// --- SubmitEncoder ------------------------------------------------------------------------------

SubmitEncoder::SubmitEncoder(const ModemConfig& config, std::uint8_t firstReference)
    : config_(config), nextReference_(firstReference) {}

std::optional<SendError> SubmitEncoder::encode(ModemJob& job) {
  const OutboundSms& message = job.message;
  if (config_.mode == ModemConfig::Mode::kPdu) {
    SubmitSettings settings{config_.smsc, config_.requestStatusReports, config_.validity};
    const std::uint8_t reference = nextReference_++;
    auto submits = buildSubmits(message.to, message.body, settings, reference);
    if (!submits) return SendError{false, submits.error().message};
    if (submits->size() > 1) job.concatReference = reference;
    for (const SubmitPdu& s : *submits) {
      auto pdu = encodeSubmit(s);
      if (!pdu) return SendError{false, pdu.error().message};
      job.pdus.push_back(std::move(*pdu));
    }
    return std::nullopt;
  }
  if (!isDialableNumber(message.to))
    return SendError{false, "destination \"" + message.to + "\" is not a phone number"};
  auto text = textModeBody(message.body);
  if (!text) return SendError{false, text.error().message};
  job.text = std::move(*text);
  return std::nullopt;
}

// --- ModemOutbound ------------------------------------------------------------------------------

ModemOutbound::ModemOutbound(const ModemConfig& config, ModemSession& session, HealthBoard& health,
                             SmsSink& sink, std::unique_ptr<SendJournal> journal,
                             const SubmitEncoder& encoder)
    : config_(config),
      session_(session),
      health_(health),
      sink_(sink),
      journal_(std::move(journal)),
      encoder_(encoder) {
  if (journal_) {
    for (JournalSend& s : journal_->acceptedSends()) outstanding_.push_back({std::move(s), false});
  }
}

ReconcileResult ModemOutbound::reconcile(const std::string& idempotencyKey,
                                         SmsClock::time_point since) {
  if (!journal_) return ReconcileResult{};
  return journal_->reconcile(idempotencyKey, since);
}

SendResult ModemOutbound::send(const ModemJob& job) {
  const std::string& key = job.message.idempotencyKey;
  const bool pduMode = session_.pduMode();
  const std::size_t parts = pduMode ? job.pdus.size() : 1;
  if (journal_) {
    const JournalAttempt attempt{static_cast<int>(parts), job.concatReference,
                                 pduMode ? encoder_.nextReference() : -1};
    if (Status s = journal_->recordAttempt(key, config_.now(), attempt); !s)
      return SendError{true, "cannot record the send before it happens: " + s.message()};
  }
  std::vector<int> references;
  for (std::size_t i = 0; i < parts; ++i) {
    const bool last = i + 1 == parts;
    if (last && parts > 1 && journal_) {
      // Before the part that can make the text whole on the recipient's phone: a crash before this
      // record leaves an incomplete text there, which a resend under a new reference cannot join.
      if (Status s = journal_->recordLastPart(key, config_.now()); !s) {
        (void)journal_->recordPartial(key, config_.now());
        return SendError{true, "cannot record the last part before sending it: " + s.message() +
                                   "; the earlier parts went out, a retry sends the whole text "
                                   "again under a new reference"};
      }
    }
    std::string command, payload;
    if (pduMode) {
      command = "AT+CMGS=" + std::to_string(job.pdus[i].tpduLength);
      payload = job.pdus[i].hex;
    } else {
      command = "AT+CMGS=\"" + job.message.to + "\"";
      payload = job.text;
    }
    const AtResponse r = session_.submit(command, payload);
    if (r.ok()) {
      std::optional<int> mr;
      for (const std::string& line : r.lines) {
        if (!mr) mr = parseMessageReference(line);
      }
      if (!mr) session_.failure("AT+CMGS answered OK without a message reference");
      references.push_back(mr.value_or(-1));
      continue;
    }
    // Sure that nothing of this part went out: an error answer, or no prompt.
    const bool refused =
        r.outcome == AtResponse::Outcome::kError || r.outcome == AtResponse::Outcome::kNoPrompt;
    const bool cms =
        r.outcome == AtResponse::Outcome::kError && r.final.kind == FinalResult::Kind::kCmsError;
    if (cms) tellRefused(job, r);
    const std::string what =
        cms ? "+CMS ERROR: " + std::to_string(r.final.code) : r.describe("AT+CMGS");
    if (references.empty() && refused) {
      if (journal_) (void)journal_->recordRefused(key, config_.now());
      const bool retryable = !cms || cmsErrorIsRetryable(r.final.code);
      SendError error{retryable, (cms ? "the modem refused to send the message (" + what + ")"
                                      : "the modem did not send the message: " + what)};
      if (cms) error.cause = cmsErrorCause(r.final.code);
      return error;
    }
    if (!last || refused) {
      // The last part did not go out: the recipient holds at most an incomplete text.
      if (journal_) (void)journal_->recordPartial(key, config_.now());
      return SendError{true, "part " + std::to_string(i + 1) + " of " + std::to_string(parts) +
                                 (cms ? " was refused by the modem (" : " failed (") + what +
                                 ") after the earlier parts were sent; a retry sends the whole "
                                 "text again under a new reference"};
    }
    if (journal_) (void)journal_->recordUncertain(key, config_.now());
    SendError uncertain{true, parts == 1
                                  ? "no answer after the message was handed to the modem (" + what +
                                        "); it may have been sent"
                                  : "no answer after the last part of " + std::to_string(parts) +
                                        " was handed to the modem (" + what +
                                        "); the whole text may have been sent"};
    uncertain.maybeAccepted = true;
    return uncertain;
  }
  JournalSend sent;
  sent.to = job.message.to;
  sent.references = references;
  sent.partStates.resize(references.size());
  sent.at = config_.now();
  sent.providerId = "mr:";
  for (std::size_t i = 0; i < references.size(); ++i)
    sent.providerId += (i ? "," : "") + std::to_string(references[i]);
  sent.providerId += "@" + std::to_string(epochMillis(sent.at));
  if (journal_) {
    if (Status s = journal_->recordAccepted(key, sent); !s) health_.setError(s.message());
  }
  if (config_.requestStatusReports) {
    outstanding_.push_back({sent, false});
    pruneOutstanding();
  }
  health_.update([](ModemHealth& h) { ++h.sent; });
  return SendAccepted{sent.providerId, static_cast<int>(parts)};
}

void ModemOutbound::tellRefused(const ModemJob& job, const AtResponse& r) {
  health_.update([](ModemHealth& h) { ++h.sendsRefused; });
  if (!config_.onNotice) return;
  ModemNotice notice;
  notice.kind = ModemNotice::Kind::kSendRefused;
  notice.number = job.message.to;
  notice.cmsError = r.final.code;
  notice.detail = r.describe("AT+CMGS");
  try {
    config_.onNotice(notice);
  } catch (...) {  // a log line is not worth the worker
  }
}

void ModemOutbound::pruneOutstanding() {
  const auto cutoff = config_.now() - config_.journalRetention;
  std::erase_if(outstanding_, [&](const Outstanding& o) { return o.send.at < cutoff; });
  constexpr std::size_t kMaxOutstanding = 4096;
  if (outstanding_.size() > kMaxOutstanding)
    outstanding_.erase(
        outstanding_.begin(),
        outstanding_.begin() + static_cast<long>(outstanding_.size() - kMaxOutstanding));
}

ReportOutcome ModemOutbound::applyReport(const StatusReportPdu& report) {
  Outstanding* match = nullptr;
  std::size_t part = 0;
  for (auto it = outstanding_.rbegin(); it != outstanding_.rend() && match == nullptr; ++it) {
    if (!sameNumber(it->send.to, report.recipient.text)) continue;
    for (std::size_t i = 0; i < it->send.references.size(); ++i) {
      if (it->send.references[i] == report.messageReference) {
        match = &*it;
        part = i;
        break;
      }
    }
  }
  if (match == nullptr) return ReportOutcome::kIgnored;  // not one of ours, or too old
  const DeliveryState state = deliveryStateOfStatus(report.status);
  if (state == DeliveryState::kSent) return ReportOutcome::kIgnored;  // the SMSC is still trying
  JournalSend& send = match->send;
  if (!send.partStates[part] || *send.partStates[part] != state) {
    send.partStates[part] = state;
    if (journal_) {
      if (Status s = journal_->recordPartState(send.providerId, part, state, config_.now()); !s)
        health_.setError(s.message());
    }
  }
  if (match->reported) return ReportOutcome::kIgnored;
  std::optional<DeliveryState> overall;
  if (std::all_of(send.partStates.begin(), send.partStates.end(),
                  [](const auto& s) { return s && *s == DeliveryState::kDelivered; })) {
    overall = DeliveryState::kDelivered;
  } else if (state != DeliveryState::kDelivered) {
    overall = state;
  }
  if (!overall) return ReportOutcome::kIgnored;  // other parts still to come
  DeliveryReport out;
  out.providerId = send.providerId;
  out.state = *overall;
  if (*overall != DeliveryState::kDelivered) out.errorCode = std::to_string(report.status);
  out.at = report.discharge.utc().value_or(config_.now());
  Status s;
  try {
    s = sink_.acceptReport(out);
  } catch (...) {
    s = makeError("the sink threw");
  }
  if (!s) {
    health_.update([&](ModemHealth& h) {
      ++h.refusedBySink;
      h.lastError = "the outbox refused a delivery report (offered again later): " + s.message();
    });
    return ReportOutcome::kRefused;
  }
  match->reported = true;
  health_.update([](ModemHealth& h) { ++h.reports; });
  return ReportOutcome::kCommitted;
}

}  // namespace atoms::drivers::modem
