// Test fixture for the audit log tests (store and sync): a fresh state directory with a real
// SQLCipher database, the site key, and helpers to open the log, append and tamper via SQL.
#pragma once

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "base/canonical_json.h"
#include "store/audit_entry.h"
#include "store/audit_log.h"
#include "store/checkpoint.h"
#include "store/database.h"
#include "store/signed_note.h"
#include "store/state_dir.h"
#include "tests/support/temp_dir.h"

namespace atoms::testing {

inline constexpr const char* kSite = "demo-site";

// A fixed instant plus `ms` milliseconds, formatted as an entry ts.
inline std::string tsAt(std::int64_t ms) {
  using namespace std::chrono;
  const sys_time<milliseconds> base = sys_days{year{2026} / 9 / 7} + hours{6};
  return formatTimestamp(base + milliseconds{ms});
}

// A receipt of the seed's shape, without sig.
inline json::Value sampleReceipt(const std::string& id = "rcp_01") {
  using json::Array;
  using json::Object;
  return Object{
      {"id", id},
      {"runId", "run_01J6"},
      {"createdAt", "2026-09-07T06:02:00Z"},
      {"sources", Array{Object{{"n", 1},
                               {"kind", "policy"},
                               {"ref", "policy:R-SCH-007"},
                               {"label", "Labor rule: max hours"},
                               {"asOf", "2026-09-07T06:00:00Z"}},
                        Object{{"n", 2},
                               {"kind", "mirror"},
                               {"ref", "timeclock:punch-88"},
                               {"label", "Time clock punch"},
                               {"asOf", "2026-09-07T05:59:12.5Z"},
                               {"url", "https://panel.local/punch/88"}}}},
      {"snapshot", Array{Object{{"source", "timeclock"}, {"asOf", "2026-09-07T06:00:00Z"}}}},
      {"ruleEvaluations", Array{Object{{"ruleId", "R-SCH-007"},
                                       {"input", Object{{"hours", 38}}},
                                       {"result", "pass"},
                                       {"detail", "38 of 40 hours"}}}},
      {"rationale", "Maria is certified for the line and under her weekly hours [1][2]."},
      {"confidence", "0.86"},
      {"gaps", Array{"POS mirror stale since 05:10Z"}},
      {"visibility", "self_mor"},
      {"outcome", "execute"},
  };
}

// A state directory with the audit log opened on it. close()/reopen() simulate a restart.
class LogFixture {
 public:
  LogFixture() {
    BOOST_REQUIRE(initStateDir(dir.path(), InitOptions{kSite}).ok());
    reopen();
  }

  std::string dbPath() const { return dir.sub("atoms.db"); }
  std::string hwPath() const { return dir.sub("audit.highwater"); }

  // Opens database and log; fails the test when the log does not open.
  void reopen() {
    auto r = tryReopen();
    BOOST_REQUIRE_MESSAGE(r.ok(), r.message());
  }
  Status tryReopen() {
    close();
    auto st = openStateDir(dir.path(), OpenMode::ReadWrite);
    if (!st) return st.error();
    state.emplace(std::move(*st));
    auto l = AuditLog::open(state->db, key(), kSite, hwPath());
    if (!l) return l.error();
    log.emplace(std::move(*l));
    return Status::success();
  }
  void close() {
    log.reset();
    state.reset();
  }

  SigningKey key() const {
    return SigningKey::fromSecret(originForSite(kSite), state->identity.signingSecret.clone())
        .value();
  }
  VerifierKey verifier() const { return key().verifier(); }
  Database& db() { return state->db; }

  // Appends n entries in batches of `perBatch`; returns the log size.
  std::uint64_t appendMany(std::uint64_t n, std::uint64_t perBatch = 1) {
    while (n > 0) {
      auto batch = log->begin();
      BOOST_REQUIRE_MESSAGE(batch.ok(), batch.message());
      for (std::uint64_t i = 0; i < perBatch && n > 0; ++i, --n) {
        const std::uint64_t seq = batch->nextSeq();
        auto added = batch->add(
            tsAt(static_cast<std::int64_t>(seq)), "sms.in", "gateway",
            json::Object{{"n", static_cast<std::int64_t>(seq)}, {"text", "hi \"there\""}});
        BOOST_REQUIRE_MESSAGE(added.ok(), added.message());
      }
      auto note = batch->commit();
      BOOST_REQUIRE_MESSAGE(note.ok(), note.message());
    }
    return log->size();
  }

  // Runs one SQL statement with a blob parameter.
  void execWithBlob(const std::string& sql, const Bytes& blob) {
    auto stmt = db().prepare(sql);
    BOOST_REQUIRE_MESSAGE(stmt.ok(), stmt.message());
    stmt->bindBlob(1, blob);
    auto r = stmt->step();
    BOOST_REQUIRE_MESSAGE(r.ok(), r.message());
  }
  void exec(const std::string& sql) {
    Status s = db().exec(sql);
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
  }
  Bytes blob(const std::string& sql) {
    auto stmt = db().prepare(sql);
    BOOST_REQUIRE_MESSAGE(stmt.ok(), stmt.message());
    auto r = stmt->step();
    BOOST_REQUIRE(r.ok() && *r);
    return stmt->columnBlob(0);
  }

  TempDir dir;
  std::optional<OpenState> state;
  std::optional<AuditLog> log;
};

}  // namespace atoms::testing
