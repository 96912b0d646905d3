#include <boost/test/unit_test.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "store/audit_entry.h"
#include "store/audit_log.h"
#include "store/checkpoint.h"
#include "store/log_verifier.h"
#include "store/merkle.h"
#include "store/receipt.h"
#include "store/signed_note.h"
#include "tests/store/audit_fixture.h"
#include "tests/support/file_contents.h"
#include "tests/support/text_checks.h"

namespace atoms {
namespace {

namespace fs = std::filesystem;
using json::Array;
using json::Object;
using json::Value;
using testing::LogFixture;
using testing::tsAt;

using atoms::testing::contains;
using atoms::testing::readAll;

Entry sampleEntry() {
  Entry e;
  e.seq = 0;
  e.ts = "2026-09-07T06:00:00.000Z";
  e.site = "demo-site";
  e.kind = "sms.in";
  e.actor = "gateway";
  e.body = Object{{"from", "+15550100"}, {"text", "Jamal didn't show"}};
  return e;
}

std::int64_t count(Database& db, const std::string& sql) {
  auto stmt = db.prepare(sql);
  BOOST_REQUIRE(stmt.ok());
  auto r = stmt->step();
  BOOST_REQUIRE(r.ok() && *r);
  return stmt->columnInt64(0);
}

// Copies the database files (atoms.db and any WAL) of a closed fixture.
void copyDatabase(const std::string& fromDb, const std::string& toDb) {
  for (const char* suffix : {"", "-wal", "-shm"}) {
    const std::string src = fromDb + suffix, dst = toDb + suffix;
    std::error_code ec;
    fs::remove(dst, ec);
    if (fs::exists(src)) fs::copy_file(src, dst);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(audit_entry)

BOOST_AUTO_TEST_CASE(entryTextIsCanonicalJsonWithExactlyTheSevenFields) {
  Entry e = sampleEntry();
  e.seq = 3;
  e.prev[0] = 0xab;
  e.prev[31] = 0x01;
  const std::string expected =
      R"({"actor":"gateway","body":{"from":"+15550100","text":"Jamal didn't show"},)"
      R"("kind":"sms.in","prev":"ab)" +
      std::string(60, '0') + R"(01","seq":3,"site":"demo-site","ts":"2026-09-07T06:00:00.000Z"})";
  BOOST_TEST(entryText(e) == expected);
  auto back = parseEntry(expected);
  BOOST_REQUIRE_MESSAGE(back.ok(), back.message());
  BOOST_TEST((*back == e));
}

BOOST_AUTO_TEST_CASE(parseEntryRefusesAnythingButTheExactShape) {
  const std::string good = entryText(sampleEntry());
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    const auto at = t.find(from);
    BOOST_REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  struct Case {
    std::string text, expected;
  };
  const std::string zeros(64, '0');
  const Case cases[] = {
      {replaced(R"("actor":"gateway",)", ""), R"(field "actor" is missing)"},
      {replaced(R"("kind":)", R"("extra":1,"kind":)"), R"(unexpected field "extra")"},
      {replaced(R"("seq":0)", R"("seq":-1)"), R"(field "seq" must be a non-negative integer)"},
      {replaced(R"("seq":0)", R"("seq":"0")"), R"(field "seq")"},
      {replaced("06:00:00.000Z", "06:00:00Z"), R"(field "ts")"},
      {replaced("2026-09-07T", "2026-02-30T"), R"(field "ts")"},
      {replaced("06:00:00.000Z", "24:00:00.000Z"), R"(field "ts")"},
      {replaced("06:00:00.000Z", "06:00:60.000Z"), R"(field "ts")"},
      {replaced("2026-09-07T06", "2026-09-07 06"), R"(field "ts")"},
      {replaced(R"("kind":"sms.in")", R"("kind":"SMS.in")"), R"(field "kind")"},
      {replaced(R"("kind":"sms.in")", R"("kind":"")"), R"(field "kind")"},
      {replaced(R"("kind":"sms.in")", R"("kind":")" + std::string(65, 'a') + "\""),
       R"(field "kind")"},
      {replaced(R"("body":{"from":"+15550100","text":"Jamal didn't show"})", R"("body":[])"),
       R"(field "body" must be an object)"},
      {replaced(zeros, std::string(63, '0')), R"(field "prev" must be 64 lowercase hex)"},
      {replaced(zeros, "A" + std::string(63, '0')), R"(field "prev" must be 64 lowercase hex)"},
      {replaced(R"("site":"demo-site")", R"("site":"")"), R"(field "site")"},
      {" " + good, "not canonical"},
      {replaced(R"({"actor")", R"({ "actor")"), "not canonical"},
      {"[]", "not a JSON object"},
  };
  for (const Case& c : cases) {
    auto r = parseEntry(c.text);
    auto head = parseEntryHead(c.text);
    BOOST_TEST_CONTEXT(c.text) {
      BOOST_TEST(!r.ok());
      if (!r.ok()) BOOST_TEST(contains(r.message(), c.expected), r.message());
      BOOST_REQUIRE(!head.ok());
      BOOST_TEST(head.message() == r.message());
    }
  }
  Entry big = sampleEntry();
  big.body = Object{{"text", std::string(kMaxEntryBytes, 'x')}};
  auto tooBig = parseEntry(entryText(big));
  BOOST_REQUIRE(!tooBig.ok());
  BOOST_TEST(contains(tooBig.message(), "more than the limit"));
  BOOST_TEST(parseEntryHead(entryText(big)).message() == tooBig.message());
}

// The head is the entry without its body's tree: the same fields, the body as its canonical text.
BOOST_AUTO_TEST_CASE(parseEntryHeadReadsTheFieldsAndLeavesTheBodyAsText) {
  Entry e = sampleEntry();
  e.seq = 9007199254740991;
  e.actor = "panel:ana \"la jefa\"\n";
  e.body = Object{{"nested", Array{1, Object{{"\u00e9", nullptr}}}}, {"text", "tab\there"}};
  e.prev.fill(0xab);
  const std::string text = entryText(e);
  auto head = parseEntryHead(text);
  BOOST_REQUIRE_MESSAGE(head.ok(), head.message());
  BOOST_TEST(head->seq == e.seq);
  BOOST_TEST(head->ts == e.ts);
  BOOST_TEST(head->site == e.site);
  BOOST_TEST(head->kind == e.kind);
  BOOST_TEST(head->actor == e.actor);
  BOOST_TEST((head->prev == e.prev));
  BOOST_TEST(head->body == json::canonical(e.body));
  auto full = parseEntry(text);
  BOOST_REQUIRE(full.ok());
  BOOST_TEST((*full == e));
}

BOOST_AUTO_TEST_CASE(timestampsAreUtcMillisecondsTruncated) {
  using namespace std::chrono;
  const system_clock::time_point epoch{};
  BOOST_TEST(formatTimestamp(epoch) == "1970-01-01T00:00:00.000Z");
  BOOST_TEST(formatTimestamp(epoch + microseconds{1999}) == "1970-01-01T00:00:00.001Z");
  BOOST_TEST(formatTimestamp(epoch - milliseconds{1}) == "1969-12-31T23:59:59.999Z");
  const sys_days leapDay = year{2024} / February / 29;
  BOOST_TEST(formatTimestamp(leapDay + hours{23} + minutes{59} + seconds{59} + milliseconds{999}) ==
             "2024-02-29T23:59:59.999Z");
  BOOST_TEST(validateTimestamp("2024-02-29T23:59:59.999Z").ok());
  BOOST_TEST(!validateTimestamp("2023-02-29T00:00:00.000Z").ok());
  BOOST_TEST(!validateTimestamp("2026-13-01T00:00:00.000Z").ok());
  BOOST_TEST(!validateTimestamp("2026-09-07T06:00:00.000+00:00").ok());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(audit_log)

BOOST_AUTO_TEST_CASE(appendsCommitAndSurviveReopen) {
  LogFixture f;
  BOOST_TEST(f.log->size() == 0U);
  BOOST_TEST((f.log->root() == emptyRoot()));

  auto seq = f.log->append(tsAt(0), "auth.login", "panel:ana", Object{{"ok", true}});
  BOOST_REQUIRE_MESSAGE(seq.ok(), seq.message());
  BOOST_TEST(*seq == 0U);
  f.appendMany(9, 4);  // batches of 4, 4, 1
  BOOST_TEST(f.log->size() == 10U);
  BOOST_TEST((f.log->signedSizes() == std::vector<std::uint64_t>{1, 5, 9, 10}));

  // The tree is the RFC 9162 tree of SHA-256(0x00 || entry text).
  MerkleTree expected;
  Hash32 prev{};
  for (std::uint64_t i = 0; i < 10; ++i) {
    auto text = f.log->entryText(i);
    BOOST_REQUIRE(text.ok());
    auto e = parseEntry(*text);
    BOOST_REQUIRE_MESSAGE(e.ok(), e.message());
    BOOST_TEST(e->seq == i);
    BOOST_TEST(e->site == "demo-site");
    BOOST_TEST((e->prev == prev));
    prev = leafHash(asBytes(*text));
    expected.append(prev);
  }
  BOOST_TEST((f.log->root() == expected.root()));
  const Hash32 root = f.log->root();

  f.reopen();
  BOOST_TEST(f.log->size() == 10U);
  BOOST_TEST((f.log->root() == root));
  BOOST_TEST((f.log->signedSizes() == std::vector<std::uint64_t>{1, 5, 9, 10}));
  // The chain continues after the reopen.
  auto next = f.log->append(tsAt(99), "sms.out", "engine", Object{});
  BOOST_REQUIRE(next.ok());
  BOOST_TEST(*next == 10U);
  auto e10 = parseEntry(*f.log->entryText(10));
  BOOST_REQUIRE(e10.ok());
  BOOST_TEST((e10->prev == expected.leaf(9)));
  BOOST_TEST(verifyDatabase(f.db(), f.verifier(), "demo-site").ok());
}

BOOST_AUTO_TEST_CASE(commitSignsACheckpointForTheNewSizeAndRoot) {
  LogFixture f;
  auto batch = f.log->begin();
  BOOST_REQUIRE(batch.ok());
  BOOST_REQUIRE(batch->add(tsAt(1), "decision", "engine", Object{{"a", 1}}).ok());
  BOOST_REQUIRE(batch->add(tsAt(2), "decision", "engine", Object{{"a", 2}}).ok());
  auto note = batch->commit();
  BOOST_REQUIRE_MESSAGE(note.ok(), note.message());
  auto text = openNote(*note, f.verifier());
  BOOST_REQUIRE_MESSAGE(text.ok(), text.message());
  auto cp = parseCheckpointBody(*text);
  BOOST_REQUIRE(cp.ok());
  BOOST_TEST(cp->origin == "atoms-edge/demo-site");
  BOOST_TEST(cp->size == 2U);
  BOOST_TEST((cp->root == f.log->root()));
  BOOST_TEST(*f.log->checkpointAt(2) == *note);

  auto missing = f.log->checkpointAt(1);
  BOOST_REQUIRE(!missing.ok());
  BOOST_TEST(contains(missing.message(), "no checkpoint was signed for size 1"));
  BOOST_TEST(contains(missing.message(), "nearest signed sizes: 2"));
}

BOOST_AUTO_TEST_CASE(aBatchDroppedWithoutCommitLeavesNothing) {
  LogFixture f;
  f.exec("CREATE TABLE shift(id INTEGER PRIMARY KEY, who TEXT)");
  f.appendMany(3, 3);
  const Hash32 root = f.log->root();
  {
    auto batch = f.log->begin();
    BOOST_REQUIRE(batch.ok());
    f.exec("INSERT INTO shift(who) VALUES('maria')");
    BOOST_REQUIRE(batch->add(tsAt(5), "decision", "engine", Object{}).ok());
    BOOST_REQUIRE(batch->add(tsAt(6), "decision", "engine", Object{}).ok());
    BOOST_TEST(batch->entries() == 2U);
  }
  BOOST_TEST(f.log->size() == 3U);
  BOOST_TEST((f.log->root() == root));
  BOOST_TEST(count(f.db(), "SELECT count(*) FROM audit_entry") == 3);
  BOOST_TEST(count(f.db(), "SELECT count(*) FROM audit_checkpoint") == 1);
  BOOST_TEST(count(f.db(), "SELECT count(*) FROM shift") == 0);

  // The next batch takes the same seqs and the domain row commits with it.
  auto batch = f.log->begin();
  BOOST_REQUIRE(batch.ok());
  f.exec("INSERT INTO shift(who) VALUES('jamal')");
  auto seq = batch->add(tsAt(7), "decision", "engine", Object{});
  BOOST_REQUIRE(seq.ok());
  BOOST_TEST(*seq == 3U);
  BOOST_REQUIRE(batch->commit().ok());
  BOOST_TEST(count(f.db(), "SELECT count(*) FROM shift") == 1);
  f.reopen();
  BOOST_TEST(f.log->size() == 4U);
  BOOST_TEST(verifyDatabase(f.db(), f.verifier(), "demo-site").ok());
}

BOOST_AUTO_TEST_CASE(batchesAreBoundedInEntriesAndBytes) {
  LogFixture f;
  {
    auto batch = f.log->begin();
    BOOST_REQUIRE(batch.ok());
    for (std::size_t i = 0; i < kMaxBatchEntries; ++i) {
      BOOST_REQUIRE(batch->add(tsAt(1), "sms.in", "gateway", Object{}).ok());
    }
    auto full = batch->add(tsAt(1), "sms.in", "gateway", Object{});
    BOOST_REQUIRE(!full.ok());
    BOOST_TEST(contains(full.message(), "full (256 entries)"));
    BOOST_REQUIRE(batch->commit().ok());
  }
  BOOST_TEST(f.log->size() == kMaxBatchEntries);

  const std::string chunk(60 * 1024, 'x');
  auto batch = f.log->begin();
  BOOST_REQUIRE(batch.ok());
  std::size_t added = 0;
  while (true) {
    auto r = batch->add(tsAt(2), "config.change", "panel:ana", Object{{"blob", chunk}});
    if (!r.ok()) {
      BOOST_TEST(contains(r.message(), "full (512 KiB"));
      break;
    }
    ++added;
  }
  BOOST_REQUIRE(added > 0U);
  BOOST_TEST(added == kMaxBatchBytes / (batch->bytes() / added));  // equal-size entries
  BOOST_TEST(batch->bytes() <= kMaxBatchBytes);
  BOOST_REQUIRE(batch->commit().ok());
  BOOST_TEST(f.log->size() == kMaxBatchEntries + added);
}

BOOST_AUTO_TEST_CASE(badEntriesAreRefusedAndChangeNothing) {
  LogFixture f;
  f.appendMany(1);
  auto batch = f.log->begin();
  BOOST_REQUIRE(batch.ok());
  struct Case {
    std::string ts, kind, expected;
    Value body;
  };
  const Case cases[] = {
      {"2026-09-07T06:00:00Z", "sms.in", R"(field "ts")", Object{}},
      {tsAt(1), "SMS", R"(field "kind")", Object{}},
      {tsAt(1), "sms.in", R"(field "body" must be an object)", Value(3)},
      {tsAt(1), "sms.in", R"(field "body" is invalid)", Object{{"bad", std::string("\xc3")}}},
      {tsAt(1), "sms.in", "65536-byte limit", Object{{"t", std::string(kMaxEntryBytes, 'x')}}},
  };
  for (const Case& c : cases) {
    auto r = batch->add(c.ts, c.kind, "engine", c.body);
    BOOST_TEST_CONTEXT(c.expected) {
      BOOST_REQUIRE(!r.ok());
      BOOST_TEST(contains(r.message(), c.expected), r.message());
    }
  }
  BOOST_TEST(batch->entries() == 0U);
  auto ok = batch->add(tsAt(1), "sms.in", "engine", Object{});
  BOOST_REQUIRE(ok.ok());
  BOOST_TEST(*ok == 1U);
}

BOOST_AUTO_TEST_CASE(oneBatchAtATimeAndNoAddAfterCommit) {
  LogFixture f;
  auto batch = f.log->begin();
  BOOST_REQUIRE(batch.ok());
  auto second = f.log->begin();
  BOOST_REQUIRE(!second.ok());
  BOOST_TEST(contains(second.message(), "already open"));
  BOOST_REQUIRE(batch->add(tsAt(1), "sms.in", "engine", Object{}).ok());
  BOOST_REQUIRE(batch->commit().ok());
  auto late = batch->add(tsAt(1), "sms.in", "engine", Object{});
  BOOST_REQUIRE(!late.ok());
  BOOST_TEST(contains(late.message(), "already committed"));
  BOOST_TEST(!batch->commit().ok());
  BOOST_TEST(f.log->begin().ok());
}

BOOST_AUTO_TEST_CASE(aFinishedBatchOutlivingItsCommitDoesNotDisturbTheNextOne) {
  LogFixture f;
  std::optional<AuditLog::Batch> old;
  {
    auto batch = f.log->begin();
    BOOST_REQUIRE(batch.ok());
    BOOST_REQUIRE(batch->add(tsAt(1), "sms.in", "engine", Object{}).ok());
    BOOST_REQUIRE(batch->commit().ok());
    old.emplace(std::move(*batch));
  }
  auto next = f.log->begin();
  BOOST_REQUIRE(next.ok());
  BOOST_REQUIRE(next->add(tsAt(2), "sms.in", "engine", Object{}).ok());
  old.reset();
  BOOST_TEST(!f.log->begin().ok());  // `next` is still the open batch
  BOOST_REQUIRE(next->commit().ok());
  BOOST_TEST(f.log->size() == 2U);
}

BOOST_AUTO_TEST_CASE(anEmptyBatchCommitsDomainRowsAndSignsNothing) {
  LogFixture f;
  f.exec("CREATE TABLE shift(id INTEGER PRIMARY KEY, who TEXT)");
  {
    auto batch = f.log->begin();
    BOOST_REQUIRE(batch.ok());
    f.exec("INSERT INTO shift(who) VALUES('maria')");
    auto note = batch->commit();
    BOOST_REQUIRE(note.ok());
    BOOST_TEST(note->empty());
  }
  f.appendMany(2, 2);
  auto batch = f.log->begin();
  BOOST_REQUIRE(batch.ok());
  auto note = batch->commit();
  BOOST_REQUIRE(note.ok());
  BOOST_TEST(*note == *f.log->checkpointAt(2));
  BOOST_TEST(count(f.db(), "SELECT count(*) FROM audit_checkpoint") == 1);
  BOOST_TEST(count(f.db(), "SELECT count(*) FROM shift") == 1);
}

BOOST_AUTO_TEST_CASE(receiptsAreSignedWithTheSiteKeyAndLogged) {
  LogFixture f;
  auto batch = f.log->begin();
  BOOST_REQUIRE(batch.ok());
  auto seq = batch->addReceipt(tsAt(3), "engine", testing::sampleReceipt());
  BOOST_REQUIRE_MESSAGE(seq.ok(), seq.message());
  Value bad = testing::sampleReceipt("rcp_02");
  bad.asObject()["visibility"] = "everyone";
  auto refused = batch->addReceipt(tsAt(4), "engine", bad);
  BOOST_REQUIRE(!refused.ok());
  BOOST_TEST(contains(refused.message(), "visibility"));
  BOOST_REQUIRE(batch->commit().ok());
  BOOST_TEST(f.log->size() == 1U);

  auto e = parseEntry(*f.log->entryText(*seq));
  BOOST_REQUIRE(e.ok());
  BOOST_TEST(e->kind == "receipt");
  BOOST_TEST(e->actor == "engine");
  BOOST_TEST(verifyReceipt(e->body, f.verifier()).ok());
  auto report = verifyDatabase(f.db(), f.verifier(), "demo-site");
  BOOST_TEST(report.ok(), report.problem);
  BOOST_TEST(report.receipts == 1U);
}

BOOST_AUTO_TEST_CASE(publishRecordsTheHighWaterBeforeReturningTheNote) {
  LogFixture f;
  f.appendMany(4, 2);
  // Opening caught the file up to the newest signed size; appends after it do not move it.
  BOOST_TEST(f.log->highWaterSize() == 0U);
  auto note = f.log->publishCheckpoint(4);
  BOOST_REQUIRE(note.ok());
  BOOST_TEST(f.log->highWaterSize() == 4U);
  BOOST_TEST(readAll(f.hwPath()) == *note);
  // Publishing an older checkpoint is allowed and leaves the file alone.
  auto older = f.log->publishCheckpoint(2);
  BOOST_REQUIRE(older.ok());
  BOOST_TEST(readAll(f.hwPath()) == *note);
  BOOST_TEST(!f.log->publishCheckpoint(3).ok());
  BOOST_TEST(!fs::exists(f.hwPath() + ".tmp"));
}

BOOST_AUTO_TEST_CASE(openCatchesTheHighWaterUpToTheNewestSignedSize) {
  LogFixture f;
  f.appendMany(3);
  f.close();
  fs::remove(f.hwPath());
  f.reopen();
  BOOST_TEST(f.log->highWaterSize() == 3U);
  BOOST_TEST(readAll(f.hwPath()) == *f.log->checkpointAt(3));
}

BOOST_AUTO_TEST_CASE(anOlderCopyOfThePublishedDatabaseIsRefused) {
  LogFixture f;
  f.appendMany(5);
  BOOST_REQUIRE(f.log->publishCheckpoint(5).ok());
  f.close();
  const std::string backup = f.dir.sub("backup.db");
  copyDatabase(f.dbPath(), backup);

  f.reopen();
  f.appendMany(5);
  BOOST_REQUIRE(f.log->publishCheckpoint(10).ok());
  f.close();

  copyDatabase(backup, f.dbPath());
  Status s = f.tryReopen();
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(contains(s.message(), "older than the log already signed"), s.message());
  BOOST_TEST(contains(s.message(), "database signed up to size 5"));
  BOOST_TEST(contains(s.message(), "records size 10"));
}

BOOST_AUTO_TEST_CASE(aDatabaseThatDisagreesWithTheHighWaterIsRefused) {
  LogFixture f;
  f.appendMany(5);
  f.close();
  const std::string backup = f.dir.sub("backup.db");
  copyDatabase(f.dbPath(), backup);

  f.reopen();
  f.appendMany(5);
  BOOST_REQUIRE(f.log->publishCheckpoint(10).ok());
  const std::string published = readAll(f.hwPath());
  f.close();

  // Someone restores the old copy, removes the high-water file and writes a different history.
  copyDatabase(backup, f.dbPath());
  fs::remove(f.hwPath());
  f.reopen();
  for (int i = 0; i < 5; ++i) {
    BOOST_REQUIRE(f.log->append(tsAt(1000 + i), "sms.out", "engine", Object{{"other", i}}).ok());
  }
  BOOST_TEST(f.log->size() == 10U);
  f.close();

  std::ofstream(f.hwPath(), std::ios::binary | std::ios::trunc) << published;
  Status s = f.tryReopen();
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(contains(s.message(), "disagrees with the checkpoint already signed for size 10"),
             s.message());
}

BOOST_AUTO_TEST_CASE(aCorruptHighWaterFileIsRefused) {
  LogFixture f;
  f.appendMany(2);
  f.close();
  std::ofstream(f.hwPath(), std::ios::binary | std::ios::trunc) << "garbage\n";
  Status s = f.tryReopen();
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(contains(s.message(), "high-water file"));

  // A checkpoint by another key is refused too.
  const SigningKey other = SigningKey::generate("atoms-edge/demo-site");
  auto note = signNote(checkpointBody({"atoms-edge/demo-site", 1, emptyRoot()}), other);
  BOOST_REQUIRE(note.ok());
  std::ofstream(f.hwPath(), std::ios::binary | std::ios::trunc) << *note;
  s = f.tryReopen();
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(contains(s.message(), "is not a checkpoint by the site key"), s.message());
}

BOOST_AUTO_TEST_CASE(openChecksTheKeyRowsAndTail) {
  LogFixture f;
  f.appendMany(4);
  auto wrongName = AuditLog::open(f.db(), SigningKey::generate("atoms-edge/elsewhere"), "demo-site",
                                  f.hwPath() + ".2");
  BOOST_REQUIRE(!wrongName.ok());
  BOOST_TEST(contains(wrongName.message(), "expected \"atoms-edge/demo-site\""));

  auto otherKey = AuditLog::open(f.db(), SigningKey::generate("atoms-edge/demo-site"), "demo-site",
                                 f.hwPath() + ".2");
  BOOST_REQUIRE(!otherKey.ok());
  BOOST_TEST(contains(otherKey.message(), "does not verify with the site key"));

  f.log.reset();
  f.exec(
      "UPDATE audit_entry SET entry = CAST(replace(CAST(entry AS TEXT), 'hi', 'ho') AS BLOB) "
      "WHERE seq = 3");
  auto tail = AuditLog::open(f.db(), f.key(), "demo-site", f.hwPath());
  BOOST_REQUIRE(!tail.ok());
  BOOST_TEST(contains(tail.message(), "the last entry (seq 3) does not match its stored leaf hash"),
             tail.message());

  f.exec("DELETE FROM audit_entry WHERE seq = 1");
  auto gap = AuditLog::open(f.db(), f.key(), "demo-site", f.hwPath());
  BOOST_REQUIRE(!gap.ok());
  BOOST_TEST(contains(gap.message(), "entry seq 1 is missing"), gap.message());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms
