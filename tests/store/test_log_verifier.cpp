#include <boost/test/unit_test.hpp>
#include <string>

#include "store/audit_entry.h"
#include "store/audit_log.h"
#include "store/checkpoint.h"
#include "store/log_verifier.h"
#include "store/merkle.h"
#include "store/signed_note.h"
#include "tests/store/audit_fixture.h"

namespace atoms {
namespace {

using json::Object;
using json::Value;
using testing::LogFixture;
using testing::tsAt;

// A log of 20 entries in batches of 4 (checkpoints 4, 8, ..., 20) with a receipt at seq 20 and
// one more batch (checkpoint 22).
struct TamperFixture : LogFixture {
  TamperFixture() {
    appendMany(20, 4);
    auto batch = log->begin();
    BOOST_REQUIRE(batch.ok());
    auto r = batch->addReceipt(tsAt(50), "engine", testing::sampleReceipt());
    BOOST_REQUIRE_MESSAGE(r.ok(), r.message());
    BOOST_REQUIRE(batch->add(tsAt(51), "sms.out", "engine", Object{{"to", "+15550100"}}).ok());
    BOOST_REQUIRE(batch->commit().ok());
    log.reset();  // tampering happens behind the log's back
  }

  VerifyReport verify() { return verifyDatabase(db(), verifier(), testing::kSite); }

  std::string entry(std::uint64_t seq) {
    Bytes b = blob("SELECT entry FROM audit_entry WHERE seq = " + std::to_string(seq));
    return std::string(b.begin(), b.end());
  }
  void setEntry(std::uint64_t seq, const std::string& text, bool recomputeLeaf) {
    execWithBlob("UPDATE audit_entry SET entry = ? WHERE seq = " + std::to_string(seq),
                 Bytes(text.begin(), text.end()));
    if (recomputeLeaf) {
      const Hash32 leaf = leafHash(asBytes(text));
      execWithBlob("UPDATE audit_entry SET leaf_hash = ? WHERE seq = " + std::to_string(seq),
                   Bytes(leaf.begin(), leaf.end()));
    }
  }
  std::string note(std::uint64_t size) {
    auto stmt =
        db().prepare("SELECT note FROM audit_checkpoint WHERE size = " + std::to_string(size));
    BOOST_REQUIRE(stmt.ok());
    auto r = stmt->step();
    BOOST_REQUIRE(r.ok() && *r);
    return stmt->columnText(0);
  }
  void setNote(std::uint64_t size, const std::string& text) {
    auto stmt =
        db().prepare("UPDATE audit_checkpoint SET note = ? WHERE size = " + std::to_string(size));
    BOOST_REQUIRE(stmt.ok());
    stmt->bind(1, text);
    BOOST_REQUIRE(stmt->step().ok());
  }
};

void expectBad(const VerifyReport& r, std::optional<std::uint64_t> seq,
               const std::string& problem) {
  BOOST_TEST(!r.ok());
  BOOST_TEST(r.problem == problem);
  BOOST_TEST((r.firstBadSeq == seq));
  if (seq) BOOST_TEST(r.entries == *seq);  // everything before the first bad seq was good
}

}  // namespace

BOOST_AUTO_TEST_SUITE(log_verifier)

BOOST_AUTO_TEST_CASE(aHealthyLogVerifiesEndToEnd) {
  TamperFixture f;
  const VerifyReport r = f.verify();
  BOOST_TEST(r.ok(), r.problem);
  BOOST_TEST(r.entries == 22U);
  BOOST_TEST(r.checkpoints == 6U);
  BOOST_TEST(r.receipts == 1U);
  BOOST_TEST(!r.firstBadSeq.has_value());
  f.reopen();
  BOOST_TEST((r.root == f.log->root()));
}

BOOST_AUTO_TEST_CASE(anEmptyLogVerifies) {
  LogFixture f;
  const VerifyReport r = verifyDatabase(f.db(), f.verifier(), testing::kSite);
  BOOST_TEST(r.ok(), r.problem);
  BOOST_TEST(r.entries == 0U);
  BOOST_TEST((r.root == emptyRoot()));
}

BOOST_AUTO_TEST_CASE(oneChangedByteIsFoundAtItsSeq) {
  TamperFixture f;
  std::string text = f.entry(7);
  const auto at = text.find("there");
  BOOST_REQUIRE(at != std::string::npos);
  text[at] = 'T';
  f.setEntry(7, text, false);
  expectBad(f.verify(), 7, "seq 7: stored leaf_hash does not match the entry");
}

BOOST_AUTO_TEST_CASE(aChangedEntryWithARecomputedLeafBreaksTheChain) {
  TamperFixture f;
  std::string text = f.entry(6);
  text[text.find("there")] = 'T';
  f.setEntry(6, text, true);
  expectBad(f.verify(), 7, "seq 7: prev does not match the leaf hash of seq 6");
}

BOOST_AUTO_TEST_CASE(aChangedLastEntryIsCaughtByItsCheckpoint) {
  TamperFixture f;
  std::string text = f.entry(21);
  text[text.find("+1555")] = '-';
  f.setEntry(21, text, true);
  const VerifyReport r = f.verify();
  expectBad(r, std::nullopt,
            "checkpoint 22: root does not match the entries (an entry in 20..21 was rewritten, "
            "or the checkpoint forged)");
  BOOST_TEST(r.checkpoints == 5U);
}

BOOST_AUTO_TEST_CASE(aDroppedEntryIsReportedAsMissing) {
  TamperFixture f;
  f.exec("DELETE FROM audit_entry WHERE seq = 5");
  expectBad(f.verify(), 5, "seq 5: missing (the next stored entry is seq 6)");
}

BOOST_AUTO_TEST_CASE(aTruncatedTailIsReportedAsMissing) {
  TamperFixture f;
  f.exec("DELETE FROM audit_entry WHERE seq >= 21");
  expectBad(f.verify(), 21, "seq 21: missing (checkpoint 22 signs 22 entries, the log holds 21)");
}

BOOST_AUTO_TEST_CASE(twoSwappedEntriesAreFoundAtTheFirst) {
  TamperFixture f;
  // Swap entry blobs and leaf hashes of seq 3 and 4 (rows stay individually self-consistent).
  f.exec("UPDATE audit_entry SET seq = -1 WHERE seq = 3");
  f.exec("UPDATE audit_entry SET seq = 3 WHERE seq = 4");
  f.exec("UPDATE audit_entry SET seq = 4 WHERE seq = -1");
  expectBad(f.verify(), 3, "seq 3: entry says seq 4");
}

BOOST_AUTO_TEST_CASE(aReplacedCheckpointSignatureIsFound) {
  TamperFixture f;
  std::string n = f.note(12);
  // The last base64 characters before the final newline are signature bytes.
  const std::size_t at = n.size() - 6;
  n[at] = n[at] == 'A' ? 'B' : 'A';
  f.setNote(12, n);
  const VerifyReport r = f.verify();
  expectBad(r, std::nullopt, "checkpoint 12: signature does not verify with the site key");
  BOOST_TEST(r.entries == 12U);
  BOOST_TEST(r.checkpoints == 2U);
}

BOOST_AUTO_TEST_CASE(aCheckpointSignedWithAnotherKeyIsFound) {
  TamperFixture f;
  f.reopen();
  const Checkpoint cp{"atoms-edge/demo-site", 16, *f.log->tree().rootAt(16)};
  f.log.reset();
  const SigningKey other = SigningKey::generate("atoms-edge/demo-site");
  auto forged = signNote(checkpointBody(cp), other);
  BOOST_REQUIRE(forged.ok());
  f.setNote(16, *forged);
  expectBad(f.verify(), std::nullopt, "checkpoint 16: not signed by the site key");
}

BOOST_AUTO_TEST_CASE(aCheckpointRootColumnThatDisagreesIsFound) {
  TamperFixture f;
  f.execWithBlob("UPDATE audit_checkpoint SET root = ? WHERE size = 8", Bytes(32, 7));
  expectBad(f.verify(), std::nullopt,
            "checkpoint 8: the root column does not match the signed note");
}

BOOST_AUTO_TEST_CASE(aTamperedReceiptIsFoundAtItsSeq) {
  TamperFixture f;
  auto e = parseEntry(f.entry(20));
  BOOST_REQUIRE(e.ok());
  BOOST_REQUIRE(e->kind == "receipt");
  e->body.asObject()["confidence"] = "0.99";
  // The attacker keeps the entry valid and its leaf hash right; only the signature can tell.
  f.setEntry(20, entryText(*e), true);
  expectBad(f.verify(), 20, "seq 20: receipt: signature does not verify with the site key");
}

BOOST_AUTO_TEST_CASE(anEntryOfAnotherSiteIsFound) {
  TamperFixture f;
  auto e = parseEntry(f.entry(0));
  BOOST_REQUIRE(e.ok());
  e->site = "other-site";
  f.setEntry(0, entryText(*e), true);
  expectBad(f.verify(), 0, "seq 0: site is \"other-site\", expected \"demo-site\"");
}

BOOST_AUTO_TEST_CASE(aKeyForAnotherSiteIsRefusedUpFront) {
  TamperFixture f;
  const VerifyReport r = verifyDatabase(f.db(), f.verifier(), "other-site");
  expectBad(
      r, std::nullopt,
      "the verifier key is named \"atoms-edge/demo-site\", expected \"atoms-edge/other-site\"");
}

BOOST_AUTO_TEST_CASE(checkEntryNamesEachBrokenRule) {
  const SigningKey key = SigningKey::generate("atoms-edge/demo-site");
  Entry e;
  e.seq = 5;
  e.ts = tsAt(0);
  e.site = "demo-site";
  e.kind = "sms.in";
  e.actor = "gateway";
  e.body = Object{};
  e.prev[0] = 1;
  const std::string text = entryText(e);
  BOOST_TEST(checkEntry(text, 5, "demo-site", e.prev, key.verifier()).ok());
  BOOST_TEST(checkEntry(text, 6, "demo-site", e.prev, key.verifier()).message() ==
             "entry says seq 5");
  BOOST_TEST(checkEntry(text, 5, "demo-site", Hash32{}, key.verifier()).message() ==
             "prev does not match the leaf hash of seq 4");
  BOOST_TEST(checkEntry("{}", 5, "demo-site", Hash32{}, key.verifier()).message() ==
             "entry: field \"actor\" is missing");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms
