#include <boost/test/unit_test.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "store/audit_entry.h"
#include "store/checkpoint.h"
#include "store/merkle.h"
#include "store/signed_note.h"
#include "sync/segment.h"
#include "tests/store/audit_fixture.h"
#include "tests/support/text_checks.h"

namespace atoms {
namespace {

using json::Object;
using testing::LogFixture;
using testing::tsAt;

using atoms::testing::contains;

std::vector<Segment> build(LogFixture& f, std::uint64_t from, std::uint64_t to,
                           std::size_t maxBytes) {
  auto segs = buildSegments(*f.log, from, to, maxBytes);
  BOOST_REQUIRE_MESSAGE(segs.ok(), segs.message());
  return *segs;
}

void acceptAll(SegmentVerifier& v, const std::vector<Segment>& segs) {
  for (const Segment& s : segs) {
    auto r = v.accept(s);
    BOOST_REQUIRE_MESSAGE(r.ok(), r.message());
    BOOST_TEST(r->to == s.to);
  }
}

// A second history of the same site, signed with the same key: what a restored backup that kept
// running would publish. Entries 0..n-1 whose bodies differ from LogFixture::appendMany's.
struct OtherHistory {
  OtherHistory(const SigningKey& key, std::uint64_t n) {
    Hash32 prev{};
    for (std::uint64_t i = 0; i < n; ++i) {
      Entry e{i,
              tsAt(static_cast<std::int64_t>(i)),
              testing::kSite,
              "sms.in",
              "gateway",
              Object{{"other", static_cast<std::int64_t>(i)}},
              prev};
      texts.push_back(entryText(e));
      prev = leafHash(asBytes(texts.back()));
      tree.append(prev);
      notes.push_back(
          *signNote(checkpointBody({originForSite(testing::kSite), i + 1, tree.root()}), key));
    }
  }
  Segment segment(std::uint64_t from, std::uint64_t to) const {
    Segment s{testing::kSite, from, to, {texts.begin() + from, texts.begin() + to}, {},
              notes[to - 1]};
    if (from != 0 && from != to) s.proof = *tree.consistencyProof(from, to);
    return s;
  }
  std::vector<std::string> texts;
  std::vector<std::string> notes;  // notes[i] signs size i+1
  MerkleTree tree;
};

}  // namespace

std::ostream& operator<<(std::ostream& os, SegmentIssue issue) {
  return os << segmentIssueName(issue);
}

BOOST_AUTO_TEST_SUITE(segment)

BOOST_AUTO_TEST_CASE(segmentJsonRoundTripsWithExactlyTheSevenFields) {
  LogFixture f;
  f.appendMany(6, 3);
  const auto segs = build(f, 3, 6, 1 << 20);
  BOOST_REQUIRE(segs.size() == 1U);
  const Segment& s = segs[0];
  BOOST_TEST(s.from == 3U);
  BOOST_TEST(s.to == 6U);
  BOOST_TEST(s.site == "demo-site");
  BOOST_TEST(s.entries == *f.log->entryTexts(3, 6));
  BOOST_TEST((s.proof == *f.log->tree().consistencyProof(3, 6)));
  BOOST_TEST(s.checkpoint == *f.log->checkpointAt(6));

  const std::string text = segmentJson(s);
  auto parsed = json::parseCanonical(text);
  BOOST_REQUIRE(parsed.ok());
  std::vector<std::string> keys;
  for (const auto& [k, v] : parsed->asObject()) keys.push_back(k);
  BOOST_TEST((keys == std::vector<std::string>{"checkpoint", "entries", "from", "proof", "site",
                                               "to", "v"}));
  BOOST_TEST(parsed->find("v")->asInt() == 1);
  BOOST_TEST(parsed->find("proof")->asArray()[0].asString() == toBase64(s.proof[0]));

  auto back = parseSegment(text);
  BOOST_REQUIRE_MESSAGE(back.ok(), back.message());
  BOOST_TEST((*back == s));
}

BOOST_AUTO_TEST_CASE(parseSegmentIsStrict) {
  LogFixture f;
  f.appendMany(4, 2);
  const Segment s = build(f, 2, 4, 1 << 20)[0];
  auto withField = [&](const std::string& key, json::Value value) {
    json::Value v = *json::parseCanonical(segmentJson(s));
    v.asObject()[key] = std::move(value);
    return json::canonical(v);
  };
  auto without = [&](const std::string& key) {
    json::Value v = *json::parseCanonical(segmentJson(s));
    v.asObject().erase(key);
    return json::canonical(v);
  };
  struct Case {
    std::string text, expected;
  };
  const Case cases[] = {
      {withField("extra", 1), R"(unexpected field "extra")"},
      {without("proof"), R"(field "proof" is missing)"},
      {withField("v", 2), R"(field "v" must be 1)"},
      {withField("from", -1), R"(field "from" must be a non-negative integer)"},
      {withField("from", 5), R"(field "from" is after "to")"},
      {withField("to", 5), R"(field "entries" has 2 entries, expected to - from = 3)"},
      {withField("entries", json::Array{"a", 1}), R"(field "entries" must hold entry texts)"},
      {withField("proof", json::Array{"AAAA"}), R"(field "proof" must hold base64 32-byte hashes)"},
      {withField("site", ""), R"(field "site" must be a non-empty string)"},
      {withField("checkpoint", 3), R"(field "checkpoint" must be a string)"},
      {" " + segmentJson(s), "not canonical"},
  };
  for (const Case& c : cases) {
    auto r = parseSegment(c.text);
    BOOST_TEST_CONTEXT(c.expected) {
      BOOST_TEST(!r.ok());
      if (!r.ok()) BOOST_TEST(contains(r.message(), c.expected), r.message());
    }
  }
  const Segment first = build(f, 0, 2, 1 << 20)[0];
  json::Value v = *json::parseCanonical(segmentJson(first));
  v.asObject()["proof"] = json::Array{toBase64(Hash32{})};
  auto r = parseSegment(json::canonical(v));
  BOOST_REQUIRE(!r.ok());
  BOOST_TEST(contains(r.message(), "must be empty when from is 0"));
}

BOOST_AUTO_TEST_CASE(rangesMustStartAndEndAtSignedSizes) {
  LogFixture f;
  f.appendMany(12, 4);  // signed sizes 4, 8, 12
  auto badTo = buildSegments(*f.log, 0, 10, 1 << 20);
  BOOST_REQUIRE(!badTo.ok());
  BOOST_TEST(badTo.message() ==
             "segments: to 10 is not a signed size (nearest signed sizes: 8 and 12)");
  auto badFrom = buildSegments(*f.log, 2, 12, 1 << 20);
  BOOST_REQUIRE(!badFrom.ok());
  BOOST_TEST(badFrom.message() ==
             "segments: from 2 is not 0 or a signed size (nearest signed sizes: 4)");
  auto beyond = buildSegments(*f.log, 0, 20, 1 << 20);
  BOOST_REQUIRE(!beyond.ok());
  BOOST_TEST(contains(beyond.message(), "nearest signed sizes: 12"));
  BOOST_TEST(!buildSegments(*f.log, 8, 4, 1 << 20).ok());
}

BOOST_AUTO_TEST_CASE(segmentsAreCutAtSignedSizesWithinTheByteBound) {
  LogFixture f;
  f.appendMany(60, 3);
  const std::size_t maxBytes = 4096;
  const auto segs = build(f, 0, 60, maxBytes);
  BOOST_TEST(segs.size() > 2U);
  std::uint64_t at = 0;
  for (const Segment& s : segs) {
    BOOST_TEST(s.from == at);
    BOOST_TEST(s.to % 3 == 0U);  // a batch is never split
    BOOST_TEST(segmentJson(s).size() <= maxBytes);
    at = s.to;
  }
  BOOST_TEST(at == 60U);
  // Greedy: adding the next batch to any segment but the last would have crossed the bound.
  for (std::size_t i = 0; i + 1 < segs.size(); ++i) {
    auto bigger = buildNextSegment(*f.log, segs[i].from, segs[i].to + 3, 1 << 20);
    BOOST_REQUIRE(bigger.ok());
    BOOST_TEST(segmentJson(*bigger).size() > maxBytes);
  }
  // The checkpoint of `to` was published before the segments were handed out.
  BOOST_TEST(f.log->highWaterSize() == 60U);
}

BOOST_AUTO_TEST_CASE(aBatchLargerThanTheBoundBecomesOneSegment) {
  LogFixture f;
  f.appendMany(2, 1);
  {
    auto batch = f.log->begin();
    BOOST_REQUIRE(batch.ok());
    for (int i = 0; i < 4; ++i) {
      BOOST_REQUIRE(
          batch->add(tsAt(i), "config.change", "panel", Object{{"blob", std::string(2000, 'x')}})
              .ok());
    }
    BOOST_REQUIRE(batch->commit().ok());
  }
  f.appendMany(2, 1);
  const auto segs = build(f, 0, 8, 3000);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (const Segment& s : segs) ranges.emplace_back(s.from, s.to);
  BOOST_TEST(
      (ranges == std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, 2}, {2, 6}, {6, 8}}));
  BOOST_TEST(segmentJson(segs[1]).size() > 3000U);
}

BOOST_AUTO_TEST_CASE(segmentsFromSeveralStartPointsVerifyInSequenceWithOnlyTheKey) {
  LogFixture f;
  const VerifierKey vkey = *VerifierKey::parse(f.verifier().toString());
  SegmentVerifier verifier(vkey);
  BOOST_TEST(verifier.site() == "demo-site");

  f.appendMany(5, 5);
  {
    auto batch = f.log->begin();
    BOOST_REQUIRE(batch.ok());
    BOOST_REQUIRE(batch->addReceipt(tsAt(9), "engine", testing::sampleReceipt()).ok());
    BOOST_REQUIRE(batch->commit().ok());
  }
  acceptAll(verifier, build(f, 0, 6, 1 << 20));
  BOOST_TEST(verifier.state().size == 6U);

  f.appendMany(40, 2);
  acceptAll(verifier, build(f, 6, 30, 2048));
  f.reopen();
  f.appendMany(17, 4);
  const auto rest = build(f, 30, f.log->size(), 2048);
  BOOST_TEST(rest.size() > 1U);
  acceptAll(verifier, rest);

  BOOST_TEST(verifier.state().size == f.log->size());
  BOOST_TEST((verifier.state().root == f.log->root()));
  BOOST_TEST(verifier.state().checkpoint == *f.log->checkpointAt(f.log->size()));
  BOOST_TEST(verifier.lastIssue() == SegmentIssue::kNone);

  // A checkpoint-only segment (from == to) for the verified size is accepted too.
  auto same = verifier.accept(build(f, f.log->size(), f.log->size(), 1 << 20)[0]);
  BOOST_TEST(same.ok(), same.message());
}

BOOST_AUTO_TEST_CASE(aVerifierResumesFromItsSavedState) {
  LogFixture f;
  f.appendMany(9, 3);
  SegmentVerifier first(f.verifier());
  acceptAll(first, build(f, 0, 9, 1 << 20));
  auto resumed = SegmentVerifier::resume(f.verifier(), first.state());
  BOOST_REQUIRE_MESSAGE(resumed.ok(), resumed.message());
  f.appendMany(7, 2);
  acceptAll(*resumed, build(f, 9, 16, 1 << 20));
  BOOST_TEST((resumed->state().root == f.log->root()));

  VerifiedState broken = first.state();
  broken.root[0] ^= 1;
  BOOST_TEST(!SegmentVerifier::resume(f.verifier(), broken).ok());
  broken = first.state();
  broken.peaks.pop_back();
  BOOST_TEST(!SegmentVerifier::resume(f.verifier(), broken).ok());
}

BOOST_AUTO_TEST_CASE(tamperedSegmentsAreRejectedAndChangeNothing) {
  LogFixture f;
  f.appendMany(8, 4);
  SegmentVerifier verifier(f.verifier());
  acceptAll(verifier, build(f, 0, 4, 1 << 20));
  const Segment good = build(f, 4, 8, 1 << 20)[0];
  BOOST_REQUIRE(good.proof.size() > 0U);

  struct Case {
    std::string name, expected;
    Segment seg;
  };
  std::vector<Case> cases;
  auto add = [&](std::string name, std::string expected, auto change) {
    Segment s = good;
    change(s);
    cases.push_back({std::move(name), std::move(expected), std::move(s)});
  };
  add("entry byte", "the entries do not produce the checkpoint's root",
      [](Segment& s) { s.entries.back()[s.entries.back().find("there")] = 'T'; });
  add("middle entry", "seq 6: prev does not match the leaf hash of seq 5",
      [](Segment& s) { s.entries[1][s.entries[1].find("there")] = 'T'; });
  add("entry not canonical", "seq 4: entry: not canonical",
      [](Segment& s) { s.entries[0] = " " + s.entries[0]; });
  add("proof", "the consistency proof does not verify", [](Segment& s) { s.proof[0][0] ^= 1; });
  add("proof missing", "the consistency proof does not verify",
      [](Segment& s) { s.proof.clear(); });
  add("checkpoint signature", "checkpoint: signature does not verify with the site key",
      [](Segment& s) {
        const std::size_t at = s.checkpoint.size() - 6;
        s.checkpoint[at] = s.checkpoint[at] == 'A' ? 'B' : 'A';
      });
  add("checkpoint size", "checkpoint is for size 4",
      [&](Segment& s) { s.checkpoint = *f.log->checkpointAt(4); });
  add("site", "site is \"other-site\", expected \"demo-site\"",
      [](Segment& s) { s.site = "other-site"; });
  add("entry count", "holds 3 entries", [](Segment& s) { s.entries.pop_back(); });
  for (const Case& c : cases) {
    auto r = verifier.accept(c.seg);
    BOOST_TEST_CONTEXT(c.name) {
      BOOST_TEST(!r.ok());
      if (!r.ok()) BOOST_TEST(contains(r.message(), c.expected), r.message());
      BOOST_TEST(verifier.lastIssue() == SegmentIssue::kInvalid);
      BOOST_TEST(verifier.state().size == 4U);
    }
  }
  // The genuine segment is still accepted after all the refusals.
  auto r = verifier.accept(good);
  BOOST_TEST(r.ok(), r.message());
}

BOOST_AUTO_TEST_CASE(anotherKeyIsRejected) {
  LogFixture f;
  f.appendMany(4, 2);
  const auto segs = build(f, 0, 4, 1 << 20);
  SegmentVerifier stranger(SigningKey::generate("atoms-edge/demo-site").verifier());
  auto r = stranger.accept(segs[0]);
  BOOST_REQUIRE(!r.ok());
  BOOST_TEST(contains(r.message(), "checkpoint: not signed by the site key"), r.message());

  SegmentVerifier otherSite(SigningKey::generate("atoms-edge/other-site").verifier());
  r = otherSite.accept(segs[0]);
  BOOST_REQUIRE(!r.ok());
  BOOST_TEST(contains(r.message(), "site is \"demo-site\", expected \"other-site\""));

  SegmentVerifier unnamed(SigningKey::generate("someone").verifier());
  BOOST_TEST(!unnamed.accept(segs[0]).ok());
}

BOOST_AUTO_TEST_CASE(gapsAndDuplicatesAreReportedDistinctly) {
  LogFixture f;
  f.appendMany(12, 4);
  const auto segs = build(f, 0, 12, 1);  // one segment per batch: 0..4, 4..8, 8..12
  BOOST_REQUIRE(segs.size() == 3U);
  SegmentVerifier verifier(f.verifier());

  auto gap = verifier.accept(segs[1]);
  BOOST_REQUIRE(!gap.ok());
  BOOST_TEST(verifier.lastIssue() == SegmentIssue::kGap);
  BOOST_TEST(gap.message() == "segment 4..8: gap: entries 0..3 have not been received");

  acceptAll(verifier, {segs[0], segs[1]});
  auto dup = verifier.accept(segs[0]);
  BOOST_REQUIRE(!dup.ok());
  BOOST_TEST(verifier.lastIssue() == SegmentIssue::kDuplicate);
  BOOST_TEST(dup.message() == "segment 0..4: duplicate: entries below 8 are already verified");
  BOOST_TEST(!verifier.accept(segs[1]).ok());
  BOOST_TEST(verifier.lastIssue() == SegmentIssue::kDuplicate);

  acceptAll(verifier, {segs[2]});
  BOOST_TEST(verifier.state().size == 12U);
}

BOOST_AUTO_TEST_CASE(aSecondSignedHistoryIsReportedAsAFork) {
  LogFixture f;
  f.appendMany(5, 5);
  SegmentVerifier verifier(f.verifier());
  acceptAll(verifier, build(f, 0, 5, 1 << 20));

  const OtherHistory other(f.key(), 10);
  auto r = verifier.accept(other.segment(5, 10));
  BOOST_REQUIRE(!r.ok());
  BOOST_TEST(verifier.lastIssue() == SegmentIssue::kFork);
  BOOST_TEST(contains(r.message(), "fork: seq 5: prev does not match"), r.message());

  // A second signed root for the size already verified.
  r = verifier.accept(other.segment(5, 5));
  BOOST_REQUIRE(!r.ok());
  BOOST_TEST(verifier.lastIssue() == SegmentIssue::kFork);
  BOOST_TEST(contains(r.message(), "fork: a second signed root for size 5"));

  // The other history, verified from scratch, is self-consistent: only the order tells.
  SegmentVerifier fresh(f.verifier());
  acceptAll(fresh, {other.segment(0, 5), other.segment(5, 10)});
  BOOST_TEST(verifier.state().size == 5U);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms
