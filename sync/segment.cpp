#include "sync/segment.h"

#include <algorithm>
#include <array>
#include <utility>

#include "base/canonical_json.h"
#include "base/field_error.h"
#include "store/checkpoint.h"
#include "store/log_verifier.h"
#include "store/merkle.h"

namespace atoms {

std::size_t jsonStringLength(std::string_view s) {
  std::size_t n = 2;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') {
      n += 2;
    } else if (c < 0x20) {
      n += 6;
    } else {
      n += 1;
    }
  }
  return n;
}

namespace {

constexpr std::string_view kSitePrefix = "atoms-edge/";

bool isSigned(const AuditLog& log, std::uint64_t size) {
  return std::binary_search(log.signedSizes().begin(), log.signedSizes().end(), size);
}

Status checkRange(const AuditLog& log, std::uint64_t from, std::uint64_t to) {
  if (from > to) {
    return makeError("segments: from " + std::to_string(from) + " is after to " +
                     std::to_string(to));
  }
  if (from != 0 && !isSigned(log, from)) {
    return makeError("segments: from " + std::to_string(from) + " is not 0 or a signed size (" +
                     log.describeNearestSigned(from) + ")");
  }
  if (!isSigned(log, to)) {
    return makeError("segments: to " + std::to_string(to) + " is not a signed size (" +
                     log.describeNearestSigned(to) + ")");
  }
  return Status::success();
}

Result<std::vector<Hash32>> proofFor(const AuditLog& log, std::uint64_t from, std::uint64_t to) {
  if (from == 0 || from == to) return std::vector<Hash32>{};
  return log.tree().consistencyProof(from, to);
}

}  // namespace

std::string segmentJson(const Segment& s) {
  json::Array entries;
  entries.reserve(s.entries.size());
  for (const std::string& e : s.entries) entries.emplace_back(e);
  json::Array proof;
  proof.reserve(s.proof.size());
  for (const Hash32& h : s.proof) proof.emplace_back(toBase64(h));
  json::Object o;
  o.emplace("checkpoint", s.checkpoint);
  o.emplace("entries", std::move(entries));
  o.emplace("from", static_cast<std::int64_t>(s.from));
  o.emplace("proof", std::move(proof));
  o.emplace("site", s.site);
  o.emplace("to", static_cast<std::int64_t>(s.to));
  o.emplace("v", kSegmentVersion);
  return json::canonical(json::Value(std::move(o)));
}

Result<Segment> parseSegment(std::string_view text) {
  auto parsed = json::parseCanonical(text);
  if (!parsed) return makeError("segment: " + parsed.message());
  if (!parsed->isObject()) return makeError("segment: not a JSON object");
  json::Object& o = parsed->asObject();
  static constexpr std::array<std::string_view, 7> kFields{"checkpoint", "entries", "from", "proof",
                                                           "site",       "to",      "v"};
  for (const auto& [key, value] : o) {
    if (std::find(kFields.begin(), kFields.end(), key) == kFields.end()) {
      return makeError("segment: unexpected field \"" + key + "\"");
    }
  }
  for (std::string_view f : kFields) {
    if (o.find(std::string(f)) == o.end()) return fieldError("segment", f, "is missing");
  }
  const json::Value& v = o["v"];
  if (!v.isInt() || v.asInt() != kSegmentVersion) {
    return fieldError("segment", "v", "must be " + std::to_string(kSegmentVersion));
  }
  Segment s;
  if (!o["site"].isString() || o["site"].asString().empty()) {
    return fieldError("segment", "site", "must be a non-empty string");
  }
  s.site = std::move(o["site"].asString());
  for (auto [name, target] : {std::pair{"from", &s.from}, std::pair{"to", &s.to}}) {
    const json::Value& n = o[name];
    if (!n.isInt() || n.asInt() < 0)
      return fieldError("segment", name, "must be a non-negative integer");
    *target = static_cast<std::uint64_t>(n.asInt());
  }
  if (s.from > s.to) return fieldError("segment", "from", "is after \"to\"");
  if (!o["checkpoint"].isString()) return fieldError("segment", "checkpoint", "must be a string");
  s.checkpoint = std::move(o["checkpoint"].asString());

  json::Value& entries = o["entries"];
  if (!entries.isArray()) return fieldError("segment", "entries", "must be an array");
  if (entries.asArray().size() != s.to - s.from) {
    return fieldError("segment", "entries",
                      "has " + std::to_string(entries.asArray().size()) +
                          " entries, expected to - from = " + std::to_string(s.to - s.from));
  }
  s.entries.reserve(entries.asArray().size());
  for (json::Value& e : entries.asArray()) {
    if (!e.isString()) return fieldError("segment", "entries", "must hold entry texts (strings)");
    s.entries.push_back(std::move(e.asString()));
  }

  const json::Value& proof = o["proof"];
  if (!proof.isArray()) return fieldError("segment", "proof", "must be an array");
  if ((s.from == 0 || s.from == s.to) && !proof.asArray().empty()) {
    return fieldError("segment", "proof", "must be empty when from is 0 or from == to");
  }
  for (const json::Value& h : proof.asArray()) {
    const auto raw = h.isString() ? fromBase64(h.asString()) : std::nullopt;
    if (!raw || raw->size() != 32)
      return fieldError("segment", "proof", "must hold base64 32-byte hashes");
    Hash32 hash{};
    std::copy(raw->begin(), raw->end(), hash.begin());
    s.proof.push_back(hash);
  }
  return s;
}

Result<Segment> buildNextSegment(AuditLog& log, std::uint64_t from, std::uint64_t to,
                                 std::size_t maxBytes) {
  if (Status s = checkRange(log, from, to); !s) return s.error();
  if (from == to) {
    auto note = log.publishCheckpoint(to);
    if (!note) return note.error();
    return Segment{log.siteId(), from, to, {}, {}, std::move(*note)};
  }

  // Walk the signed sizes after `from`, adding each batch while the segment still fits.
  const auto& sizes = log.signedSizes();
  auto it = std::upper_bound(sizes.begin(), sizes.end(), from);
  std::vector<std::string> texts;
  std::size_t entryBytes = 0;  // sum of jsonStringLength(entry) + separating commas
  std::uint64_t end = from;
  for (; it != sizes.end() && *it <= to; ++it) {
    auto more = log.entryTexts(end, *it);
    if (!more) return more.error();
    std::size_t moreBytes = 0;
    for (const std::string& t : *more) moreBytes += jsonStringLength(t) + 1;
    auto proof = proofFor(log, from, *it);
    if (!proof) return proof.error();
    auto note = log.checkpointAt(*it);
    if (!note) return note.error();
    const std::size_t overhead =
        segmentJson(Segment{log.siteId(), from, *it, {}, std::move(*proof), std::move(*note)})
            .size();
    const std::size_t total = overhead + entryBytes + moreBytes - 1;  // n entries, n-1 commas
    if (total > maxBytes && end != from) break;
    entryBytes += moreBytes;
    for (std::string& t : *more) texts.push_back(std::move(t));
    end = *it;
    if (total > maxBytes) break;  // a single batch larger than maxBytes: a segment of its own
  }

  auto proof = proofFor(log, from, end);
  if (!proof) return proof.error();
  auto note = log.publishCheckpoint(end);
  if (!note) return note.error();
  return Segment{log.siteId(), from, end, std::move(texts), std::move(*proof), std::move(*note)};
}

Result<std::vector<Segment>> buildSegments(AuditLog& log, std::uint64_t from, std::uint64_t to,
                                           std::size_t maxBytes) {
  if (Status s = checkRange(log, from, to); !s) return s.error();
  // Publish the largest first: one high-water write covers every segment below it.
  if (auto note = log.publishCheckpoint(to); !note) return note.error();
  std::vector<Segment> out;
  std::uint64_t at = from;
  do {
    auto seg = buildNextSegment(log, at, to, maxBytes);
    if (!seg) return seg.error();
    at = seg->to;
    out.push_back(std::move(*seg));
  } while (at < to);
  return out;
}

std::string_view segmentIssueName(SegmentIssue issue) {
  switch (issue) {
    case SegmentIssue::kNone:
      return "none";
    case SegmentIssue::kGap:
      return "gap";
    case SegmentIssue::kDuplicate:
      return "duplicate";
    case SegmentIssue::kFork:
      return "fork";
    case SegmentIssue::kInvalid:
      return "invalid";
  }
  return "invalid";
}

// ---------------------------------------------------------------------------------------------
// SegmentVerifier

SegmentVerifier::SegmentVerifier(VerifierKey key) : key_(std::move(key)) {
  if (key_.name().starts_with(kSitePrefix)) site_ = key_.name().substr(kSitePrefix.size());
  state_.root = emptyRoot();
}

Result<SegmentVerifier> SegmentVerifier::resume(VerifierKey key, VerifiedState state) {
  SegmentVerifier v(std::move(key));
  auto frontier = MerkleFrontier::fromPeaks(state.size, state.peaks);
  if (!frontier) return makeError("segment verifier state: " + frontier.message());
  if (frontier->root() != state.root) {
    return makeError("segment verifier state: the peaks do not give the root");
  }
  if (state.size % 2 == 1 && state.peaks.back() != state.lastLeaf) {
    return makeError("segment verifier state: the last leaf does not match the peaks");
  }
  if (state.size == 0) {
    if (state.lastLeaf != Hash32{}) {
      return makeError("segment verifier state: an empty log has no last leaf");
    }
  } else {
    auto cp = openCheckpoint(state.checkpoint, v.key_);
    if (!cp) return makeError("segment verifier state: checkpoint " + cp.message());
    if (cp->size != state.size || cp->root != state.root) {
      return makeError("segment verifier state: the checkpoint is not for this size and root");
    }
  }
  v.frontier_ = std::move(*frontier);
  v.state_ = std::move(state);
  return v;
}

Result<AcceptedSegment> SegmentVerifier::refuse(SegmentIssue issue, std::string message) {
  lastIssue_ = issue;
  return makeError(std::move(message));
}

Result<AcceptedSegment> SegmentVerifier::accept(const Segment& seg) {
  const std::string range =
      "segment " + std::to_string(seg.from) + ".." + std::to_string(seg.to) + ": ";
  if (site_.empty()) {
    return refuse(SegmentIssue::kInvalid,
                  "the verifier key \"" + key_.name() + "\" is not named atoms-edge/<site>");
  }
  if (seg.site != site_) {
    return refuse(SegmentIssue::kInvalid,
                  range + "site is \"" + seg.site + "\", expected \"" + site_ + "\"");
  }
  if (seg.from > state_.size) {
    return refuse(SegmentIssue::kGap, range + "gap: entries " + std::to_string(state_.size) + ".." +
                                          std::to_string(seg.from - 1) + " have not been received");
  }
  if (seg.from < state_.size) {
    return refuse(SegmentIssue::kDuplicate, range + "duplicate: entries below " +
                                                std::to_string(state_.size) +
                                                " are already verified");
  }
  if (seg.to < seg.from || seg.entries.size() != seg.to - seg.from) {
    return refuse(SegmentIssue::kInvalid,
                  range + "holds " + std::to_string(seg.entries.size()) + " entries");
  }
  auto cp = openCheckpoint(seg.checkpoint, key_);
  if (!cp) return refuse(SegmentIssue::kInvalid, range + "checkpoint: " + cp.message());
  if (cp->size != seg.to) {
    return refuse(SegmentIssue::kInvalid,
                  range + "checkpoint is for size " + std::to_string(cp->size));
  }
  if (seg.from == seg.to) {
    if (cp->root != state_.root) {
      return refuse(SegmentIssue::kFork,
                    range + "fork: a second signed root for size " + std::to_string(seg.to));
    }
    lastIssue_ = SegmentIssue::kNone;
    state_.checkpoint = seg.checkpoint;
    return AcceptedSegment{seg.from, seg.to, state_.root, 0};
  }
  // A correctly signed checkpoint that no proof connects to what was verified is fork evidence.
  const bool consistent =
      seg.from == 0 || verifyConsistency(seg.from, seg.to, state_.root, cp->root, seg.proof);

  MerkleFrontier frontier = frontier_;
  Hash32 prev = state_.lastLeaf;
  std::uint64_t receipts = 0;
  for (std::size_t i = 0; i < seg.entries.size(); ++i) {
    const std::uint64_t seq = seg.from + i;
    auto checked = checkEntry(seg.entries[i], seq, site_, prev, key_);
    if (!checked) {
      // A first entry that chains to a different history, under an unconnected signed
      // checkpoint, is a fork; anything else wrong with an entry is plain invalid.
      bool forked = false;
      if (!consistent && i == 0) {
        auto e = parseEntryHead(seg.entries[i]);
        forked = e && e->seq == seq && e->site == site_ && e->prev != prev;
      }
      return refuse(forked ? SegmentIssue::kFork : SegmentIssue::kInvalid,
                    range + (forked ? "fork: " : "") + "seq " + std::to_string(seq) + ": " +
                        checked.message());
    }
    prev = checked->leaf;
    frontier.append(checked->leaf);
    if (checked->receipt) ++receipts;
  }
  if (frontier.root() != cp->root) {
    if (!consistent) {
      return refuse(SegmentIssue::kFork,
                    range + "fork: the signed checkpoint for size " + std::to_string(seg.to) +
                        " does not extend the verified tree of size " + std::to_string(seg.from));
    }
    return refuse(SegmentIssue::kInvalid,
                  range + "the entries do not produce the checkpoint's root");
  }
  if (!consistent) {
    return refuse(SegmentIssue::kInvalid, range + "the consistency proof does not verify");
  }

  frontier_ = std::move(frontier);
  state_.size = seg.to;
  state_.root = cp->root;
  state_.lastLeaf = prev;
  state_.peaks = frontier_.peaks();
  state_.checkpoint = seg.checkpoint;
  lastIssue_ = SegmentIssue::kNone;
  return AcceptedSegment{seg.from, seg.to, cp->root, receipts};
}

}  // namespace atoms
