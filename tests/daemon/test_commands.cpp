// The state-directory subcommands as an operator runs them: the real atoms-edge binary as a child
// process on real state directories. Tampering goes through the store API with the database key,
// as an attacker who holds the key would do it; the commands must then name the first bad seq.
// The library-level checks behind these commands are in tests/store and tests/sync.
#include <signal.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "daemon/cli/command.h"
#include "store/audit_entry.h"
#include "store/checkpoint.h"
#include "store/database.h"
#include "store/key_file.h"
#include "store/merkle.h"
#include "store/signed_note.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "sync/segment.h"
#include "tests/daemon/helpers.h"
#include "tests/store/audit_fixture.h"

using namespace atoms;
using namespace std::chrono_literals;
using atoms::cli::kExitConfig;
using atoms::cli::kExitUsage;
using test::contains;
using test::fileMode;
using test::readFile;
namespace fs = std::filesystem;

namespace {

constexpr auto kCommandDeadline =
    60s;  // generous for the sanitizer build; a passing run is far quicker

// Every run starts without systemd credentials unless the test hands some in, whatever the
// environment of the test runner holds.
test::EnvChanges noCredentials() { return {{kCredentialsDirectoryEnv, std::nullopt}}; }
test::EnvChanges credentialsIn(const std::string& dir) { return {{kCredentialsDirectoryEnv, dir}}; }

test::RunResult edge(const std::vector<std::string>& args,
                     const test::EnvChanges& env = noCredentials()) {
  return test::runEdge(args, env);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// The rest of the first line that starts with `prefix` ("" if there is none).
std::string lineValue(const std::string& text, const std::string& prefix) {
  for (const std::string& l : lines(text)) {
    if (l.rfind(prefix, 0) == 0) return l.substr(prefix.size());
  }
  return "";
}

// One line, ending in a newline: what an operator sees from a refused command.
bool isOneLine(const std::string& err) {
  return !err.empty() && err.back() == '\n' && err.find('\n') == err.size() - 1;
}

// Name -> (bytes, mode) of every file in dir, to prove a command changed nothing.
using DirSnapshot = std::map<std::string, std::pair<std::string, unsigned>>;
DirSnapshot snapshot(const std::string& dir) {
  DirSnapshot out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string p = e.path().string();
    out[e.path().filename().string()] = {readFile(p), fileMode(p)};
  }
  return out;
}

// A state directory made by `atoms-edge init`, as an operator makes it.
struct InitedSite {
  explicit InitedSite(std::string site = "cli-site") : siteId(std::move(site)) {
    dir = tmp.file("state");
    initRun = edge({"init", "--state-dir", dir, "--site-id", siteId});
    BOOST_REQUIRE_MESSAGE(initRun.status == 0, initRun.err);
    const std::vector<std::string> out = lines(initRun.out);
    BOOST_REQUIRE(!out.empty());
    vkey = out.back();
  }
  std::string file(const std::string& name) const { return dir + "/" + name; }

  test::TempDir tmp;
  std::string siteId;
  std::string dir;
  test::RunResult initRun;
  std::string vkey;  // as init printed it
};

// An initialised site whose log the store API extends with kBatches batches of kSmsPerBatch
// sms.in entries and one signed receipt each. With init's site.init entry (seq 0, checkpoint 1)
// the signed sizes are 1, 5, 9, 13, 17 and the receipts sit at seq 4, 8, 12, 16.
struct LoggedSite : InitedSite {
  static constexpr std::uint64_t kBatches = 4;
  static constexpr std::uint64_t kSmsPerBatch = 3;

  LoggedSite() {
    auto store = SiteStore::open(dir);
    BOOST_REQUIRE_MESSAGE(store.ok(), store.message());
    AuditLog& log = (*store)->log();
    for (std::uint64_t b = 0; b < kBatches; ++b) {
      auto batch = log.begin();
      BOOST_REQUIRE_MESSAGE(batch.ok(), batch.message());
      for (std::uint64_t i = 0; i < kSmsPerBatch; ++i) {
        const auto seq = static_cast<std::int64_t>(batch->nextSeq());
        auto added = batch->add(testing::tsAt(seq), "sms.in", "gateway",
                                json::Object{{"n", seq}, {"text", "shift swap ok"}});
        BOOST_REQUIRE_MESSAGE(added.ok(), added.message());
      }
      const std::string id = "rcp_" + std::to_string(b);
      auto receipt = batch->addReceipt(testing::tsAt(static_cast<std::int64_t>(batch->nextSeq())),
                                       "engine", testing::sampleReceipt(id));
      BOOST_REQUIRE_MESSAGE(receipt.ok(), receipt.message());
      receiptSeqs.push_back(*receipt);
      auto note = batch->commit();
      BOOST_REQUIRE_MESSAGE(note.ok(), note.message());
    }
    signedSizes = log.signedSizes();
    size = log.size();
    root = toBase64(log.root());
  }

  // A read-write connection with the key from db.key, for tampering.
  Database openDb() const {
    auto key = readKeyFile(file("db.key"), KeyKind::Database);
    BOOST_REQUIRE_MESSAGE(key.ok(), key.message());
    auto db = Database::open(file("atoms.db"), *key, OpenMode::ReadWrite);
    BOOST_REQUIRE_MESSAGE(db.ok(), db.message());
    return std::move(*db);
  }

  std::vector<std::uint64_t> signedSizes;
  std::vector<std::uint64_t> receiptSeqs;
  std::uint64_t size = 0;
  std::string root;
};

void exec(Database& db, const std::string& sql) {
  Status s = db.exec(sql);
  BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
}

void execWith(Database& db, const std::string& sql, const std::string& text, bool asBlob) {
  auto stmt = db.prepare(sql);
  BOOST_REQUIRE_MESSAGE(stmt.ok(), stmt.message());
  if (asBlob) {
    stmt->bindBlob(1, asBytes(text));
  } else {
    stmt->bind(1, text);
  }
  auto r = stmt->step();
  BOOST_REQUIRE_MESSAGE(r.ok(), r.message());
}

std::string queryText(Database& db, const std::string& sql) {
  auto stmt = db.prepare(sql);
  BOOST_REQUIRE_MESSAGE(stmt.ok(), stmt.message());
  auto r = stmt->step();
  BOOST_REQUIRE(r.ok() && *r);
  const Bytes b = stmt->columnBlob(0);
  return std::string(b.begin(), b.end());
}

std::string entryAt(Database& db, std::uint64_t seq) {
  return queryText(db, "SELECT entry FROM audit_entry WHERE seq = " + std::to_string(seq));
}

void setEntry(Database& db, std::uint64_t seq, const std::string& text, bool recomputeLeaf) {
  execWith(db, "UPDATE audit_entry SET entry = ? WHERE seq = " + std::to_string(seq), text, true);
  if (recomputeLeaf) {
    const Hash32 leaf = leafHash(asBytes(text));
    execWith(db, "UPDATE audit_entry SET leaf_hash = ? WHERE seq = " + std::to_string(seq),
             std::string(leaf.begin(), leaf.end()), true);
  }
}

std::string noteAt(Database& db, std::uint64_t size) {
  return queryText(db, "SELECT note FROM audit_checkpoint WHERE size = " + std::to_string(size));
}

void setNote(Database& db, std::uint64_t size, const std::string& note) {
  execWith(db, "UPDATE audit_checkpoint SET note = ? WHERE size = " + std::to_string(size), note,
           false);
}

// `atoms-edge verify` failing: exit 1 and exactly this one line.
void expectVerifyFails(const LoggedSite& site, const std::string& problem) {
  auto r = edge({"verify", "--state-dir", site.dir});
  BOOST_TEST(r.status == 1, r.err);
  BOOST_TEST(r.err == "atoms-edge verify: FAILED" + problem + "\n");
  BOOST_TEST(r.out.empty(), r.out);
}

std::string okLine(const LoggedSite& site) {
  return "ok: " + std::to_string(site.size) + " entries, " +
         std::to_string(site.signedSizes.size()) + " checkpoints, " +
         std::to_string(site.receiptSeqs.size()) + " receipts verified; root " + site.root + "\n";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(commands)

// --- init ---------------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(initCreatesPrivateKeysAnEncryptedDatabaseAndPrintsTheVerifierKey) {
  InitedSite site("berlin-mitte-03");
  BOOST_TEST(site.initRun.err.empty(), site.initRun.err);
  BOOST_TEST(contains(site.initRun.out, "for site berlin-mitte-03\n"), site.initRun.out);
  auto vkey = VerifierKey::parse(site.vkey);
  BOOST_REQUIRE_MESSAGE(vkey.ok(), vkey.message() << ": " << site.initRun.out);
  BOOST_TEST(vkey->name() == "atoms-edge/berlin-mitte-03");

  BOOST_TEST(fileMode(site.dir) == 0700U);
  BOOST_TEST(fileMode(site.file("db.key")) == 0600U);
  BOOST_TEST(fileMode(site.file("site.key")) == 0600U);
  BOOST_TEST(fileMode(site.file("atoms.db")) == 0600U);
  const std::string db = readFile(site.file("atoms.db"));
  BOOST_TEST(db.size() >= 1024U);
  BOOST_TEST(db.rfind("SQLite format 3", 0) != 0, "atoms.db has a plaintext SQLite header");
  // The key files hold the keys the database and the printed verifier key depend on.
  auto siteKey = readKeyFile(site.file("site.key"), KeyKind::SiteSigning);
  BOOST_REQUIRE(siteKey.ok());
  auto signer = SigningKey::fromSecret(vkey->name(), std::move(*siteKey));
  BOOST_REQUIRE(signer.ok());
  BOOST_TEST(signer->verifierKey() == site.vkey);
}

BOOST_AUTO_TEST_CASE(initTwiceIsRefusedAndChangesNothing) {
  InitedSite site;
  const DirSnapshot before = snapshot(site.dir);
  BOOST_REQUIRE(before.count("atoms.db") == 1);
  for (const std::string& id : {site.siteId, std::string("other-site")}) {
    BOOST_TEST_CONTEXT(id) {
      auto again = edge({"init", "--state-dir", site.dir, "--site-id", id});
      BOOST_TEST(again.status == 1);
      BOOST_TEST(isOneLine(again.err), again.err);
      BOOST_TEST(contains(again.err, site.dir + " already holds a database; refusing to overwrite"),
                 again.err);
      BOOST_TEST(again.out.empty());
      BOOST_TEST((snapshot(site.dir) == before), "init changed the existing state directory");
    }
  }
  // The untouched directory still verifies with the key the first init printed.
  auto v = edge({"verify", "--state-dir", site.dir, "--key", site.vkey});
  BOOST_TEST(v.status == 0, v.err);
}

BOOST_AUTO_TEST_CASE(initRejectsBadSiteIdsAndCreatesNothing) {
  test::TempDir tmp;
  const std::vector<std::string> bad = {
      "Berlin", "-lead", "a_b", "a.b", "caf\xc3\xa9", "a b", std::string(65, 'x')};
  int n = 0;
  for (const std::string& id : bad) {
    BOOST_TEST_CONTEXT(id) {
      const std::string dir = tmp.file("state" + std::to_string(n++));
      auto r = edge({"init", "--state-dir", dir, "--site-id", id});
      BOOST_TEST(r.status == 1);
      BOOST_TEST(isOneLine(r.err), r.err);
      BOOST_TEST(contains(r.err, "atoms-edge init: site id '" + id + "'"), r.err);
      BOOST_TEST(!fs::exists(dir));
    }
  }
}

BOOST_AUTO_TEST_CASE(initWithoutASiteIdIsACommandLineError) {
  test::TempDir tmp;
  const std::string dir = tmp.file("state");
  auto r = edge({"init", "--state-dir", dir});
  BOOST_TEST(r.status == kExitUsage);
  BOOST_TEST(r.err == "atoms-edge init: --site-id is required\n");
  BOOST_TEST(!fs::exists(dir));
}

// --- identity -----------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(identityPrintsTheVerifierKeyInitPrinted) {
  InitedSite site("site-42");
  auto r = edge({"identity", "--state-dir", site.dir});
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(lineValue(r.out, "verifier-key ") == site.vkey);
  BOOST_TEST(lineValue(r.out, "site ") == "site-42");
  BOOST_TEST(lineValue(r.out, "origin ") == "atoms-edge/site-42");
  auto vkey = VerifierKey::parse(site.vkey);
  BOOST_REQUIRE(vkey.ok());
  BOOST_TEST(lineValue(r.out, "public-key ") == toHex(vkey->publicKey()));
}

// --- verify -------------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(verifyPassesAGoodLogWithItsCounts) {
  LoggedSite site;
  BOOST_REQUIRE(site.signedSizes == (std::vector<std::uint64_t>{1, 5, 9, 13, 17}));
  auto r = edge({"verify", "--state-dir", site.dir});
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(r.out == okLine(site));
  BOOST_TEST(r.err.empty(), r.err);
  auto quiet = edge({"verify", "--state-dir", site.dir, "--quiet"});
  BOOST_TEST(quiet.status == 0);
  BOOST_TEST(quiet.out.empty());
}

BOOST_AUTO_TEST_CASE(verifyNamesAnEntryWithOneChangedByte) {
  LoggedSite site;
  {
    Database db = site.openDb();
    std::string text = entryAt(db, 6);
    const std::size_t at = text.find("swap");
    BOOST_REQUIRE(at != std::string::npos);
    text[at] = 'S';
    setEntry(db, 6, text, false);
  }
  expectVerifyFails(site, " at seq 6: seq 6: stored leaf_hash does not match the entry");
}

BOOST_AUTO_TEST_CASE(verifyNamesADeletedEntry) {
  LoggedSite site;
  {
    Database db = site.openDb();
    exec(db, "DELETE FROM audit_entry WHERE seq = 10");
  }
  expectVerifyFails(site, " at seq 10: seq 10: missing (the next stored entry is seq 11)");
}

BOOST_AUTO_TEST_CASE(verifyNamesTheFirstOfTwoSwappedEntries) {
  LoggedSite site;
  {
    Database db = site.openDb();
    exec(db, "UPDATE audit_entry SET seq = -1 WHERE seq = 2");
    exec(db, "UPDATE audit_entry SET seq = 2 WHERE seq = 3");
    exec(db, "UPDATE audit_entry SET seq = 3 WHERE seq = -1");
  }
  expectVerifyFails(site, " at seq 2: seq 2: entry says seq 3");
}

BOOST_AUTO_TEST_CASE(verifyNamesACheckpointWhoseSignatureWasReplaced) {
  LoggedSite site;
  {
    Database db = site.openDb();
    // A genuine site signature, taken from another checkpoint: valid bytes, wrong message.
    const std::string donor = noteAt(db, 5);
    const std::string victim = noteAt(db, 9);
    const std::string donorSig = donor.substr(donor.find("\n\n") + 2);
    const std::string victimBody = victim.substr(0, victim.find("\n\n") + 2);
    BOOST_REQUIRE(victimBody + donorSig != victim);
    setNote(db, 9, victimBody + donorSig);
  }
  expectVerifyFails(site, ": checkpoint 9: signature does not verify with the site key");
}

BOOST_AUTO_TEST_CASE(verifyNamesACheckpointSignedWithAnotherKey) {
  LoggedSite site;
  {
    Database db = site.openDb();
    const std::string origin = originForSite(site.siteId);
    auto cp = parseCheckpointBody(noteAt(db, 13).substr(0, noteAt(db, 13).find("\n\n") + 1));
    BOOST_REQUIRE_MESSAGE(cp.ok(), cp.message());
    // Same origin, same size and root: only the key differs.
    const SigningKey other = SigningKey::generate(origin);
    auto forged = signNote(checkpointBody(*cp), other);
    BOOST_REQUIRE(forged.ok());
    setNote(db, 13, *forged);
  }
  expectVerifyFails(site, ": checkpoint 13: not signed by the site key");
}

BOOST_AUTO_TEST_CASE(verifyNamesATamperedReceipt) {
  LoggedSite site;
  const std::uint64_t seq = site.receiptSeqs[1];
  {
    Database db = site.openDb();
    auto e = parseEntry(entryAt(db, seq));
    BOOST_REQUIRE(e.ok());
    BOOST_REQUIRE(e->kind == "receipt");
    e->body.asObject()["confidence"] = "0.99";
    // A valid entry with a correct leaf hash: only the receipt's signature can tell.
    setEntry(db, seq, entryText(*e), true);
  }
  const std::string s = std::to_string(seq);
  expectVerifyFails(site, " at seq " + s + ": seq " + s +
                              ": receipt: signature does not verify with the site key");
}

BOOST_AUTO_TEST_CASE(verifyWithAnotherValidDbKeyFailsClearlyAndLeavesTheDatabaseAlone) {
  LoggedSite site;
  InitedSite other("other-site");
  fs::remove(site.file("db.key"));
  fs::copy_file(other.file("db.key"), site.file("db.key"));
  BOOST_REQUIRE(fileMode(site.file("db.key")) == 0600U);
  const DirSnapshot before = snapshot(site.dir);
  for (const std::string& cmd : std::vector<std::string>{"verify", "identity", "export-segments"}) {
    BOOST_TEST_CONTEXT(cmd) {
      auto r = edge({cmd, "--state-dir", site.dir});
      BOOST_TEST(r.status == 1);
      BOOST_TEST(r.err == "atoms-edge " + cmd + ": cannot open database " + site.file("atoms.db") +
                              ": wrong key or not an atoms-edge database\n");
      BOOST_TEST(r.out.empty());
      BOOST_TEST((snapshot(site.dir) == before), "a failed open changed the state directory");
    }
  }
}

BOOST_AUTO_TEST_CASE(verifyRefusesATruncatedDatabaseInOneLine) {
  LoggedSite site;
  const auto full = fs::file_size(site.file("atoms.db"));
  struct Case {
    std::uintmax_t size;
    std::string says;
  };
  for (const Case& c :
       {Case{full - 100, "is not a multiple of the 1024-byte page size (truncated?)"},
        Case{0, "the file is empty (truncated?)"}}) {
    BOOST_TEST_CONTEXT(c.size) {
      fs::resize_file(site.file("atoms.db"), c.size);
      const DirSnapshot before = snapshot(site.dir);
      auto r = edge({"verify", "--state-dir", site.dir});
      BOOST_TEST(r.status == 1);
      BOOST_TEST(isOneLine(r.err), r.err);
      BOOST_TEST(contains(r.err, "atoms-edge verify: "), r.err);
      BOOST_TEST(contains(r.err, site.file("atoms.db")), r.err);
      BOOST_TEST(contains(r.err, c.says), r.err);
      BOOST_TEST((snapshot(site.dir) == before));
    }
  }
}

BOOST_AUTO_TEST_CASE(verifyRefusesATruncatedSiteKeyInOneLine) {
  LoggedSite site;
  const std::string header = "atoms-edge-key v1 site-ed25519\n";
  BOOST_REQUIRE(readFile(site.file("site.key")).rfind(header, 0) == 0);
  fs::resize_file(site.file("site.key"), header.size() + 60);  // 30 of the 64 key bytes
  auto r = edge({"verify", "--state-dir", site.dir});
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.err == "atoms-edge verify: key file " + site.file("site.key") +
                          " holds 30 bytes of key, expected 64 (truncated or damaged)\n");
}

// --- export-segments / verify-segments ----------------------------------------------------------

struct ExportedSite : LoggedSite {
  // Runs export-segments with extra arguments and saves its output as a file.
  std::string exportTo(const std::string& name, const std::vector<std::string>& extra) {
    std::vector<std::string> args{"export-segments", "--state-dir", dir, "--from", "0"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = edge(args);
    BOOST_REQUIRE_MESSAGE(r.status == 0, r.err);
    BOOST_TEST(r.err.empty(), r.err);
    return tmp.write(name, r.out);
  }
  test::RunResult verifySegments(const std::string& file, const std::string& key) {
    return edge({"verify-segments", "--key", key, file});
  }
};

BOOST_AUTO_TEST_CASE(exportedSegmentsVerifyWithOnlyThePublicKey) {
  ExportedSite site;
  const std::string file = site.exportTo("all.jsonl", {});
  BOOST_TEST(lines(readFile(file)).size() == 1U);
  auto r = site.verifySegments(file, site.vkey);
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(r.out == "ok: 1 segments, entries [0, " + std::to_string(site.size) + "), " +
                          std::to_string(site.receiptSeqs.size()) + " receipts verified; root " +
                          site.root + "\n");
}

BOOST_AUTO_TEST_CASE(smallSegmentsAreCutAtEachSignedSizeAndStillVerify) {
  ExportedSite site;
  const std::string file = site.exportTo("small.jsonl", {"--max-bytes", "1"});
  const std::vector<std::string> segs = lines(readFile(file));
  BOOST_REQUIRE(segs.size() == site.signedSizes.size());
  std::uint64_t from = 0;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    auto s = parseSegment(segs[i]);
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
    BOOST_TEST(s->from == from);
    BOOST_TEST(s->to == site.signedSizes[i]);
    from = s->to;
  }
  auto r = site.verifySegments(file, site.vkey);
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(r.out == "ok: " + std::to_string(segs.size()) + " segments, entries [0, " +
                          std::to_string(site.size) + "), " +
                          std::to_string(site.receiptSeqs.size()) + " receipts verified; root " +
                          site.root + "\n");
}

BOOST_AUTO_TEST_CASE(verifySegmentsRejectsAnEditedEntryNamingItsLine) {
  ExportedSite site;
  std::vector<std::string> segs =
      lines(readFile(site.exportTo("small.jsonl", {"--max-bytes", "1"})));
  BOOST_REQUIRE(segs.size() >= 3U);
  // Line 3 is the segment [5, 9); the first "swap" in it is in entry 5.
  auto seg = parseSegment(segs[2]);
  BOOST_REQUIRE(seg.ok());
  BOOST_REQUIRE(seg->from == 5U);
  const std::size_t at = segs[2].find("swap");
  BOOST_REQUIRE(at != std::string::npos);
  segs[2][at] = 'S';
  std::string edited;
  for (const std::string& l : segs) edited += l + "\n";
  const std::string file = site.tmp.write("edited.jsonl", edited);
  auto r = site.verifySegments(file, site.vkey);
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.err ==
             "atoms-edge verify-segments: REJECTED line 3: segment 5..9: seq 6: prev does not "
             "match the leaf hash of seq 5\n");
}

BOOST_AUTO_TEST_CASE(verifySegmentsRejectsTheWrongKey) {
  ExportedSite site;
  const std::string file = site.exportTo("all.jsonl", {});
  // An impostor key under the site's own name, and the genuine key of another site.
  InitedSite other("other-site");
  const std::string impostor = SigningKey::generate(originForSite(site.siteId)).verifierKey();
  for (const std::string& key : {impostor, other.vkey}) {
    BOOST_TEST_CONTEXT(key) {
      auto r = site.verifySegments(file, key);
      BOOST_TEST(r.status == 1);
      BOOST_TEST(isOneLine(r.err), r.err);
      BOOST_TEST(r.err.rfind("atoms-edge verify-segments: REJECTED line 1: ", 0) == 0, r.err);
      BOOST_TEST(r.out.empty());
    }
  }
  auto impostorRun = site.verifySegments(file, impostor);
  BOOST_TEST(contains(impostorRun.err, "not signed by the site key"), impostorRun.err);
  auto otherRun = site.verifySegments(file, other.vkey);
  BOOST_TEST(contains(otherRun.err, site.siteId), otherRun.err);
}

BOOST_AUTO_TEST_CASE(exportFromAnUnsignedSizeNamesTheNearestSignedSizes) {
  ExportedSite site;
  auto r = edge({"export-segments", "--state-dir", site.dir, "--from", "3"});
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.err ==
             "atoms-edge export-segments: segments: from 3 is not 0 or a signed size "
             "(nearest signed sizes: 1 and 5)\n");
  BOOST_TEST(r.out.empty());
}

// --- demo ---------------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(demoRunsAndSaysItsLogVerifies) {
  test::TempDir tmp;
  const std::string dir = tmp.file("demo");
  auto r = edge({"demo", "--state-dir", dir});
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(contains(r.out, "\nverify: ok, "), r.out);
  BOOST_TEST(contains(r.out, "with only the public key: ok\n"), r.out);
  BOOST_TEST(contains(r.out, "atoms.db is encrypted"), r.out);
  // The SMS part runs the real layer: HELP names a person to reach, a notice waits for the end
  // of quiet hours, STOP is confirmed, and the log still verifies with every receipt in it.
  BOOST_TEST(contains(r.out, "To reach a person: Renée Dubois"), r.out);
  BOOST_TEST(contains(r.out, "held until 2026-11-28 08:00"), r.out);
  BOOST_TEST(contains(r.out, "You're unsubscribed"), r.out);
  BOOST_TEST(contains(r.out, "opted out of text messages"), r.out);
  BOOST_TEST(r.out.rfind("verify: ok, ") > r.out.find("Text messages, through the real SMS layer"),
             r.out);
  // What the demo tells the newcomer to run next works.
  auto v = edge({"verify", "--state-dir", dir});
  BOOST_TEST(v.status == 0, v.err);
}

BOOST_AUTO_TEST_CASE(demoWalksThroughACalloutFromTheLeadsTextToTheReceipts) {
  test::TempDir tmp;
  auto r = edge({"demo", "--state-dir", tmp.file("demo")});
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  const std::string callout = r.out.substr(r.out.find("A call-out, start to finish"));
  for (const char* told : {
           // The register (the simulated POS) fed the sales book before the day's story.
           "The register (a simulated POS, polled like Square) has sent today's orders so far: $",
           // Labor against those sales, so far and projected for the day (docs/pos.md).
           "Labor against sales: ",
           " projected for the day (the panel's Sales & labor page).",
           // The lead's text, and who was offered the shift and who was not, and why.
           "Rosa Diaz texts: \"Jamal isn't here, I'm alone on the line\"",
           "1. Ben Ode         no premium",
           "Tom Gray (15)   minors' hours (US-FLSA-MINOR-14-15-HOURS",
           "Nia Brooks (16) minors' hours (CA-MINOR-16-17-HOURS)",
           "Zed Moss        no valid California Food Handler Card",
           "Lea Voss        no consent to texts on file",
           "check in kindly with Jamal Reed tomorrow",
           // The first to reply wins; the later one hears it is covered; the lead is told.
           "Cleo Park gets the shift, written to the schedule",
           "-> phone of Ben Ode: \"Thanks! That shift is already covered.\"",
           "-> phone of Rosa Diaz: \"Covered: Cleo will work line cook",
           "-> phone of Cleo Park: \"Why we sent our last text",
           // The overtime cover: the general manager hears after 20 minutes, the manager of
           // record approves, and only then is the shift given.
           "-> phone of Kwame Asante: \"Bistro Marée, Valencia Street: still no cover for "
           "bartender",
           "Reply APPROVE 1 to give Felix the shift, or DENY 1.",
           "Dev Patel texts: \"APPROVE 1\"",
           "-> phone of Sam Okoro: \"Covered: Felix will work bartender",
           "approval-1-request",
           "callout-2-assign",
           "\nverify: ok, ",
       }) {
    BOOST_TEST(contains(callout, told), told);
  }
  // Not a terminal and no --interactive: the scripted part only.
  BOOST_TEST(!contains(callout, "Your turn"));
}

BOOST_AUTO_TEST_CASE(demoPhonesTypedIntoTakeAnOfferAndEscalateWhenNobodyAnswers) {
  test::TempDir tmp;
  test::ChildProcess demo(
      {test::edgeBinary(), "demo", "--state-dir", tmp.file("demo"), "--interactive"},
      noCredentials(), /*stdinPipe=*/true);
  BOOST_TEST_REQUIRE(demo.waitForStdout("Your turn", kCommandDeadline), demo.out() + demo.err());
  std::size_t mark = demo.out().size();
  demo.writeStdin("Sam: Carmen can't make it tonight\n");
  BOOST_TEST_REQUIRE(demo.waitForStdout("Finding cover for Carmen", kCommandDeadline, mark),
                     demo.out());
  // The first offer on a phone: "-> phone of NAME: "... Reply 1234 to take it ...".
  const std::string offer = "-> phone of ";
  const std::size_t takeIt = demo.out().find(" to take it", mark);
  BOOST_TEST_REQUIRE(takeIt != std::string::npos, demo.out());
  const std::size_t line = demo.out().rfind(offer, takeIt);
  const std::size_t nameEnd = demo.out().find(": \"", line);
  const std::string name = demo.out().substr(line + offer.size(), nameEnd - line - offer.size());
  const std::string code = demo.out().substr(takeIt - 4, 4);
  BOOST_TEST_REQUIRE(code.find_first_not_of("0123456789") == std::string::npos, demo.out());

  mark = demo.out().size();
  demo.writeStdin(name + ": " + code + "\n");
  const std::string first = name.substr(0, name.find(' '));
  BOOST_TEST_REQUIRE(
      demo.waitForStdout("\"Covered: " + first + " will work server today 18:00-22:30.\"",
                         kCommandDeadline, mark),
      demo.out());
  BOOST_TEST(contains(demo.out().substr(mark), "You're on: server today 18:00-22:30"));

  // A call-out nobody answers: the waves go out and, after 20 minutes, the general manager hears.
  mark = demo.out().size();
  demo.writeStdin("Rosa: Omar isn't here\nwait 25\ninbox Kwame\nquit\n");
  const auto status = demo.wait(kCommandDeadline);
  BOOST_TEST_REQUIRE(status.has_value());
  BOOST_TEST(*status == 0, demo.err());
  const std::string after = demo.out().substr(mark);
  BOOST_TEST(contains(after, "offers, wave 2"), after);
  BOOST_TEST(contains(after, "the general manager is told [receipt callout-4-escalate"), after);
  BOOST_TEST(contains(after, "\"Bistro Marée, Valencia Street: still no cover for prep cook"),
             after);
  BOOST_TEST(contains(after, "\nverify: ok, "), after);
}

BOOST_AUTO_TEST_CASE(demoRefusesAnEtcDirWithoutTheDemoSite) {
  test::TempDir tmp;
  auto r = edge({"demo", "--state-dir", tmp.file("demo"), "--etc-dir", tmp.file("nothing")});
  BOOST_TEST(r.status == kExitUsage);
  BOOST_TEST(contains(r.err, "--etc-dir"), r.err);
  BOOST_TEST(r.out.empty(), r.out);
}

// --- systemd credentials ------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(resolveStatePathsTakesEachKeyThatIsACredential) {
  test::TempDir tmp;
  const std::string creds = tmp.file("creds");
  fs::create_directory(creds);
  const StateDirPaths own = StateDirPaths::under("/srv/state");
  auto same = [&](const StateDirPaths& p, const std::string& db, const std::string& site) {
    return p.dir == own.dir && p.database == own.database && p.dbKey == db && p.siteKey == site;
  };
  BOOST_TEST(same(resolveStatePaths("/srv/state", std::nullopt), own.dbKey, own.siteKey));
  BOOST_TEST(same(resolveStatePaths("/srv/state", std::string()), own.dbKey, own.siteKey));
  BOOST_TEST(same(resolveStatePaths("/srv/state", creds), own.dbKey, own.siteKey));
  BOOST_TEST(same(resolveStatePaths("/srv/state", tmp.file("absent")), own.dbKey, own.siteKey));
  tmp.write("creds/db.key", "x");
  BOOST_TEST(same(resolveStatePaths("/srv/state", creds), creds + "/db.key", own.siteKey));
  tmp.write("creds/site.key", "x");
  BOOST_TEST(
      same(resolveStatePaths("/srv/state", creds + "/"), creds + "/db.key", creds + "/site.key"));
}

namespace {

// A logged site whose keys were moved (or copied) into a credentials directory, mode 0400 as
// systemd leaves them.
struct CredentialSite : LoggedSite {
  CredentialSite() {
    creds = tmp.file("creds");
    fs::create_directory(creds);
    fs::permissions(creds, fs::perms::owner_all);
  }
  void give(const std::string& key, bool keepCopy) {
    if (keepCopy) {
      fs::copy_file(file(key), creds + "/" + key);
    } else {
      fs::rename(file(key), creds + "/" + key);
    }
    fs::permissions(creds + "/" + key, fs::perms::owner_read);
  }
  std::string config() const { return tmp.write("atoms-edge.conf", "state.dir = " + dir + "\n"); }
  std::string creds;
};

// The one log line that contains needle ("" if none).
std::string logLine(const std::string& log, const std::string& needle) {
  for (const std::string& l : lines(log)) {
    if (contains(l, needle)) return l;
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(stateDirCommandsReadKeysFromCredentials) {
  CredentialSite site;
  site.give("db.key", false);
  site.give("site.key", false);
  const auto env = credentialsIn(site.creds);

  auto v = edge({"verify", "--state-dir", site.dir}, env);
  BOOST_TEST(v.status == 0, v.err);
  BOOST_TEST(v.out == okLine(site));
  auto id = edge({"identity", "--state-dir", site.dir}, env);
  BOOST_TEST(id.status == 0, id.err);
  BOOST_TEST(lineValue(id.out, "verifier-key ") == site.vkey);
  const std::string hwBefore = readFile(site.file("audit.highwater"));
  auto ex = edge({"export-segments", "--state-dir", site.dir, "--from", "0"}, env);
  BOOST_TEST(ex.status == 0, ex.err);
  auto vs = edge({"verify-segments", "--key", site.vkey, site.tmp.write("s.jsonl", ex.out)});
  BOOST_TEST(vs.status == 0, vs.err);
  // The export advanced the high-water file in the state directory; the (read-only)
  // credentials directory still holds just the two keys.
  BOOST_TEST(hwBefore != readFile(site.file("audit.highwater")));
  BOOST_TEST(std::distance(fs::directory_iterator(site.creds), fs::directory_iterator()) == 2);

  // Without the credentials the keys are simply not there.
  auto without = edge({"verify", "--state-dir", site.dir});
  BOOST_TEST(without.status == 1);
  BOOST_TEST(without.err ==
             "atoms-edge verify: key file " + site.file("db.key") + " does not exist\n");
}

BOOST_AUTO_TEST_CASE(aCredentialWinsOverTheKeyFileInTheStateDir) {
  CredentialSite site;
  site.give("db.key", false);
  InitedSite other("other-site");
  fs::copy_file(other.file("db.key"), site.file("db.key"));  // a wrong key left in the state dir
  auto v = edge({"verify", "--state-dir", site.dir}, credentialsIn(site.creds));
  BOOST_TEST(v.status == 0, v.err);
  // And the other way round: a wrong credential is used, and refused, even beside the right file.
  fs::remove(site.file("db.key"));
  fs::rename(site.creds + "/db.key", site.file("db.key"));
  fs::copy_file(other.file("db.key"), site.creds + "/db.key");
  auto bad = edge({"verify", "--state-dir", site.dir}, credentialsIn(site.creds));
  BOOST_TEST(bad.status == 1);
  BOOST_TEST(contains(bad.err, "wrong key or not an atoms-edge database"), bad.err);
}

BOOST_AUTO_TEST_CASE(oneKeyMayMoveToCredentialsAlone) {
  CredentialSite site;
  site.give("site.key", false);
  auto v = edge({"verify", "--state-dir", site.dir}, credentialsIn(site.creds));
  BOOST_TEST(v.status == 0, v.err);
  auto empty = edge({"verify", "--state-dir", site.dir}, {{kCredentialsDirectoryEnv, ""}});
  BOOST_TEST(empty.status == 1);
  BOOST_TEST(contains(empty.err, "key file " + site.file("site.key") + " does not exist"),
             empty.err);
}

BOOST_AUTO_TEST_CASE(aDamagedCredentialIsNamedByItsPath) {
  CredentialSite site;
  site.give("db.key", false);
  fs::permissions(site.creds + "/db.key", fs::perms::owner_read | fs::perms::owner_write);
  fs::resize_file(site.creds + "/db.key", 40);
  auto v = edge({"verify", "--state-dir", site.dir}, credentialsIn(site.creds));
  BOOST_TEST(v.status == 1);
  BOOST_TEST(isOneLine(v.err), v.err);
  BOOST_TEST(contains(v.err, "key file " + site.creds + "/db.key "), v.err);
}

BOOST_AUTO_TEST_CASE(serveOpensTheStoreWithKeysFromCredentials) {
  CredentialSite site;
  site.give("db.key", false);
  site.give("site.key", false);
  const std::string conf = site.config();

  auto refused = edge({"serve", "--config", conf});
  BOOST_TEST(refused.status == kExitConfig);
  BOOST_TEST(contains(logLine(refused.err, "refusing to start"), site.file("db.key")), refused.err);

  test::ChildProcess child({test::edgeBinary(), "serve", "--config", conf},
                           credentialsIn(site.creds));
  BOOST_REQUIRE_MESSAGE(child.waitForStderr("msg=\"ready\"", kCommandDeadline), child.err());
  const std::string opened = logLine(child.err(), "msg=\"opened state directory\"");
  BOOST_TEST(contains(opened, "db_key=" + site.creds + "/db.key"), child.err());
  BOOST_TEST(contains(opened, "site_key=" + site.creds + "/site.key"), child.err());
  BOOST_TEST(!contains(child.err(), "level=warn"), child.err());
  child.signal(SIGTERM);
  auto status = child.wait(kCommandDeadline);
  BOOST_REQUIRE(status.has_value());
  BOOST_TEST(*status == 0, child.err());
}

BOOST_AUTO_TEST_CASE(serveWarnsAboutAKeyLeftInTheStateDirBesideItsCredential) {
  CredentialSite site;
  site.give("db.key", true);
  test::ChildProcess child({test::edgeBinary(), "serve", "--config", site.config()},
                           credentialsIn(site.creds));
  BOOST_REQUIRE_MESSAGE(child.waitForStderr("msg=\"ready\"", kCommandDeadline), child.err());
  std::vector<std::string> warnings;
  for (const std::string& l : lines(child.err())) {
    if (contains(l, "level=warn")) warnings.push_back(l);
  }
  BOOST_REQUIRE_MESSAGE(warnings.size() == 1U, child.err());  // site.key never moved: no warning
  BOOST_TEST(contains(warnings[0], "copy=" + site.file("db.key")), child.err());
  BOOST_TEST(contains(warnings[0], "credential=" + site.creds + "/db.key"), child.err());
  child.signal(SIGTERM);
  auto status = child.wait(kCommandDeadline);
  BOOST_REQUIRE(status.has_value());
  BOOST_TEST(*status == 0, child.err());
}

BOOST_AUTO_TEST_CASE(initRefusesWhenCredentialsSupplyAKey) {
  InitedSite other("other-site");
  test::TempDir tmp;
  const std::string creds = tmp.file("creds");
  fs::create_directory(creds);
  fs::copy_file(other.file("db.key"), creds + "/db.key");
  const std::string dir = tmp.file("state");
  auto r = edge({"init", "--state-dir", dir, "--site-id", "new-site"}, credentialsIn(creds));
  BOOST_TEST(r.status == kExitConfig);
  BOOST_TEST(isOneLine(r.err), r.err);
  BOOST_TEST(contains(r.err, creds + "/db.key"), r.err);
  BOOST_TEST(!fs::exists(dir));
}

// The ingest's reconnect delay is the operator's (the issue "Sync", item 4): bad values are named.
BOOST_AUTO_TEST_CASE(ingestTakesItsReconnectDelaysAndRefusesBadOnes) {
  test::TempDir tmp;
  const std::vector<std::string> base = {"ingest", "--store", tmp.file("cloud"), "--broker",
                                         "tcp://127.0.0.1:1"};
  const auto run = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return edge(args);
  };
  auto zero = run({"--backoff-min-ms", "0"});
  BOOST_TEST(zero.status == kExitUsage);
  BOOST_TEST(contains(zero.err, "--backoff-min-ms must be at least 1"), zero.err);
  auto word = run({"--backoff-max-ms", "soon"});
  BOOST_TEST(word.status == kExitUsage);
  BOOST_TEST(contains(word.err, "--backoff-max-ms must be a number"), word.err);
  auto inverted = run({"--backoff-min-ms", "5000", "--backoff-max-ms", "1000"});
  BOOST_TEST(inverted.status == kExitUsage);
  BOOST_TEST(contains(inverted.err, "--backoff-max-ms must be at least --backoff-min-ms"),
             inverted.err);
}

BOOST_AUTO_TEST_SUITE_END()
