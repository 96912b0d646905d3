#include "daemon/panel/invite.h"

#include <charconv>
#include <vector>

#include "base/unix_time.h"
#include "daemon/panel/panel_secrets.h"

namespace atoms::panel {
namespace {

constexpr std::string_view kInviteContext = "atoms-edge panel invite v1";

Error badInvite(std::string why) { return makeError(std::move(why), ErrorKind::kRefused); }

std::optional<std::int64_t> parseMillis(std::string_view text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

}  // namespace

std::string issueInviteToken(const SecretBytes& key, const Invite& invite) {
  const std::string payload = invite.personId + "\n" +
                              std::to_string(toUnixMillis(invite.issuedAt)) + "\n" +
                              std::to_string(toUnixMillis(invite.expiresAt));
  const Hash32 mac = keyedHash(key.view(), kInviteContext, asBytes(payload));
  return toBase64Url(asBytes(payload)) + "." + toBase64Url(mac);
}

Result<Invite> readInviteToken(const SecretBytes& key, std::string_view token, TimePoint now) {
  const std::size_t dot = token.find('.');
  if (dot == std::string_view::npos || token.size() > 512) {
    return badInvite("this invite code is not valid");
  }
  auto payload = fromBase64Url(token.substr(0, dot));
  auto mac = fromBase64Url(token.substr(dot + 1));
  if (!payload || !mac) return badInvite("this invite code is not valid");
  const std::string text(payload->begin(), payload->end());
  const Hash32 expected = keyedHash(key.view(), kInviteContext, asBytes(text));
  const std::string_view macText(reinterpret_cast<const char*>(mac->data()), mac->size());
  const std::string_view expectedText(reinterpret_cast<const char*>(expected.data()),
                                      expected.size());
  if (!equalConstantTime(macText, expectedText)) return badInvite("this invite code is not valid");
  const std::size_t a = text.find('\n');
  const std::size_t b = a == std::string::npos ? a : text.find('\n', a + 1);
  if (b == std::string::npos) return badInvite("this invite code is not valid");
  auto issued = parseMillis(std::string_view(text).substr(a + 1, b - a - 1));
  auto expires = parseMillis(std::string_view(text).substr(b + 1));
  if (!issued || !expires || a == 0) return badInvite("this invite code is not valid");
  Invite invite{text.substr(0, a), fromUnixMillis(*issued), fromUnixMillis(*expires)};
  if (now >= invite.expiresAt) {
    return badInvite("this invite has expired: ask for a new one");
  }
  return invite;
}

}  // namespace atoms::panel
