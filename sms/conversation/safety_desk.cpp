#include "sms/conversation/safety_desk.h"

#include <algorithm>

#include "base/unix_time.h"
#include "sms/conversation/safety_texts.h"
#include "sms/mailbox/message_checks.h"
#include "sms/text/tokens.h"
#include "store/audit_entry.h"
#include "store/row_reader.h"

namespace atoms::sms::conversation {

using atoms::toUnixMillis;

struct SafetyDesk::Incident {
  std::int64_t id = 0;
  TimePoint openedAt{};
  std::int64_t inboxId = 0;
  std::string reporter;  // E.164 (or whatever address the message came from)
  std::string personId;
  SafetyCategory category = SafetyCategory::kKeyword;
  bool open = true;
  int rounds = 0;
  std::optional<TimePoint> nextAlertAt;
  std::vector<std::string> recipients;
  std::string acknowledgedBy;
};

namespace {

constexpr std::string_view kColumns =
    "id, opened_at, inbox_id, reporter, person_id, category, state, rounds, next_alert_at,"
    " recipients, acknowledged_by";
// A second report from the same number within this time joins its open incident.
constexpr auto kJoinWindow = std::chrono::minutes(30);

std::string joinPhones(const std::vector<std::string>& phones) {
  std::string out;
  for (const std::string& p : phones) out += (out.empty() ? "" : ",") + p;
  return out;
}

std::vector<std::string> splitPhones(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

json::Array maskedAll(const std::vector<std::string>& phones) {
  json::Array out;
  for (const std::string& p : phones) out.push_back(mailbox::maskNumber(p));
  return out;
}

Result<std::vector<SafetyDesk::Incident>> select(Database& db, const std::string& where,
                                                 const std::function<void(Statement&)>& bind) {
  auto stmt = db.cached("SELECT " + std::string(kColumns) + " FROM safety_incident " + where);
  if (!stmt) return stmt.error();
  bind(*stmt);
  return readRows(*stmt, [](RowReader& r) -> Result<SafetyDesk::Incident> {
    SafetyDesk::Incident i;
    i.id = r.int64();
    i.openedAt = r.time();
    i.inboxId = r.int64();
    i.reporter = r.text();
    i.personId = r.text();
    auto category = safetyCategoryFromName(r.text());
    if (!category) return makeError("safety_incident " + std::to_string(i.id) + ": bad category");
    i.category = *category;
    i.open = r.text() == "open";
    i.rounds = r.int32();
    i.nextAlertAt = r.optionalTime();
    i.recipients = splitPhones(r.text());
    i.acknowledgedBy = r.text();
    return i;
  });
}

Status save(Database& db, const SafetyDesk::Incident& i, std::optional<TimePoint> acknowledgedAt) {
  auto stmt = db.cached(
      "UPDATE safety_incident SET state = ?, rounds = ?, next_alert_at = ?,"
      " acknowledged_by = ?, acknowledged_at = ? WHERE id = ?");
  if (!stmt) return stmt.error();
  return stmt->bind(1, std::string_view(i.open ? "open" : "acknowledged"))
      .bind(2, std::int64_t{i.rounds})
      .bindTime(3, i.nextAlertAt)
      .bind(4, std::string_view(i.acknowledgedBy))
      .bindTime(5, acknowledgedAt)
      .bind(6, i.id)
      .run();
}

// "Maria at +15550101234", or the number alone for someone not on the roster.
std::string reporterLabel(const Roster& roster, const std::string& phone) {
  auto contact = roster.findByPhone(phone);
  if (contact && !contact->name.empty()) return contact->name + " at " + phone;
  return phone;
}

}  // namespace

std::optional<std::int64_t> parseSafetyAck(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  if (tokens.size() != 2) return std::nullopt;
  if (tokens[0].folded != "ack" && tokens[0].folded != "recibido") return std::nullopt;
  if (!tokens[1].numeric || tokens[1].folded.size() > 12) return std::nullopt;
  return std::stoll(tokens[1].folded);
}

SafetyDesk::SafetyDesk(atoms::StoreRunner& store, Outreach& outreach, SafetySettings settings)
    : store_(store), outreach_(outreach), settings_(std::move(settings)) {}

Result<SafetyAnswer> SafetyDesk::reportIn(SiteStore& store, AuditLog::Batch& batch,
                                          const mailbox::InboxRow& message,
                                          const std::optional<Contact>& reporter,
                                          const SafetyReport& report, const ReplyContext& context,
                                          TimePoint now) {
  Database& db = store.db();
  auto open = select(db, "WHERE reporter = ? AND state = 'open' ORDER BY id DESC LIMIT 1",
                     [&](Statement& s) { s.bind(1, std::string_view(message.from)); });
  if (!open) return open.error();
  if (!open->empty() && now - open->front().openedAt < kJoinWindow) {
    const Incident& joined = open->front();
    if (Status s = batch.record(now, "safety.report_more", "engine",
                                {{"incident", joined.id},
                                 {"inbox", message.id},
                                 {"category", safetyCategoryName(report.category)}});
        !s) {
      return s.error();
    }
    return SafetyAnswer{"safety_still_open", joined.id,
                        safetyStillOpenText(context, settings_.emergencyNumber)};
  }

  // Who must hear of it: the reporter's manager of record (or the site contact), and every
  // safety contact; each number once, never the reporter's own.
  const Roster& roster = outreach_.roster();
  std::vector<HumanContact> people;
  people.push_back(roster.humanContact(reporter ? reporter->personId : std::string()));
  for (HumanContact& c : roster.safetyContacts()) people.push_back(std::move(c));
  std::vector<std::string> phones, names;
  for (const HumanContact& c : people) {
    if (c.phone.empty() || c.phone == message.from) continue;
    if (std::find(phones.begin(), phones.end(), c.phone) != phones.end()) continue;
    phones.push_back(c.phone);
    names.push_back(c.name.empty() ? c.phone : c.name);
  }

  auto insert = db.cached(
      "INSERT INTO safety_incident(opened_at, inbox_id, reporter, person_id, category, state,"
      " rounds, next_alert_at, recipients, acknowledged_by) VALUES (?, ?, ?, ?, ?, 'open', 0,"
      " NULL, ?, '')");
  if (!insert) return insert.error();
  insert->bind(1, toUnixMillis(now))
      .bind(2, message.id)
      .bind(3, std::string_view(message.from))
      .bind(4, std::string_view(reporter ? reporter->personId : std::string()))
      .bind(5, safetyCategoryName(report.category))
      .bind(6, std::string_view(joinPhones(phones)));
  if (auto done = insert->step(); !done) return done.error();
  Incident incident;
  incident.id = db.lastInsertRowid();
  incident.openedAt = now;
  incident.inboxId = message.id;
  incident.reporter = message.from;
  incident.personId = reporter ? reporter->personId : std::string();
  incident.category = report.category;
  incident.recipients = phones;

  // The packet: a person decides what to do; the box only makes sure one hears of it.
  if (Status s = batch.record(now, "safety.packet", "engine",
                              {{"incident", incident.id},
                               {"class", "HUMAN_ONLY"},
                               {"inbox", message.id},
                               {"reporter", mailbox::maskNumber(message.from)},
                               {"person", incident.personId},
                               {"category", safetyCategoryName(report.category)},
                               {"matchedWords", static_cast<std::int64_t>(report.matched.size())},
                               {"alerted", maskedAll(phones)}});
      !s) {
    return s.error();
  }
  // The reporter hears only the names of the people an alert is actually on its way to.
  std::vector<std::string> reached;
  if (!phones.empty()) {
    auto queued = alertRound(store, batch, incident, now);
    if (!queued) return queued.error();
    for (std::size_t k = 0; k < phones.size(); ++k) {
      if ((*queued)[k]) reached.push_back(names[k]);
    }
  }
  if (reached.empty()) {
    if (Status s = batch.record(
            now, "safety.unrouted", "engine",
            {{"incident", incident.id},
             {"reason", phones.empty() ? "no manager of record or safety contact has a phone"
                                       : "every alert was refused (opted out)"}});
        !s) {
      return s.error();
    }
  }
  return SafetyAnswer{"safety_reported", incident.id,
                      safetyReceivedText(context, reached, settings_.emergencyNumber)};
}

Result<std::vector<bool>> SafetyDesk::alertRound(SiteStore& store, AuditLog::Batch& batch,
                                                 Incident& incident, TimePoint now) {
  ++incident.rounds;
  const std::chrono::local_seconds local =
      outreach_.siteTime().toLocal(std::chrono::floor<std::chrono::seconds>(incident.openedAt));
  const SafetyAlertFacts facts{incident.id,
                               outreach_.roster().siteName(),
                               reporterLabel(outreach_.roster(), incident.reporter),
                               incident.category,
                               settings_.emergencyNumber,
                               hhmm(minuteOfDay(local))};
  const std::string text = safetyAlertText(facts, incident.rounds);
  json::Array sent;
  std::vector<bool> queued;
  for (std::size_t k = 0; k < incident.recipients.size(); ++k) {
    OutreachRequest request;
    request.id = "safety-" + std::to_string(incident.id) + "-r" + std::to_string(incident.rounds) +
                 "-" + std::to_string(k + 1);
    request.to = incident.recipients[k];
    request.kind = MessageClass::kSafetyAlert;
    request.urgent = true;
    request.body = text;
    request.ref = "safety:" + std::to_string(incident.id);
    request.sources = {{"message", "inbox-" + std::to_string(incident.inboxId),
                        "a text to the site's number reporting a safety problem"}};
    auto result = outreach_.sendIn(store, batch, request);
    if (!result) return result.error();
    queued.push_back(result->outcome == OutreachOutcome::kQueued);
    sent.push_back(json::Object{{"id", request.id},
                                {"to", mailbox::maskNumber(request.to)},
                                {"outcome", outreachOutcomeName(result->outcome)}});
  }
  incident.nextAlertAt = now + settings_.realertEvery;
  if (Status s = save(store.db(), incident, std::nullopt); !s) return s.error();
  if (Status s = batch.record(
          now, incident.rounds == 1 ? "safety.alert" : "safety.realert", "engine",
          {{"incident", incident.id}, {"round", incident.rounds}, {"sent", std::move(sent)}});
      !s) {
    return s.error();
  }
  return queued;
}

Result<SafetyAnswer> SafetyDesk::acknowledgeIn(SiteStore& store, AuditLog::Batch& batch,
                                               const mailbox::InboxRow& message,
                                               const std::optional<Contact>& sender,
                                               std::int64_t id, const ReplyContext& context,
                                               TimePoint now) {
  auto found = select(store.db(), "WHERE id = ?", [&](Statement& s) { s.bind(1, id); });
  if (!found) return found.error();
  if (found->empty() || !found->front().open) {
    return SafetyAnswer{"safety_ack_unknown", id, safetyAckUnknownText(id),
                        MessageClass::kThreadReply};
  }
  Incident incident = std::move(found->front());
  const auto& r = incident.recipients;
  if (std::find(r.begin(), r.end(), message.from) == r.end()) {
    if (Status s = batch.record(now, "safety.ack_refused", "engine",
                                {{"incident", id},
                                 {"from", mailbox::maskNumber(message.from)},
                                 {"reason", "not one of the people alerted"}});
        !s) {
      return s.error();
    }
    return SafetyAnswer{"safety_ack_not_yours", id, safetyAckNotYoursText(id),
                        MessageClass::kThreadReply};
  }
  const std::string by = sender && !sender->name.empty() ? sender->name : message.from;
  AckBy who{message.from, by,       sender ? sender->personId : std::string(),
            "sms",        "engine", "inbox-" + std::to_string(message.id)};
  if (Status s = closeIn(store, batch, incident, who, context, now); !s) return s.error();
  return SafetyAnswer{"safety_acknowledged", id, safetyAcknowledgedText(id, r.size() > 1)};
}

Status SafetyDesk::closeIn(SiteStore& store, AuditLog::Batch& batch, Incident& incident,
                           const AckBy& who, const ReplyContext& context, TimePoint now) {
  const std::int64_t id = incident.id;
  const auto& r = incident.recipients;
  const bool alerted = std::find(r.begin(), r.end(), who.phone) != r.end();
  incident.open = false;
  incident.nextAlertAt.reset();
  incident.acknowledgedBy = who.phone;
  if (Status s = save(store.db(), incident, now); !s) return s;
  const auto afterMs =
      std::chrono::duration_cast<std::chrono::milliseconds>(now - incident.openedAt).count();
  if (Status s = batch.record(now, "safety.acknowledge", who.actor,
                              {{"incident", id},
                               {"by", mailbox::maskNumber(who.phone)},
                               {"person", who.personId},
                               {"via", who.via},
                               {"alerted", alerted},
                               {"afterMs", static_cast<std::int64_t>(afterMs)},
                               {"rounds", incident.rounds}});
      !s) {
    return s.error();
  }
  // Tell the reporter and the others who is on it.
  std::vector<std::pair<std::string, std::string>> notices;
  ReplyContext reporterContext = context;
  if (auto reporter = outreach_.roster().findByPhone(incident.reporter);
      reporter && !reporter->languages.empty()) {
    if (auto language = parseLanguage(reporter->languages.front())) {
      reporterContext.language = *language;
    }
  }
  notices.emplace_back(incident.reporter, safetyHandledForReporterText(reporterContext, who.name));
  for (const std::string& phone : r) {
    if (phone != who.phone) notices.emplace_back(phone, safetyHandledByOtherText(id, who.name));
  }
  for (std::size_t k = 0; k < notices.size(); ++k) {
    OutreachRequest request;
    request.id = "safety-" + std::to_string(id) + "-ack-" + std::to_string(k + 1);
    request.to = notices[k].first;
    request.kind = MessageClass::kSafetyAlert;
    request.urgent = true;
    request.body = notices[k].second;
    request.ref = "safety:" + std::to_string(id);
    request.sources = {{who.via == "sms" ? "message" : "decision", who.source,
                        "the acknowledgement of a safety alert"}};
    if (auto sent = outreach_.sendIn(store, batch, request); !sent) return sent.error();
  }
  return Status::success();
}

Result<SafetyAnswer> SafetyDesk::acknowledgeFromPanel(SiteStore& store, AuditLog::Batch& batch,
                                                      const Contact& by, std::int64_t id,
                                                      TimePoint now) {
  auto found = select(store.db(), "WHERE id = ?", [&](Statement& s) { s.bind(1, id); });
  if (!found) return found.error();
  if (found->empty()) return SafetyAnswer{"safety_ack_unknown", id, "", MessageClass::kThreadReply};
  if (!found->front().open) {
    return SafetyAnswer{"safety_ack_closed", id, "", MessageClass::kThreadReply};
  }
  Incident incident = std::move(found->front());
  const std::string name = by.name.empty() ? by.personId : by.name;
  AckBy who{by.phone, name, by.personId, "panel", "panel:" + by.personId, "panel:" + by.personId};
  if (Status s = closeIn(store, batch, incident, who, ReplyContext{}, now); !s) return s.error();
  return SafetyAnswer{"safety_acknowledged", id, ""};
}

Result<int> SafetyDesk::realertDue(TimePoint now) {
  int rounds = 0;
  Status status = store_.run([&](SiteStore& store) -> Status {
    auto due = select(store.db(),
                      "WHERE state = 'open' AND next_alert_at IS NOT NULL AND next_alert_at <= ?"
                      " ORDER BY next_alert_at LIMIT 64",
                      [&](Statement& s) { s.bind(1, toUnixMillis(now)); });
    if (!due) return due.error();
    for (Incident& incident : *due) {
      auto batch = store.log().begin();
      if (!batch) return batch.error();
      if (auto s = alertRound(store, *batch, incident, now); !s) return s.error();
      if (auto committed = batch->commit(); !committed) return committed.error();
      ++rounds;
    }
    return Status::success();
  });
  if (!status) return status.error();
  return rounds;
}

Result<std::optional<TimePoint>> SafetyDesk::nextRealert() {
  std::optional<TimePoint> next;
  Status status = store_.run([&](SiteStore& store) -> Status {
    auto stmt =
        store.db().cached("SELECT MIN(next_alert_at) FROM safety_incident WHERE state = 'open'");
    if (!stmt) return stmt.error();
    auto earliest = readFirst(*stmt, [](RowReader& r) { return r.optionalTime(); });
    if (!earliest) return earliest.error();
    next = earliest->value_or(std::nullopt);  // MIN() of no rows is one NULL row
    return Status::success();
  });
  if (!status) return status.error();
  return next;
}

}  // namespace atoms::sms::conversation
