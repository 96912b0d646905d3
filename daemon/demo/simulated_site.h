// SimulatedSite: the demo's restaurant with the whole call-out flow running, over the REAL pieces:
// the encrypted store, the SMS mailbox (inbox, outbox, dispatcher) over the simulated gateway, the
// conversation layer with the call-out desk (sms_site::ConversationProcessor, as `serve` builds
// it), the labor rules of etc/labor and the policy gate with the shipped action table, on an
// engine whose clock moves only when the demo says (wait()). The phones are simulated: text()
// is a person's phone texting the box; what the box sends arrives on the phones and is printed as
// it goes out ("       -> phone of Cleo Park: ..."), after what the box decided (the `narrate`
// function given to open(), fed the new audit entries after each step). The time clock by the
// door punches people in as their shifts start (simulated_time_clock.h), and the register (the
// simulated POS, drivers/pos/simulated_pos.h) feeds the sales book.
//
// Ownership: the store and the output stream must outlive the site. Threading: every method on the
// owning thread; the conversation layer and its timers run on the site's engine thread, the
// mailbox through a locked store runner, and each method returns only once the box is quiet.
// Errors: store, engine and rule-table errors, one line.
#pragma once

#include <chrono>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "daemon/demo/simulated_time_clock.h"
#include "domain/callout/callout_desk.h"
#include "domain/forecast/site_forecast.h"
#include "domain/labor/rule_table.h"
#include "domain/policy/policy_gate.h"
#include "domain/pos/sales_book.h"
#include "domain/site/site_model.h"
#include "drivers/pos/feed_poller.h"
#include "drivers/pos/simulated_pos.h"
#include "sms/conversation/roster.h"
#include "store/audit_entry.h"
#include "store/site_store.h"

namespace atoms::demo {

struct SiteSetup {
  std::string laborDir;  // etc/labor
  TimePoint start;       // where the simulated clock starts
  callout::CalloutSettings settings;
  std::chrono::minutes noShowGrace{10};  // a shift without a clock-in this long: the lead is asked
  policy::Graduation graduation = policy::Graduation::kAutonomous;  // staffing_scheduling
  sms::conversation::HumanContact contact;  // who HELP names, and the fallback general manager
};

// One text a simulated phone received.
struct ReceivedText {
  std::string at;  // local "HH:MM"
  std::string body;
};

class SimulatedSite {
 public:
  using Narrate = std::function<void(const std::vector<Entry>& entries)>;

  // `store` holds the site already (site::importSite); its people are the phones. Problems the
  // conversation layer logs go to `err`. Errors: the site or the labor rules cannot be read.
  static Result<std::unique_ptr<SimulatedSite>> open(SiteStore& store, const SiteSetup& setup,
                                                     std::ostream& out, std::ostream& err,
                                                     Narrate narrate);
  ~SimulatedSite();
  SimulatedSite(const SimulatedSite&) = delete;
  SimulatedSite& operator=(const SimulatedSite&) = delete;

  // `from` (a phone number) texts the box; returns once the box has handled it and sent what it
  // decided.
  Status text(const std::string& from, const std::string& body);
  // Moves the clock forward one minute at a time: timers fire (waves, escalations, expiries,
  // held texts released) and what they send goes out at its minute.
  Status wait(std::chrono::minutes minutes);

  // The register's sales so far today (site-local day), from the simulated POS polled every
  // kSalesPollInterval of simulated time into the sales book (docs/pos.md), and labor against
  // them so far and projected (basis points; none without sales).
  static constexpr std::chrono::minutes kSalesPollInterval{5};
  struct SalesToday {
    std::int64_t netCents = 0, transactions = 0, covers = 0;
    std::optional<std::int64_t> laborSoFar, laborProjected;
  };
  Result<SalesToday> salesToday();
  // Today's demand forecast from the register's earlier sales (the first poll reads
  // kSalesHistoryDays back, so the forecast has three weeks to learn from; docs/forecast.md).
  static constexpr int kSalesHistoryDays = 22;
  Result<forecast::SiteForecast> forecastToday();

  // `personId` stops clocking in (simulated_time_clock.h): the no-show watch will notice.
  void stayAway(const std::string& personId) { timeClock_.stayAway(personId); }
  std::chrono::minutes noShowGrace() const { return noShowGrace_; }

  const site::SiteModel& model() const { return model_; }
  // A person by phone, id, full name or first name (case-insensitive); nullptr: none or several.
  const site::Person* find(std::string_view who) const;
  std::string nameOf(std::string_view personId) const;
  // What the phone received, oldest first.
  std::vector<ReceivedText> received(const std::string& phone) const;
  // The site as stored now (with the shifts the call-outs gave away).
  Result<site::SiteModel> storedModel();
  // Who works the shift now, as stored ("" if open or unknown).
  Result<std::string> assigneeOf(const std::string& shiftId);
  // The site's local time now; as "16:55", and the day as "Fri 2026-12-04".
  site::LocalTime localNow() const;
  std::string clockText() const;
  std::string dayText() const;
  // "15:00-23:00" of a shift in the model ("" if unknown).
  std::string hoursOf(const site::Shift& shift) const;

  // Starts an output line: "16:55  " at the first line of a minute (or when `stamp`), else seven
  // spaces. What follows is the caller's.
  std::ostream& line(bool stamp = false);

 private:
  class Wiring;
  SimulatedSite(std::ostream& out, site::SiteModel model, site::TimeZone zone, Narrate narrate);
  // Narrates what the box decided since the last step, then sends what is due.
  Status settle();
  // The time clock's punches for the shifts starting in (from, to].
  Status punchArrivals(TimePoint from, TimePoint to);
  // Polls the simulated POS when a poll is due.
  Status pollSales();

  std::ostream& out_;
  site::SiteModel model_;
  site::TimeZone zone_;
  std::optional<labor::RuleBook> rules_;  // etc/labor for the site, for labor against sales
  Narrate narrate_;
  std::unique_ptr<SimulatedClock> clock_;
  std::unique_ptr<Wiring> wiring_;
  SimulatedTimeClock timeClock_;
  std::unique_ptr<drivers::pos::SimulatedPos> register_;
  std::unique_ptr<pos::SalesBook> sales_;
  std::unique_ptr<drivers::pos::FeedPoller> salesPoller_;
  TimePoint nextSalesPoll_{};
  int inbound_ = 0;  // texts from the phones, for their provider ids
  std::chrono::minutes noShowGrace_{0};
  std::map<std::string, std::string> names_;  // phone -> name
  std::map<std::string, std::vector<ReceivedText>> received_;
  std::uint64_t narrated_ = 0;  // audit entries already narrated
  std::string stampedMinute_;
};

}  // namespace atoms::demo
