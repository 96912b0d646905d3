// BearerTokens: which bearer token belongs to whom, for the HTTP endpoints that take
// `Authorization: Bearer <token>`: the time-clock terminals (docs/terminals.md; the id is a
// terminal's) and the approvals API (docs/api.md; the id is a person of the site).
//
// The tokens file holds one `id SHA256-hex-of-token` per line (blank lines and lines starting with
// '#' are ignored; fields separated by spaces or tabs). Only hashes are stored, so the file gives
// nobody a working token, but it is still a secret file: it must be a regular file that neither
// group nor others can access (mode 0600 or 0400), like the key files. An id may have several
// lines (a new token is added before the old one is removed); the same hash for two ids is
// refused. Ids are 1-64 letters, digits, '-', '_', '.' (isValidTokenId).
//
// lookup() hashes the presented token and compares it against every entry with
// crypto_verify_32, without stopping at a match, so the time taken says nothing about which or
// how many bytes matched. Nothing here logs, and no error ever contains a token or a hash.
//
// Immutable after construction; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/bytes.h"
#include "base/result.h"

namespace Poco::Net {
class HTTPServerRequest;
}  // namespace Poco::Net

namespace atoms::drivers {

class BearerTokens {
 public:
  struct Entry {
    std::string id;
    Hash32 tokenHash{};
  };

  BearerTokens() = default;  // knows nobody: every token is refused
  explicit BearerTokens(std::vector<Entry> entries) : entries_(std::move(entries)) {}

  // Reads and checks the file (see above). Errors name the path and the line, e.g.
  // "terminal.tokens_file /etc/atoms-edge/terminals: line 3: expected 'terminal-id
  // sha256-hex-of-token'". `what` names the setting in errors; `idName` what the ids are
  // ("terminal", "person").
  static Result<BearerTokens> load(const std::string& path, const std::string& what,
                                   const std::string& idName);
  // The same checks on a file's text (what load() does after reading it).
  static Result<BearerTokens> parse(std::string_view text, const std::string& where,
                                    const std::string& idName);

  // The id the token belongs to; nullopt for an unknown or empty token.
  std::optional<std::string> lookup(std::string_view token) const;

  std::size_t size() const { return entries_.size(); }
  // The ids, each once, in the file's order (never a hash).
  std::vector<std::string> ids() const;

  // The hex SHA-256 of a token, as the file stores it (for tools and tests).
  static std::string hashHex(std::string_view token);

 private:
  std::vector<Entry> entries_;
};

// 1-64 characters of letters, digits, '-', '_', '.': a terminal id, a person id.
bool isValidTokenId(std::string_view id);

// The token of "Authorization: Bearer <token>" (the scheme in any case, RFC 7235); empty when
// the header is absent or of another scheme.
std::string bearerToken(const Poco::Net::HTTPServerRequest& request);

}  // namespace atoms::drivers
