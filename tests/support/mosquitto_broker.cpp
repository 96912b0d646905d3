#include "tests/support/mosquitto_broker.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "tests/support/file_contents.h"
#include "tests/support/server_process.h"

extern char** environ;

namespace atoms::testing {
namespace {

constexpr const char* kMosquitto = "/usr/sbin/mosquitto";

using atoms::testing::readAll;

std::string currentUser() {
  const passwd* pw = ::getpwuid(::geteuid());
  return pw != nullptr ? pw->pw_name : "root";
}

// Waits for pid to exit until the deadline; true when it did (and was reaped).
bool reapBy(pid_t pid, std::chrono::steady_clock::time_point until) {
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno == ECHILD)) return true;
    if (std::chrono::steady_clock::now() >= until) return false;
    // A child's exit cannot be waited on with a timeout portably: poll in small steps.
    ::poll(nullptr, 0, 5);
  }
}

// The openssl CLI steps of the test PKI (EC P-256: fast to make).
class Pki {
 public:
  explicit Pki(std::string dir) : dir_(std::move(dir)), out_(dir_ + "/openssl.out") {}

  Status ca(const std::string& name) {
    return runTool({"openssl",
                    "req",
                    "-x509",
                    "-new",
                    "-newkey",
                    "ec",
                    "-pkeyopt",
                    "ec_paramgen_curve:P-256",
                    "-nodes",
                    "-days",
                    "3",
                    "-subj",
                    "/CN=" + name,
                    "-addext",
                    "basicConstraints=critical,CA:TRUE",
                    "-addext",
                    "keyUsage=critical,keyCertSign,cRLSign",
                    "-keyout",
                    path(name + ".key"),
                    "-out",
                    path(name + ".crt")},
                   out_);
  }

  // A leaf certificate `name` with subject CN=cn, signed by CA `ca`.
  Status leaf(const std::string& ca, const std::string& name, const std::string& cn,
              const std::string& extensions) {
    std::ofstream(path(name + ".ext")) << extensions;
    if (Status s = runTool({"openssl", "req", "-new", "-newkey", "ec", "-pkeyopt",
                            "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=" + cn, "-keyout",
                            path(name + ".key"), "-out", path(name + ".csr")},
                           out_);
        !s) {
      return s;
    }
    return runTool({"openssl", "x509", "-req", "-in", path(name + ".csr"), "-CA", path(ca + ".crt"),
                    "-CAkey", path(ca + ".key"), "-CAcreateserial", "-days", "3", "-extfile",
                    path(name + ".ext"), "-out", path(name + ".crt")},
                   out_);
  }

  std::string path(const std::string& file) const { return dir_ + "/" + file; }

 private:
  std::string dir_;
  std::string out_;
};

std::string serverExtensions(const std::string& altNames) {
  return "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n"
         "extendedKeyUsage=serverAuth\nsubjectAltName=" +
         altNames + "\n";
}
constexpr const char* kClientExt =
    "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n";

}  // namespace

MosquittoBroker::MosquittoBroker(BrokerOptions options) : options_(std::move(options)) {
  prepared_ = prepare();
}

MosquittoBroker::~MosquittoBroker() {
  kill();
  try {
    if (options_.failed && options_.failed()) {
      std::cerr << "---- mosquitto log (" << dir() << ") ----\n" << log() << "---- end ----\n";
    }
  } catch (...) {
  }
}

Status MosquittoBroker::prepare() {
  Pki pki(dir());
  caFile_ = pki.path("ca.crt");
  wrongCaFile_ = pki.path("wrong-ca.crt");
  if (Status s = pki.ca("ca"); !s) return s;
  if (Status s = pki.ca("wrong-ca"); !s) return s;
  if (Status s = pki.leaf("ca", "server", "localhost", serverExtensions(options_.serverAltNames));
      !s)
    return s;
  if (Status s = pki.leaf("wrong-ca", "foreign", options_.sites.empty() ? "x" : options_.sites[0],
                          kClientExt);
      !s) {
    return s;
  }
  std::vector<std::string> users = options_.sites;
  users.push_back(kIngestUser);
  const std::string pwFile = pki.path("passwd");
  bool first = true;
  for (const std::string& user : users) {
    if (user != kIngestUser) {
      if (Status s = pki.leaf("ca", "client-" + user, user, kClientExt); !s) return s;
    }
    std::ofstream(passwordFile(user), std::ios::binary) << password(user);
    std::vector<std::string> argv = {"mosquitto_passwd", "-b"};
    if (first) argv.push_back("-c");
    argv.insert(argv.end(), {pwFile, user, password(user)});
    if (Status s = runTool(argv, pki.path("passwd.out")); !s) return s;
    first = false;
  }
  std::ofstream acl(pki.path("acl"));
  acl << "# the cloud side\n"
      << "user " << kIngestUser << "\n"
      << "topic readwrite atoms/v1/#\n"
      << "topic read $share/ingest/atoms/v1/#\n"
      << "\n# every site, by its username or its certificate's CN\n"
      << "pattern write atoms/v1/%u/audit\n"
      << "pattern write atoms/v1/%u/status\n"
      << "pattern write atoms/v1/%u/cmd/result\n"
      << "pattern read atoms/v1/%u/ack\n"
      << "pattern read atoms/v1/%u/cmd\n";
  std::filesystem::create_directories(pki.path("persist"));
  return Status::success();
}

Status MosquittoBroker::pickPorts() {
  plainPort_ = freePort();
  tlsPasswordPort_ = freePort();
  tlsCertPort_ = freePort();
  if (plainPort_ == 0 || tlsPasswordPort_ == 0 || tlsCertPort_ == 0) {
    return makeError("cannot find free loopback ports");
  }
  return Status::success();
}

Status MosquittoBroker::writeConfig() {
  const std::string d = dir() + "/";
  std::ofstream conf(d + "mosquitto.conf");
  conf << "# generated by tests/support/mosquitto_broker.cpp\n"
       << "user " << currentUser() << "\n"
       << "per_listener_settings false\n"
       << "allow_anonymous false\n"
       << "password_file " << d << "passwd\n"
       << "acl_file " << d << "acl\n"
       << "persistence " << (options_.persistence ? "true" : "false") << "\n"
       << "persistence_location " << d << "persist/\n"
       << "autosave_interval 60\n"
       << "log_dest file " << d << "mosquitto.log\n"
       << "log_type error\nlog_type warning\nlog_type notice\nlog_type information\n"
       << "connection_messages true\n"
       << "log_timestamp_format %H:%M:%S\n"
       << "max_queued_messages 100000\n"
       << "\nlistener " << plainPort_ << " 127.0.0.1\n"
       << "\nlistener " << tlsPasswordPort_ << " 127.0.0.1\n"
       << "cafile " << caFile_ << "\ncertfile " << d << "server.crt\nkeyfile " << d
       << "server.key\n"
       << "\nlistener " << tlsCertPort_ << " 127.0.0.1\n"
       << "cafile " << caFile_ << "\ncertfile " << d << "server.crt\nkeyfile " << d
       << "server.key\n"
       << "require_certificate true\nuse_identity_as_username true\n";
  conf.close();
  if (!conf) return makeError("cannot write " + d + "mosquitto.conf");
  return Status::success();
}

Status MosquittoBroker::failure(const std::string& what) const {
  std::string tail = log();
  if (tail.size() > 4000) tail = "..." + tail.substr(tail.size() - 4000);
  return makeError(what + "\n---- mosquitto log ----\n" + tail);
}

Status MosquittoBroker::start(std::chrono::milliseconds deadline) {
  if (!prepared_) return prepared_;
  if (running()) return Status::success();
  const auto until = std::chrono::steady_clock::now() + deadline;
  const bool fresh = plainPort_ == 0;
  for (int attempt = 0;; ++attempt) {
    if (fresh || attempt > 0) {
      if (Status s = pickPorts(); !s) return s;
    }
    if (Status s = writeConfig(); !s) return s;
    pid_ = spawnServer({kMosquitto, "-c", dir() + "/mosquitto.conf"}, dir() + "/mosquitto.out");
    if (pid_ < 0) return failure(std::string("cannot start ") + kMosquitto);
    Status ready = waitReady(until);
    if (ready) return ready;
    kill();
    // Another process may have taken a port between our probe and the broker's bind.
    const bool portTaken = log().find("Address already in use") != std::string::npos;
    if (!portTaken || attempt >= 3 || std::chrono::steady_clock::now() >= until) return ready;
  }
}

Status MosquittoBroker::waitReady(std::chrono::steady_clock::time_point until) {
  for (;;) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return failure("mosquitto exited during start");
    }
    if (acceptsConnections(plainPort_) && acceptsConnections(tlsPasswordPort_) &&
        acceptsConnections(tlsCertPort_)) {
      return Status::success();
    }
    if (std::chrono::steady_clock::now() >= until) {
      return failure("mosquitto did not accept connections in time");
    }
    ::poll(nullptr, 0, 10);
  }
}

Status MosquittoBroker::stop(std::chrono::milliseconds deadline) {
  if (!running()) return Status::success();
  // Mosquitto 2.0 sets its run flag when its main loop starts, after it logs "running": a SIGTERM
  // sent just after start() can be overwritten and lost. It is sent again each half second.
  const auto until = std::chrono::steady_clock::now() + deadline;
  bool reaped = false;
  while (!reaped && std::chrono::steady_clock::now() < until) {
    ::kill(pid_, SIGTERM);
    reaped = reapBy(
        pid_, std::min(until, std::chrono::steady_clock::now() + std::chrono::milliseconds(500)));
  }
  if (!reaped) {
    kill();
    return failure("mosquitto did not stop on SIGTERM in time");
  }
  pid_ = -1;
  return Status::success();
}

void MosquittoBroker::kill() {
  if (!running()) return;
  ::kill(pid_, SIGKILL);
  reapBy(pid_, std::chrono::steady_clock::now() + std::chrono::seconds(10));
  pid_ = -1;
}

Status MosquittoBroker::restart(bool keepPersistence) {
  if (keepPersistence) {
    if (Status s = stop(); !s) return s;
  } else {
    kill();
    std::error_code ec;
    std::filesystem::remove(dir() + "/persist/mosquitto.db", ec);
  }
  return start();
}

std::string MosquittoBroker::plainUri() const {
  return "tcp://127.0.0.1:" + std::to_string(plainPort_);
}
std::string MosquittoBroker::tlsPasswordUri() const {
  return "ssl://127.0.0.1:" + std::to_string(tlsPasswordPort_);
}
std::string MosquittoBroker::tlsCertUri() const {
  return "ssl://127.0.0.1:" + std::to_string(tlsCertPort_);
}
std::string MosquittoBroker::tlsHostUri() const {
  return "ssl://localhost:" + std::to_string(tlsCertPort_);
}

ClientCertFiles MosquittoBroker::clientCert(const std::string& site) const {
  return {dir() + "/client-" + site + ".crt", dir() + "/client-" + site + ".key"};
}
ClientCertFiles MosquittoBroker::foreignClientCert() const {
  return {dir() + "/foreign.crt", dir() + "/foreign.key"};
}

std::string MosquittoBroker::password(const std::string& user) const {
  return "pw-" + user + "-7f3a";
}
std::string MosquittoBroker::passwordFile(const std::string& user) const {
  return dir() + "/password-" + user;
}

std::string MosquittoBroker::log() const {
  return readAll(dir() + "/mosquitto.out") + readAll(dir() + "/mosquitto.log");
}

}  // namespace atoms::testing
