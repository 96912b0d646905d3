#include "drivers/sms/twilio/twilio_signature.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <map>
#include <set>

#include "base/bytes.h"

namespace atoms::drivers::twilio {

std::string twilioSignature(std::span<const std::uint8_t> authToken, std::string_view url,
                            const FormFields& fields) {
  std::map<std::string_view, std::set<std::string_view>> sorted;
  for (const FormField& f : fields) sorted[f.name].insert(f.value);
  std::string data(url);
  for (const auto& [name, values] : sorted) {
    for (std::string_view value : values) {
      data += name;
      data += value;
    }
  }
  std::uint8_t mac[EVP_MAX_MD_SIZE];
  unsigned int macSize = 0;
  // A zero-length key is legal for HMAC; pass a valid pointer either way.
  static const std::uint8_t kNoKey = 0;
  const std::uint8_t* key = authToken.empty() ? &kNoKey : authToken.data();
  if (HMAC(EVP_sha1(), key, static_cast<int>(authToken.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac,
           &macSize) == nullptr) {
    return {};
  }
  OPENSSL_cleanse(data.data(), data.size());
  return toBase64({mac, macSize});
}

namespace {

bool equalConstantTime(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

bool validTwilioSignature(std::span<const std::uint8_t> authToken, std::string_view url,
                          const FormFields& fields, std::string_view signature) {
  if (authToken.empty() || signature.empty()) return false;
  const std::string direct = twilioSignature(authToken, url, fields);
  const std::string other = twilioSignature(authToken, toggleDefaultPort(url), fields);
  // Both compared, always, so the time taken does not say which form matched.
  const bool a = !direct.empty() && equalConstantTime(direct, signature);
  const bool b = !other.empty() && equalConstantTime(other, signature);
  return a || b;
}

std::string toggleDefaultPort(std::string_view url) {
  std::string_view defaultPort;
  std::size_t hostStart = 0;
  if (url.starts_with("https://")) {
    defaultPort = "443";
    hostStart = 8;
  } else if (url.starts_with("http://")) {
    defaultPort = "80";
    hostStart = 7;
  } else {
    return std::string(url);
  }
  std::size_t authorityEnd = url.find_first_of("/?#", hostStart);
  if (authorityEnd == std::string_view::npos) authorityEnd = url.size();
  const std::string_view authority = url.substr(hostStart, authorityEnd - hostStart);
  // The port colon is the last ':' after any IPv6 literal's closing bracket.
  const std::size_t bracket = authority.rfind(']');
  const std::size_t colon = authority.rfind(':');
  const bool hasPort =
      colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket);
  std::string out(url.substr(0, hostStart));
  if (!hasPort) {
    out += authority;
    out += ':';
    out += defaultPort;
  } else if (authority.substr(colon + 1) == defaultPort) {
    out += authority.substr(0, colon);
  } else {
    return std::string(url);
  }
  out += url.substr(authorityEnd);
  return out;
}

}  // namespace atoms::drivers::twilio
