#include "tests/support/postgres_server.h"

#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <mutex>

#include "tests/support/file_contents.h"
#include "tests/support/server_process.h"

namespace atoms::testing {
namespace {

// Debian installs the server binaries per major version; the newest one installed.
std::string serverBinDir() {
  std::string best;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
    const std::string bin = e.path().string() + "/bin";
    if (std::filesystem::exists(bin + "/postgres") && bin > best) best = bin;
  }
  return best;
}

// As root, the user the server runs as (PostgreSQL refuses root); nullptr otherwise.
const passwd* serverUser() { return ::geteuid() == 0 ? ::getpwnam("postgres") : nullptr; }

}  // namespace

PostgresServer::~PostgresServer() { stop(); }

Status PostgresServer::failure(const std::string& what) const {
  return makeError("PostgreSQL test server: " + what + "\n" + log());
}

std::string PostgresServer::log() const { return readAll(dir_.file("server.log")); }

Status PostgresServer::start(std::chrono::milliseconds deadline) {
  const std::string bin = serverBinDir();
  if (bin.empty()) {
    return makeError(
        "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres): "
        "bash scripts/deps.sh installs it");
  }
  const passwd* user = serverUser();
  const std::string data = dir_.sub("data");
  if (!initialised_) {
    // The test's directory is root's (0700): the server's user needs to reach its own.
    ::chmod(dir_.path().c_str(), 0711);
    ::mkdir(data.c_str(), 0700);
    if (user != nullptr && ::chown(data.c_str(), user->pw_uid, user->pw_gid) != 0) {
      return failure("cannot hand " + data + " to the postgres user");
    }
    std::vector<std::string> initdb = {bin + "/initdb",   "-D",           data, "-U",
                                       "postgres",        "--auth=trust", "-E", "UTF8",
                                       "--locale=C.UTF-8"};
    if (user != nullptr) initdb.insert(initdb.begin(), {"runuser", "-u", "postgres", "--"});
    if (Status s = runTool(initdb, dir_.file("initdb.log")); !s) return failure(s.message());
    initialised_ = true;
  }
  port_ = freePort();
  if (port_ == 0) return failure("no free port");
  pid_ =
      spawnServer({bin + "/postgres", "-D", data, "-p", std::to_string(port_), "-k", data, "-c",
                   "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
                   "-c", "full_page_writes=off", "-c", "max_connections=200"},
                  dir_.file("server.log"), user);
  if (pid_ < 0) return failure("cannot start " + bin + "/postgres");
  const auto until = std::chrono::steady_clock::now() + deadline;
  for (;;) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return failure("the server exited at start");
    }
    if (acceptsConnections(port_) &&
        runTool({bin + "/pg_isready", "-q", "-h", "127.0.0.1", "-p", std::to_string(port_)},
                dir_.file("isready.log"))) {
      return Status::success();
    }
    if (std::chrono::steady_clock::now() > until) {
      stop();
      return failure("the server did not accept connections in time");
    }
    ::poll(nullptr, 0, 20);
  }
}

void PostgresServer::stop() {
  if (pid_ < 0) return;
  ::kill(pid_, SIGQUIT);  // immediate shutdown: nothing here needs to survive
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

std::string PostgresServer::uri(const std::string& database) const {
  return "postgresql://postgres@127.0.0.1:" + std::to_string(port_) + "/" + database;
}

Result<std::string> PostgresServer::createDatabase(const std::string& name) {
  const std::string bin = serverBinDir();
  if (Status s = runTool({bin + "/psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
                          std::to_string(port_), "-U", "postgres", "-d", "postgres", "-c",
                          "CREATE DATABASE \"" + name + "\""},
                         dir_.file("psql.log"));
      !s) {
    return failure("cannot create database " + name + ": " + s.message()).error();
  }
  return uri(name);
}

Result<PostgresServer*> PostgresServer::shared() {
  static std::mutex mutex;
  static std::unique_ptr<PostgresServer> server;
  static Status started = makeError("not started");
  std::lock_guard lock(mutex);
  if (!server) {
    server = std::make_unique<PostgresServer>();
    started = server->start();
  }
  if (!started) return started.error();
  return server.get();
}

}  // namespace atoms::testing
