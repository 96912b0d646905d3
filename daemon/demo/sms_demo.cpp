#include "daemon/demo/sms_demo.h"

#include <chrono>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "base/clock.h"
#include "daemon/sms/site_roster.h"
#include "daemon/sms/zone_site_time.h"
#include "domain/site/site_file.h"
#include "domain/site/site_repository.h"
#include "domain/site/time_zone.h"
#include "drivers/sms/simulated/simulated_gateway.h"
#include "sms/conversation/conversation.h"
#include "sms/conversation/outreach.h"
#include "sms/conversation/safety_desk.h"
#include "sms/mailbox/dispatcher.h"
#include "sms/mailbox/inbox.h"
#include "sms/mailbox/outbox.h"
#include "store/audit_entry.h"
#include "store/log_verifier.h"
#include "store/site_store.h"
#include "store/store_runner.h"

namespace atoms {
namespace {

constexpr const char* kDemoSitePhone = "+15550100999";
constexpr const char* kManager = "+15550100101";   // Renée, manager and safety contact
constexpr const char* kCook = "+15550100102";      // Marco, on the roster, manager Renée
constexpr const char* kServer = "+15550100103";    // Ben, on the roster
constexpr const char* kStranger = "+15550100777";  // not on the roster

// The site the demo's phones belong to (docs/site-file.md).
constexpr const char* kSiteFile = R"({"version":1,
 "site":{"id":"demo-bistro","name":"Bistro Marée","timeZone":"America/Los_Angeles",
         "jurisdictions":["us","us-ca"],"industry":"full_service_restaurant"},
 "certifications":[],
 "stations":[{"id":"line","name":"Line"},{"id":"floor","name":"Floor"}],
 "people":[
  {"id":"p-gm","name":"Renée Dubois","phone":"+15550100101","roles":["floor","line"],
   "hourlyRateCents":4200,"smsConsent":{"granted":true,"at":"2026-01-06T10:01:00-08:00"},
   "safetyContact":true},
  {"id":"p-marco","name":"Marco Alvarez","phone":"+15550100102","roles":["line"],
   "hourlyRateCents":3100,"smsConsent":{"granted":true,"at":"2026-01-07T10:02:00-08:00"},
   "managerOfRecord":"p-gm"},
  {"id":"p-ben","name":"Ben Okafor","phone":"+15550100103","roles":["floor"],
   "hourlyRateCents":2900,"smsConsent":{"granted":true,"at":"2026-01-08T10:03:00-08:00"},
   "managerOfRecord":"p-gm"}],
 "shifts":[],"scheduleVersions":[],"punches":[],"schoolCalendar":{"schoolDays":[]}})";

TimePoint at(int month, int day, int hour, int minute) {  // UTC
  return std::chrono::sys_days{std::chrono::year{2026} / month / day} + std::chrono::hours{hour} +
         std::chrono::minutes{minute};
}

class SmsDemo {
 public:
  SmsDemo(SiteStore& store, const site::SiteModel& model, site::TimeZone zone, std::ostream& out)
      : out_(out),
        clock_(at(11, 28, 0, 58)),  // Friday 16:58 at the site
        runner_(store),
        outbox_(runner_, now(), [] { return 0.5; }),
        inbox_(runner_, outbox_, "simulated", now()),
        dispatcher_(outbox_, gateway_),
        roster_(sms::conversation::HumanContact{}),
        siteTime_(std::move(zone)),
        outreach_(runner_, outbox_, roster_, siteTime_, {}, now()),
        safety_(runner_, outreach_, {}),
        conversation_(runner_, inbox_, outreach_, nullptr, &safety_) {
    roster_.reset(model);
    for (const site::Person& p : model.people) names_[p.phone] = p.name;
    names_[kStranger] = "a number the site does not know";
    gateway_.setOnTransmitted([this](const drivers::SimulatedTransmission& t) {
      out_ << "       -> phone of " << names_[t.message.to] << ": \"" << t.message.body << "\"\n";
      ++transmitted_;
    });
  }

  Status start() { return gateway_.start(inbox_); }
  void stop() { gateway_.stop(); }

  // A phone texts the box; the box handles it and sends what it decided. Returns the number of
  // texts that left the box.
  Result<int> text(const char* from, const std::string& body) {
    out_ << localTime() << "  " << names_[from] << " texts: \"" << body << "\"\n";
    drivers::InboundSms sms;
    sms.from = from;
    sms.to = kDemoSitePhone;
    sms.body = body;
    sms.receivedAt = clock_.now();
    if (Status s = gateway_.deliverInbound(sms); !s) return s.error();
    if (auto handled = conversation_.handlePending(); !handled) return handled.error();
    return sendDue();
  }

  // Sends everything due; returns how many texts left.
  Result<int> sendDue() {
    const int before = transmitted_;
    if (Status s = dispatcher_.runPass(); !s) return s.error();
    return transmitted_ - before;
  }

  Result<sms::conversation::OutreachResult> notice(const std::string& id, const char* to,
                                                   const std::string& body) {
    out_ << localTime() << "  the box sends " << names_[to] << " a notice: \"" << body << "\"\n";
    sms::conversation::OutreachRequest request;
    request.id = id;
    request.to = to;
    request.kind = sms::MessageClass::kNotice;
    request.body = body;
    request.sources.push_back({"org", "schedule:w49", "the schedule for the week of Nov 30"});
    auto decided = outreach_.send(request);
    if (decided) out_ << "       decided: " << decided->explanation << "\n";
    return decided;
  }

  Result<sms::conversation::ReleaseSummary> releaseDue() {
    return outreach_.releaseDue(clock_.now());
  }
  void setTime(TimePoint t) { clock_.set(t); }

 private:
  atoms::NowFunction now() {
    return [this] { return clock_.now(); };
  }
  std::string localTime() {
    const auto local = siteTime_.toLocal(std::chrono::floor<std::chrono::seconds>(clock_.now()));
    return site::formatLocal(local).substr(0, 16).replace(10, 1, " ");
  }

  std::ostream& out_;
  SimulatedClock clock_;
  atoms::LockedStoreRunner runner_;
  drivers::SimulatedSmsGateway gateway_;
  sms::mailbox::Outbox outbox_;
  sms::mailbox::Inbox inbox_;
  sms::mailbox::Dispatcher dispatcher_;
  sms_site::SiteRoster roster_;
  sms_site::ZoneSiteTime siteTime_;
  sms::conversation::Outreach outreach_;
  sms::conversation::SafetyDesk safety_;
  sms::conversation::Conversation conversation_;
  std::map<std::string, std::string> names_;
  int transmitted_ = 0;
};

// One step of the demo: what happened must be what the demo said would happen.
bool expect(std::ostream& err, const char* step, const Result<int>& sent, int expected) {
  if (!sent) {
    err << "demo: " << step << ": " << sent.message() << "\n";
    return false;
  }
  if (*sent != expected) {
    err << "demo: " << step << ": " << *sent << " text(s) sent, expected " << expected << "\n";
    return false;
  }
  return true;
}

}  // namespace

int runSmsDemo(const std::string& stateDir, std::ostream& out, std::ostream& err) {
  auto store = SiteStore::open(stateDir);
  if (!store) {
    err << "demo: " << store.message() << "\n";
    return 1;
  }
  auto model = site::parseSiteFile(kSiteFile);
  if (!model) {
    err << "demo: the embedded site: " << model.message() << "\n";
    return 1;
  }
  if (Status s = site::importSite((*store)->db(), *model); !s) {
    err << "demo: " << s.message() << "\n";
    return 1;
  }
  auto zone = site::TimeZone::locate(model->site.timeZone);
  if (!zone) {
    err << "demo: " << zone.message() << "\n";
    return 1;
  }

  out << "\nText messages, through the real SMS layer and the simulated gateway (times are the "
         "site's):\n";
  SmsDemo demo(**store, *model, *zone, out);
  if (Status s = demo.start(); !s) {
    err << "demo: " << s.message() << "\n";
    return 1;
  }
  bool ok = expect(err, "HELP", demo.text(kCook, "HELP"), 1) &&
            expect(err, "WHY", demo.text(kCook, "why?"), 1) &&
            expect(err, "unknown number", demo.text(kStranger, "hi is this the bistro?"), 1) &&
            expect(err, "unknown number again", demo.text(kStranger, "hello??"), 0);

  demo.setTime(at(11, 28, 6, 30));  // 22:30 at the site: quiet hours
  auto held = demo.notice("notice:schedule-w49-ben", kServer,
                          "Next week's schedule is posted. Reply HELP for help.");
  ok = ok && held && held->outcome == sms::conversation::OutreachOutcome::kHeld &&
       expect(err, "held notice", demo.sendDue(), 0);
  // A safety report goes out at once, quiet hours or not, until someone says they are on it.
  demo.setTime(at(11, 28, 6, 40));
  ok = ok &&
       expect(err, "safety report", demo.text(kCook, "fire in the kitchen, hood is smoking"), 2);
  demo.setTime(at(11, 28, 6, 42));
  ok = ok && expect(err, "safety ACK", demo.text(kManager, "ACK 1"), 2);
  demo.setTime(at(11, 28, 16, 0));  // 08:00 at the site: quiet hours are over
  out << "  (the simulated clock moves to 08:00)\n";
  auto released = demo.releaseDue();
  ok = ok && released && released->queued == 1 && expect(err, "morning", demo.sendDue(), 1);

  ok = ok && expect(err, "STOP", demo.text(kServer, "STOP"), 1) &&
       expect(err, "STOP again", demo.text(kServer, "stop"), 0);
  auto refused = demo.notice("notice:swap-ben", kServer, "A swap you asked about is available.");
  ok = ok && refused && refused->outcome == sms::conversation::OutreachOutcome::kRefused &&
       expect(err, "after STOP", demo.sendDue(), 0);
  demo.stop();
  if (!ok) {
    err << "demo: the SMS part did not go as described" << (held ? "" : ": " + held.message())
        << (released ? "" : ": " + released.message()) << (refused ? "" : ": " + refused.message())
        << "\n";
    return 1;
  }
  const VerifyReport report =
      verifyDatabase((*store)->db(), (*store)->verifierKey(), model->site.id);
  out << "Every text above was committed to the store before it was sent, with a signed receipt "
         "of why.\nverify: "
      << (report.ok() ? "ok" : "FAILED: " + report.problem) << ", " << report.entries
      << " entries, " << report.checkpoints << " checkpoints, " << report.receipts << " receipts\n";
  return report.ok() ? 0 : 1;
}

}  // namespace atoms
