// MosquittoBroker: a real `mosquitto` (Debian package, /usr/sbin/mosquitto) for integration tests
// and benchmarks, on free loopback ports, configured in a fresh temporary directory:
//
// - three listeners on 127.0.0.1: plain (username/password), TLS with username/password, and TLS
//   that requires a client certificate whose CN becomes the username (use_identity_as_username);
// - a test PKI made with the openssl CLI: a CA, a server certificate for localhost/127.0.0.1, a
//   client certificate per site, and an unrelated "wrong" CA for refusal tests;
// - a password file (mosquitto_passwd) with one user per site plus the cloud user "ingest";
// - per-site ACLs with `pattern` lines: a site may publish only atoms/v1/<its id>/audit, status and
//   cmd/result, and read only its ack and cmd; "ingest" may use everything under atoms/v1/;
// - persistence on (a persistence directory), log to a file.
//
// start() waits until every listener accepts TCP connections (polling with a deadline, no fixed
// sleep). stop() is SIGTERM (the broker saves its persistence), kill() SIGKILL; restart() can
// keep or drop the persistence. Errors are values carrying the tail of the broker's log; the
// destructor kills the broker and prints its log to stderr when options.failed() says the test
// failed.
//
// Threading: one test thread. Not copyable.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "base/result.h"
#include "tests/support/temp_dir.h"

namespace atoms::testing {

struct BrokerOptions {
  std::vector<std::string> sites = {"site-a", "site-b"};
  bool persistence = true;
  // The server certificate's subjectAltName (openssl syntax); another name makes every TLS
  // connection to 127.0.0.1 or localhost a host-name mismatch.
  std::string serverAltNames = "DNS:localhost,IP:127.0.0.1";
  // Asked by the destructor: print the broker's log when it returns true (e.g. the Boost test
  // case failed).
  std::function<bool()> failed;
};

struct ClientCertFiles {
  std::string cert, key;
};

class MosquittoBroker {
 public:
  static constexpr const char* kIngestUser = "ingest";

  // Makes the PKI, the password file, the ACL and the configuration; does not start the broker.
  // Failures of openssl or mosquitto_passwd are reported by start().
  explicit MosquittoBroker(BrokerOptions options = {});
  ~MosquittoBroker();
  MosquittoBroker(const MosquittoBroker&) = delete;
  MosquittoBroker& operator=(const MosquittoBroker&) = delete;

  Status start(std::chrono::milliseconds deadline = std::chrono::seconds(10));
  // SIGTERM and wait for the exit (the broker writes its persistence file).
  Status stop(std::chrono::milliseconds deadline = std::chrono::seconds(10));
  // SIGKILL and reap: a crash; what was not saved yet is lost.
  void kill();
  // stop() (or kill() when !keepPersistence), then start() on the same ports. Without
  // persistence the saved database is deleted first: the broker forgets every session and
  // retained message.
  Status restart(bool keepPersistence);
  bool running() const { return pid_ > 0; }

  std::string plainUri() const;        // tcp://127.0.0.1:P
  std::string tlsPasswordUri() const;  // ssl://127.0.0.1:P, server cert only
  std::string tlsCertUri() const;      // ssl://127.0.0.1:P, client certificate required
  std::string tlsHostUri() const;      // the client-cert listener by host name (localhost)

  const std::string& caFile() const { return caFile_; }
  const std::string& wrongCaFile() const { return wrongCaFile_; }
  ClientCertFiles clientCert(const std::string& site) const;
  // A client certificate for the first site, signed by the wrong CA (refused by the broker).
  ClientCertFiles foreignClientCert() const;
  // The password of a site or of kIngestUser; a file holding it (no newline).
  std::string password(const std::string& user) const;
  std::string passwordFile(const std::string& user) const;

  // The broker's log so far (log file plus its stdout/stderr).
  std::string log() const;
  const std::string& dir() const { return dir_.path(); }

 private:
  Status prepare();
  Status pickPorts();
  Status writeConfig();
  Status waitReady(std::chrono::steady_clock::time_point until);
  Status failure(const std::string& what) const;

  BrokerOptions options_;
  TempDir dir_;
  Status prepared_;
  std::string caFile_, wrongCaFile_;
  int plainPort_ = 0, tlsPasswordPort_ = 0, tlsCertPort_ = 0;
  pid_t pid_ = -1;
};

}  // namespace atoms::testing
