#include "drivers/sms/twilio/twilio_config.h"

#include <Poco/Exception.h>
#include <Poco/Net/IPAddress.h>
#include <Poco/URI.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <map>
#include <span>

#include "base/file_io.h"

namespace atoms::drivers::twilio {
namespace {

constexpr const char* kPrefix = "sms.twilio.";
constexpr const char* kCredentialName = "twilio-auth-token";

bool isLowerHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

bool isSid(const std::string& v, std::string_view prefix) {
  return v.size() == 34 && v.starts_with(prefix) && std::all_of(v.begin() + 2, v.end(), isLowerHex);
}

bool allDigits(std::string_view v) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// E.164 ("+" and 2-15 digits, no leading 0), a short code (3-8 digits) or an alphanumeric sender
// id (1-11 letters, digits and spaces, at least one letter).
bool isSender(const std::string& v) {
  if (v.starts_with('+')) {
    const std::string_view digits = std::string_view(v).substr(1);
    return allDigits(digits) && digits.size() >= 2 && digits.size() <= 15 && digits[0] != '0';
  }
  if (allDigits(v)) return v.size() >= 3 && v.size() <= 8;
  if (v.empty() || v.size() > 11) return false;
  bool letter = false;
  for (char c : v) {
    if (std::isalpha(static_cast<unsigned char>(c))) {
      letter = true;
    } else if (!std::isdigit(static_cast<unsigned char>(c)) && c != ' ') {
      return false;
    }
  }
  return letter;
}

std::optional<std::string> checkUrl(const std::string& v) {
  const char* expected =
      "an https URL (http only to a loopback host) without user, query, fragment or trailing '/'";
  if (v.empty() || v.back() == '/') return expected;
  try {
    const Poco::URI uri(v);
    const bool https = uri.getScheme() == "https";
    const bool http = uri.getScheme() == "http";
    if (!https && !http) return expected;
    if (uri.getHost().empty() || !uri.getUserInfo().empty() || !uri.getRawQuery().empty() ||
        !uri.getFragment().empty() || v.find('#') != std::string::npos) {
      return expected;
    }
    if (http && !isLoopbackHost(uri.getHost())) return expected;
  } catch (const Poco::Exception&) {
    return expected;
  }
  return std::nullopt;
}

std::optional<long> parseInt(const std::string& v) {
  long out = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || end != v.data() + v.size() || v.empty()) return std::nullopt;
  return out;
}

TwilioKeyValidator intIn(long lo, long hi) {
  return [lo, hi](const std::string& v) -> std::optional<std::string> {
    const std::optional<long> n = parseInt(v);
    if (n && *n >= lo && *n <= hi) return std::nullopt;
    return "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  };
}

TwilioKeyValidator optional(TwilioKeyValidator inner) {
  return [inner = std::move(inner)](const std::string& v) -> std::optional<std::string> {
    if (v.empty()) return std::nullopt;
    return inner(v);
  };
}

std::optional<std::string> checkAccountSid(const std::string& v) {
  if (isSid(v, "AC")) return std::nullopt;
  return "AC followed by 32 lowercase hex digits";
}

std::optional<std::string> checkServiceSid(const std::string& v) {
  if (isSid(v, "MG")) return std::nullopt;
  return "MG followed by 32 lowercase hex digits";
}

std::optional<std::string> checkSender(const std::string& v) {
  if (isSender(v)) return std::nullopt;
  return "an E.164 number (+15551234567), a short code or an alphanumeric sender id";
}

std::optional<std::string> checkAddress(const std::string& v) {
  Poco::Net::IPAddress ip;
  if (Poco::Net::IPAddress::tryParse(v, ip)) return std::nullopt;
  return "an IPv4 or IPv6 address";
}

std::optional<std::string> checkPath(const std::string& v) {
  if (!v.empty() && v[0] == '/') return std::nullopt;
  return "an absolute path";
}

// A token never holds whitespace or control characters; checked without echoing it.
Status checkToken(std::span<const std::uint8_t> token, const std::string& source) {
  if (token.empty()) return makeError("the Twilio auth token in " + source + " is empty");
  if (token.size() > 256) return makeError("the Twilio auth token in " + source + " is too long");
  for (std::uint8_t c : token) {
    if (c <= 0x20 || c == 0x7f) {
      return makeError("the Twilio auth token in " + source +
                       " contains whitespace or control characters");
    }
  }
  return {};
}

std::string modeText(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

}  // namespace

bool isLoopbackHost(const std::string& host) {
  if (host == "localhost") return true;
  Poco::Net::IPAddress ip;
  std::string literal = host;
  if (literal.size() > 2 && literal.front() == '[' && literal.back() == ']') {
    literal = literal.substr(1, literal.size() - 2);
  }
  return Poco::Net::IPAddress::tryParse(literal, ip) && ip.isLoopback();
}

std::vector<TwilioConfigKey> twilioConfigKeys() {
  const std::string p = kPrefix;
  return {
      {p + "account-sid", "", "Twilio account SID (AC...)", optional(checkAccountSid)},
      {p + "auth-token-file", "",
       "file holding the Twilio auth token (mode 0600); default: the systemd credential "
       "twilio-auth-token",
       optional(checkPath)},
      {p + "auth-token", "", "the Twilio auth token itself (discouraged: prefer auth-token-file)",
       [](const std::string&) -> std::optional<std::string> { return std::nullopt; }},
      {p + "api-base-url", "https://api.twilio.com", "base URL of the Twilio REST API", checkUrl},
      {p + "from", "", "sender: E.164 number, short code or alphanumeric id",
       optional(checkSender)},
      {p + "messaging-service-sid", "", "Messaging Service SID (MG...), instead of or with from",
       optional(checkServiceSid)},
      {p + "public-url", "", "URL at which Twilio reaches the webhook server's root",
       optional(checkUrl)},
      {p + "listen-address", "127.0.0.1", "address the webhook server listens on", checkAddress},
      {p + "listen-port", "8089", "port the webhook server listens on (0: any)", intIn(0, 65535)},
      {p + "connect-timeout-ms", "5000", "REST API connect timeout", intIn(100, 120000)},
      {p + "request-timeout-ms", "15000", "REST API send/receive timeout", intIn(100, 120000)},
      {p + "webhook-threads", "32", "webhook requests served at once", intIn(1, 64)},
      {p + "max-webhook-bytes", "65536", "largest webhook body accepted (413 above)",
       intIn(4096, 1048576)},
      {p + "opt-out-replies", "twilio",
       "who confirms a STOP or START: twilio (its keyword handling is on, the default) or box",
       [](const std::string& v) -> std::optional<std::string> {
         if (v == "twilio" || v == "box") return std::nullopt;
         return "twilio or box";
       }},
  };
}

Result<SecretBytes> readSecretFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT) return makeError("auth token file " + path + " does not exist");
    return makeError("cannot read auth token file " + path + ": " + errnoText(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return makeError("auth token file " + path + " is not a regular file");
  }
  if ((st.st_mode & 077) != 0) {
    ::close(fd);
    return makeError("auth token file " + path + " is accessible by group or others (mode " +
                     modeText(st.st_mode) + "); run chmod 600 " + path);
  }
  if (st.st_size <= 0 || st.st_size > 4096) {
    ::close(fd);
    return makeError("auth token file " + path + " is empty or too large");
  }
  SecretBytes buffer(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  while (got < buffer.size()) {
    const ssize_t n = ::read(fd, buffer.data() + got, buffer.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (got != buffer.size()) return makeError("cannot read auth token file " + path);
  std::size_t size = got;
  if (size > 0 && buffer.data()[size - 1] == '\n') --size;
  if (size > 0 && buffer.data()[size - 1] == '\r') --size;
  SecretBytes token(std::span<const std::uint8_t>(buffer.data(), size));
  if (Status s = checkToken(token.view(), "file " + path); !s) return s.error();
  return token;
}

Status validateTwilioConfig(const TwilioConfig& c) {
  const std::string p = kPrefix;
  auto bad = [&](const std::string& key, const std::string& expected) {
    return makeError(p + key + ": expected " + expected);
  };
  if (auto e = checkAccountSid(c.accountSid)) return bad("account-sid", *e);
  if (Status s = checkToken(c.authToken.view(), "the configuration"); !s) return s;
  if (auto e = checkUrl(c.apiBaseUrl)) return bad("api-base-url", *e);
  if (c.from.empty() && c.messagingServiceSid.empty()) {
    return makeError(p + "from or " + p + "messaging-service-sid must be set");
  }
  if (!c.from.empty()) {
    if (auto e = checkSender(c.from)) return bad("from", *e);
  }
  if (!c.messagingServiceSid.empty()) {
    if (auto e = checkServiceSid(c.messagingServiceSid)) return bad("messaging-service-sid", *e);
  }
  if (c.publicUrl.empty()) return makeError(p + "public-url must be set");
  if (auto e = checkUrl(c.publicUrl)) return bad("public-url", *e);
  if (auto e = checkAddress(c.listenAddress)) return bad("listen-address", *e);
  auto inRange = [](std::chrono::milliseconds v) {
    return v.count() >= 100 && v.count() <= 120000;
  };
  if (!inRange(c.connectTimeout)) return bad("connect-timeout-ms", "100 to 120000");
  if (!inRange(c.requestTimeout)) return bad("request-timeout-ms", "100 to 120000");
  if (c.webhookThreads < 1 || c.webhookThreads > 64) return bad("webhook-threads", "1 to 64");
  if (c.maxWebhookBytes < 4096 || c.maxWebhookBytes > 1048576) {
    return bad("max-webhook-bytes", "4096 to 1048576");
  }
  return {};
}

Result<TwilioConfig> loadTwilioConfig(const ConfigLookup& lookup,
                                      const std::optional<std::string>& credentialsDir) {
  std::map<std::string, std::string> values;
  for (const TwilioConfigKey& k : twilioConfigKeys()) {
    std::string v = lookup(k.key).value_or(k.defaultValue);
    if (auto expected = k.validate(v)) {
      // The inline token is never echoed, even when refused.
      const std::string shown = k.key == std::string(kPrefix) + "auth-token" ? "(hidden)" : v;
      return makeError(k.key + ": bad value '" + shown + "' (expected " + *expected + ")");
    }
    values[k.key.substr(std::string_view(kPrefix).size())] = std::move(v);
  }
  TwilioConfig c;
  c.accountSid = values["account-sid"];
  if (c.accountSid.empty()) return makeError(std::string(kPrefix) + "account-sid must be set");
  const std::string& file = values["auth-token-file"];
  const std::string& inline_ = values["auth-token"];
  if (!file.empty() && !inline_.empty()) {
    return makeError(std::string(kPrefix) + "auth-token and " + kPrefix +
                     "auth-token-file are both set; keep one");
  }
  if (!file.empty()) {
    Result<SecretBytes> token = readSecretFile(file);
    if (!token) return token.error();
    c.authToken = std::move(*token);
  } else if (!inline_.empty()) {
    c.authToken = SecretBytes(std::span<const std::uint8_t>(
        reinterpret_cast<const std::uint8_t*>(inline_.data()), inline_.size()));
  } else if (credentialsDir && !credentialsDir->empty() &&
             ::access((*credentialsDir + "/" + kCredentialName).c_str(), F_OK) == 0) {
    Result<SecretBytes> token = readSecretFile(*credentialsDir + "/" + kCredentialName);
    if (!token) return token.error();
    c.authToken = std::move(*token);
  } else {
    return makeError(std::string("no Twilio auth token: set ") + kPrefix +
                     "auth-token-file or supply the systemd credential " + kCredentialName);
  }
  c.apiBaseUrl = values["api-base-url"];
  c.from = values["from"];
  c.messagingServiceSid = values["messaging-service-sid"];
  c.publicUrl = values["public-url"];
  c.listenAddress = values["listen-address"];
  c.listenPort = static_cast<std::uint16_t>(*parseInt(values["listen-port"]));
  c.connectTimeout = std::chrono::milliseconds(*parseInt(values["connect-timeout-ms"]));
  c.requestTimeout = std::chrono::milliseconds(*parseInt(values["request-timeout-ms"]));
  c.webhookThreads = static_cast<int>(*parseInt(values["webhook-threads"]));
  c.maxWebhookBytes = static_cast<std::size_t>(*parseInt(values["max-webhook-bytes"]));
  c.providerConfirmsKeywords = values["opt-out-replies"] == "twilio";
  if (Status s = validateTwilioConfig(c); !s) return s.error();
  return c;
}

}  // namespace atoms::drivers::twilio
