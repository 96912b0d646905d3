#include "store/log_verifier.h"

#include <algorithm>

#include "store/audit_entry.h"
#include "store/merkle.h"
#include "store/merkle_frontier.h"
#include "store/receipt.h"

namespace atoms {

namespace {

// checkEntry with the leaf hash already computed (the database verifier needs it first).
Result<CheckedEntry> checkEntryWithLeaf(std::string_view text, const Hash32& leaf,
                                        std::uint64_t seq, std::string_view site,
                                        const Hash32& prev, const VerifierKey& key) {
  auto e = parseEntryHead(text);
  if (!e) return e.error();
  if (e->seq != seq) return makeError("entry says seq " + std::to_string(e->seq));
  if (e->site != site) {
    return makeError("site is \"" + e->site + "\", expected \"" + std::string(site) + "\"");
  }
  if (e->prev != prev) {
    if (seq == 0) return makeError("prev is not 64 zeros");
    return makeError("prev does not match the leaf hash of seq " + std::to_string(seq - 1));
  }
  CheckedEntry out;
  out.leaf = leaf;
  if (e->kind == "receipt") {
    auto body = json::parseCanonical(e->body);
    if (!body) return body.error();  // parseEntryHead checked it: never
    if (Status s = verifyReceipt(*body, key); !s) return s.error();
    out.receipt = true;
  }
  return out;
}

}  // namespace

Result<CheckedEntry> checkEntry(std::string_view text, std::uint64_t seq, std::string_view site,
                                const Hash32& prev, const VerifierKey& key) {
  return checkEntryWithLeaf(text, leafHash(asBytes(text)), seq, site, prev, key);
}

Result<Checkpoint> openCheckpoint(std::string_view note, const VerifierKey& key) {
  auto parsed = parseNote(note);
  if (!parsed) return parsed.error();
  const bool byKey = std::any_of(
      parsed->signatures.begin(), parsed->signatures.end(),
      [&](const NoteSignature& s) { return s.name == key.name() && s.keyId == key.keyId(); });
  if (!byKey) return makeError("not signed by the site key");
  auto text = openNote(note, key);
  if (!text) return makeError("signature does not verify with the site key");
  auto cp = parseCheckpointBody(*text);
  if (!cp) return makeError("body is not a checkpoint: " + cp.message());
  if (cp->origin != key.name()) {
    return makeError("origin is \"" + cp->origin + "\", expected \"" + key.name() + "\"");
  }
  return cp;
}

namespace {

class DatabaseVerifier {
 public:
  DatabaseVerifier(Database& db, const VerifierKey& key, std::string_view siteId)
      : db_(db), key_(key), site_(siteId) {}

  VerifyReport run() {
    if (key_.name() != originForSite(site_)) {
      return fail("the verifier key is named \"" + key_.name() + "\", expected \"" +
                  originForSite(site_) + "\"");
    }
    auto entries = db_.prepare("SELECT seq, entry, leaf_hash FROM audit_entry ORDER BY seq");
    if (!entries) return fail(entries.message());
    auto checkpoints = db_.prepare("SELECT size, root, note FROM audit_checkpoint ORDER BY size");
    if (!checkpoints) return fail(checkpoints.message());
    cps_ = &*checkpoints;
    if (!nextCheckpoint()) return report_;

    Hash32 prev{};
    std::string text;
    while (true) {
      if (!checkpointsUpTo(frontier_.size())) return report_;
      auto row = entries->step();
      if (!row) return fail(row.message());
      if (!*row) break;
      const std::uint64_t seq = frontier_.size();
      const std::int64_t stored = entries->columnInt64(0);
      if (static_cast<std::uint64_t>(stored) != seq) {
        return failAt(seq, "seq " + std::to_string(seq) +
                               ": missing (the next stored entry is seq " + std::to_string(stored) +
                               ")");
      }
      const Bytes blob = entries->columnBlob(1);
      text.assign(blob.begin(), blob.end());
      // The stored leaf hash first: a changed byte is then named as such, not as a parse error.
      const Bytes storedLeaf = entries->columnBlob(2);
      const Hash32 leaf = leafHash(asBytes(text));
      if (storedLeaf.size() != 32 ||
          !std::equal(storedLeaf.begin(), storedLeaf.end(), leaf.begin())) {
        return failAt(seq,
                      "seq " + std::to_string(seq) + ": stored leaf_hash does not match the entry");
      }
      auto checked = checkEntryWithLeaf(text, leaf, seq, site_, prev, key_);
      if (!checked) return failAt(seq, "seq " + std::to_string(seq) + ": " + checked.message());
      prev = checked->leaf;
      frontier_.append(checked->leaf);
      report_.entries = frontier_.size();
      if (checked->receipt) ++report_.receipts;
    }
    report_.root = frontier_.root();
    if (havePending_) {
      // Entries were cut off the end: the first missing one is the first bad seq.
      return failAt(frontier_.size(),
                    "seq " + std::to_string(frontier_.size()) + ": missing (checkpoint " +
                        std::to_string(pendingSize_) + " signs " + std::to_string(pendingSize_) +
                        " entries, the log holds " + std::to_string(frontier_.size()) + ")");
    }
    return report_;
  }

 private:
  VerifyReport fail(std::string problem) {
    report_.root = frontier_.root();
    report_.problem = std::move(problem);
    return report_;
  }
  VerifyReport failAt(std::uint64_t seq, std::string problem) {
    report_.firstBadSeq = seq;
    return fail(std::move(problem));
  }

  // Reads the next checkpoint row into pending*; false (with report_.problem set) on error.
  bool nextCheckpoint() {
    auto row = cps_->step();
    if (!row) {
      report_.problem = row.message();
      return false;
    }
    havePending_ = *row;
    if (havePending_) {
      pendingSize_ = cps_->columnInt64(0);
      pendingRoot_ = cps_->columnBlob(1);
      pendingNote_ = cps_->columnText(2);
    }
    return true;
  }

  // Checks every checkpoint whose size equals the entries verified so far.
  bool checkpointsUpTo(std::uint64_t size) {
    while (havePending_ && pendingSize_ >= 0 && static_cast<std::uint64_t>(pendingSize_) <= size) {
      const std::string at = "checkpoint " + std::to_string(pendingSize_) + ": ";
      auto cp = openCheckpoint(pendingNote_, key_);
      if (!cp) return stop(at + cp.message());
      if (cp->size != static_cast<std::uint64_t>(pendingSize_)) {
        return stop(at + "the note is for size " + std::to_string(cp->size));
      }
      const Hash32 root = frontier_.root();
      if (pendingRoot_ != Bytes(cp->root.begin(), cp->root.end())) {
        return stop(at + "the root column does not match the signed note");
      }
      if (cp->root != root) {
        // Every earlier checkpoint matched, so the entries below it are the signed ones.
        return stop(at + "root does not match the entries (an entry in " +
                    std::to_string(goodSize_) + ".." + std::to_string(pendingSize_ - 1) +
                    " was rewritten, or the checkpoint forged)");
      }
      goodSize_ = static_cast<std::uint64_t>(pendingSize_);
      ++report_.checkpoints;
      if (!nextCheckpoint()) return false;
    }
    if (havePending_ && pendingSize_ < 0) {
      return stop("checkpoint " + std::to_string(pendingSize_) + ": negative size");
    }
    return true;
  }

  bool stop(std::string problem) {
    fail(std::move(problem));
    return false;
  }

  Database& db_;
  const VerifierKey& key_;
  std::string site_;
  Statement* cps_ = nullptr;
  MerkleFrontier frontier_;
  VerifyReport report_;
  bool havePending_ = false;
  std::int64_t pendingSize_ = 0;
  std::uint64_t goodSize_ = 0;  // size of the last checkpoint that matched
  Bytes pendingRoot_;
  std::string pendingNote_;
};

}  // namespace

VerifyReport verifyDatabase(Database& db, const VerifierKey& key, std::string_view siteId) {
  return DatabaseVerifier(db, key, siteId).run();
}

}  // namespace atoms
