// CalloutNarrator: what the call-out desk decided, told to a newcomer, read from the audit log the
// box wrote (never from the desk's memory): a call-out opened, the check-in handoff, who was
// offered the shift and in what order, who was not and why (the labor rules by name: "minors' hours
// (CA-MINOR-14-15-HOURS)", no consent to texts...), an assignment with its re-check and the policy
// gate's decision, an approval asked and decided, an escalation. Each line ends with the audit seq
// (and the receipt id) that holds the whole record. Entries it does not know are left out (the
// texts themselves are printed by the simulated phones).
//
// Not synchronised; the demo's thread only. The site must outlive the narrator.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "daemon/demo/simulated_site.h"
#include "domain/labor/rule_table.h"
#include "store/audit_entry.h"

namespace atoms::demo {

class CalloutNarrator {
 public:
  // `rules`: the site's labor rules, to name a failed rule by what it is about.
  explicit CalloutNarrator(labor::RuleBook rules) : rules_(std::move(rules)) {}

  // Writes one line (or a few) per decision among `entries`, through site.line().
  void narrate(SimulatedSite& site, const std::vector<Entry>& entries);

  // How many entries of `kind` were narrated (or seen and left out) so far.
  int count(const std::string& kind) const {
    auto it = kinds_.find(kind);
    return it == kinds_.end() ? 0 : it->second;
  }
  // The receipts narrated so far: (receipt id, audit seq), oldest first.
  const std::vector<std::pair<std::string, std::uint64_t>>& receipts() const { return receipts_; }

 private:
  void receipt(SimulatedSite& site, const Entry& entry);
  void wave(SimulatedSite& site, const json::Object& body, std::uint64_t seq);
  // "minors' hours (CA-MINOR-14-15-HOURS, US-FLSA-MINOR-14-15-HOURS)" for a denial's rule ids.
  std::string why(const site::SiteModel& model, const json::Array& ruleIds) const;
  std::string ruleWords(const site::SiteModel& model, const std::string& ruleId) const;

  labor::RuleBook rules_;
  std::vector<std::pair<std::string, std::uint64_t>> receipts_;
  std::map<std::string, int> kinds_;
};

}  // namespace atoms::demo
