// The box's own TLS certificate for the panel (docs/panel.md, "Certificate"): a self-signed ECDSA
// P-256 certificate and its key, made by `atoms-edge init` in the state directory (and again by
// `serve` when they are missing or expired), unless the operator configures their own
// (panel.cert_file, panel.key_file).
//
//   DIR/panel.crt  certificate (PEM, mode 0600; the state directory is 0700 anyway)
//   DIR/panel.key  private key (PEM, PKCS#8, mode 0600)
//
// The certificate is an end-entity certificate (basicConstraints CA:FALSE, keyUsage
// digitalSignature, extendedKeyUsage serverAuth) whose subjectAltName lists every name it was made
// for: DNS names, and IP addresses for names that parse as one. Browsers trust it once a person
// has checked its SHA-256 fingerprint, the one `init` and `identity` print.
//
// OpenSSL's C API behind plain functions; thread-safe (no shared state). Errors are one line
// naming the file.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "base/file_system.h"
#include "base/result.h"

namespace atoms::panel {

struct BoxCertificatePaths {
  std::string cert, key;
  // DIR/panel.crt and DIR/panel.key.
  static BoxCertificatePaths under(const std::string& stateDir);
};

// How long a certificate made here is valid: 825 days, the most Apple's platforms accept for a
// TLS server certificate.
inline constexpr int kBoxCertificateDays = 825;

// The names a box certificate is made for when nobody adds any: this machine's host name (and
// "<host>.local", the name mDNS gives it on the LAN), "localhost", 127.0.0.1, ::1, and the
// addresses its network interfaces have now (not loopback, not IPv6 link-local). Then `extra`
// (panel names from `init --panel-names` or the panel.listen address), without duplicates.
std::vector<std::string> boxCertificateNames(const std::vector<std::string>& extra = {});

// Ok when `name` can go into the subjectAltName: an IPv4 or IPv6 address, or a DNS name (letters,
// digits, '-', dot-separated labels of 1-63 characters). Otherwise an error naming it (kInvalid).
Status checkCertificateName(const std::string& name);

// Makes a new key pair and a certificate for `names` valid from an hour before `now` (clocks on
// phones run a little off) for kBoxCertificateDays, and replaces both files durably (key first).
// An empty `names`, or a name that is neither an IP address nor a DNS name, is an error
// (kInvalid) and writes nothing.
Status createBoxCertificate(const BoxCertificatePaths& paths, const std::vector<std::string>& names,
                            std::chrono::system_clock::time_point now,
                            FileSystem& fs = posixFileSystem());

struct CertificateInfo {
  std::string fingerprint;         // SHA-256 of the DER, "AB:CD:..." (as browsers show it)
  std::vector<std::string> names;  // the subjectAltName entries: DNS names and IP addresses
  std::chrono::system_clock::time_point notAfter;
};

// Reads the first certificate of a PEM file. Errors name the file: missing (kind kNotFound),
// unreadable, or not a PEM certificate (kInvalid).
Result<CertificateInfo> readCertificate(const std::string& path);

// Renewed by ensureBoxCertificate when fewer days than this remain.
inline constexpr int kBoxCertificateRenewDays = 30;

struct EnsuredCertificate {
  CertificateInfo info;
  std::string made;  // why it was made anew ("missing", "expires ..."); empty when kept
};

// What `serve` does at start when no operator certificate is configured: keeps the files when
// both are there and the certificate has kBoxCertificateRenewDays or more left; otherwise makes
// new ones for `names` (a new fingerprint, which the caller logs). A certificate file that exists
// but is not one is an error, not replaced: somebody put it there.
Result<EnsuredCertificate> ensureBoxCertificate(const BoxCertificatePaths& paths,
                                                const std::vector<std::string>& names,
                                                std::chrono::system_clock::time_point now,
                                                FileSystem& fs = posixFileSystem());

// "AB:CD:..." for bytes: uppercase hex pairs joined by colons.
std::string colonHex(const std::vector<unsigned char>& bytes);

}  // namespace atoms::panel
