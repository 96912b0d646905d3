// Fuzz target: parseSegment and SegmentVerifier::accept (sync/segment.h), what the cloud ingest
// runs on every MQTT message of a site's audit topic.
//
// Input: "<verifier key>\n<segment>\n<segment>..." (see fuzz_note.cpp for why the key comes
// first). The segments are fed in order to one verifier, as the ingest does, so seeds exported
// from a real site reach the checks of later segments (gaps, duplicates, consistency proofs,
// forks). A segment is canonical JSON, so it never holds a raw newline.
//
// Properties: parseSegment accepts only canonical text (segmentJson gives the input back);
// accept() changes the verifier's state only when it succeeds, a failure names an issue, and the
// state after a success resumes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "store/merkle.h"
#include "sync/segment.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

// Verifying is linear in the input; the bound only keeps one input from repeating the same
// segment thousands of times.
constexpr std::size_t kMaxSegments = 16;

bool sameState(const atoms::VerifiedState& a, const atoms::VerifiedState& b) {
  return a.size == b.size && a.root == b.root && a.lastLeaf == b.lastLeaf && a.peaks == b.peaks &&
         a.checkpoint == b.checkpoint;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms;
  using fuzz::require;
  const auto [keyLine, rest] = fuzz::splitFirstLine(fuzz::asText(data, size));
  const Result<VerifierKey> parsedKey = VerifierKey::parse(keyLine);
  const VerifierKey key = parsedKey ? *parsedKey : fuzz::fixedKey().verifier();

  SegmentVerifier verifier(key);
  for (std::string_view line : fuzz::lines(rest, kMaxSegments)) {
    const Result<Segment> segment = parseSegment(line);
    if (!segment) continue;
    require(segmentJson(*segment) == line, "segmentJson(parseSegment(t)) == t");
    require(segment->from <= segment->to && segment->entries.size() == segment->to - segment->from,
            "a parsed segment holds to - from entries");

    const VerifiedState before = verifier.state();
    const Result<AcceptedSegment> accepted = verifier.accept(*segment);
    if (!accepted) {
      require(verifier.lastIssue() != SegmentIssue::kNone, "a refused segment names its issue");
      require(sameState(before, verifier.state()), "a refused segment changes nothing");
      continue;
    }
    require(verifier.lastIssue() == SegmentIssue::kNone, "an accepted segment has no issue");
    require(accepted->from == segment->from && accepted->to == segment->to,
            "accept reports the segment's range");
    require(verifier.state().size == segment->to && verifier.state().root == accepted->root,
            "the verified state moves to the segment's end");
    require(verifier.state().size != 0 || verifier.state().root == emptyRoot(),
            "an empty verified log has the empty root");
    const Result<SegmentVerifier> resumed = SegmentVerifier::resume(key, verifier.state());
    require(resumed.ok(), "the state after an accepted segment resumes");
  }
  return 0;
}
