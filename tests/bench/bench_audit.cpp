// bench_audit: the audit log's throughput against the two limits it stands on, in one run.
//
//   1. raw Ed25519 signatures per second (libsodium, the message size of one checkpoint body);
//   2. raw SQLCipher inserts per second of the same row size, in the same transaction pattern
//      (B rows per transaction, WAL, synchronous=FULL: a commit is durable when it returns);
//   3. durable signed appends per second: AuditLog batches of B entries, each commit signs and
//      stores a checkpoint in the same transaction (durable across SIGKILL and power loss);
//   4. entries verified per second by verifyDatabase on an N-entry log (default 1,000,000);
//   5. proofs on the N-entry log: opening it, inclusion and consistency proofs per second from
//      the log's tree (upper levels in memory, leaf hashes read from the store) and from a tree
//      holding every node in memory (MerkleTree: what the log held before decision 0026);
//   6. idle RSS of `atoms-edge serve`, on a fresh site and on the N-entry site, beside the limit
//      (issue 20: under 24 MiB at 1,000,000 entries), anonymous and file-backed memory apart.
//
// Usage: bench_audit [--entries N] [--appends A] [--serve PATH]. Prints figures; asserts nothing.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sodium.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "store/audit_entry.h"
#include "store/checkpoint.h"
#include "store/database.h"
#include "store/log_verifier.h"
#include "store/merkle.h"
#include "store/site_store.h"
#include "tests/bench/bench_support.h"
#include "tests/support/build_paths.h"
#include "tests/support/temp_dir.h"

extern char** environ;

namespace atoms {
namespace {

using bench::Clock;
using bench::die;
using bench::must;
using bench::secondsSince;

// A body whose entry text is about the size of a typical audit entry (an SMS with metadata).
json::Value sampleBody(std::uint64_t i) {
  return json::Object{{"from", "+15550100101"},
                      {"to", "+15550100999"},
                      {"body", std::string(160, 'x')},
                      {"n", static_cast<std::int64_t>(i)}};
}

std::size_t sampleEntryBytes() {
  Entry e{0, formatTimestamp({}), "bench-site", "sms.in", "bench", sampleBody(0), Hash32{}};
  return entryText(e).size();
}

double rawSignaturesPerSecond(std::size_t count) {
  SigningKey key = SigningKey::generate("atoms-edge/bench-site");
  const std::string body = checkpointBody({"atoms-edge/bench-site", 123456, Hash32{}});
  const auto start = Clock::now();
  std::uint8_t sink = 0;
  for (std::size_t i = 0; i < count; ++i) sink ^= key.sign(asBytes(body))[i % 64];
  const double s = secondsSince(start);
  if (sink == 0xff) std::puts("");  // keep the loop
  return static_cast<double>(count) / s;
}

double rawInsertsPerSecond(const std::string& dir, std::size_t rows, std::size_t batch,
                           std::size_t rowBytes) {
  SecretBytes key(32);
  randombytes_buf(key.data(), key.size());
  auto db = must(Database::open(dir + "/raw.db", key, OpenMode::Create), "open raw db");
  must(db.exec("CREATE TABLE t(seq INTEGER PRIMARY KEY, entry BLOB NOT NULL, h BLOB NOT NULL)"),
       "create");
  std::string row(rowBytes, 'r');
  Hash32 h{};
  const auto start = Clock::now();
  for (std::size_t done = 0; done < rows;) {
    auto txn = must(Transaction::begin(db), "begin");
    auto ins = must(db.prepare("INSERT INTO t(seq, entry, h) VALUES(?1, ?2, ?3)"), "prepare");
    for (std::size_t i = 0; i < batch && done < rows; ++i, ++done) {
      row[0] = static_cast<char>('a' + done % 26);
      ins.bind(1, static_cast<std::int64_t>(done)).bindBlob(2, asBytes(row)).bindBlob(3, h);
      must(ins.step(), "insert");
      must(ins.reset(), "reset");
    }
    must(txn.commit(), "commit");
  }
  return static_cast<double>(rows) / secondsSince(start);
}

double signedAppendsPerSecond(AuditLog& log, std::size_t entries, std::size_t batch) {
  const std::string ts = formatTimestamp(std::chrono::system_clock::now());
  const auto start = Clock::now();
  for (std::size_t done = 0; done < entries;) {
    auto b = must(log.begin(), "begin batch");
    for (std::size_t i = 0; i < batch && done < entries; ++i, ++done) {
      must(b.add(ts, "sms.in", "bench", sampleBody(done)), "add");
    }
    must(b.commit(), "commit batch");
  }
  return static_cast<double>(entries) / secondsSince(start);
}

// The idle limit of issue 20 (at 1,000,000 entries).
constexpr long kIdleRssLimitKiB = 24 * 1024;

struct Rss {
  long total = -1;  // VmRSS
  long anon = -1;   // RssAnon: heap, stacks, SQLite's page cache
  long file = -1;   // RssFile: the binary and libraries mapped in
};

// Starts `serve` on dir, waits for msg="ready" on its stderr, reads its RSS, stops it.
Rss idleRss(const std::string& serve, const std::string& dir) {
  const std::string conf = dir + ".conf";
  std::ofstream(conf) << "state.dir = " << dir << "\nlog.level = information\n";
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) die("pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  std::string program = serve;
  std::string cmd = "serve", opt = "--config";
  char* argv[] = {program.data(), cmd.data(), opt.data(), const_cast<char*>(conf.c_str()), nullptr};
  pid_t pid = 0;
  if (::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ) != 0) die("spawn");
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  std::string log;
  const auto deadline = Clock::now() + std::chrono::seconds(120);
  while (log.find("msg=ready") == std::string::npos &&
         log.find("msg=\"ready\"") == std::string::npos) {
    if (Clock::now() > deadline) die("serve did not get ready: " + log);
    pollfd p{fds[0], POLLIN, 0};
    ::poll(&p, 1, 1000);
    char chunk[4096];
    ssize_t n = ::read(fds[0], chunk, sizeof chunk);
    if (n <= 0) die("serve exited: " + log);
    log.append(chunk, static_cast<std::size_t>(n));
  }
  Rss rss;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) rss.total = std::stol(line.substr(6));
    if (line.rfind("RssAnon:", 0) == 0) rss.anon = std::stol(line.substr(8));
    if (line.rfind("RssFile:", 0) == 0) rss.file = std::stol(line.substr(8));
  }
  ::kill(pid, SIGTERM);
  int st = 0;
  ::waitpid(pid, &st, 0);
  ::close(fds[0]);
  return rss;
}

// Inclusion and consistency proofs at the full size, for random leaves and old sizes: proofs/s.
template <class Tree>
std::pair<double, double> proofsPerSecond(const Tree& tree, std::size_t count) {
  const std::uint64_t n = tree.size();
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::uint64_t> pick(0, n - 1);
  std::size_t sink = 0;
  auto start = Clock::now();
  for (std::size_t i = 0; i < count; ++i) {
    sink += must(tree.inclusionProof(pick(rng), n), "inclusion proof").size();
  }
  const double inclusion = static_cast<double>(count) / secondsSince(start);
  start = Clock::now();
  for (std::size_t i = 0; i < count; ++i) {
    sink += must(tree.consistencyProof(pick(rng) + 1, n), "consistency proof").size();
  }
  const double consistency = static_cast<double>(count) / secondsSince(start);
  if (sink == 0) std::puts("");  // keep the loops
  return {inclusion, consistency};
}

void proofFigures(const std::string& dir) {
  const auto start = Clock::now();
  auto store = must(SiteStore::open(dir), "open big");
  const double openSeconds = secondsSince(start);
  const AuditTree& tree = store->log().tree();
  MerkleTree full;
  for (std::uint64_t from = 0; from < tree.size(); from += 4096) {
    const std::uint64_t to = std::min<std::uint64_t>(tree.size(), from + 4096);
    auto stmt = must(store->db().prepare("SELECT leaf_hash FROM audit_entry WHERE seq >= ? AND "
                                         "seq < ? ORDER BY seq"),
                     "select leaves");
    stmt.bind(1, static_cast<std::int64_t>(from)).bind(2, static_cast<std::int64_t>(to));
    while (must(stmt.step(), "read leaf")) {
      Hash32 h{};
      const Bytes b = stmt.columnBlob(0);
      std::copy(b.begin(), b.end(), h.begin());
      full.append(h);
    }
  }
  if (full.root() != tree.root()) die("the full tree disagrees with the log's");
  const std::size_t count = 2000;
  const auto [inclusion, consistency] = proofsPerSecond(tree, count);
  const auto [fullInclusion, fullConsistency] = proofsPerSecond(full, count);
  std::printf("open the %llu-entry log: %.2f s; its tree holds %zu KiB (every node: %zu KiB)\n",
              static_cast<unsigned long long>(tree.size()), openSeconds, tree.memoryBytes() / 1024,
              full.memoryBytes() / 1024);
  std::printf(
      "proofs at the full size: inclusion %.0f /s, consistency %.0f /s from the store "
      "(every node in memory: %.0f /s, %.0f /s)\n",
      inclusion, consistency, fullInclusion, fullConsistency);
}

void printRss(const char* what, const Rss& rss) {
  std::printf("idle RSS of serve %s: %ld KiB (anonymous %ld KiB, file-backed %ld KiB)", what,
              rss.total, rss.anon, rss.file);
}

std::string argValue(int argc, char** argv, const char* name, const char* def) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  }
  return def;
}

}  // namespace
}  // namespace atoms

int main(int argc, char** argv) {
  using namespace atoms;
  if (!initSodium()) die("libsodium init failed");
  const std::size_t entries = std::stoull(argValue(argc, argv, "--entries", "1000000"));
  const std::size_t appends = std::stoull(argValue(argc, argv, "--appends", "4096"));
  const std::string serve = argValue(argc, argv, "--serve", atoms::testing::edgeBinary().c_str());
  testing::TempDir tmp;
  const std::size_t rowBytes = sampleEntryBytes();

  std::printf("audit log benchmark (entry text %zu bytes, WAL, synchronous=FULL)\n", rowBytes);
  const double sigs = rawSignaturesPerSecond(20000);
  std::printf("raw Ed25519 signatures:         %12.0f /s\n", sigs);

  for (std::size_t batch : {std::size_t{1}, std::size_t{16}, std::size_t{256}}) {
    const std::size_t n = batch == 1 ? std::min<std::size_t>(appends, 1024) : appends;
    const std::string rawDir = tmp.sub("raw" + std::to_string(batch));
    std::filesystem::create_directory(rawDir);
    const double inserts = rawInsertsPerSecond(rawDir, n, batch, rowBytes + 32);
    const std::string siteDir = tmp.sub("site" + std::to_string(batch));
    must(initStateDir(siteDir, {"bench-site"}), "init");
    auto store = must(SiteStore::open(siteDir), "open site");
    const double signedAppends = signedAppendsPerSecond(store->log(), n, batch);
    std::printf(
        "batch %3zu: raw SQLCipher inserts %10.0f /s | durable signed appends %10.0f /s | "
        "appends/inserts %.2f | signatures per append %.3f (%.1f%% of the signing limit)\n",
        batch, inserts, signedAppends, signedAppends / inserts, 1.0 / static_cast<double>(batch),
        100.0 * signedAppends / static_cast<double>(batch) / sigs);
  }

  const std::string bigDir = tmp.sub("big");
  must(initStateDir(bigDir, {"bench-site"}), "init big");
  {
    auto store = must(SiteStore::open(bigDir), "open big");
    const auto start = Clock::now();
    signedAppendsPerSecond(store->log(), entries, kMaxBatchEntries);
    std::printf("built a %zu-entry log in %.1f s\n", entries, secondsSince(start));
  }
  {
    auto state = must(openStateDir(bigDir, OpenMode::ReadOnly), "open read-only");
    const auto key =
        VerifierKey::fromPublicKey(originForSite("bench-site"), state.identity.publicKey);
    const auto start = Clock::now();
    const VerifyReport report = verifyDatabase(state.db, key, "bench-site");
    const double s = secondsSince(start);
    if (!report.ok()) die("verify failed: " + report.problem);
    std::printf("verify: %llu entries, %llu checkpoints in %.2f s = %.0f entries/s\n",
                static_cast<unsigned long long>(report.entries),
                static_cast<unsigned long long>(report.checkpoints), s,
                static_cast<double>(report.entries) / s);
  }

  proofFigures(bigDir);

  const std::string freshDir = tmp.sub("fresh");
  must(initStateDir(freshDir, {"bench-site"}), "init fresh");
  printRss("on a fresh site", idleRss(serve, freshDir));
  std::printf("\n");
  const Rss big = idleRss(serve, bigDir);
  printRss(("with " + std::to_string(entries) + " entries").c_str(), big);
  std::printf("; limit %ld KiB at 1000000 entries%s\n", kIdleRssLimitKiB,
              entries != 1000000             ? ""
              : big.total < kIdleRssLimitKiB ? ": under"
                                             : ": OVER");
  return 0;
}
