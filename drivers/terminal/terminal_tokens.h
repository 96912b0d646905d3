// TerminalTokens: which bearer token belongs to which time-clock terminal (docs/terminals.md).
//
// The tokens file holds one `terminal-id SHA256-hex-of-token` per line (blank lines and lines
// starting with '#' are ignored; fields separated by spaces or tabs). Only hashes are stored, so
// the file gives nobody a working token, but it is still a secret file: it must be a regular file
// that neither group nor others can access (mode 0600 or 0400), like the key files. A terminal
// may have several lines (a new token is added before the old one is removed); the same hash for
// two terminals is refused.
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

#include "store/bytes.h"
#include "store/result.h"

namespace atoms::drivers::terminal {

class TerminalTokens {
 public:
  struct Entry {
    std::string terminal;
    Hash32 tokenHash{};
  };

  TerminalTokens() = default;  // knows no terminal: every token is refused
  explicit TerminalTokens(std::vector<Entry> entries) : entries_(std::move(entries)) {}

  // Reads and checks the file (see above). Errors name the path and the line, e.g.
  // "terminal.tokens_file /etc/atoms-edge/terminals: line 3: expected 'terminal-id sha256-hex'".
  // `what` names the setting in errors.
  static Result<TerminalTokens> load(const std::string& path,
                                     const std::string& what = "terminal tokens file");
  // The same checks on a file's text (what load() does after reading it).
  static Result<TerminalTokens> parse(std::string_view text, const std::string& where);

  // The terminal the token belongs to; nullopt for an unknown or empty token.
  std::optional<std::string> lookup(std::string_view token) const;

  std::size_t size() const { return entries_.size(); }

  // The hex SHA-256 of a token, as the file stores it (for tools and tests).
  static std::string hashHex(std::string_view token);

 private:
  std::vector<Entry> entries_;
};

}  // namespace atoms::drivers::terminal
