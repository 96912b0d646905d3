#include "sync/connect_diagnosis.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "base/file_io.h"
#include "sync/paho_transport.h"

namespace atoms::sync {
namespace {

struct BrokerAddress {
  std::string host, port;
  bool tls = false;
};

std::optional<BrokerAddress> brokerAddress(const std::string& uri) {
  BrokerAddress a;
  const auto scheme = uri.find("://");
  if (scheme == std::string::npos) return std::nullopt;
  a.tls = isTlsUri(uri);
  std::string rest = uri.substr(scheme + 3);
  if (auto slash = rest.find('/'); slash != std::string::npos) rest.resize(slash);
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close == std::string::npos) return std::nullopt;
    a.host = rest.substr(1, close - 1);
    if (close + 1 < rest.size() && rest[close + 1] == ':') a.port = rest.substr(close + 2);
  } else if (auto colon = rest.rfind(':'); colon != std::string::npos) {
    a.host = rest.substr(0, colon);
    a.port = rest.substr(colon + 1);
  } else {
    a.host = rest;
  }
  if (a.port.empty()) a.port = a.tls ? "8883" : "1883";
  if (a.host.empty()) return std::nullopt;
  return a;
}

std::string hex2(int code) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned>(code) & 0xFFU);
  return buf;
}

class ProbeFd {
 public:
  explicit ProbeFd(int fd) : fd_(fd) {}
  ~ProbeFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  ProbeFd(const ProbeFd&) = delete;
  ProbeFd& operator=(const ProbeFd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Connects with a deadline; the error as the system names it, or "".
std::string tcpConnect(const BrokerAddress& a, std::chrono::milliseconds timeout, int& out) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (int rc = ::getaddrinfo(a.host.c_str(), a.port.c_str(), &hints, &found); rc != 0) {
    return "cannot resolve the broker's host " + a.host + ": " + ::gai_strerror(rc);
  }
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> list(found, &::freeaddrinfo);
  std::string last = "no address";
  for (addrinfo* ai = found; ai != nullptr; ai = ai->ai_next) {
    const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      last = errnoText(errno);
      continue;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    int rc = ::connect(fd, ai->ai_addr, ai->ai_addrlen);
    if (rc != 0 && errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      rc = ::poll(&p, 1, static_cast<int>(timeout.count()));
      if (rc == 0) {
        ::close(fd);
        last = "no answer within " + std::to_string(timeout.count()) + " ms";
        continue;
      }
      int err = 0;
      socklen_t len = sizeof err;
      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
      errno = err;
      rc = err == 0 ? 0 : -1;
    }
    if (rc != 0) {
      last = errnoText(errno);
      ::close(fd);
      continue;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    timeval tv{static_cast<time_t>(timeout.count() / 1000),
               static_cast<suseconds_t>((timeout.count() % 1000) * 1000)};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    out = fd;
    return {};
  }
  return "the broker " + a.host + ":" + a.port + " is unreachable: " + last;
}

std::string opensslQueue() {
  std::string text;
  while (unsigned long e = ::ERR_get_error()) {
    const char* reason = ::ERR_reason_error_string(e);
    if (!text.empty()) text += "; ";
    text += reason != nullptr ? reason : "error " + std::to_string(e);
  }
  return text;
}

std::string tlsHandshake(const MqttSettings& st, const BrokerAddress& a, int fd) {
  ::ERR_clear_error();
  std::unique_ptr<SSL_CTX, decltype(&::SSL_CTX_free)> ctx(::SSL_CTX_new(::TLS_client_method()),
                                                          &::SSL_CTX_free);
  if (!ctx) return "TLS: cannot set up OpenSSL: " + opensslQueue();
  const std::string trust = st.caFile.empty() ? "the system's CAs" : "the CA file " + st.caFile;
  const int loaded = st.caFile.empty()
                         ? ::SSL_CTX_set_default_verify_paths(ctx.get())
                         : ::SSL_CTX_load_verify_locations(ctx.get(), st.caFile.c_str(), nullptr);
  if (loaded != 1) return "TLS: cannot load " + trust + ": " + opensslQueue();
  if (!st.clientCert.empty()) {
    if (::SSL_CTX_use_certificate_chain_file(ctx.get(), st.clientCert.c_str()) != 1 ||
        ::SSL_CTX_use_PrivateKey_file(ctx.get(), st.clientKey.c_str(), SSL_FILETYPE_PEM) != 1) {
      return "TLS: cannot load the client certificate " + st.clientCert + ": " + opensslQueue();
    }
  }
  ::SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  std::unique_ptr<SSL, decltype(&::SSL_free)> ssl(::SSL_new(ctx.get()), &::SSL_free);
  if (!ssl) return "TLS: cannot set up OpenSSL: " + opensslQueue();
  ::SSL_set_fd(ssl.get(), fd);
  X509_VERIFY_PARAM* param = ::SSL_get0_param(ssl.get());
  in6_addr ip{};
  const bool isIp = ::inet_pton(AF_INET, a.host.c_str(), &ip) == 1 ||
                    ::inet_pton(AF_INET6, a.host.c_str(), &ip) == 1;
  if (isIp) {
    ::X509_VERIFY_PARAM_set1_ip_asc(param, a.host.c_str());
  } else {
    ::SSL_set_tlsext_host_name(ssl.get(), a.host.c_str());
    ::X509_VERIFY_PARAM_set1_host(param, a.host.c_str(), 0);
  }
  if (::SSL_connect(ssl.get()) == 1) {
    // TLS 1.3 sends a refusal of the client certificate after the handshake: read for it.
    char byte = 0;
    const int n = ::SSL_peek(ssl.get(), &byte, 1);
    if (n <= 0 && ::SSL_get_error(ssl.get(), n) == SSL_ERROR_SSL) {
      return "TLS: the broker ended the handshake (OpenSSL: " + opensslQueue() + ")";
    }
    return {};
  }
  const long verify = ::SSL_get_verify_result(ssl.get());
  if (verify == X509_V_ERR_HOSTNAME_MISMATCH || verify == X509_V_ERR_IP_ADDRESS_MISMATCH) {
    ::ERR_clear_error();
    return "TLS: the broker's certificate is not issued for " + a.host +
           " (host name mismatch; OpenSSL: " + ::X509_verify_cert_error_string(verify) + ")";
  }
  if (verify != X509_V_OK) {
    ::ERR_clear_error();
    return "TLS: the broker's certificate is not trusted by " + trust +
           " (unknown CA; OpenSSL: " + ::X509_verify_cert_error_string(verify) + ")";
  }
  std::string queue = opensslQueue();
  return "TLS: the handshake with " + a.host + ":" + a.port +
         " failed (OpenSSL: " + (queue.empty() ? std::string("the connection closed") : queue) +
         ")";
}

}  // namespace

std::optional<std::string> connackRefusal(int mqttVersion, int returnCode, int reasonCode) {
  std::string what;
  std::string code;
  // Paho C++ puts an MQTT 5 CONNACK reason in the return code, a 3.1.1 one too; its own errors
  // are negative, and 0xFF is "no reason code".
  if (mqttVersion == 5 && reasonCode < 0x80 && returnCode >= 0x80 && returnCode < 0xFF) {
    reasonCode = returnCode;
  }
  if (mqttVersion == 5 && reasonCode >= 0x80 && reasonCode < 0xFF) {
    code = "CONNACK reason " + hex2(reasonCode);
    switch (reasonCode) {
      case 0x84:
        what = "unsupported protocol version";
        break;
      case 0x85:
        what = "client identifier not valid";
        break;
      case 0x86:
        what = "bad user name or password";
        break;
      case 0x87:
        what =
            "not authorised (a wrong user name or password, or a user the broker does not "
            "let connect)";
        break;
      case 0x88:
      case 0x89:
        what = "server unavailable or busy";
        break;
      case 0x8A:
        what = "banned";
        break;
      case 0x8C:
        what = "bad authentication method";
        break;
      default:
        what = "refused";
    }
  } else if (mqttVersion == 4 && returnCode >= 1 && returnCode <= 5) {
    code = "CONNACK return code " + std::to_string(returnCode);
    constexpr const char* kNames[] = {"",
                                      "unacceptable protocol version",
                                      "client identifier rejected",
                                      "server unavailable",
                                      "bad user name or password",
                                      "not authorised"};
    what = kNames[returnCode];
  } else {
    return std::nullopt;
  }
  return "the broker refused the connection: " + what + " (" + code + ")";
}

std::string probeBroker(const MqttSettings& settings, std::chrono::milliseconds timeout) {
  auto address = brokerAddress(settings.uri);
  if (!address) return {};
  int fd = -1;
  if (std::string err = tcpConnect(*address, timeout, fd); !err.empty()) return err;
  ProbeFd owned(fd);
  if (!address->tls) return {};
  return tlsHandshake(settings, *address, owned.get());
}

}  // namespace atoms::sync
