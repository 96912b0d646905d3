#include "daemon/panel/csrf.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "daemon/panel/panel_secrets.h"
#include "daemon/panel/sessions.h"

namespace atoms::panel {
namespace {

std::string lowered(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

std::string csrfTokenFor(std::string_view sessionValue) {
  if (!sessionIdHash(sessionValue)) return {};
  auto id = fromBase64Url(sessionValue);
  if (!id) return {};
  return toBase64Url(keyedHash(*id, "atoms-edge panel csrf v1", {}));
}

bool csrfTokenMatches(std::string_view sessionValue, std::string_view presented) {
  const std::string expected = csrfTokenFor(sessionValue);
  if (expected.empty() || presented.empty()) return false;
  return equalConstantTime(expected, presented);
}

bool sameOrigin(std::string_view origin, std::string_view referer, std::string_view panelOrigin) {
  if (panelOrigin.empty()) return false;
  std::string want = lowered(panelOrigin);
  while (!want.empty() && want.back() == '/') want.pop_back();
  if (!origin.empty()) return lowered(origin) == want;
  if (referer.empty()) return false;
  const std::string ref = lowered(referer);
  if (ref.compare(0, want.size(), want) != 0) return false;
  return ref.size() == want.size() || ref[want.size()] == '/';
}

std::string_view csrfVerdictName(CsrfVerdict v) {
  switch (v) {
    case CsrfVerdict::kAllowed:
      return "allowed";
    case CsrfVerdict::kMissingToken:
      return "missing_token";
    case CsrfVerdict::kWrongToken:
      return "wrong_token";
    case CsrfVerdict::kWrongOrigin:
      return "wrong_origin";
  }
  return "wrong_token";
}

CsrfVerdict checkCsrf(std::string_view sessionValue, std::string_view presentedToken,
                      std::string_view origin, std::string_view referer,
                      std::string_view panelOrigin) {
  if (!sameOrigin(origin, referer, panelOrigin)) return CsrfVerdict::kWrongOrigin;
  if (presentedToken.empty()) return CsrfVerdict::kMissingToken;
  if (!csrfTokenMatches(sessionValue, presentedToken)) return CsrfVerdict::kWrongToken;
  return CsrfVerdict::kAllowed;
}

}  // namespace atoms::panel
