#include "domain/policy/breaker.h"

#include <algorithm>
#include <utility>

#include "domain/policy/state_reader.h"

namespace atoms::policy {

namespace {

using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::seconds;

std::string secondsText(seconds s) { return std::to_string(s.count()) + " s"; }

}  // namespace

std::string breakerStateName(BreakerState state) {
  switch (state) {
    case BreakerState::kClosed:
      return "closed";
    case BreakerState::kOpen:
      return "open";
    case BreakerState::kHalfOpen:
      return "half-open";
  }
  return "unknown";
}

BreakerConfig outreachBreakerConfig(int managedPeople) {
  // Seed 001 section 8, BRK-OUT row.
  BreakerConfig c;
  c.id = "BRK-OUT";
  const int people = std::max(managedPeople, 1);
  // "> 4 x managed people per day": a volume, so one send in HalfOpen is not itself a trip.
  c.counts.push_back({std::string(kSignalOutreachSent), 4 * people + 1, hours(24), false});
  c.counts.push_back({std::string(kSignalStopReply), 3, hours(24), true});
  c.cooldown = hours(12);
  return c;
}

BreakerConfig scheduleBreakerConfig() {
  // Seed 001 section 8, BRK-SCH row.
  BreakerConfig c;
  c.id = "BRK-SCH";
  c.counts.push_back({std::string(kSignalLaborViolationAtAct), 1, hours(24), true});
  c.counts.push_back({std::string(kSignalSwapReversal), 3, hours(24 * 7), true});
  c.cooldown = hours(24);
  return c;
}

BreakerConfig connectionBreakerConfig(std::string_view system) {
  // Seed 001 section 8, BRK-CONN-<system> row; minSamples = 5 is ours (see the header).
  BreakerConfig c;
  c.id = "BRK-CONN-" + std::string(system);
  c.errorRate = ErrorRateRule{minutes(5), 5, 20};
  c.counts.push_back({std::string(kSignalAuthFailure), 1, hours(1), true});
  c.staleAfter = hours(1);
  c.cooldown = minutes(30);
  return c;
}

Status validateBreakerConfig(const BreakerConfig& c) {
  const std::string who = c.id.empty() ? std::string("breaker") : "breaker " + c.id;
  if (c.id.empty()) return makeError("breaker: id is empty");
  if (c.cooldown < seconds(0)) return makeError(who + ": cooldown is negative");
  if (c.probeDecisions < 1) return makeError(who + ": probeDecisions must be at least 1");
  if (c.probeDuration <= seconds(0)) return makeError(who + ": probeDuration must be positive");
  if (c.staleAfter && *c.staleAfter <= seconds(0)) {
    return makeError(who + ": staleAfter must be positive");
  }
  if (c.errorRate) {
    const ErrorRateRule& r = *c.errorRate;
    if (r.window <= seconds(0)) return makeError(who + ": errorRate.window must be positive");
    if (r.minSamples < 1) return makeError(who + ": errorRate.minSamples must be at least 1");
    if (r.maxErrorPercent < 0 || r.maxErrorPercent >= 100) {
      return makeError(who + ": errorRate.maxErrorPercent must be in 0..99");
    }
  }
  for (std::size_t i = 0; i < c.counts.size(); ++i) {
    const CountRule& r = c.counts[i];
    const std::string at = who + ": counts[" + std::to_string(i) + "]";
    if (r.signal.empty()) return makeError(at + ".signal is empty");
    if (r.threshold < 1) return makeError(at + ".threshold must be at least 1");
    if (r.window <= seconds(0)) return makeError(at + ".window must be positive");
    for (std::size_t j = 0; j < i; ++j) {
      if (c.counts[j].signal == r.signal) return makeError(at + ".signal repeats " + r.signal);
    }
  }
  return Status::success();
}

std::string BreakerEvent::describe() const {
  return breaker + " " + breakerStateName(from) + " -> " + breakerStateName(to) + ": " + reason;
}

Result<Breaker> Breaker::create(BreakerConfig config, TimePoint start) {
  if (Status s = validateBreakerConfig(config); !s) return s.error();
  return Breaker(std::move(config), start);
}

Result<Breaker> Breaker::fromJson(BreakerConfig config, const json::Value& state) {
  if (Status s = validateBreakerConfig(config); !s) return s.error();
  Breaker b(std::move(config), TimePoint{});
  StateReader r(state, "breaker " + b.config_.id + " state");
  r.only({"state", "since", "latest", "lastAlive", "probesStarted", "cleanProbes", "samples",
          "signals"});
  const std::string name = r.text("state");
  if (name == "closed" || name == "open" || name == "half-open") {
    b.state_ = name == "closed" ? BreakerState::kClosed
               : name == "open" ? BreakerState::kOpen
                                : BreakerState::kHalfOpen;
  } else {
    r.fail("field \"state\" is not closed, open or half-open: " + name);
  }
  b.since_ = r.time("since");
  b.latest_ = r.time("latest");
  b.lastAlive_ = r.time("lastAlive");
  b.probesStarted_ = static_cast<int>(r.integer("probesStarted", 0, b.config_.probeDecisions));
  b.cleanProbes_ = static_cast<int>(r.integer("cleanProbes", 0, std::int64_t{1} << 30));
  for (const json::Value& v : r.array("samples")) {
    StateReader e = r.member("samples[]", v);
    e.only({"at", "ok"});
    const json::Value* ok = e.field("ok");
    if (ok && !ok->isBool()) e.fail("field \"ok\" must be true or false");
    b.samples_.push_back({e.time("at"), ok && ok->isBool() && ok->asBool()});
    r.adopt(e);
  }
  for (const json::Value& v : r.array("signals")) {
    StateReader e = r.member("signals[]", v);
    e.only({"at", "name"});
    Signal signal{e.time("at"), e.text("name")};
    r.adopt(e);
    const bool watched =
        std::any_of(b.config_.counts.begin(), b.config_.counts.end(),
                    [&](const CountRule& rule) { return rule.signal == signal.name; });
    if (watched) b.signals_.push_back(std::move(signal));
  }
  if (!r.error().empty()) return makeError(r.error());
  if (b.since_ > b.latest_ || b.lastAlive_ > b.latest_) {
    return makeError("breaker " + b.config_.id + " state: since or lastAlive after latest");
  }
  return b;
}

json::Value Breaker::toJson() const {
  json::Array samples;
  for (const Sample& s : samples_)
    samples.push_back(json::Object{{"at", millis(s.at)}, {"ok", s.ok}});
  json::Array signals;
  for (const Signal& s : signals_) {
    signals.push_back(json::Object{{"at", millis(s.at)}, {"name", s.name}});
  }
  return json::Object{{"state", breakerStateName(state_)}, {"since", millis(since_)},
                      {"latest", millis(latest_)},         {"lastAlive", millis(lastAlive_)},
                      {"probesStarted", probesStarted_},   {"cleanProbes", cleanProbes_},
                      {"samples", std::move(samples)},     {"signals", std::move(signals)}};
}

Breaker::Breaker(BreakerConfig config, TimePoint start)
    : config_(std::move(config)), since_(start), latest_(start), lastAlive_(start) {}

TimePoint Breaker::clampTime(TimePoint at) {
  latest_ = std::max(latest_, at);
  return latest_;
}

void Breaker::prune(TimePoint at) {
  if (config_.errorRate) {
    const TimePoint from = at - config_.errorRate->window;
    while (!samples_.empty() && samples_.front().at <= from) samples_.pop_front();
  }
  seconds longest{0};
  for (const CountRule& r : config_.counts) longest = std::max(longest, r.window);
  while (!signals_.empty() && signals_.front().at <= at - longest) signals_.pop_front();
}

int Breaker::countIn(const CountRule& rule, TimePoint at) const {
  const TimePoint from = at - rule.window;
  return static_cast<int>(std::count_if(signals_.begin(), signals_.end(), [&](const Signal& s) {
    return s.at > from && s.at <= at && s.name == rule.signal;
  }));
}

std::optional<std::string> Breaker::staleReason(TimePoint at) const {
  if (!config_.staleAfter || at - lastAlive_ <= *config_.staleAfter) return std::nullopt;
  return "stale: no success or heartbeat for more than " + secondsText(*config_.staleAfter);
}

std::optional<std::string> Breaker::tripReason(TimePoint at) const {
  if (auto stale = staleReason(at)) return stale;
  if (config_.errorRate) {
    const ErrorRateRule& r = *config_.errorRate;
    const TimePoint from = at - r.window;
    int total = 0;
    int errors = 0;
    for (const Sample& s : samples_) {
      if (s.at <= from || s.at > at) continue;
      ++total;
      if (!s.ok) ++errors;
    }
    if (total >= r.minSamples && errors * 100 > r.maxErrorPercent * total) {
      return "error rate " + std::to_string(errors) + "/" + std::to_string(total) + " > " +
             std::to_string(r.maxErrorPercent) + "% over " + secondsText(r.window);
    }
  }
  for (const CountRule& r : config_.counts) {
    const int n = countIn(r, at);
    if (n >= r.threshold) {
      return r.signal + " " + std::to_string(n) + " >= " + std::to_string(r.threshold) + " over " +
             secondsText(r.window);
    }
  }
  return std::nullopt;
}

void Breaker::moveTo(BreakerState to, TimePoint at, std::string reason, std::string by,
                     std::vector<BreakerEvent>& out) {
  out.push_back(BreakerEvent{config_.id, state_, to, std::move(reason), at, std::move(by)});
  state_ = to;
  since_ = at;
  probesStarted_ = 0;
  cleanProbes_ = 0;
}

bool Breaker::probeWindowClean(TimePoint at) const {
  if (state_ != BreakerState::kHalfOpen) return false;
  return cleanProbes_ >= config_.probeDecisions || at - since_ >= config_.probeDuration;
}

bool Breaker::awaitingAck(TimePoint at) const {
  return config_.humanAckToClose && probeWindowClean(std::max(at, latest_));
}

void Breaker::advanceTime(TimePoint at, std::vector<BreakerEvent>& out) {
  prune(at);
  switch (state_) {
    case BreakerState::kClosed:
      if (auto why = tripReason(at)) moveTo(BreakerState::kOpen, at, *why, {}, out);
      break;
    case BreakerState::kOpen:
      // Seed: "cooldown elapsed and cause signal below threshold".
      if (at - since_ >= config_.cooldown && !tripReason(at)) {
        moveTo(BreakerState::kHalfOpen, at,
               "cooldown of " + secondsText(config_.cooldown) +
                   " elapsed and every trip signal below threshold",
               {}, out);
      }
      break;
    case BreakerState::kHalfOpen:
      if (auto why = tripReason(at)) {
        moveTo(BreakerState::kOpen, at, "during probe: " + *why, {}, out);
      } else if (!config_.humanAckToClose && probeWindowClean(at)) {
        moveTo(BreakerState::kClosed, at, "probe window clean", {}, out);
      }
      break;
  }
}

bool Breaker::allows(TimePoint at) const {
  return state_ == BreakerState::kClosed && !staleReason(std::max(at, latest_));
}

bool Breaker::allowProbe(TimePoint at) const {
  return state_ == BreakerState::kHalfOpen && probesStarted_ < config_.probeDecisions &&
         !staleReason(std::max(at, latest_));
}

Status Breaker::beginProbe(TimePoint at) {
  if (!allowProbe(at)) {
    if (state_ != BreakerState::kHalfOpen) {
      return makeError(config_.id + " is " + breakerStateName(state_) + ": no probe may start");
    }
    if (probesStarted_ >= config_.probeDecisions) {
      return makeError(config_.id + ": all " + std::to_string(config_.probeDecisions) +
                       " probe actions have started");
    }
    return makeError(config_.id + " is stale: no probe may start");
  }
  clampTime(at);
  ++probesStarted_;
  return Status::success();
}

std::vector<BreakerEvent> Breaker::recordSuccess(TimePoint at) {
  at = clampTime(at);
  lastAlive_ = at;
  if (config_.errorRate) samples_.push_back({at, true});
  std::vector<BreakerEvent> out;
  if (state_ == BreakerState::kHalfOpen) ++cleanProbes_;
  advanceTime(at, out);
  return out;
}

std::vector<BreakerEvent> Breaker::recordFailure(TimePoint at, std::string_view what) {
  at = clampTime(at);
  if (config_.errorRate) samples_.push_back({at, false});
  std::vector<BreakerEvent> out;
  advanceTime(at, out);
  if (state_ == BreakerState::kHalfOpen) {
    moveTo(BreakerState::kOpen, at,
           "failure during probe" + (what.empty() ? std::string() : ": " + std::string(what)), {},
           out);
  }
  return out;
}

std::vector<BreakerEvent> Breaker::recordHeartbeat(TimePoint at) {
  at = clampTime(at);
  lastAlive_ = at;
  std::vector<BreakerEvent> out;
  advanceTime(at, out);
  return out;
}

Result<std::vector<BreakerEvent>> Breaker::recordSignal(TimePoint at, std::string_view signal) {
  auto rule = std::find_if(config_.counts.begin(), config_.counts.end(),
                           [&](const CountRule& r) { return r.signal == signal; });
  if (rule == config_.counts.end()) {
    return makeError(config_.id + " does not watch signal \"" + std::string(signal) + "\"");
  }
  at = clampTime(at);
  signals_.push_back({at, std::string(signal)});
  std::vector<BreakerEvent> out;
  advanceTime(at, out);
  if (state_ == BreakerState::kHalfOpen && rule->reopensProbe) {
    moveTo(BreakerState::kOpen, at, std::string(signal) + " during probe", {}, out);
  }
  return out;
}

std::vector<BreakerEvent> Breaker::trip(TimePoint at, std::string_view reason) {
  at = clampTime(at);
  std::vector<BreakerEvent> out;
  advanceTime(at, out);
  if (state_ != BreakerState::kOpen) {
    const std::string why = reason.empty() ? std::string("tripped by caller") : std::string(reason);
    moveTo(BreakerState::kOpen, at,
           state_ == BreakerState::kHalfOpen ? "during probe: " + why : why, {}, out);
  }
  return out;
}

std::vector<BreakerEvent> Breaker::tick(TimePoint at) {
  at = clampTime(at);
  std::vector<BreakerEvent> out;
  advanceTime(at, out);
  return out;
}

bool Breaker::restartProbe(TimePoint at) {
  if (state_ != BreakerState::kHalfOpen) return false;
  latest_ = std::max(latest_, at);
  since_ = latest_;
  probesStarted_ = 0;
  cleanProbes_ = 0;
  return true;
}

Result<BreakerEvent> Breaker::acknowledge(TimePoint at, const BreakerAcker& who) {
  if (who.automated) {
    return makeError("an automated process cannot acknowledge " + config_.id + "; a person must");
  }
  if (who.actor.empty()) return makeError("acknowledging " + config_.id + " needs the person");
  // A refused ack changes nothing, so time is not applied here: a transition it would cause
  // refuses the ack instead, and the caller's next tick() records that transition.
  at = std::max(at, latest_);
  if (state_ != BreakerState::kHalfOpen) {
    return makeError(config_.id + " is " + breakerStateName(state_) +
                     ": only a half-open breaker can be acknowledged");
  }
  if (!probeWindowClean(at)) {
    const auto left = std::chrono::duration_cast<seconds>(config_.probeDuration - (at - since_));
    return makeError(config_.id + ": probe window not yet clean (" + std::to_string(cleanProbes_) +
                     " of " + std::to_string(config_.probeDecisions) + " clean decisions, or " +
                     secondsText(left) + " more without a trip)");
  }
  if (auto why = tripReason(at)) {
    return makeError(config_.id + ": a trip signal is present (" + *why + "); not closing");
  }
  latest_ = at;
  prune(at);
  std::vector<BreakerEvent> out;
  moveTo(BreakerState::kClosed, at, "probe window clean; acknowledged by " + who.actor, who.actor,
         out);
  return out.back();
}

}  // namespace atoms::policy
