// SiteRoster: the conversation layer's Roster (sms/conversation/roster.h) over the site model
// (domain/site/site_model.h): who a phone number belongs to, whether the site has their consent to
// texts, and the human they can reach instead of the assistant (their manager of record, else the
// site contact from the configuration).
//
// It holds a snapshot of the people, taken with reset() when the service starts (and whenever the
// site is imported again). Thread-safe: reset() and the lookups may run on different threads.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "domain/site/site_model.h"
#include "sms/conversation/roster.h"

namespace atoms::sms_site {

class SiteRoster final : public sms::conversation::Roster {
 public:
  // `siteContact`: who to name when a person has no manager of record, and for numbers the site
  // does not know; an empty name makes the texts say "your manager".
  explicit SiteRoster(sms::conversation::HumanContact siteContact);

  // Replaces the snapshot with `model`'s site name and people.
  void reset(const site::SiteModel& model);

  std::optional<sms::conversation::Contact> findByPhone(std::string_view e164) const override;
  std::string siteName() const override;
  sms::conversation::HumanContact humanContact(std::string_view personId) const override;
  std::vector<sms::conversation::HumanContact> safetyContacts() const override;

 private:
  sms::conversation::HumanContact siteContact_;
  mutable std::mutex mutex_;
  std::string siteName_ = "this workplace";  // until a site is imported
  std::map<std::string, site::Person, std::less<>> byId_;
  std::map<std::string, std::string, std::less<>> idByPhone_;
};

}  // namespace atoms::sms_site
