#include "sms/conversation/outreach.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "base/canonical_json.h"
#include "sms/conversation/offers_pause.h"
#include "sms/conversation/why_text.h"
#include "sms/mailbox/message_checks.h"
#include "store/audit_entry.h"

namespace atoms::sms::conversation {

namespace {

using std::chrono::floor;
using std::chrono::local_seconds;
using std::chrono::seconds;
using std::chrono::sys_seconds;

constexpr std::size_t kReleaseBatch = 64;
constexpr int kMaxReleaseRounds = 1000;
constexpr std::string_view kLintRule = "sms.content_lint";
constexpr std::string_view kFrozenTooLong = "outreach.frozen_too_long";

constexpr std::array<std::string_view, 7> kSourceKinds = {"org",    "mirror",  "memory",  "service",
                                                          "policy", "message", "decision"};

std::string label(std::string_view id) { return "SMS " + std::string(id) + ": "; }

std::string formatDay(local_seconds t) {
  const std::chrono::year_month_day ymd{floor<std::chrono::days>(t)};
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return buf;
}

std::string formatLocalMinute(local_seconds t) {
  const auto day = floor<std::chrono::days>(t);
  const auto minutes = floor<std::chrono::minutes>(t - day).count();
  char buf[32];
  std::snprintf(buf, sizeof buf, "T%02d:%02d", static_cast<int>(minutes / 60),
                static_cast<int>(minutes % 60));
  return formatDay(t) + buf;
}

std::string quietWindow(const OutreachSettings& s) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%02d:%02d-%02d:%02d", s.quietStartMinute / 60,
                s.quietStartMinute % 60, s.quietEndMinute / 60, s.quietEndMinute % 60);
  return buf;
}

mailbox::MessageClass mailboxClass(MessageClass judgedAs) {
  switch (judgedAs) {
    case MessageClass::kThreadReply:
    case MessageClass::kOptOutConfirmation:
      return mailbox::MessageClass::kReply;
    case MessageClass::kSafetyAlert:
      return mailbox::MessageClass::kSafety;
    case MessageClass::kEscalation:
    case MessageClass::kOffer:
    case MessageClass::kNotice:
      return mailbox::MessageClass::kOutreach;
  }
  return mailbox::MessageClass::kOutreach;
}

std::string_view ruleResult(const OutreachDecision& d) {
  switch (d.verdict) {
    case OutreachVerdict::kSendNow:
      return "pass";
    case OutreachVerdict::kHold:
      return d.reason == OutreachReason::kDailyCap ? "threshold_exceeded" : "fail";
    case OutreachVerdict::kRefuse:
      return "fail";
  }
  return "fail";
}

Status checkRequest(const OutreachRequest& r) {
  if (!mailbox::isToken(r.id)) {
    return makeError("SMS request: id must be 1-128 printable characters without spaces");
  }
  if (!mailbox::isE164(r.to)) {
    return makeError(label(r.id) + "recipient is not an E.164 number (+ and 8-15 digits)");
  }
  if (r.body.empty()) return makeError(label(r.id) + "body is empty");
  if (Status s = mailbox::checkBody(r.body); !s) return makeError(label(r.id) + s.message());
  if (r.actor.empty() || !json::isValidUtf8(r.actor)) {
    return makeError(label(r.id) + "actor must be non-empty UTF-8");
  }
  if (!json::isValidUtf8(r.ref)) return makeError(label(r.id) + "ref is not valid UTF-8");
  for (std::size_t i = 0; i < r.sources.size(); ++i) {
    const ReceiptSource& s = r.sources[i];
    const std::string at = label(r.id) + "sources[" + std::to_string(i) + "].";
    if (std::find(kSourceKinds.begin(), kSourceKinds.end(), s.kind) == kSourceKinds.end()) {
      return makeError(at +
                       "kind must be one of org, mirror, memory, service, policy, message, "
                       "decision");
    }
    if (s.ref.empty() || !json::isValidUtf8(s.ref)) {
      return makeError(at + "ref must be non-empty UTF-8");
    }
    if (!json::isValidUtf8(s.label)) return makeError(at + "label is not valid UTF-8");
  }
  return Status::success();
}

std::string sourcesJson(const std::vector<ReceiptSource>& sources) {
  json::Array out;
  for (const ReceiptSource& s : sources) {
    out.push_back(json::Object{{"kind", s.kind}, {"ref", s.ref}, {"label", s.label}});
  }
  return json::canonical(json::Value(std::move(out)));
}

json::Object source(int& n, std::string_view kind, std::string_view ref, std::string_view text,
                    const std::string& asOf) {
  return json::Object{{"n", n++}, {"kind", kind}, {"ref", ref}, {"label", text}, {"asOf", asOf}};
}

}  // namespace

std::string_view outreachOutcomeName(OutreachOutcome outcome) {
  switch (outcome) {
    case OutreachOutcome::kQueued:
      return "queued";
    case OutreachOutcome::kHeld:
      return "held";
    case OutreachOutcome::kRefused:
      return "refused";
    case OutreachOutcome::kWithdrawn:
      return "withdrawn";
  }
  return "refused";
}

struct Outreach::Facts {
  std::optional<Contact> contact;
  ContactState state;
  RecipientState recipient;
  local_seconds localNow{};
  std::string day;
};

Outreach::Outreach(atoms::StoreRunner& store, mailbox::Outbox& outbox, const Roster& roster,
                   const SiteTime& siteTime, ConversationSettings settings, atoms::NowFunction now)
    : store_(store),
      outbox_(outbox),
      roster_(roster),
      siteTime_(siteTime),
      settings_(std::move(settings)),
      now_(std::move(now)) {}

std::string Outreach::localDay(TimePoint t) const {
  return formatDay(siteTime_.toLocal(floor<seconds>(t)));
}

Result<Outreach::Facts> Outreach::gather(Database& db, ConversationTables& tables,
                                         const LedgerRow& row, TimePoint now) {
  Facts f;
  f.contact = roster_.findByPhone(row.phone);
  auto state = tables.contactState(row.phone);
  if (!state) return state.error();
  f.state = std::move(*state);
  f.localNow = siteTime_.toLocal(floor<seconds>(now));
  f.day = formatDay(f.localNow);
  f.recipient.smsConsent = f.contact && f.contact->smsConsent;
  f.recipient.urgentDuringQuietHours = f.contact && f.contact->urgentAtNight;
  f.recipient.optedOut = f.state.optedOut;
  f.recipient.optOutConfirmationSent = f.state.optOutConfirmed;
  auto paused = OffersPause(db).pausedSince(row.phone);
  if (!paused) return paused.error();
  f.recipient.offersPaused = paused->has_value();
  if (f.state.lastInboundAt) {
    f.recipient.sinceLastInbound =
        std::max(seconds(0), floor<seconds>(now - *f.state.lastInboundAt));
  }
  auto capped = tables.countQueued(row.phone, f.day, std::nullopt);
  if (!capped) return capped.error();
  f.recipient.cappedSentToday = *capped;
  auto replies = tables.countQueued(row.phone, f.day, MessageClass::kThreadReply);
  if (!replies) return replies.error();
  f.recipient.threadRepliesToday = *replies;
  return f;
}

Result<OutreachResult> Outreach::send(const OutreachRequest& request) {
  std::optional<Result<OutreachResult>> out;
  Status status = store_.run([&](SiteStore& store) -> Status {
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    Attempt attempt = attemptIn(store, *batch, request);
    // Only a success or the lint's refusal (which carries its receipt) is committed; any other
    // error may have left partial writes, which the batch's destructor rolls back.
    if (attempt.commit) {
      if (auto committed = batch->commit(); !committed) return committed.error();
    }
    out = std::move(attempt.result);
    return Status::success();
  });
  if (!status) return status.error();
  return std::move(*out);
}

Result<OutreachResult> Outreach::sendIn(SiteStore& store, AuditLog::Batch& batch,
                                        const OutreachRequest& request) {
  return attemptIn(store, batch, request).result;
}

Outreach::Attempt Outreach::attemptIn(SiteStore& store, AuditLog::Batch& batch,
                                      const OutreachRequest& request) {
  if (Status s = checkRequest(request); !s) return {s.error(), false};
  const TimePoint now = now_();
  ConversationTables tables(store.db());

  auto existing = tables.findMessage(request.id);
  if (!existing) return {existing.error(), false};
  if (*existing) {
    const LedgerRow& row = **existing;
    if (row.phone != request.to || row.body != request.body || row.kind != request.kind) {
      return {makeError(label(request.id) + "the id is already used for a different message"),
              false};
    }
    OutreachResult r;
    r.id = row.id;
    r.outcome = row.state == LedgerState::kQueued    ? OutreachOutcome::kQueued
                : row.state == LedgerState::kHeld    ? OutreachOutcome::kHeld
                : row.state == LedgerState::kRefused ? OutreachOutcome::kRefused
                                                     : OutreachOutcome::kWithdrawn;
    r.reason = row.reason;
    r.explanation = "already decided: " + row.reason;
    r.holdUntil = row.holdUntil;
    if (auto plan = drivers::planSegments(row.body)) {
      r.segments = static_cast<int>(plan->segments.size());
      r.encoding = plan->encoding;
    }
    if (row.receiptSeq) r.receiptSeq = static_cast<std::uint64_t>(*row.receiptSeq);
    r.repeated = true;
    return {r, true};
  }

  if (auto findings = lint_.check(request.body); !findings.empty()) {
    if (Status recorded = recordLintRefusal(batch, request, findings, now); !recorded) {
      return {recorded.error(), false};
    }
    return {makeError(label(request.id) + "not sent: its text fails the content check: " +
                      ContentLint::describe(findings)),
            true};
  }

  LedgerRow row;
  row.id = request.id;
  row.phone = request.to;
  row.kind = request.kind;
  row.urgent = request.urgent;
  row.body = request.body;
  row.ref = request.ref;
  row.inReplyTo = request.inReplyTo;
  row.sources = sourcesJson(request.sources);
  row.actor = request.actor;
  row.notAfter = request.notAfter;
  row.whyReply = request.whyReply;
  row.createdAt = now;
  auto decided = decide(store, batch, row, true, now, std::nullopt);
  const bool ok = decided.ok();
  return {std::move(decided), ok};
}

Status Outreach::recordLintRefusal(AuditLog::Batch& batch, const OutreachRequest& request,
                                   const std::vector<LintFinding>& findings, TimePoint now) {
  const std::string ts = formatTimestamp(now);
  const std::string described = ContentLint::describe(findings);
  json::Array categories;
  for (const LintFinding& f : findings) categories.push_back(lintCategoryName(f.category));
  int n = 1;
  json::Array sources;
  for (const ReceiptSource& s : request.sources) {
    sources.push_back(source(n, s.kind, s.ref, s.label, ts));
  }
  sources.push_back(source(n, "policy", kLintRule, "the forbidden-content lint", ts));
  json::Object receipt{
      {"id", "sms-" + request.id + "-lint"},
      {"createdAt", ts},
      {"sources", std::move(sources)},
      {"snapshot", json::Array{}},
      {"ruleEvaluations",
       json::Array{json::Object{
           {"ruleId", kLintRule},
           {"input", json::Object{{"characters", static_cast<std::int64_t>(
                                                     drivers::countCodePoints(request.body))},
                                  {"categories", std::move(categories)}}},
           {"result", "fail"},
           {"detail", described}}}},
      {"rationale", "Not sent: the text reads as forbidden content; the caller must reword it."},
      {"confidence", "1"},
      {"gaps", json::Array{}},
      {"visibility", "self_mor"},
      {"action", "sms.send"},
      {"outcome", "refused"},
      {"reason", kLintRule},
      {"messageId", request.id},
      {"messageClass", messageClassName(request.kind)},
      {"recipient", mailbox::maskNumber(request.to)},
  };
  auto seq = batch.addReceipt(ts, request.actor, json::Value(std::move(receipt)));
  if (!seq) return seq.error();
  return Status::success();
}

Result<OutreachResult> Outreach::decide(SiteStore& store, AuditLog::Batch& batch, LedgerRow& row,
                                        bool isNew, TimePoint now,
                                        const std::optional<std::int64_t>& previousReceipt) {
  ConversationTables tables(store.db());
  auto facts = gather(store.db(), tables, row, now);
  if (!facts) return facts.error();
  auto plan = drivers::planSegments(row.body);
  if (!plan) return makeError(label(row.id) + "body " + plan.message());

  OutreachInput in;
  in.message.kind = row.kind;
  in.message.urgent = row.urgent;
  if (row.notAfter) in.message.notAfter = siteTime_.toLocal(floor<seconds>(*row.notAfter));
  in.recipient = facts->recipient;
  in.settings = settings_.outreach;
  in.outreachFrozen = frozen_.load();
  in.now = facts->localNow;
  const OutreachDecision d = decideOutreach(in);
  const std::string previousReason = row.reason;

  row.reason = std::string(outreachReasonCode(d.reason));
  row.localDay = facts->day;
  row.countsCap = d.countsTowardCap;
  row.holdUntil.reset();
  row.decisions += 1;
  row.updatedAt = now;
  OutreachOutcome outcome = OutreachOutcome::kRefused;
  switch (d.verdict) {
    case OutreachVerdict::kSendNow: {
      mailbox::OutboundRequest out;
      out.id = row.id;
      out.to = row.phone;
      out.body = row.body;
      out.messageClass = mailboxClass(d.judgedAs);
      out.ref = row.ref;
      out.expiresAt = row.notAfter;
      out.actor = row.actor;
      auto queued = outbox_.enqueueIn(store.db(), batch, out);
      if (!queued) return queued.error();
      row.state = LedgerState::kQueued;
      outcome = OutreachOutcome::kQueued;
      if (row.kind == MessageClass::kOptOutConfirmation) {
        facts->state.optOutConfirmed = true;
        if (Status s = tables.saveContactState(facts->state); !s) return s.error();
      }
      break;
    }
    case OutreachVerdict::kHold:
      row.state = LedgerState::kHeld;
      outcome = OutreachOutcome::kHeld;
      if (d.holdUntil) row.holdUntil = TimePoint(siteTime_.toUtc(*d.holdUntil));
      break;
    case OutreachVerdict::kRefuse:
      row.state = LedgerState::kRefused;
      outcome = OutreachOutcome::kRefused;
      break;
  }

  // The receipt.
  const std::string ts = formatTimestamp(now);
  int n = 1;
  json::Array sources;
  auto callerSources = json::parse(row.sources);
  if (callerSources && callerSources->isArray()) {
    for (const json::Value& s : callerSources->asArray()) {
      const json::Value* kind = s.find("kind");
      const json::Value* ref = s.find("ref");
      const json::Value* text = s.find("label");
      if (kind == nullptr || ref == nullptr || text == nullptr) continue;
      sources.push_back(source(n, kind->asString(), ref->asString(), text->asString(), ts));
    }
  }
  if (row.inReplyTo) {
    sources.push_back(source(n, "message",
                             std::string(kInboxSourcePrefix) + std::to_string(*row.inReplyTo),
                             "the text this answers", ts));
  }
  if (facts->contact) {
    sources.push_back(source(n, "org", std::string(kRosterSourcePrefix) + facts->contact->personId,
                             facts->contact->smsConsent
                                 ? "on the site roster, agreed to texts"
                                 : "on the site roster, no consent to texts on file",
                             ts));
  } else {
    sources.push_back(source(n, "org", kUnknownRosterRef, "not on the site roster", ts));
  }
  if (!isNew && !previousReason.empty()) {
    sources.push_back(source(n, "decision", previousReason, "held first: " + previousReason, ts));
  }
  sources.push_back(source(n, "policy", row.reason, d.explanation, ts));

  json::Object ruleInput{
      {"messageClass", messageClassName(row.kind)},
      {"judgedAs", messageClassName(d.judgedAs)},
      {"urgent", row.urgent},
      {"smsConsent", facts->recipient.smsConsent},
      {"optedOut", facts->recipient.optedOut},
      {"optOutConfirmed", facts->recipient.optOutConfirmationSent},
      {"offersPaused", facts->recipient.offersPaused},
      {"outreachFrozen", in.outreachFrozen},
      {"threadRepliesToday", facts->recipient.threadRepliesToday},
      {"cappedSentToday", facts->recipient.cappedSentToday},
      {"dailyCap", settings_.outreach.dailyCap},
      {"quietHours", quietWindow(settings_.outreach)},
      {"localTime", formatLocalMinute(facts->localNow)},
  };
  if (facts->recipient.sinceLastInbound) {
    ruleInput["secondsSinceLastInbound"] =
        static_cast<std::int64_t>(facts->recipient.sinceLastInbound->count());
  }
  json::Object receipt{
      {"id", "sms-" + row.id + "-" + std::to_string(row.decisions)},
      {"createdAt", ts},
      {"sources", std::move(sources)},
      {"snapshot", json::Array{json::Object{{"source", "site_roster"}, {"asOf", ts}},
                               json::Object{{"source", "sms_contact_state"}, {"asOf", ts}}}},
      {"ruleEvaluations",
       json::Array{json::Object{{"ruleId", kLintRule},
                                {"input", json::Object{{"characters",
                                                        static_cast<std::int64_t>(
                                                            drivers::countCodePoints(row.body))}}},
                                {"result", "pass"},
                                {"detail", "no forbidden content"}},
                   json::Object{{"ruleId", "sms.outreach"},
                                {"input", std::move(ruleInput)},
                                {"result", ruleResult(d)},
                                {"detail", d.explanation}}}},
      {"rationale", d.explanation},
      {"confidence", "1"},
      {"gaps",
       facts->contact ? json::Array{} : json::Array{"the number is not on the site roster"}},
      {"visibility", "self_mor"},
      {"action", "sms.send"},
      {"outcome", outreachOutcomeName(outcome)},
      {"reason", row.reason},
      {"messageId", row.id},
      {"messageClass", messageClassName(row.kind)},
      {"recipient", mailbox::maskNumber(row.phone)},
      {"segments", static_cast<std::int64_t>(plan->segments.size())},
      {"encoding", drivers::smsEncodingName(plan->encoding)},
      {"characters", static_cast<std::int64_t>(drivers::countCodePoints(row.body))},
      {std::string(kLocalTimeField), formatLocalMinute(facts->localNow)},
  };
  if (facts->contact) receipt["personId"] = facts->contact->personId;
  if (!row.ref.empty()) receipt["ref"] = row.ref;
  if (row.inReplyTo) receipt["inReplyTo"] = *row.inReplyTo;
  if (row.holdUntil) receipt["holdUntil"] = formatTimestamp(*row.holdUntil);
  if (previousReceipt) receipt["previousReceipt"] = *previousReceipt;
  auto seq = batch.addReceipt(ts, row.actor, json::Value(std::move(receipt)));
  if (!seq) return seq.error();
  row.receiptSeq = static_cast<std::int64_t>(*seq);

  if (isNew) {
    auto inserted = tables.insertMessage(row);
    if (!inserted) return inserted.error();
    row.seq = *inserted;
  } else if (Status s = tables.updateMessage(row); !s) {
    return s.error();
  }

  OutreachResult r;
  r.id = row.id;
  r.outcome = outcome;
  r.reason = row.reason;
  r.explanation = d.explanation;
  r.holdUntil = row.holdUntil;
  r.segments = static_cast<int>(plan->segments.size());
  r.encoding = plan->encoding;
  r.receiptSeq = *seq;
  return r;
}

Result<ReleaseSummary> Outreach::releaseDue(TimePoint now) {
  ReleaseSummary summary;
  for (int round = 0; round < kMaxReleaseRounds; ++round) {
    std::size_t handled = 0;
    Status status = store_.run([&](SiteStore& store) -> Status {
      ConversationTables tables(store.db());
      auto due = tables.dueHeld(now, !frozen_.load(), kReleaseBatch);
      if (!due) return due.error();
      handled = due->size();
      if (due->empty()) return Status::success();
      auto batch = store.log().begin();
      if (!batch) return batch.error();
      ReleaseSummary local;
      for (LedgerRow& row : *due) {
        const std::optional<std::int64_t> previous = row.receiptSeq;
        if (!row.holdUntil && now - row.createdAt > settings_.frozenHoldLimit) {
          const std::string ts = formatTimestamp(now);
          int n = 1;
          json::Object receipt{
              {"id", "sms-" + row.id + "-" + std::to_string(row.decisions + 1)},
              {"createdAt", ts},
              {"sources",
               json::Array{source(n, "decision", row.reason, "held while outreach was frozen", ts),
                           source(n, "policy", kFrozenTooLong,
                                  "withdrawn: held by a freeze for longer than the limit", ts)}},
              {"snapshot", json::Array{}},
              {"ruleEvaluations",
               json::Array{json::Object{
                   {"ruleId", "sms.outreach.frozen_hold_limit"},
                   {"input",
                    json::Object{
                        {"heldHours", static_cast<std::int64_t>(
                                          floor<std::chrono::hours>(now - row.createdAt).count())},
                        {"limitHours",
                         static_cast<std::int64_t>(settings_.frozenHoldLimit.count())}}},
                   {"result", "threshold_exceeded"},
                   {"detail", "stale after the freeze: withdrawn, not sent"}}}},
              {"rationale",
               "Withdrawn: it waited out a freeze for longer than the limit, so it "
               "is no longer current."},
              {"confidence", "1"},
              {"gaps", json::Array{}},
              {"visibility", "self_mor"},
              {"action", "sms.send"},
              {"outcome", "withdrawn"},
              {"reason", kFrozenTooLong},
              {"messageId", row.id},
              {"messageClass", messageClassName(row.kind)},
              {"recipient", mailbox::maskNumber(row.phone)},
          };
          if (previous) receipt["previousReceipt"] = *previous;
          auto seq = batch->addReceipt(ts, "engine", json::Value(std::move(receipt)));
          if (!seq) return seq.error();
          row.state = LedgerState::kWithdrawn;
          row.reason = std::string(kFrozenTooLong);
          row.decisions += 1;
          row.receiptSeq = static_cast<std::int64_t>(*seq);
          row.updatedAt = now;
          if (Status s = tables.updateMessage(row); !s) return s;
          ++local.withdrawn;
          continue;
        }
        auto decided = decide(store, *batch, row, false, now, previous);
        if (!decided) return decided.error();
        switch (decided->outcome) {
          case OutreachOutcome::kQueued:
            ++local.queued;
            break;
          case OutreachOutcome::kHeld:
            ++local.held;
            break;
          case OutreachOutcome::kRefused:
            ++local.refused;
            break;
          case OutreachOutcome::kWithdrawn:
            ++local.withdrawn;
            break;
        }
      }
      if (auto committed = batch->commit(); !committed) return committed.error();
      summary.queued += local.queued;
      summary.held += local.held;
      summary.refused += local.refused;
      summary.withdrawn += local.withdrawn;
      return Status::success();
    });
    if (!status) return status.error();
    if (handled < kReleaseBatch) break;
  }
  return summary;
}

Result<std::optional<TimePoint>> Outreach::nextRelease() {
  std::optional<TimePoint> next;
  Status status = store_.run([&](SiteStore& store) -> Status {
    auto earliest = ConversationTables(store.db()).earliestHoldEnd();
    if (!earliest) return earliest.error();
    next = *earliest;
    return Status::success();
  });
  if (!status) return status.error();
  return next;
}

Result<std::optional<LedgerRow>> Outreach::find(std::string_view id) {
  std::optional<LedgerRow> found;
  Status status = store_.run([&](SiteStore& store) -> Status {
    auto row = ConversationTables(store.db()).findMessage(id);
    if (!row) return row.error();
    found = std::move(*row);
    return Status::success();
  });
  if (!status) return status.error();
  return found;
}

}  // namespace atoms::sms::conversation
