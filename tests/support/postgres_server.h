// PostgresServer: a real PostgreSQL server for one test process (Debian's postgresql package): a
// cluster made by initdb in a fresh directory, the server in the foreground on a free loopback
// port (it dies with the test process), trust authentication for the local "postgres" user, fsync
// off (a test's data need not survive the machine). As root, initdb and the server run as the
// postgres system user, which PostgreSQL requires.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>

#include "base/result.h"
#include "tests/support/temp_dir.h"

namespace atoms::testing {

class PostgresServer {
 public:
  PostgresServer() = default;
  ~PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // Makes the cluster (first call) and starts the server; ready when it answers.
  Status start(std::chrono::milliseconds deadline = std::chrono::seconds(60));
  void stop();

  // Creates a database; its libpq URI, postgresql://postgres@127.0.0.1:PORT/NAME.
  Result<std::string> createDatabase(const std::string& name);
  std::string uri(const std::string& database) const;
  std::string log() const;

  // The server of this test process, started at first use; an error when PostgreSQL is not
  // installed or does not start.
  static Result<PostgresServer*> shared();

 private:
  Status failure(const std::string& what) const;

  TempDir dir_;
  int port_ = 0;
  pid_t pid_ = -1;
  bool initialised_ = false;
};

}  // namespace atoms::testing
