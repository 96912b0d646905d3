// Ingester: the cloud side's decision for one message on atoms/v1/<site>/audit
// (docs/sync-protocol.md section 2 and section 9). For each segment, in one BEGIN IMMEDIATE
// transaction on the ingest store:
//
//   accepted   from == stored size and SegmentVerifier::accept passes (checkpoint signature with
//              the site's registered key, leaf chain, receipt signatures, root, consistency
//              proof): the entries, the checkpoint and the new state are stored; ack `to`.
//   duplicate  from < stored size, the checkpoint is genuine and agrees with what is stored, the
//              overlapping entries are the stored ones: nothing stored; ack the stored size.
//   gap        from > stored size: nothing stored, nothing acked; recorded only when final.
//   fork       a genuine checkpoint that contradicts the stored history (another root for a
//              stored size, a failing consistency proof, other entries under a valid signature):
//              both kept as evidence, an alarm, never acked.
//   invalid    anything else (not a segment, bad signature, broken chain, wrong site, tampered
//              entries): recorded (payload hash), an alarm, never acked.
//   unknown    the topic's site is not registered: recorded, nothing else.
//
// The Outcome says what to publish; the caller publishes it only after handle() returned, i.e.
// after the commit (store first, then ack). Several ingesters (threads with their own store, or
// processes) may share one store: the transaction and the conditional state update make the
// second one see a duplicate.
//
// Threading: one thread (the store's). Errors of the store are an Outcome (kStoreError) too.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "sync/ack.h"
#include "sync/ingest/alarm.h"
#include "sync/ingest/ingest_store.h"
#include "sync/segment.h"

namespace atoms::sync::ingest {

enum class Verdict {
  kAccepted,
  kDuplicate,
  kGap,
  kFork,
  kInvalid,
  kUnknownSite,
  kNotAudit,    // a topic that is not atoms/v1/<site>/audit: ignored
  kStoreError,  // the store failed; nothing was decided (the box will resend)
};
// "accepted", "duplicate", "gap", "fork", "invalid", "unknown-site", "not-audit", "store-error".
std::string_view verdictName(Verdict verdict);

struct Outcome {
  Verdict verdict = Verdict::kStoreError;
  std::string site;
  std::optional<std::uint64_t> from, to;
  // Publish on atoms/v1/<site>/ack (QoS 1): the new verified size; for a duplicate and for a final
  // gap, the stored one again.
  std::optional<Ack> ack;
  std::optional<Alarm> alarm;            // publish retained on alarmTopic(site)
  std::optional<std::int64_t> evidence;  // the evidence row written or counted
  std::uint64_t entries = 0;             // entries stored (accepted)
  std::uint64_t receipts = 0;            // receipt signatures verified (accepted)
  std::string detail;                    // one line for the log
};

// The largest payload considered at all (a segment is at most sync.max_segment_bytes, 64 MiB).
inline constexpr std::size_t kMaxIngestPayloadBytes = 80 * 1024 * 1024;

class Ingester {
 public:
  using Now = std::function<std::chrono::system_clock::time_point()>;
  // The store must outlive the ingester.
  Ingester(IngestStore& store, Now now);

  // recordGap: true when a gap is final (recorded as evidence); false when the caller holds the
  // segment and will try it again (nothing is written).
  Outcome handle(std::string_view topic, std::string_view payload, bool recordGap = true);

 private:
  Outcome checkOlder(const SiteRecord& site, const Segment& segment, std::string_view payload,
                     const std::string& now, Outcome out);
  Outcome verifyNext(const SiteRecord& site, const Segment& segment, std::string_view payload,
                     const std::string& now, Outcome out);
  // Records the evidence and fills verdict, detail, evidence and (fork, invalid) the alarm.
  Outcome reject(Verdict verdict, NewEvidence evidence, const std::string& now, Outcome out);
  Result<SegmentVerifier*> verifierFor(const SiteRecord& site);

  IngestStore& store_;
  Now now_;
  // The verifier of each site as of its last stored state; resumed from the store when another
  // ingester moved the state.
  std::map<std::string, SegmentVerifier> verifiers_;
};

}  // namespace atoms::sync::ingest
