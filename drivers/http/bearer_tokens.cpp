#include "drivers/http/bearer_tokens.h"

#include <Poco/Net/HTTPServerRequest.h>
#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "drivers/http/printable.h"

namespace atoms::drivers {
namespace {

// Far above any real file (a line is ~80 bytes); refuses to slurp a wrong, huge file.
constexpr off_t kMaxFileSize = 1024 * 1024;

std::string modeText(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && isBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && isBlank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

bool isValidTokenId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::string bearerToken(const Poco::Net::HTTPServerRequest& request) {
  const std::string value = request.get("Authorization", "");
  constexpr std::string_view kScheme = "Bearer ";
  if (value.size() <= kScheme.size()) return {};
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    const char a = value[i], b = kScheme[i];
    if ((a | 0x20) != (b | 0x20)) return {};  // the scheme is case-insensitive (RFC 7235)
  }
  std::string token = value.substr(kScheme.size());
  while (!token.empty() && token.front() == ' ') token.erase(token.begin());
  while (!token.empty() && token.back() == ' ') token.pop_back();
  return token;
}

std::string BearerTokens::hashHex(std::string_view token) { return toHex(sha256(asBytes(token))); }

Result<BearerTokens> BearerTokens::parse(std::string_view text, const std::string& where,
                                         const std::string& idName) {
  std::vector<Entry> entries;
  std::size_t lineNo = 0;
  while (!text.empty()) {
    ++lineNo;
    const std::size_t end = text.find('\n');
    const std::string_view raw = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    const std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') continue;
    const std::string at = where + ": line " + std::to_string(lineNo) + ": ";
    std::size_t split = 0;
    while (split < line.size() && !isBlank(line[split])) ++split;
    const std::string_view id = line.substr(0, split);
    const std::string_view hex = trim(line.substr(split));
    if (id.empty() || hex.empty() || hex.find_first_of(" \t") != std::string_view::npos) {
      return makeError(at + "expected '" + idName + "-id sha256-hex-of-token'");
    }
    if (!isValidTokenId(id)) {
      return makeError(at + idName + " id '" + printable(id) +
                       "' is not 1-64 characters of letters, digits, '-', '_', '.'");
    }
    // Never quoted: a token pasted here by mistake must not reach a log line.
    auto bytes = fromHex(hex);
    if (hex.size() != 64 || !bytes) {
      return makeError(at + "the token hash is not 64 hex digits (store the SHA-256 of the " +
                       "token, never the token itself)");
    }
    Entry entry{std::string(id), {}};
    std::memcpy(entry.tokenHash.data(), bytes->data(), entry.tokenHash.size());
    for (const Entry& other : entries) {
      if (other.tokenHash == entry.tokenHash && other.id != entry.id) {
        return makeError(at + "the same token hash is also given to " + idName + " '" + other.id +
                         "'");
      }
    }
    entries.push_back(std::move(entry));
  }
  return BearerTokens(std::move(entries));
}

Result<BearerTokens> BearerTokens::load(const std::string& path, const std::string& what,
                                        const std::string& idName) {
  const std::string name = what + " " + path;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT) return makeError(name + " does not exist");
    return makeError(name + " cannot be read: " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return makeError(name + " is not a regular file");
  }
  if ((st.st_mode & 077) != 0) {
    ::close(fd);
    return makeError(name + " is accessible by group or others (mode " + modeText(st.st_mode) +
                     "); run chmod 600 " + path);
  }
  if (st.st_size > kMaxFileSize) {
    ::close(fd);
    return makeError(name + " is larger than " + std::to_string(kMaxFileSize) + " bytes");
  }
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (got != text.size()) return makeError(name + " cannot be read completely");
  return parse(text, name, idName);
}

std::optional<std::string> BearerTokens::lookup(std::string_view token) const {
  if (token.empty()) return std::nullopt;
  const Hash32 presented = sha256(asBytes(token));
  const Entry* match = nullptr;
  for (const Entry& e : entries_) {
    // Every entry is compared, matched or not.
    const bool equal = crypto_verify_32(presented.data(), e.tokenHash.data()) == 0;
    if (equal && match == nullptr) match = &e;
  }
  if (match == nullptr) return std::nullopt;
  return match->id;
}

std::vector<std::string> BearerTokens::ids() const {
  std::vector<std::string> out;
  for (const Entry& e : entries_) {
    if (std::find(out.begin(), out.end(), e.id) == out.end()) out.push_back(e.id);
  }
  return out;
}

}  // namespace atoms::drivers
