#include "daemon/panel/password.h"

#include <sodium.h>

#include "base/canonical_json.h"

namespace atoms::panel {

PasswordCost interactiveCost() {
  return {crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE};
}

PasswordCost minimumCost() { return {crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_MEMLIMIT_MIN}; }

std::string passwordProblem(std::string_view password) {
  if (password.size() < kMinPasswordBytes) {
    return "a password needs at least " + std::to_string(kMinPasswordBytes) + " characters";
  }
  if (password.size() > kMaxPasswordBytes) {
    return "a password can have at most " + std::to_string(kMaxPasswordBytes) + " characters";
  }
  if (!json::isValidUtf8(password) || password.find('\0') != std::string_view::npos) {
    return "a password must be text (UTF-8, no NUL)";
  }
  return {};
}

Result<std::string> hashPassword(std::string_view password, PasswordCost cost) {
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), cost.opsLimit, cost.memLimit,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    return makeError("cannot hash a password: out of memory", ErrorKind::kUnavailable);
  }
  std::string hashed(out);
  sodium_memzero(out, sizeof out);
  return hashed;
}

bool verifyPassword(std::string_view password, const std::string& stored) {
  if (stored.empty() || stored.size() >= crypto_pwhash_STRBYTES) return false;
  return crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) == 0;
}

bool needsRehash(const std::string& stored, PasswordCost cost) {
  if (stored.rfind("$argon2id$", 0) != 0) return true;
  return crypto_pwhash_str_needs_rehash(stored.c_str(), cost.opsLimit, cost.memLimit) != 0;
}

}  // namespace atoms::panel
