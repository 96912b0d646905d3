#include "tests/sync/test_commands_support.h"

#include <stdexcept>

#include "store/audit_entry.h"

namespace atoms::test {
namespace {

json::Object envelope(const std::string& site, const std::string& id, const std::string& kind,
                      json::Object args, sync::TimePoint issuedAt, std::chrono::seconds lifetime,
                      const std::string& by) {
  return json::Object{{"v", 1},
                      {"id", id},
                      {"site", site},
                      {"by", by},
                      {"issuedAt", formatTimestamp(issuedAt)},
                      {"expiresAt", formatTimestamp(issuedAt + lifetime)},
                      {"kind", kind},
                      {"args", std::move(args)}};
}

std::vector<Entry> entriesOfKind(const AuditLog& log, const std::string& kind) {
  auto texts = log.entryTexts(0, log.size());
  if (!texts) throw std::runtime_error(texts.message());
  std::vector<Entry> out;
  for (const std::string& t : *texts) {
    auto e = parseEntry(t);
    if (!e) throw std::runtime_error(e.message());
    if (e->kind == kind) out.push_back(std::move(*e));
  }
  return out;
}

}  // namespace

json::Object killSwitchCommand(const std::string& site, const std::string& id,
                               const std::string& level, sync::TimePoint issuedAt,
                               std::chrono::seconds lifetime, const std::string& by) {
  return envelope(site, id, "kill_switch.set",
                  json::Object{{"level", level}, {"reason", "cloud test: " + level}}, issuedAt,
                  lifetime, by);
}

json::Object configCommand(const std::string& site, const std::string& id, const std::string& key,
                           json::Value value, sync::TimePoint issuedAt,
                           std::chrono::seconds lifetime, const std::string& by) {
  return envelope(site, id, "config.set", json::Object{{"key", key}, {"value", std::move(value)}},
                  issuedAt, lifetime, by);
}

std::string signCommand(const json::Object& o, const SigningKey& key) {
  return signText(json::canonical(json::Value(o)) + "\n", key);
}

std::string signText(const std::string& text, const SigningKey& key) {
  auto note = signNote(text, key);
  if (!note) throw std::runtime_error(note.message());
  return *note;
}

std::vector<json::Value> entryBodies(const AuditLog& log, const std::string& kind) {
  std::vector<json::Value> out;
  for (Entry& e : entriesOfKind(log, kind)) out.push_back(std::move(e.body));
  return out;
}

std::vector<std::string> entryActors(const AuditLog& log, const std::string& kind) {
  std::vector<std::string> out;
  for (Entry& e : entriesOfKind(log, kind)) out.push_back(std::move(e.actor));
  return out;
}

}  // namespace atoms::test
