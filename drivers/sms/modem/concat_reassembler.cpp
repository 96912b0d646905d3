#include "drivers/sms/modem/concat_reassembler.h"

#include <algorithm>

namespace atoms::drivers::modem {

namespace {

constexpr const char* kMissingPart = "[…]";

std::string timestampIdentity(const SmscTime& t) {
  if (!t.valid) {
    std::string out = "raw:";
    for (std::uint8_t b : t.raw) out += std::to_string(b) + ".";
    return out;
  }
  return std::to_string(t.year) + "-" + std::to_string(t.month) + "-" + std::to_string(t.day) +
         "T" + std::to_string(t.hour) + ":" + std::to_string(t.minute) + ":" +
         std::to_string(t.second) + "q" + std::to_string(t.offsetQuarters);
}

PartKey partKey(const std::string& originator, const ConcatInfo& c, const SmscTime& timestamp) {
  return PartKey{originator, c.reference, c.sixteenBitReference,
                 c.total,    c.sequence,  timestampIdentity(timestamp)};
}

}  // namespace

ConcatReassembler::ConcatReassembler(std::chrono::milliseconds timeout, std::size_t maxMessages,
                                     std::size_t maxRemembered)
    : timeout_(timeout),
      maxMessages_(std::max<std::size_t>(maxMessages, 1)),
      maxRemembered_(std::max<std::size_t>(maxRemembered, 1)) {}

ConcatReassembler::Repeat ConcatReassembler::repeatOf(const ReceivedPart& part,
                                                      SmsClock::time_point now) {
  if (!part.concat || part.concat->total <= 1) return Repeat::kNo;
  forgetOld(now);
  const auto it = seen_.find(partKey(part.originator, *part.concat, part.timestamp));
  if (it == seen_.end()) return Repeat::kNo;
  ++repeatsDropped_;
  if (it->second.repeated) return Repeat::kAgain;
  it->second.repeated = true;
  return Repeat::kFirst;
}

void ConcatReassembler::remember(const AssembledMessage& message, SmsClock::time_point now) {
  forgetOld(now);
  const SmsClock::time_point until = now + timeout_ * kRememberWindows;
  for (const PartKey& key : message.parts) {
    seen_[key] = Seen{until, false};
    seenOrder_.emplace_back(until, key);
  }
  while (seen_.size() > maxRemembered_ && !seenOrder_.empty()) {
    const auto& [at, key] = seenOrder_.front();
    const auto it = seen_.find(key);
    if (it != seen_.end() && it->second.until == at) seen_.erase(it);
    seenOrder_.pop_front();
  }
}

void ConcatReassembler::forgetOld(SmsClock::time_point now) {
  while (!seenOrder_.empty() && seenOrder_.front().first <= now) {
    const auto& [at, key] = seenOrder_.front();
    const auto it = seen_.find(key);
    if (it != seen_.end() && it->second.until == at) seen_.erase(it);
    seenOrder_.pop_front();
  }
}

std::optional<AssembledMessage> ConcatReassembler::add(ReceivedPart part,
                                                       SmsClock::time_point now) {
  if (!part.concat || part.concat->total <= 1) {
    AssembledMessage m;
    m.originator = part.originator;
    m.text = part.text;
    m.identity = part.originator + "|single|" + timestampIdentity(part.timestamp) + "|" + part.text;
    m.firstTimestamp = part.timestamp;
    if (part.location) m.locations.push_back(*part.location);
    return m;
  }
  const ConcatInfo& c = *part.concat;
  forgetOld(now);
  if (seen_.contains(partKey(part.originator, c, part.timestamp))) return std::nullopt;
  const Key key{part.originator, c.reference, c.total, c.sixteenBitReference};
  auto [it, inserted] = messages_.try_emplace(key);
  Pending& pending = it->second;
  if (inserted) {
    pending.deadline = now + timeout_;
    pending.order = nextOrder_++;
  }
  const bool fresh = !pending.parts.contains(c.sequence);
  Slot& slot = pending.parts[c.sequence];
  if (fresh) {  // a part read twice keeps its first text; both copies get deleted
    slot.text = std::move(part.text);
    slot.timestamp = part.timestamp;
  }
  if (part.location && std::find(slot.locations.begin(), slot.locations.end(), *part.location) ==
                           slot.locations.end()) {
    slot.locations.push_back(*part.location);
    slot.fromStorage = true;
  }
  if (pending.parts.size() == c.total) {
    AssembledMessage m = assemble(key, pending);
    messages_.erase(it);
    return m;
  }
  if (messages_.size() > maxMessages_) {
    auto oldest = std::min_element(messages_.begin(), messages_.end(), [](auto& a, auto& b) {
      return a.second.order < b.second.order;
    });
    oldest->second.deadline = std::min(oldest->second.deadline, now);
  }
  return std::nullopt;
}

std::vector<AssembledMessage> ConcatReassembler::expire(SmsClock::time_point now) {
  std::vector<AssembledMessage> out;
  for (auto it = messages_.begin(); it != messages_.end();) {
    if (it->second.deadline <= now) {
      out.push_back(assemble(it->first, it->second));
      it = messages_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

std::optional<SmsClock::time_point> ConcatReassembler::nextDeadline() const {
  std::optional<SmsClock::time_point> next;
  for (const auto& [key, pending] : messages_) {
    if (!next || pending.deadline < *next) next = pending.deadline;
  }
  return next;
}

bool ConcatReassembler::holds(const StoredLocation& location) const {
  for (const auto& [key, pending] : messages_) {
    for (const auto& [seq, slot] : pending.parts) {
      if (std::find(slot.locations.begin(), slot.locations.end(), location) != slot.locations.end())
        return true;
    }
  }
  return false;
}

void ConcatReassembler::dropStored() {
  for (auto it = messages_.begin(); it != messages_.end();) {
    auto& parts = it->second.parts;
    std::erase_if(parts, [](const auto& entry) { return entry.second.fromStorage; });
    it = parts.empty() ? messages_.erase(it) : std::next(it);
  }
}

AssembledMessage ConcatReassembler::assemble(const Key& key, const Pending& pending) {
  const auto& [originator, reference, total, sixteen] = key;
  AssembledMessage m;
  m.originator = originator;
  m.identity = originator + "|" + (sixteen ? "r16:" : "r8:") + std::to_string(reference) + "/" +
               std::to_string(total);
  bool first = true;
  for (int seq = 1; seq <= total; ++seq) {
    const auto it = pending.parts.find(static_cast<std::uint8_t>(seq));
    if (it == pending.parts.end()) {
      ++m.missingParts;
      m.text += kMissingPart;
      continue;
    }
    const Slot& slot = it->second;
    if (first) {
      m.firstTimestamp = slot.timestamp;
      first = false;
    }
    m.text += slot.text;
    m.identity += "|" + std::to_string(seq) + "@" + timestampIdentity(slot.timestamp);
    m.parts.push_back(PartKey{originator, reference, sixteen, total, static_cast<std::uint8_t>(seq),
                              timestampIdentity(slot.timestamp)});
    m.locations.insert(m.locations.end(), slot.locations.begin(), slot.locations.end());
  }
  m.identity += "|" + m.text;
  return m;
}

}  // namespace atoms::drivers::modem
