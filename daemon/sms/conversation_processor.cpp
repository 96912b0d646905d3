#include "daemon/sms/conversation_processor.h"

#include <sodium.h>

#include <utility>

#include "daemon/log/log.h"
#include "daemon/sms/zone_site_time.h"
#include "domain/labor/rule_table.h"
#include "domain/site/site_repository.h"
#include "domain/site/time_zone.h"
#include "store/site_store.h"

namespace atoms::sms_site {

namespace {

// A checklist's owners at `now` over `site` (ChecklistDesk::OwnerResolver): the person, or whoever
// has a shift at the station just then; as the roster knows them.
std::vector<sms::conversation::Contact> checklistOwners(const site::SiteModel& site,
                                                        const SiteRoster& roster,
                                                        const sms::conversation::Checklist& list,
                                                        TimePoint now) {
  std::vector<sms::conversation::Contact> out;
  const auto add = [&](const std::string& personId) {
    for (const site::Person& p : site.people) {
      if (p.id != personId) continue;
      if (auto contact = roster.findByPhone(p.phone)) out.push_back(*contact);
    }
  };
  if (!list.ownerPerson.empty()) add(list.ownerPerson);
  for (const site::Shift& shift : site.shifts) {
    if (list.ownerStation.empty() || shift.stationId != list.ownerStation) continue;
    if (shift.assignee && shift.start.utc <= now && now < shift.end.utc) add(*shift.assignee);
  }
  return out;
}

// What checklistOwners reads of a site: people's ids and phones, and the assigned shifts.
site::SiteModel ownersPart(const site::SiteModel& model) {
  site::SiteModel part;
  for (const site::Person& p : model.people) {
    site::Person person;
    person.id = p.id;
    person.phone = p.phone;
    part.people.push_back(std::move(person));
  }
  for (const site::Shift& shift : model.shifts) {
    if (shift.assignee) part.shifts.push_back(shift);
  }
  return part;
}

}  // namespace

Result<std::unique_ptr<ConversationProcessor>> ConversationProcessor::create(
    const SmsMailbox& mailbox, Engine& engine, Poco::Logger& logger,
    const CalloutOptions* callout) {
  std::optional<site::SiteModel> model;
  Status read = mailbox.store.run([&model](SiteStore& store) -> Status {
    Result<site::SiteModel> loaded = site::loadSite(store.db());
    if (loaded) model = std::move(*loaded);
    return {};  // no site yet: every sender is an unknown number
  });
  if (!read) return makeError("SMS conversation: cannot read the site: " + read.message());

  std::unique_ptr<sms::conversation::SiteTime> siteTime;
  if (model) {
    Result<site::TimeZone> zone = site::TimeZone::locate(model->site.timeZone);
    if (!zone) return makeError("SMS conversation: site time zone: " + zone.message());
    siteTime = std::make_unique<ZoneSiteTime>(std::move(*zone));
  } else {
    logWarning(logger,
               "no site imported: every sender is answered as an unknown number, times in UTC");
    siteTime = std::make_unique<sms::conversation::FixedOffsetSiteTime>(std::chrono::seconds(0));
  }

  std::unique_ptr<ConversationProcessor> processor(
      new ConversationProcessor(engine, logger, mailbox.contact, std::move(siteTime)));
  if (model) processor->roster_.reset(*model);
  const Clock& clock = engine.clock();
  processor->outreach_ = std::make_unique<sms::conversation::Outreach>(
      mailbox.store, mailbox.outbox, processor->roster_, *processor->siteTime_,
      mailbox.conversation, [&clock] { return clock.now(); });
  processor->safety_ = std::make_unique<sms::conversation::SafetyDesk>(
      mailbox.store, *processor->outreach_, mailbox.conversation.safety);
  if (model && callout != nullptr) {
    auto rules = labor::loadRuleBook(callout->laborDir, model->site.jurisdictions);
    auto site = rules ? callout::SiteSnapshot::build(*model, std::move(*rules))
                      : Result<std::unique_ptr<callout::SiteSnapshot>>(rules.error());
    if (!site) {
      logError(logger, "call-outs are off: the labor rules cannot be loaded",
               {{"dir", callout->laborDir}, {"error", site.message()}});
    } else {
      processor->site_ = std::move(*site);
      processor->desk_ = std::make_unique<callout::CalloutDesk>(
          *processor->site_, *processor->outreach_, mailbox.store, callout->settings, callout->gate,
          [] { return randombytes_random(); });
      processor->desk_->setTrustFeedback(callout->trust);
      processor->desk_->setViolationAtAct(callout->violationAtAct);
      processor->handler_ =
          std::make_unique<callout::CalloutHandler>(*processor->desk_, *processor->site_);
      processor->noShow_ = std::make_unique<callout::NoShowWatch>(
          *processor->desk_, *processor->site_, *processor->outreach_, mailbox.store,
          callout->noShowGrace, callout->gate);
      processor->shadowJudge_ = std::make_unique<callout::ShadowJudge>(
          *processor->site_, mailbox.store, callout->noShowGrace, callout->trust);
      processor->covers_ = std::make_unique<callout::CoverVerifier>(
          mailbox.store, callout->noShowGrace, callout->timeClocks, callout->trust.verification);
      ConversationProcessor* self = processor.get();
      processor->approvals_ = std::make_unique<callout::CalloutApprovals>(
          *processor->desk_, *processor->site_, mailbox.store, [self] { self->scheduleCallout(); });
      processor->proposals_ = std::make_unique<forecast::ProposalDesk>(
          *processor->desk_, mailbox.store, [self] { self->scheduleCallout(); });
      processor->requestDesk_ =
          std::make_unique<requests::RequestDesk>(processor->desk_->context());
      processor->requestHandler_ = std::make_unique<requests::RequestHandler>(
          *processor->requestDesk_, *processor->handler_);
      processor->requests_ =
          std::make_unique<requests::StoreRequests>(*processor->requestDesk_, mailbox.store);
    }
  }
  sms::conversation::ReplyHandler* handler =
      processor->requestHandler_
          ? static_cast<sms::conversation::ReplyHandler*>(processor->requestHandler_.get())
          : processor->handler_.get();
  processor->conversation_ = std::make_unique<sms::conversation::Conversation>(
      mailbox.store, mailbox.inbox, *processor->outreach_, handler, processor->safety_.get());
  processor->conversation_->setOnClassified(mailbox.onClassified);
  if (!mailbox.conversation.checklists.empty()) {
    // With call-outs on, the owners come from the site snapshot, which the engine thread (where
    // the desk asks) owns: a call-out's reassignment of a shift counts at once. Without call-outs
    // nothing reassigns a shift while the service runs: what the owners need of the site is kept.
    auto atStart = std::make_shared<const site::SiteModel>(
        model && !processor->site_ ? ownersPart(*model) : site::SiteModel{});
    const ConversationProcessor* self = processor.get();
    auto owners = [self, atStart](const sms::conversation::Checklist& list, TimePoint now) {
      const site::SiteModel& site = self->site_ ? self->site_->model() : *atStart;
      return checklistOwners(site, self->roster_, list, now);
    };
    processor->checklists_ = std::make_unique<sms::conversation::ChecklistDesk>(
        mailbox.store, *processor->outreach_, *processor->safety_, mailbox.conversation.checklists,
        std::move(owners));
    processor->conversation_->setChecklistDesk(processor->checklists_.get());
  }
  return processor;
}

ConversationProcessor::ConversationProcessor(Engine& engine, Poco::Logger& logger,
                                             const sms::conversation::HumanContact& contact,
                                             std::unique_ptr<sms::conversation::SiteTime> siteTime)
    : engine_(engine),
      logger_(logger),
      roster_(contact),
      siteTime_(std::move(siteTime)),
      releaseTimer_(engine, [this] { releaseDue(); }),
      realertTimer_(engine, [this] { realertDue(); }),
      calloutTimer_(engine, [this] { calloutDue(); }),
      checklistTimer_(engine, [this] { checklistsDue(); }) {}

ConversationProcessor::~ConversationProcessor() = default;

void ConversationProcessor::processPending() {
  const std::size_t batch = outreach_->settings().batchLimit;
  for (;;) {
    Result<int> handled = conversation_->handlePending();
    if (!handled) {
      // The message stays new and is handled again on the next arrival or restart.
      logWarning(logger_, "SMS conversation pass failed; it will try again",
                 {{"error", handled.message()}});
      break;
    }
    if (static_cast<std::size_t>(*handled) < batch) break;
  }
  // Holds end by time alone: the timer releases them (at once for those due while the box was
  // down); a pass only makes sure the timer is set. The same for safety reminders.
  scheduleRelease();
  scheduleRealert();
  scheduleCallout();
  scheduleChecklists();
}

void ConversationProcessor::checklistsDue() {
  const TimePoint now = engine_.clock().now();
  Result<int> sent = checklists_->alertOverdue(now);
  if (!sent) {
    logError(logger_, "overdue checklists could not be sent; trying again in a minute",
             {{"error", sent.message()}});
    checklistTimer_.setAt(now + std::chrono::minutes(1));
    return;
  }
  if (*sent > 0) logInfo(logger_, "overdue checklists chased", {{"stages", std::to_string(*sent)}});
  checklistsCaughtUp_ = true;
  scheduleChecklists();
}

void ConversationProcessor::scheduleChecklists() {
  if (!checklists_) return;
  const TimePoint now = engine_.clock().now();
  checklistTimer_.setAt(checklistsCaughtUp_ ? checklists_->nextCheck(now) : std::optional(now));
}

void ConversationProcessor::calloutDue() {
  if (!desk_) return;
  const TimePoint now = engine_.clock().now();
  Result<int> steps = desk_->due(now);
  if (steps) {
    Result<int> asked = noShow_->due(now);
    steps = asked ? Result<int>(*steps + *asked) : Result<int>(asked.error());
  }
  if (steps) {
    Result<int> judged = shadowJudge_->due(now);
    steps = judged ? Result<int>(*steps + *judged) : Result<int>(judged.error());
  }
  if (steps) {
    Result<int> verified = covers_->due(now);
    steps = verified ? Result<int>(*steps + *verified) : Result<int>(verified.error());
  }
  if (!steps) {
    site_->invalidate();
    logError(logger_, "call-out timer step failed; it will be tried again in a minute",
             {{"error", steps.message()}});
    calloutTimer_.setAt(engine_.clock().now() + std::chrono::minutes(1));
    return;
  } else if (*steps > 0) {
    logInfo(logger_, "call-out steps taken", {{"steps", std::to_string(*steps)}});
  }
  scheduleCallout();
}

void ConversationProcessor::scheduleCallout() {
  if (!desk_) return;
  Result<std::optional<TimePoint>> next = desk_->nextDue();
  if (!next) {
    logError(logger_, "cannot read the next call-out step", {{"error", next.message()}});
    return;
  }
  const std::optional<TimePoint> noShow = noShow_->nextDue(engine_.clock().now());
  if (noShow && (!*next || *noShow < **next)) *next = noShow;
  Result<std::optional<TimePoint>> judge = shadowJudge_->nextDue();
  if (!judge) {
    logError(logger_, "cannot read the next shadow verdict", {{"error", judge.message()}});
  } else if (*judge && (!*next || **judge < **next)) {
    *next = *judge;
  }
  Result<std::optional<TimePoint>> cover = covers_->nextDue(engine_.clock().now());
  if (!cover) {
    logError(logger_, "cannot read the next cover verification", {{"error", cover.message()}});
  } else if (*cover && (!*next || **cover < **next)) {
    *next = *cover;
  }
  calloutTimer_.setAt(*next);
}

void ConversationProcessor::realertDue() {
  Result<int> rounds = safety_->realertDue(engine_.clock().now());
  if (!rounds) {
    logError(logger_, "safety reminders failed; they will be tried again",
             {{"error", rounds.message()}});
  } else if (*rounds > 0) {
    logWarning(logger_, "safety alert still not acknowledged: reminded the people alerted",
               {{"incidents", std::to_string(*rounds)}});
  }
  scheduleRealert();
}

void ConversationProcessor::scheduleRealert() {
  Result<std::optional<TimePoint>> next = safety_->nextRealert();
  if (!next) {
    logError(logger_, "cannot read the next safety reminder time", {{"error", next.message()}});
    return;
  }
  realertTimer_.setAt(*next);
}

void ConversationProcessor::setOutreachFrozen(bool frozen) {
  const bool wasFrozen = outreach_->outreachFrozen();
  outreach_->setOutreachFrozen(frozen);
  if (frozen && !wasFrozen) logWarning(logger_, "outreach frozen by the kill switch");
  if (!frozen && wasFrozen) {
    logInfo(logger_, "outreach freeze lifted; deciding again on held messages");
    releaseDue();
  }
}

void ConversationProcessor::setWritesFrozen(bool frozen, const std::string& event) {
  const bool wasFrozen = writesFrozen_;
  writesFrozen_ = frozen;
  conversation_->setParking(frozen);
  if (frozen) {
    if (wasFrozen) return;
    logWarning(logger_, "writes frozen by the kill switch: requests wait");
    if (event.empty()) return;
    auto told = conversation_->announcePause(event);
    if (!told) {
      logWarning(logger_, "telling people the assistant is paused failed",
                 {{"error", told.message()}});
    } else if (*told > 0) {
      logInfo(logger_, "people in an active thread told the assistant is paused",
              {{"people", std::to_string(*told)}});
    }
    return;
  }
  // Also at start: a box stopped right after the freeze lifted still has its parked rows.
  auto released = conversation_->releaseParked();
  if (!released) {
    logWarning(logger_, "handling the parked SMS failed; they stay parked",
               {{"error", released.message()}});
    return;
  }
  if (released->released + released->withdrawn == 0) return;
  logInfo(logger_, "write freeze lifted; handling the parked SMS again",
          {{"released", std::to_string(released->released)},
           {"withdrawn", std::to_string(released->withdrawn)}});
  processPending();
}

void ConversationProcessor::releaseDue() {
  Result<sms::conversation::ReleaseSummary> released = outreach_->releaseDue(engine_.clock().now());
  if (!released) {
    logWarning(logger_, "releasing held SMS failed; it will try again",
               {{"error", released.message()}});
  } else if (released->queued + released->refused + released->withdrawn > 0) {
    logInfo(logger_, "held SMS decided again",
            {{"queued", std::to_string(released->queued)},
             {"held", std::to_string(released->held)},
             {"refused", std::to_string(released->refused)},
             {"withdrawn", std::to_string(released->withdrawn)}});
  }
  scheduleRelease();
}

void ConversationProcessor::scheduleRelease() {
  Result<std::optional<TimePoint>> next = outreach_->nextRelease();
  if (!next) {
    logWarning(logger_, "cannot read the next SMS release time", {{"error", next.message()}});
    return;
  }
  releaseTimer_.setAt(*next);
}

}  // namespace atoms::sms_site
