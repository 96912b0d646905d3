// Panel passwords: argon2id through libsodium's crypto_pwhash_str (docs/panel-accounts.md,
// "Passwords"). The stored string carries its own algorithm, salt and cost, so a change of cost
// is picked up at the next sign-in (needsRehash) without a migration.
//
// Cost: INTERACTIVE (2 passes, 64 MiB): 0.07 s on the 2-core build box, a few tenths of a second
// on a small ARM box; MODERATE (3 passes, 256 MiB) took 0.5 s there and needs a quarter of a
// small box's memory per concurrent sign-in, so it is not the default.
//
// Threading: the functions share no state and may run on any thread (a hash takes tens of
// milliseconds and 64 MiB: keep it off the writer thread). Errors: values, one line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/result.h"

namespace atoms::panel {

struct PasswordCost {
  unsigned long long opsLimit;
  std::size_t memLimit;  // bytes
};
// crypto_pwhash_OPSLIMIT_INTERACTIVE / MEMLIMIT_INTERACTIVE: the panel's cost.
PasswordCost interactiveCost();
// The smallest cost libsodium allows: for tests of rehashing only, never for real passwords.
PasswordCost minimumCost();

// Passwords are 10 to 256 bytes of UTF-8 (NIST SP 800-63B: length, no composition rules).
inline constexpr std::size_t kMinPasswordBytes = 10;
inline constexpr std::size_t kMaxPasswordBytes = 256;
// nullopt-like: an empty string when `password` is acceptable, else why not, for the person.
std::string passwordProblem(std::string_view password);

// The crypto_pwhash_str string ("$argon2id$v=19$m=65536,t=2,p=1$..."). Error when libsodium runs
// out of memory (the only way it fails).
Result<std::string> hashPassword(std::string_view password, PasswordCost cost = interactiveCost());
// Whether `password` matches `stored`; false also for an empty or malformed `stored`.
bool verifyPassword(std::string_view password, const std::string& stored);
// Whether `stored` was made with another algorithm or cost than `cost` (then the caller hashes the
// password again after a successful verify and stores the new string).
bool needsRehash(const std::string& stored, PasswordCost cost = interactiveCost());

}  // namespace atoms::panel
