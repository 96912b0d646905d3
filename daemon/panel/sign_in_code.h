// Sign-in by a code texted to the person's number on file (docs/panel-accounts.md, "Sign-in by
// code"): 6 digits, valid 10 minutes, 5 attempts, one active per person (a new one replaces the
// old), spent by its first correct use. The store keeps a keyed BLAKE2b of person and code (table
// panel_sign_in_code), keyed by a key derived from the site key: six digits are too few for a
// plain hash to protect them.
//
// The text goes through the SMS outbox like any reply (sms/mailbox/outbox.h), so it is sent by the
// Twilio gateway or by the modem when the internet is down; it names no one but the site, and
// says what to do if the person did not ask for it.
//
// Threading: the table functions use the caller's Database (the writer); the rest is pure.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "base/bytes.h"
#include "base/result.h"
#include "base/secret.h"
#include "base/time_point.h"
#include "daemon/panel/panel_secrets.h"
#include "store/database.h"

namespace atoms::panel {

inline constexpr int kCodeDigits = 6;
inline constexpr std::chrono::minutes kCodeLifetime{10};
inline constexpr int kCodeAttempts = 5;
// A person asking again sooner than this gets no second text (the first one is on its way).
inline constexpr std::chrono::seconds kCodeResendAfter{60};

// Six decimal digits, uniformly drawn ("042917").
std::string newSignInCode(const SecureRandom& random);
// Whether `text` has the shape of a code (exactly kCodeDigits ASCII digits).
bool looksLikeSignInCode(std::string_view text);
Hash32 signInCodeHash(const SecretBytes& key, std::string_view personId, std::string_view code);
// The text sent: the site's name, the code, how long it works, and what to do if unasked.
std::string signInCodeText(std::string_view siteName, std::string_view code);

struct CodeRow {
  std::string personId;
  Hash32 codeHash{};
  TimePoint createdAt{};
  TimePoint expiresAt{};
  int attempts = 0;  // wrong entries so far
};

Result<std::optional<CodeRow>> findSignInCode(Database& db, std::string_view personId);
// Inserts, replacing the person's previous code.
Status saveSignInCode(Database& db, const CodeRow& row);
Status countCodeAttempt(Database& db, std::string_view personId, int attempts);
Status deleteSignInCode(Database& db, std::string_view personId);

}  // namespace atoms::panel
