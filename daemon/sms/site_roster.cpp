#include "daemon/sms/site_roster.h"

#include <utility>

namespace atoms::sms_site {

SiteRoster::SiteRoster(sms::conversation::HumanContact siteContact)
    : siteContact_(std::move(siteContact)) {}

void SiteRoster::reset(const site::SiteModel& model) {
  std::map<std::string, site::Person, std::less<>> byId;
  std::map<std::string, std::string, std::less<>> idByPhone;
  for (const site::Person& person : model.people) {
    if (!person.phone.empty()) idByPhone.emplace(person.phone, person.id);
    byId.emplace(person.id, person);
  }
  std::lock_guard lock(mutex_);
  siteName_ = model.site.name.empty() ? "this workplace" : model.site.name;
  byId_ = std::move(byId);
  idByPhone_ = std::move(idByPhone);
}

std::optional<sms::conversation::Contact> SiteRoster::findByPhone(std::string_view e164) const {
  std::lock_guard lock(mutex_);
  const auto id = idByPhone_.find(e164);
  if (id == idByPhone_.end()) return std::nullopt;
  const site::Person& person = byId_.at(id->second);
  sms::conversation::Contact contact;
  contact.personId = person.id;
  contact.name = person.name;
  contact.phone = person.phone;
  contact.smsConsent = person.smsConsent.granted;
  return contact;
}

std::string SiteRoster::siteName() const {
  std::lock_guard lock(mutex_);
  return siteName_;
}

sms::conversation::HumanContact SiteRoster::humanContact(std::string_view personId) const {
  std::lock_guard lock(mutex_);
  const auto person = byId_.find(personId);
  if (person != byId_.end() && person->second.managerOfRecord) {
    const auto manager = byId_.find(*person->second.managerOfRecord);
    if (manager != byId_.end() && manager->second.id != person->second.id) {
      return {manager->second.name, manager->second.phone};
    }
  }
  return siteContact_;
}

std::vector<sms::conversation::HumanContact> SiteRoster::safetyContacts() const {
  std::lock_guard lock(mutex_);
  std::vector<sms::conversation::HumanContact> out;
  for (const auto& [id, person] : byId_) {
    if (person.safetyContact && !person.phone.empty()) out.push_back({person.name, person.phone});
  }
  return out;
}

}  // namespace atoms::sms_site
