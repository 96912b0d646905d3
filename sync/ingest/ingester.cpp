#include "sync/ingest/ingester.h"

#include <algorithm>
#include <utility>

#include "base/canonical_json.h"
#include "store/audit_entry.h"
#include "store/log_verifier.h"
#include "store/merkle.h"
#include "sync/topics.h"

namespace atoms::sync::ingest {
namespace {

std::string rangeOf(const Segment& s) {
  return "segment " + std::to_string(s.from) + ".." + std::to_string(s.to);
}

// Evidence of a payload refused without a fork: its hash, the range when it parsed, and why.
NewEvidence evidence(EvidenceKind kind, std::string_view payload, std::string detail,
                     std::optional<std::uint64_t> from = std::nullopt,
                     std::optional<std::uint64_t> to = std::nullopt) {
  return NewEvidence{kind, {}, from, to, payload, false, {}, std::move(detail)};
}

Outcome storeError(Outcome out, const std::string& what) {
  out.verdict = Verdict::kStoreError;
  out.ack.reset();
  out.alarm.reset();
  out.detail = what;
  return out;
}

}  // namespace

std::string_view verdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kAccepted:
      return "accepted";
    case Verdict::kDuplicate:
      return "duplicate";
    case Verdict::kGap:
      return "gap";
    case Verdict::kFork:
      return "fork";
    case Verdict::kInvalid:
      return "invalid";
    case Verdict::kUnknownSite:
      return "unknown-site";
    case Verdict::kNotAudit:
      return "not-audit";
    case Verdict::kStoreError:
      return "store-error";
  }
  return "store-error";
}

Ingester::Ingester(IngestStore& store, Now now) : store_(store), now_(std::move(now)) {}

Outcome Ingester::handle(std::string_view topic, std::string_view payload, bool recordGap) {
  Outcome out;
  auto site = siteOfTopic(topic, "audit");
  if (!site) {
    out.verdict = Verdict::kNotAudit;
    out.detail = "not an audit topic";
    return out;
  }
  out.site = *site;
  const std::string now = formatTimestamp(now_());
  auto tx = store_.begin(IngestStore::Access::kWrite);
  if (!tx) return storeError(std::move(out), tx.message());
  auto record = store_.loadSite(out.site);
  if (!record) return storeError(std::move(out), record.message());

  if (!*record) {
    out = reject(
        Verdict::kUnknownSite,
        evidence(EvidenceKind::kUnknownSite, payload, "segment from a site that is not registered"),
        now, std::move(out));
  } else if (payload.size() > kMaxIngestPayloadBytes) {
    out = reject(Verdict::kInvalid,
                 evidence(EvidenceKind::kInvalid, payload, "payload larger than 80 MiB"), now,
                 std::move(out));
  } else if (auto seg = parseSegment(payload); !seg) {
    out = reject(Verdict::kInvalid,
                 evidence(EvidenceKind::kInvalid, payload, "not a segment: " + seg.message()), now,
                 std::move(out));
  } else {
    out.from = seg->from;
    out.to = seg->to;
    const SiteRecord& rec = **record;
    if (seg->site != out.site) {
      std::string why =
          rangeOf(*seg) + " names site \"" + seg->site + "\" on the topic of \"" + out.site + "\"";
      out = reject(Verdict::kInvalid,
                   evidence(EvidenceKind::kInvalid, payload, std::move(why), seg->from, seg->to),
                   now, std::move(out));
    } else if (seg->from > rec.state.size) {
      out.verdict = Verdict::kGap;
      out.detail = rangeOf(*seg) + ": gap, entries " + std::to_string(rec.state.size) + ".." +
                   std::to_string(seg->from - 1) + " have not been received";
      if (recordGap) {
        auto id = store_.recordEvidence(
            NewEvidence{
                EvidenceKind::kGap, out.site, seg->from, seg->to, payload, false, {}, out.detail},
            now);
        if (!id) return storeError(std::move(out), id.message());
        out.evidence = *id;
        // The stored size acked again: the box reads it as "a segment after it went missing"
        // and publishes again from there at once, without waiting for its ack timeout.
        out.ack = Ack{out.site, rec.state.size, rec.state.root};
      }
    } else if (seg->from < rec.state.size) {
      out = checkOlder(rec, *seg, payload, now, std::move(out));
    } else {
      out = verifyNext(rec, *seg, payload, now, std::move(out));
    }
  }
  if (out.verdict == Verdict::kStoreError) {
    verifiers_.erase(out.site);
    return out;
  }
  if (out.ack) {
    if (Status s = store_.noteAck(out.site, out.ack->size, out.verdict == Verdict::kDuplicate, now);
        !s) {
      verifiers_.erase(out.site);
      return storeError(std::move(out), s.message());
    }
  }
  if (Status s = (*tx)->commit(); !s) {
    verifiers_.erase(out.site);
    return storeError(std::move(out), s.message());
  }
  return out;
}

Outcome Ingester::verifyNext(const SiteRecord& rec, const Segment& seg, std::string_view payload,
                             const std::string& now, Outcome out) {
  auto verifier = verifierFor(rec);
  if (!verifier) return storeError(std::move(out), verifier.message());
  SegmentVerifier& v = **verifier;
  auto accepted = v.accept(seg);
  if (!accepted) {
    const bool fork = v.lastIssue() == SegmentIssue::kFork;
    return reject(fork ? Verdict::kFork : Verdict::kInvalid,
                  NewEvidence{fork ? EvidenceKind::kFork : EvidenceKind::kInvalid,
                              {},
                              seg.from,
                              seg.to,
                              payload,
                              fork,
                              fork ? rec.state.checkpoint : "",
                              accepted.message()},
                  now, std::move(out));
  }
  std::vector<Hash32> leaves;
  leaves.reserve(seg.entries.size());
  for (const std::string& e : seg.entries) leaves.push_back(leafHash(asBytes(e)));
  if (Status s = store_.storeSegment(seg, leaves, v.state(), now); !s) {
    return storeError(std::move(out), s.message());
  }
  out.verdict = Verdict::kAccepted;
  out.entries = seg.to - seg.from;
  out.receipts = accepted->receipts;
  out.ack = Ack{out.site, accepted->to, accepted->root};
  out.detail = rangeOf(seg) + ": verified and stored";
  return out;
}

Outcome Ingester::checkOlder(const SiteRecord& rec, const Segment& seg, std::string_view payload,
                             const std::string& now, Outcome out) {
  const VerifierKey key = rec.key.verifier();
  auto invalid = [&](std::string why, Outcome o) {
    return reject(Verdict::kInvalid,
                  evidence(EvidenceKind::kInvalid, payload, rangeOf(seg) + ": " + std::move(why),
                           seg.from, seg.to),
                  now, std::move(o));
  };
  auto fork = [&](std::string why, Outcome o) {
    return reject(Verdict::kFork,
                  NewEvidence{EvidenceKind::kFork,
                              {},
                              seg.from,
                              seg.to,
                              payload,
                              true,
                              rec.state.checkpoint,
                              rangeOf(seg) + ": fork: " + std::move(why)},
                  now, std::move(o));
  };
  // A resend is only acked again when it is genuine: a tampered copy of old entries is refused.
  auto cp = openCheckpoint(seg.checkpoint, key);
  if (!cp) return invalid("checkpoint: " + cp.message(), std::move(out));
  if (cp->size != seg.to) {
    return invalid("checkpoint is for size " + std::to_string(cp->size), std::move(out));
  }
  const std::uint64_t overlapEnd = std::min(seg.to, rec.state.size);
  auto stored = store_.leafHashes(out.site, seg.from, overlapEnd);
  if (!stored) return storeError(std::move(out), stored.message());
  std::optional<std::uint64_t> firstDiff;
  for (std::uint64_t i = 0; i < stored->size(); ++i) {
    if (leafHash(asBytes(seg.entries[i])) != (*stored)[i]) {
      firstDiff = seg.from + i;
      break;
    }
  }
  if (seg.to <= rec.state.size) {
    auto ours = store_.frontierAt(out.site, seg.to);
    if (!ours) return storeError(std::move(out), ours.message());
    if (ours->root() != cp->root) {
      return fork("a second signed root for size " + std::to_string(seg.to) + " (verified " +
                      toBase64(ours->root()) + ", now " + toBase64(cp->root) + ")",
                  std::move(out));
    }
    if (firstDiff) {
      return invalid("seq " + std::to_string(*firstDiff) +
                         " differs from the verified entry under a genuine checkpoint",
                     std::move(out));
    }
  } else if (firstDiff) {
    // Do the segment's own entries produce its signed root? Then the site signed a second history.
    auto base = store_.frontierAt(out.site, seg.from);
    if (!base) return storeError(std::move(out), base.message());
    for (const std::string& e : seg.entries) base->append(leafHash(asBytes(e)));
    if (base->root() == cp->root) {
      return fork("seq " + std::to_string(*firstDiff) +
                      " differs from the verified entry under a signed checkpoint for size " +
                      std::to_string(seg.to),
                  std::move(out));
    }
    return invalid("seq " + std::to_string(*firstDiff) + " differs from the verified entry",
                   std::move(out));
  }
  out.verdict = Verdict::kDuplicate;
  out.ack = Ack{out.site, rec.state.size, rec.state.root};
  out.detail =
      rangeOf(seg) + ": duplicate, already verified up to " + std::to_string(rec.state.size);
  return out;
}

Outcome Ingester::reject(Verdict verdict, NewEvidence evidence, const std::string& now,
                         Outcome out) {
  evidence.site = out.site;  // here: a caller's NewEvidence is built beside std::move(out)
  auto id = store_.recordEvidence(evidence, now);
  if (!id) return storeError(std::move(out), id.message());
  out.verdict = verdict;
  out.ack.reset();
  out.evidence = *id;
  out.detail = evidence.detail;
  if (verdict == Verdict::kFork || verdict == Verdict::kInvalid) {
    if (!json::isValidUtf8(evidence.detail)) evidence.detail = "(detail is not valid UTF-8)";
    out.alarm =
        Alarm{out.site, std::string(evidenceKindName(evidence.kind)), evidence.from,   evidence.to,
              *id,      toHex(sha256(asBytes(evidence.payload))),     evidence.detail, now};
  }
  return out;
}

Result<SegmentVerifier*> Ingester::verifierFor(const SiteRecord& rec) {
  auto it = verifiers_.find(rec.key.site);
  if (it != verifiers_.end()) {
    const VerifiedState& s = it->second.state();
    if (s.size == rec.state.size && s.root == rec.state.root) return &it->second;
    verifiers_.erase(it);
  }
  auto resumed = SegmentVerifier::resume(rec.key.verifier(), rec.state);
  if (!resumed) {
    return makeError("the stored state of site " + rec.key.site +
                     " does not verify: " + resumed.message());
  }
  return &verifiers_.insert_or_assign(rec.key.site, std::move(*resumed)).first->second;
}

}  // namespace atoms::sync::ingest
