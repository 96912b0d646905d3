#include "domain/forecast/intraday_check.h"

#include "domain/forecast/sales_history.h"

namespace atoms::forecast {

Result<std::vector<IntradayProposal>> runIntradayCheck(SiteStore& store, const IntradayCheck& check,
                                                       bool fresh, TimePoint now) {
  std::vector<IntradayProposal> filed;
  // Lapsed proposals first, so a station whose last one expired may get a new one.
  if (auto expired = expireProposals(store, now); !expired) return expired.error();
  if (!fresh || check.settings->standards.empty()) return filed;
  const site::Instant instant = site::toInstant(now);
  const std::chrono::local_seconds local = check.zone->toLocal(instant);
  const auto today = std::chrono::floor<std::chrono::days>(local);

  auto forecast = forecastFromSales(store.db(), *check.zone, today, 1, *check.settings);
  if (!forecast) {
    if (forecast.error().kind == ErrorKind::kInvalid) return filed;  // not enough history yet
    return forecast.error();
  }
  auto actual = readSalesHistory(store.db(), *check.zone, today, today + std::chrono::days(1));
  if (!actual) return actual.error();

  const std::vector<IntradaySignal> signals = intradaySignals(
      forecast->centers, *actual, check.settings->standards, local, check.settings->intraday);
  for (const IntradaySignal& signal : signals) {
    const LaborStandard* standard = nullptr;
    for (const LaborStandard& s : check.settings->standards) {
      if (s.station == signal.station) standard = &s;
    }
    std::optional<EarlyRelease> release;
    if (signal.kind == IntradayKind::kCut) {
      auto quoted = check.quoteRelease(*standard, instant);
      if (!quoted) return quoted.error();
      if (!*quoted) continue;  // nobody can go: nothing to propose
      release = std::move(*quoted);
    }
    const std::string summary =
        proposalSummary(signal, check.stationName(signal.station), release,
                        release ? check.personName(release->personId) : std::string());
    auto proposal = fileProposal(store, today, signal, release, summary, now);
    if (!proposal) return proposal.error();
    if (*proposal) filed.push_back(std::move(**proposal));
  }
  return filed;
}

}  // namespace atoms::forecast
