#include "drivers/sms/modem/send_journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <sstream>

#include "base/canonical_json.h"
#include "base/file_io.h"

namespace atoms::drivers::modem {

namespace {

std::int64_t millis(SmsClock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

SmsClock::time_point fromMillis(std::int64_t ms) {
  return SmsClock::time_point(std::chrono::milliseconds(ms));
}

const json::Value* field(const json::Value& v, std::string_view name, json::Type type) {
  const json::Value* f = v.find(name);
  return f != nullptr && f->type() == type ? f : nullptr;
}

std::string record(json::Object o) { return json::canonical(json::Value(std::move(o))) + "\n"; }

// A concatenation reference recorded in `v` under `name`, if it is one.
std::optional<int> referenceIn(const json::Value& v, std::string_view name) {
  const json::Value* r = field(v, name, json::Type::kInt);
  if (r == nullptr || r->asInt() < 0 || r->asInt() > 255) return std::nullopt;
  return static_cast<int>(r->asInt());
}

}  // namespace

Result<std::unique_ptr<SendJournal>> SendJournal::open(const std::string& path,
                                                       SmsClock::time_point now,
                                                       std::chrono::hours retention) {
  std::vector<std::string> lines;
  {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    while (in && std::getline(in, line)) lines.push_back(line);
  }
  const SmsClock::time_point cutoff = now - retention;
  SmsClock::time_point coversFrom = now;
  std::optional<int> nextReference;  // the header's, then the latest attempt's
  bool rewrite = lines.empty();
  std::vector<std::string> kept;
  for (const std::string& line : lines) {
    auto v = json::parse(line);
    const json::Value* t = v ? field(*v, "t", json::Type::kInt) : nullptr;
    const json::Value* k = v ? field(*v, "k", json::Type::kString) : nullptr;
    if (t == nullptr || k == nullptr) {  // a torn last line after a power cut
      rewrite = true;
      continue;
    }
    if (k->asString() == "journal") {
      coversFrom = std::max(fromMillis(t->asInt()), cutoff);
      if (auto next = referenceIn(*v, "next")) nextReference = next;
      continue;
    }
    if (k->asString() == "attempt") {
      if (auto next = referenceIn(*v, "next")) nextReference = next;
    }
    if (fromMillis(t->asInt()) < cutoff) {
      rewrite = true;
      continue;
    }
    kept.push_back(line);
  }
  if (rewrite) {
    json::Object header{{"k", "journal"}, {"t", millis(coversFrom)}, {"v", 1}};
    if (nextReference) header["next"] = static_cast<std::int64_t>(*nextReference);
    std::string text = record(std::move(header));
    for (const std::string& line : kept) text += line + "\n";
    if (Status s = replaceFileDurably(path, text); !s) return s.error();
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return makeError("send journal " + path + ": cannot open: " + errnoText(errno));
  std::unique_ptr<SendJournal> journal(new SendJournal(path, fd, coversFrom, nextReference));
  for (const std::string& line : kept) journal->apply(line);
  return journal;
}

SendJournal::SendJournal(std::string path, int fd, SmsClock::time_point coversFrom,
                         std::optional<int> nextReference)
    : path_(std::move(path)), fd_(fd), coversFrom_(coversFrom), nextReference_(nextReference) {}

SendJournal::~SendJournal() { ::close(fd_); }

Status SendJournal::append(const std::string& line) {
  if (Status s = writeAll(fd_, line, path_); !s) return s;
  if (::fdatasync(fd_) != 0)
    return makeError("send journal " + path_ + ": fdatasync: " + errnoText(errno));
  apply(line.substr(0, line.size() - 1));
  return Status::success();
}

void SendJournal::apply(const std::string& line) {
  auto v = json::parse(line);
  if (!v) return;
  const json::Value* k = field(*v, "k", json::Type::kString);
  const json::Value* t = field(*v, "t", json::Type::kInt);
  if (k == nullptr || t == nullptr) return;
  const std::string& kind = k->asString();
  if (kind == "part") {
    const json::Value* id = field(*v, "id", json::Type::kString);
    const json::Value* i = field(*v, "i", json::Type::kInt);
    const json::Value* st = field(*v, "state", json::Type::kString);
    if (id == nullptr || i == nullptr || st == nullptr) return;
    auto it = sends_.find(id->asString());
    const auto state = parseDeliveryState(st->asString());
    if (it == sends_.end() || !state || i->asInt() < 0 ||
        static_cast<std::size_t>(i->asInt()) >= it->second.partStates.size())
      return;
    it->second.partStates[static_cast<std::size_t>(i->asInt())] = *state;
    return;
  }
  const json::Value* key = field(*v, "key", json::Type::kString);
  if (key == nullptr) return;
  KeyState& ks = keys_[key->asString()];
  if (kind == "attempt") {
    // The previous attempt never got an answer: uncertain, unless it stopped short of its last
    // part.
    if (ks.openAttempt && !ks.openIsPartial()) ks.uncertain = true;
    ks.openAttempt = true;
    const json::Value* n = field(*v, "n", json::Type::kInt);
    ks.openParts = n != nullptr ? static_cast<int>(n->asInt()) : 1;
    ks.openLastTyped = false;
    if (auto next = referenceIn(*v, "next")) nextReference_ = next;
  } else if (kind == "last") {
    ks.openLastTyped = true;
  } else if (kind == "refused" || kind == "partial") {
    ks.openAttempt = false;
  } else if (kind == "uncertain") {
    ks.openAttempt = false;
    ks.uncertain = true;
  } else if (kind == "accepted") {
    ks.openAttempt = false;
    ks.accepted = true;
    const json::Value* id = field(*v, "id", json::Type::kString);
    const json::Value* to = field(*v, "to", json::Type::kString);
    const json::Value* mr = field(*v, "mr", json::Type::kArray);
    if (id == nullptr || to == nullptr || mr == nullptr) return;
    ks.providerId = id->asString();
    JournalSend send;
    send.providerId = id->asString();
    send.to = to->asString();
    send.at = fromMillis(t->asInt());
    for (const json::Value& r : mr->asArray())
      send.references.push_back(r.isInt() ? static_cast<int>(r.asInt()) : -1);
    send.partStates.resize(send.references.size());
    sends_[send.providerId] = std::move(send);
  }
}

Status SendJournal::recordAttempt(const std::string& key, SmsClock::time_point now,
                                  const JournalAttempt& attempt) {
  json::Object o{{"k", "attempt"}, {"key", key}, {"t", millis(now)}};
  if (attempt.parts > 1) {
    o["n"] = static_cast<std::int64_t>(attempt.parts);
    o["ref"] = static_cast<std::int64_t>(attempt.reference);
  }
  if (attempt.nextReference >= 0) o["next"] = static_cast<std::int64_t>(attempt.nextReference);
  return append(record(std::move(o)));
}

Status SendJournal::recordLastPart(const std::string& key, SmsClock::time_point now) {
  return append(record({{"k", "last"}, {"key", key}, {"t", millis(now)}}));
}

Status SendJournal::recordPartial(const std::string& key, SmsClock::time_point now) {
  return append(record({{"k", "partial"}, {"key", key}, {"t", millis(now)}}));
}

Status SendJournal::recordAccepted(const std::string& key, const JournalSend& send) {
  json::Array mr;
  for (int r : send.references) mr.push_back(r);
  return append(record({{"id", send.providerId},
                        {"k", "accepted"},
                        {"key", key},
                        {"mr", std::move(mr)},
                        {"t", millis(send.at)},
                        {"to", send.to}}));
}

Status SendJournal::recordRefused(const std::string& key, SmsClock::time_point now) {
  return append(record({{"k", "refused"}, {"key", key}, {"t", millis(now)}}));
}

Status SendJournal::recordUncertain(const std::string& key, SmsClock::time_point now) {
  return append(record({{"k", "uncertain"}, {"key", key}, {"t", millis(now)}}));
}

Status SendJournal::recordPartState(const std::string& providerId, std::size_t part,
                                    DeliveryState state, SmsClock::time_point now) {
  return append(record({{"i", static_cast<std::int64_t>(part)},
                        {"id", providerId},
                        {"k", "part"},
                        {"state", std::string(deliveryStateName(state))},
                        {"t", millis(now)}}));
}

ReconcileResult SendJournal::reconcile(const std::string& key, SmsClock::time_point since) const {
  const auto it = keys_.find(key);
  if (it == keys_.end()) {
    return since >= coversFrom_ ? ReconcileResult{ReconcileResult::Kind::kNotFound, {}}
                                : ReconcileResult{ReconcileResult::Kind::kUnknown, {}};
  }
  const KeyState& ks = it->second;
  if (ks.accepted) return {ReconcileResult::Kind::kAccepted, ks.providerId};
  if (ks.uncertain) return {ReconcileResult::Kind::kUnknown, {}};
  if (ks.openAttempt && !ks.openIsPartial()) return {ReconcileResult::Kind::kUnknown, {}};
  return {ReconcileResult::Kind::kNotFound, {}};
}

std::vector<JournalSend> SendJournal::acceptedSends() const {
  std::vector<JournalSend> out;
  for (const auto& [id, send] : sends_) out.push_back(send);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.at < b.at; });
  return out;
}

}  // namespace atoms::drivers::modem
