#include "sms/conversation/checklist_desk.h"

#include <algorithm>
#include <chrono>

#include "sms/conversation/checklist_texts.h"
#include "sms/conversation/language.h"
#include "sms/mailbox/message_checks.h"
#include "sms/outreach/outreach_policy.h"
#include "store/audit_entry.h"

namespace atoms::sms::conversation {

// One checklist's due instant on one site day.
struct ChecklistDesk::Due {
  const Checklist* list = nullptr;
  std::string day;  // YYYY-MM-DD, site local
  TimePoint at{};   // the due instant
  TimePoint stageAt(ChecklistStage stage) const {
    const int graces = stage == ChecklistStage::kOwner ? 1 : 2;
    return at + std::chrono::minutes(list->graceMinutes * graces);
  }
};

namespace {

using std::chrono::floor;
using std::chrono::seconds;

// How long after the manager's stage a late checklist is still chased (a restart catches up).
constexpr auto kCatchUp = std::chrono::hours(4);

std::string localHhmm(const SiteTime& siteTime, TimePoint t) {
  return hhmm(minuteOfDay(siteTime.toLocal(floor<seconds>(t))));
}

ReplyContext contextFor(const Outreach& outreach, const Contact* person) {
  ReplyContext c;
  c.language = replyLanguage(ParsedKeyword{}, person, outreach.settings().defaultLanguage);
  c.site = outreach.roster().siteName();
  c.human = outreach.roster().humanContact(person != nullptr ? person->personId : std::string());
  return c;
}

std::vector<std::string> ids(const ChecklistBook& book) {
  std::vector<std::string> out;
  for (const Checklist& c : book.all()) out.push_back(c.id);
  return out;
}

}  // namespace

ChecklistDesk::ChecklistDesk(atoms::StoreRunner& store, Outreach& outreach, SafetyDesk& safety,
                             ChecklistBook book, OwnerResolver owners)
    : store_(store),
      outreach_(outreach),
      safety_(safety),
      book_(std::move(book)),
      owners_(std::move(owners)) {}

Result<ChecklistAnswer> ChecklistDesk::handleIn(SiteStore& store, AuditLog::Batch& batch,
                                                const mailbox::InboxRow& message,
                                                const std::optional<Contact>& sender,
                                                const ChecklistIntent& intent,
                                                const ReplyContext& context, TimePoint now) {
  const Checklist* list = book_.byName(intent.name);
  if (list == nullptr) {
    return ChecklistAnswer{"checklist_unknown", checklistUnknownText(context, ids(book_))};
  }
  const bool reading = intent.kind == ChecklistIntent::Kind::kTemperature;
  if (reading != list->temperature) {
    return ChecklistAnswer{"checklist_wrong_kind", checklistWrongKindText(context, *list)};
  }
  const std::string day = outreach_.localDay(now);
  if (!list->temperature) {
    auto first = firstChecklistEntry(store.db(), list->id, day);
    if (!first) return first.error();
    if (*first) {
      return ChecklistAnswer{
          "checklist_already_done",
          checklistAlreadyDoneText(context, *list, localHhmm(outreach_.siteTime(), (*first)->at))};
    }
  }

  ChecklistEntry entry{
      list->id, day,          now,         message.from, sender ? sender->personId : "",
      "sms",    std::nullopt, std::nullopt};
  if (reading) {
    entry.tenthsF = toTenthsFahrenheit(intent.tenths, intent.unit != 0 ? intent.unit : list->unit);
    entry.inRange = list->inRange(*entry.tenthsF);
  }
  if (Status s = addChecklistEntry(store.db(), entry); !s) return s.error();
  json::Object body{{"checklist", list->id},
                    {"day", day},
                    {"channel", "sms"},
                    {"inbox", message.id},
                    {"by", mailbox::maskNumber(message.from)},
                    {"person", entry.personId}};
  if (reading) {
    body["tenthsF"] = std::int64_t{*entry.tenthsF};
    body["inRange"] = *entry.inRange;
  }
  if (Status s = batch.record(now, "checklist.completed", "engine", std::move(body)); !s)
    return s.error();

  if (!reading) return ChecklistAnswer{"checklist_done", checklistDoneText(context, *list)};
  if (*entry.inRange) {
    return ChecklistAnswer{"checklist_logged", checklistLoggedText(context, *list, *entry.tenthsF)};
  }
  // Out of the safe range: a food-safety report, through the safety desk's own path.
  auto safety = safety_.reportIn(store, batch, message, sender,
                                 SafetyReport{SafetyCategory::kFoodSafety, {}}, context, now);
  if (!safety) return safety.error();
  return ChecklistAnswer{"checklist_out_of_range",
                         checklistOutOfRangeText(context, *list, *entry.tenthsF, safety->replyText),
                         MessageClass::kSafetyAlert, safety->incident};
}

std::vector<ChecklistDesk::Due> ChecklistDesk::dueAround(TimePoint now) const {
  // Yesterday's, today's and tomorrow's due times in site time: a stage of yesterday's may fall
  // after midnight (closing at 23:45 with a grace of 30), and nextCheck looks ahead.
  const SiteTime& siteTime = outreach_.siteTime();
  const auto today = floor<std::chrono::days>(siteTime.toLocal(floor<seconds>(now)));
  std::vector<Due> out;
  for (const int offset : {-1, 0, 1}) {
    const auto midnight = today + std::chrono::days(offset);
    for (const Checklist& list : book_.all()) {
      const TimePoint at = siteTime.toUtc(midnight + std::chrono::minutes(list.dueMinute));
      out.push_back(Due{&list, outreach_.localDay(at), at});
    }
  }
  return out;
}

std::vector<ChecklistDesk::DueToday> ChecklistDesk::dueToday(TimePoint now) const {
  const std::string today = outreach_.localDay(now);
  std::vector<DueToday> out;
  for (const Due& due : dueAround(now)) {
    if (due.day != today) continue;
    out.push_back(DueToday{due.list, due.day, due.at, due.stageAt(ChecklistStage::kOwner)});
  }
  std::sort(out.begin(), out.end(),
            [](const DueToday& a, const DueToday& b) { return a.dueAt < b.dueAt; });
  return out;
}

Result<int> ChecklistDesk::alertOverdue(TimePoint now) {
  int sent = 0;
  Status status = store_.run([&](SiteStore& store) -> Status {
    for (const Due& due : dueAround(now)) {
      // A box that was off at a stage's time catches up for a while, then it is history.
      if (now >= due.stageAt(ChecklistStage::kManager) + kCatchUp) continue;
      for (const ChecklistStage stage : {ChecklistStage::kOwner, ChecklistStage::kManager}) {
        if (now < due.stageAt(stage)) continue;
        auto done = sendStage(store, due, stage, now);
        if (!done) return done.error();
        sent += *done ? 1 : 0;
      }
    }
    return Status::success();
  });
  if (!status) return status.error();
  return sent;
}

Result<bool> ChecklistDesk::sendStage(SiteStore& store, const Due& due, ChecklistStage stage,
                                      TimePoint now) {
  const Checklist& list = *due.list;
  auto first = firstChecklistEntry(store.db(), list.id, due.day);
  if (!first) return first.error();
  if (*first) return false;

  auto batch = store.log().begin();
  if (!batch) return batch.error();
  auto fresh = markChecklistAlerted(store.db(), list.id, due.day, stage, now);
  if (!fresh) return fresh.error();
  if (!*fresh) return false;  // the batch is dropped: nothing was written

  // Who hears of it, each number once: the owners; then their managers of record (the site
  // contact for a station with nobody found), and for a temperature log the safety contacts.
  const Roster& roster = outreach_.roster();
  const std::vector<Contact> owners = owners_ ? owners_(list, now) : std::vector<Contact>{};
  struct Recipient {
    std::string phone;
    std::string text;
  };
  std::vector<Recipient> to;
  const auto add = [&to](const std::string& phone, std::string text) {
    if (phone.empty()) return;
    for (const Recipient& r : to) {
      if (r.phone == phone) return;
    }
    to.push_back({phone, std::move(text)});
  };
  const std::string dueHhmm = hhmm(list.dueMinute);
  if (stage == ChecklistStage::kOwner) {
    for (const Contact& c : owners) {
      add(c.phone, checklistOverdueOwnerText(contextFor(outreach_, &c), list, dueHhmm));
    }
  } else {
    std::vector<HumanContact> managers;
    for (const Contact& c : owners) managers.push_back(roster.humanContact(c.personId));
    if (owners.empty()) managers.push_back(roster.humanContact(""));
    if (list.temperature) {
      for (HumanContact& h : roster.safetyContacts()) managers.push_back(std::move(h));
    }
    for (const HumanContact& h : managers) {
      const std::optional<Contact> known = roster.findByPhone(h.phone);
      add(h.phone, checklistOverdueManagerText(contextFor(outreach_, known ? &*known : nullptr),
                                               list, dueHhmm));
    }
  }

  json::Array sent;
  for (std::size_t k = 0; k < to.size(); ++k) {
    OutreachRequest request;
    request.id = "checklist-" + list.id + "-" + due.day + "-" +
                 std::string(checklistStageName(stage)) + "-" + std::to_string(k + 1);
    request.to = to[k].phone;
    request.kind = list.temperature                  ? MessageClass::kSafetyAlert
                   : stage == ChecklistStage::kOwner ? MessageClass::kNotice
                                                     : MessageClass::kEscalation;
    request.urgent = list.temperature;
    request.body = to[k].text;
    request.ref = "checklist:" + list.id + ":" + due.day;
    request.sources = {{"service", "checklist:" + list.id,
                        "checklist " + list.name + ", due " + dueHhmm + " each day"}};
    auto result = outreach_.sendIn(store, *batch, request);
    if (!result) return result.error();
    sent.push_back(json::Object{{"id", request.id},
                                {"to", mailbox::maskNumber(request.to)},
                                {"outcome", outreachOutcomeName(result->outcome)}});
  }
  if (Status s = batch->record(now, "checklist.overdue", "engine",
                               {{"checklist", list.id},
                                {"day", due.day},
                                {"stage", checklistStageName(stage)},
                                {"due", formatTimestamp(due.at)},
                                {"sent", std::move(sent)}});
      !s) {
    return s.error();
  }
  if (auto committed = batch->commit(); !committed) return committed.error();
  return true;
}

std::optional<TimePoint> ChecklistDesk::nextCheck(TimePoint now) const {
  std::optional<TimePoint> next;
  for (const Due& due : dueAround(now)) {
    for (const ChecklistStage stage : {ChecklistStage::kOwner, ChecklistStage::kManager}) {
      const TimePoint t = due.stageAt(stage);
      if (t > now && (!next || t < *next)) next = t;
    }
  }
  return next;
}

}  // namespace atoms::sms::conversation
