// What the conversation layer needs to know about the site's people, and nothing more: who a
// phone number belongs to, whether they agreed to texts, the site's display name and the person to
// name in HELP. sms/ may not depend on daemon/ (DESIGN.md section 1), so this is an interface the
// daemon implements over its site model (domain/site/site_model.h); tests use a small in-memory
// one.
//
// Threading: the conversation layer calls the roster on the thread that runs its store work (the
// engine thread in the daemon, inside StoreRunner::run); an implementation that is also changed
// from elsewhere synchronises itself. Calls must be quick and must not call back into the store
// runner from another thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace atoms::sms::conversation {

// A person on the site's roster, as the conversation layer sees them.
struct Contact {
  std::string personId;
  std::string name;            // display name, never sent to anyone else
  std::string phone;           // E.164
  bool smsConsent = false;     // the site has the person's consent to texts (site model)
  bool urgentAtNight = false;  // opted into urgent call-outs during quiet hours
  // Languages the person reads, preferred first, as ISO 639-1 codes ("en", "es"); may be empty.
  std::vector<std::string> languages;
};

// The human a person can reach instead of the assistant: their manager of record, or the site's
// configured contact. `phone` may be empty when the site gives only a name ("the shift lead").
struct HumanContact {
  std::string name;
  std::string phone;
};

class Roster {
 public:
  virtual ~Roster() = default;

  // The person whose phone is `e164`, or nullopt for a number the site does not know.
  virtual std::optional<Contact> findByPhone(std::string_view e164) const = 0;
  // The site's display name, as people know it ("Bistro Maree").
  virtual std::string siteName() const = 0;
  // Who `personId` should contact for a human answer (their manager of record, else the site
  // contact); for an empty id (a number not on the roster) the site contact. An empty name means
  // none is configured; the texts then say "your manager".
  virtual HumanContact humanContact(std::string_view personId) const = 0;
  // The site's safety contacts (people the site file marks safetyContact), who get every safety
  // alert with the reporter's manager of record. Empty by default.
  virtual std::vector<HumanContact> safetyContacts() const { return {}; }
};

}  // namespace atoms::sms::conversation
