#include "daemon/panel/box_certificate.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <memory>
#include <string_view>

#include "base/file_io.h"

namespace atoms::panel {
namespace {

template <class T, void (*Free)(T*)>
struct OsslDeleter {
  void operator()(T* p) const { Free(p); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, OsslDeleter<EVP_PKEY, EVP_PKEY_free>>;
using X509Ptr = std::unique_ptr<X509, OsslDeleter<X509, X509_free>>;
using BioPtr = std::unique_ptr<BIO, OsslDeleter<BIO, BIO_free_all>>;
using BnPtr = std::unique_ptr<BIGNUM, OsslDeleter<BIGNUM, BN_free>>;
using ExtPtr = std::unique_ptr<X509_EXTENSION, OsslDeleter<X509_EXTENSION, X509_EXTENSION_free>>;

// OpenSSL's queued errors as one line, and the queue cleared.
std::string opensslErrors() {
  std::string out;
  while (unsigned long e = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    out += (out.empty() ? "" : "; ") + std::string(buf);
  }
  return out.empty() ? std::string("unknown OpenSSL error") : out;
}

bool isIpAddress(const std::string& name) {
  unsigned char buf[16];
  return inet_pton(AF_INET, name.c_str(), buf) == 1 || inet_pton(AF_INET6, name.c_str(), buf) == 1;
}

// Labels of 1-63 letters, digits and '-' (not first or last), joined by '.', at most 253 in all.
bool isDnsName(const std::string& name) {
  if (name.empty() || name.size() > 253) return false;
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t end = std::min(name.find('.', start), name.size());
    const std::string_view label(name.data() + start, end - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') {
      return false;
    }
    for (char c : label) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
    }
    start = end + 1;
  }
  return true;
}

Status addExtension(X509* cert, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  ExtPtr ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str()));
  if (!ext || X509_add_ext(cert, ext.get(), -1) != 1) {
    return makeError("cannot add the certificate extension " + value + ": " + opensslErrors());
  }
  return {};
}

Result<std::string> bioText(BIO* bio) {
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio, &data);
  if (n <= 0 || data == nullptr) return makeError("nothing written: " + opensslErrors());
  return std::string(data, static_cast<std::size_t>(n));
}

std::chrono::system_clock::time_point fromAsn1Time(const ASN1_TIME* t) {
  std::tm tm{};
  if (ASN1_TIME_to_tm(t, &tm) != 1) return {};
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

}  // namespace

Status checkCertificateName(const std::string& name) {
  if (isIpAddress(name) || isDnsName(name)) return {};
  return makeError("'" + name + "' is neither a host name nor an IP address", ErrorKind::kInvalid);
}

BoxCertificatePaths BoxCertificatePaths::under(const std::string& stateDir) {
  return {stateDir + "/panel.crt", stateDir + "/panel.key"};
}

std::vector<std::string> boxCertificateNames(const std::vector<std::string>& extra) {
  std::vector<std::string> names;
  const auto add = [&names](const std::string& n) {
    if (!n.empty() && std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  };
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0 && isDnsName(host)) {
    const std::string h = host;
    add(h);
    if (h.find('.') == std::string::npos) add(h + ".local");
  }
  add("localhost");
  add("127.0.0.1");
  add("::1");
  // The addresses the box has now, so that https://<its address>:8443 matches too: IPv4 other
  // than loopback, IPv6 other than loopback and link-local (fe80::/10, which needs a zone).
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) == 0) {
    for (const ifaddrs* i = list; i != nullptr; i = i->ifa_next) {
      if (i->ifa_addr == nullptr || (i->ifa_flags & IFF_LOOPBACK) != 0) continue;
      char text[INET6_ADDRSTRLEN] = {};
      if (i->ifa_addr->sa_family == AF_INET) {
        const auto* a = reinterpret_cast<const sockaddr_in*>(i->ifa_addr);
        if (inet_ntop(AF_INET, &a->sin_addr, text, sizeof text)) add(text);
      } else if (i->ifa_addr->sa_family == AF_INET6) {
        const auto* a = reinterpret_cast<const sockaddr_in6*>(i->ifa_addr);
        if (IN6_IS_ADDR_LINKLOCAL(&a->sin6_addr) || IN6_IS_ADDR_LOOPBACK(&a->sin6_addr)) continue;
        if (inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof text)) add(text);
      }
    }
    freeifaddrs(list);
  }
  for (const std::string& n : extra) add(n);
  return names;
}

Status createBoxCertificate(const BoxCertificatePaths& paths, const std::vector<std::string>& names,
                            std::chrono::system_clock::time_point now, FileSystem& fs) {
  if (names.empty()) return makeError("a certificate needs at least one name", ErrorKind::kInvalid);
  std::string san;
  for (const std::string& n : names) {
    std::string entry;
    if (isIpAddress(n)) {
      entry = "IP:" + n;
    } else if (isDnsName(n)) {
      entry = "DNS:" + n;
    } else {
      return checkCertificateName(n);
    }
    san += (san.empty() ? "" : ",") + entry;
  }
  ERR_clear_error();
  PkeyPtr key(EVP_EC_gen("P-256"));
  X509Ptr cert(X509_new());
  if (!key || !cert) return makeError("cannot make a P-256 key: " + opensslErrors());
  unsigned char serial[16];
  if (RAND_bytes(serial, sizeof serial) != 1) {
    return makeError("no random serial number: " + opensslErrors());
  }
  serial[0] &= 0x7f;  // a positive INTEGER
  BnPtr serialBn(BN_bin2bn(serial, sizeof serial, nullptr));
  const std::time_t from = std::chrono::system_clock::to_time_t(now - std::chrono::hours(1));
  const std::time_t until =
      std::chrono::system_clock::to_time_t(now + std::chrono::hours(24 * kBoxCertificateDays));
  X509_NAME* subject = X509_get_subject_name(cert.get());
  const std::string cn = "atoms-edge " + names.front();
  if (!serialBn || X509_set_version(cert.get(), 2) != 1 ||
      BN_to_ASN1_INTEGER(serialBn.get(), X509_get_serialNumber(cert.get())) == nullptr ||
      ASN1_TIME_set(X509_getm_notBefore(cert.get()), from) == nullptr ||
      ASN1_TIME_set(X509_getm_notAfter(cert.get()), until) == nullptr ||
      X509_set_pubkey(cert.get(), key.get()) != 1 ||
      X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_UTF8,
                                 reinterpret_cast<const unsigned char*>("atoms-edge"), -1, -1,
                                 0) != 1 ||
      X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8,
                                 reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1,
                                 0) != 1 ||
      X509_set_issuer_name(cert.get(), subject) != 1) {
    return makeError("cannot fill in the certificate: " + opensslErrors());
  }
  for (const auto& [nid, value] :
       {std::pair<int, std::string>{NID_basic_constraints, "critical,CA:FALSE"},
        {NID_key_usage, "critical,digitalSignature"},
        {NID_ext_key_usage, "serverAuth"},
        {NID_subject_key_identifier, "hash"},
        {NID_subject_alt_name, san}}) {
    if (Status s = addExtension(cert.get(), nid, value); !s) return s;
  }
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) {
    return makeError("cannot sign the certificate: " + opensslErrors());
  }
  BioPtr keyBio(BIO_new(BIO_s_mem()));
  BioPtr certBio(BIO_new(BIO_s_mem()));
  if (!keyBio || !certBio ||
      PEM_write_bio_PrivateKey(keyBio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) !=
          1 ||
      PEM_write_bio_X509(certBio.get(), cert.get()) != 1) {
    return makeError("cannot write the certificate as PEM: " + opensslErrors());
  }
  auto keyPem = bioText(keyBio.get());
  auto certPem = bioText(certBio.get());
  if (!keyPem) return keyPem.error();
  if (!certPem) return certPem.error();
  // Key first: a crash between the two leaves a key without its certificate, which `serve` makes
  // again, never a certificate whose key is gone.
  if (Status s = replaceFileDurably(paths.key, *keyPem, fs); !s) return s;
  return replaceFileDurably(paths.cert, *certPem, fs);
}

Result<CertificateInfo> readCertificate(const std::string& path) {
  auto pem = readFileToString(path);
  if (!pem) return pem.error();
  ERR_clear_error();
  BioPtr bio(BIO_new_mem_buf(pem->data(), static_cast<int>(pem->size())));
  X509Ptr cert(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
  if (!cert) {
    ERR_clear_error();
    return makeError(path + " holds no PEM certificate", ErrorKind::kInvalid);
  }
  CertificateInfo info;
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (X509_digest(cert.get(), EVP_sha256(), md, &n) != 1) {
    return makeError("cannot hash " + path + ": " + opensslErrors());
  }
  info.fingerprint = colonHex(std::vector<unsigned char>(md, md + n));
  info.notAfter = fromAsn1Time(X509_get0_notAfter(cert.get()));
  auto* sans = static_cast<GENERAL_NAMES*>(
      X509_get_ext_d2i(cert.get(), NID_subject_alt_name, nullptr, nullptr));
  for (int i = 0; sans != nullptr && i < sk_GENERAL_NAME_num(sans); ++i) {
    const GENERAL_NAME* g = sk_GENERAL_NAME_value(sans, i);
    if (g->type == GEN_DNS) {
      const ASN1_STRING* s = g->d.dNSName;
      info.names.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)),
                              static_cast<std::size_t>(ASN1_STRING_length(s)));
    } else if (g->type == GEN_IPADD) {
      const ASN1_STRING* s = g->d.iPAddress;
      const int len = ASN1_STRING_length(s);
      char text[INET6_ADDRSTRLEN] = {};
      if ((len == 4 || len == 16) &&
          inet_ntop(len == 4 ? AF_INET : AF_INET6, ASN1_STRING_get0_data(s), text, sizeof text)) {
        info.names.emplace_back(text);
      }
    }
  }
  GENERAL_NAMES_free(sans);
  return info;
}

Result<EnsuredCertificate> ensureBoxCertificate(const BoxCertificatePaths& paths,
                                                const std::vector<std::string>& names,
                                                std::chrono::system_clock::time_point now,
                                                FileSystem& fs) {
  std::string why;
  if (!fs.exists(paths.cert)) {
    why = "no certificate at " + paths.cert;
  } else if (!fs.exists(paths.key)) {
    why = "no key at " + paths.key;
  } else {
    auto info = readCertificate(paths.cert);
    if (!info) return info.error();
    if (info->notAfter - now >= std::chrono::hours(24 * kBoxCertificateRenewDays)) {
      return EnsuredCertificate{std::move(*info), ""};
    }
    why = info->notAfter <= now ? "the certificate has expired"
                                : "the certificate expires within " +
                                      std::to_string(kBoxCertificateRenewDays) + " days";
  }
  if (Status s = createBoxCertificate(paths, names, now, fs); !s) return s.error();
  auto info = readCertificate(paths.cert);
  if (!info) return info.error();
  return EnsuredCertificate{std::move(*info), why};
}

std::string colonHex(const std::vector<unsigned char>& bytes) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char b : bytes) {
    if (!out.empty()) out += ':';
    out += kDigits[b >> 4];
    out += kDigits[b & 0x0f];
  }
  return out;
}

}  // namespace atoms::panel
