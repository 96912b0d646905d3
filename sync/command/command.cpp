#include "sync/command/command.h"

#include <algorithm>
#include <array>

#include "base/field_error.h"

namespace atoms::sync::command {

namespace {

constexpr std::array<std::string_view, 8> kFields = {"args",     "by",   "expiresAt", "id",
                                                     "issuedAt", "kind", "site",      "v"};

bool isIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == ':' || c == '-';
}

bool isByChar(char c) { return isIdChar(c) || c == '@' || c == '+'; }

bool isSiteChar(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

bool isConfigKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

bool hasControl(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
  });
}

bool isBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' '; });
}

// Exactly the fields in `names`, no others.
Status requireFields(const json::Object& o, std::initializer_list<std::string_view> names,
                     std::string_view where) {
  for (const auto& [key, value] : o) {
    if (std::find(names.begin(), names.end(), key) == names.end()) {
      return makeError("command: unknown field \"" + std::string(where) + key + "\"");
    }
  }
  for (std::string_view name : names) {
    if (o.find(std::string(name)) == o.end()) {
      return makeError("command: missing field \"" + std::string(where) + std::string(name) + "\"");
    }
  }
  return Status::success();
}

Result<std::string> stringField(const json::Object& o, std::string_view name,
                                std::string_view label) {
  const json::Value& v = o.at(std::string(name));
  if (!v.isString()) return fieldError("command", label, "must be a string");
  return v.asString();
}

Result<TimePoint> timeField(const json::Object& o, std::string_view name, std::string& text) {
  auto s = stringField(o, name, name);
  if (!s) return s.error();
  auto t = parseTimestamp(*s);
  if (!t) return fieldError("command", name, "must be a UTC time YYYY-MM-DDTHH:MM:SS.mmmZ");
  text = std::move(*s);
  return *t;
}

Result<KillSwitchArgs> parseKillSwitchArgs(const json::Object& args) {
  if (Status s = requireFields(args, {"level", "reason"}, "args."); !s) return s.error();
  auto level = stringField(args, "level", "args.level");
  if (!level) return level.error();
  KillSwitchArgs out;
  bool known = false;
  for (int l = 0; l <= kMaxKillSwitchLevel; ++l) {
    if (*level == killSwitchLevelName(l)) {
      out.level = l;
      known = true;
    }
  }
  if (!known) return fieldError("command", "args.level", "must be one of L0, L1, L2, L3");
  auto reason = stringField(args, "reason", "args.reason");
  if (!reason) return reason.error();
  if (reason->empty() || isBlank(*reason) || reason->size() > kMaxReasonLength ||
      hasControl(*reason)) {
    return fieldError("command", "args.reason",
                      "must be 1 to 500 bytes of text without control characters");
  }
  out.reason = std::move(*reason);
  return out;
}

Result<ConfigArgs> parseConfigArgs(const json::Object& args) {
  if (Status s = requireFields(args, {"key", "value"}, "args."); !s) return s.error();
  auto key = stringField(args, "key", "args.key");
  if (!key) return key.error();
  if (key->empty() || key->size() > 64 || !std::all_of(key->begin(), key->end(), isConfigKeyChar)) {
    return fieldError("command", "args.key", "must be 1 to 64 characters of [a-z0-9_.]");
  }
  ConfigArgs out;
  out.key = std::move(*key);
  const json::Value& value = args.at("value");
  if (value.isNull()) return out;
  if (!value.isString()) return fieldError("command", "args.value", "must be a string or null");
  if (value.asString().size() > kMaxConfigValueLength || hasControl(value.asString())) {
    return fieldError("command", "args.value",
                      "must be at most 1024 bytes without control characters");
  }
  out.value = value.asString();
  return out;
}

}  // namespace

std::string_view commandKindName(CommandKind kind) {
  switch (kind) {
    case CommandKind::kKillSwitchSet:
      return "kill_switch.set";
    case CommandKind::kConfigSet:
      return "config.set";
  }
  return "?";
}

std::string killSwitchLevelName(int level) { return "L" + std::to_string(level); }

Result<Command> parseCommandText(std::string_view text) {
  if (text.size() > kMaxCommandBytes) return makeError("command: larger than 16 KiB");
  if (text.empty() || text.back() != '\n')
    return makeError("command: the text must end in \"\\n\"");
  const std::string_view line = text.substr(0, text.size() - 1);
  if (line.find('\n') != std::string_view::npos) {
    return makeError("command: the text must be one line of canonical JSON");
  }
  auto value = json::parseCanonical(line);
  if (!value) return makeError("command: " + value.message());
  if (!value->isObject()) return makeError("command: the text must be a JSON object");
  const json::Object& o = value->asObject();
  for (const auto& [key, v] : o) {
    if (std::find(kFields.begin(), kFields.end(), key) == kFields.end()) {
      return makeError("command: unknown field \"" + key + "\"");
    }
  }
  for (std::string_view name : kFields) {
    if (o.find(std::string(name)) == o.end()) {
      return makeError("command: missing field \"" + std::string(name) + "\"");
    }
  }

  const json::Value& v = o.at("v");
  if (!v.isInt()) return fieldError("command", "v", "must be an integer");
  if (v.asInt() != 1) return fieldError("command", "v", "must be 1 (this box speaks version 1)");

  Command cmd;
  cmd.text = std::string(text);
  auto id = stringField(o, "id", "id");
  if (!id) return id.error();
  if (id->empty() || id->size() > kMaxIdLength || !std::all_of(id->begin(), id->end(), isIdChar)) {
    return fieldError("command", "id", "must be 1 to 128 characters of [A-Za-z0-9._:-]");
  }
  cmd.id = std::move(*id);

  auto site = stringField(o, "site", "site");
  if (!site) return site.error();
  if (site->empty() || site->size() > 64 || !std::all_of(site->begin(), site->end(), isSiteChar)) {
    return fieldError("command", "site", "must be a site id (1 to 64 characters of [a-z0-9-])");
  }
  cmd.site = std::move(*site);

  auto by = stringField(o, "by", "by");
  if (!by) return by.error();
  const bool prefixed =
      by->starts_with("person:") || by->starts_with("ops:") || by->starts_with("auto:");
  const std::string_view who =
      prefixed ? std::string_view(*by).substr(by->find(':') + 1) : std::string_view();
  if (!prefixed || who.empty() || by->size() > kMaxByLength ||
      !std::all_of(who.begin(), who.end(), isByChar)) {
    return fieldError("command", "by",
                      "must be person:<who>, ops:<who> or auto:<process> (at most 128 "
                      "characters of [A-Za-z0-9._:@+-])");
  }
  cmd.by = std::move(*by);

  auto issued = timeField(o, "issuedAt", cmd.issuedAtText);
  if (!issued) return issued.error();
  auto expires = timeField(o, "expiresAt", cmd.expiresAtText);
  if (!expires) return expires.error();
  cmd.issuedAt = *issued;
  cmd.expiresAt = *expires;
  if (cmd.expiresAt <= cmd.issuedAt)
    return fieldError("command", "expiresAt", "must be after issuedAt");
  if (cmd.expiresAt - cmd.issuedAt > kMaxCommandLifetime) {
    return fieldError("command", "expiresAt", "must be at most 7 days after issuedAt");
  }

  auto kind = stringField(o, "kind", "kind");
  if (!kind) return kind.error();
  const json::Value& args = o.at("args");
  if (!args.isObject()) return fieldError("command", "args", "must be an object");
  if (*kind == commandKindName(CommandKind::kKillSwitchSet)) {
    auto a = parseKillSwitchArgs(args.asObject());
    if (!a) return a.error();
    cmd.kind = CommandKind::kKillSwitchSet;
    cmd.args = std::move(*a);
  } else if (*kind == commandKindName(CommandKind::kConfigSet)) {
    auto a = parseConfigArgs(args.asObject());
    if (!a) return a.error();
    cmd.kind = CommandKind::kConfigSet;
    cmd.args = std::move(*a);
  } else {
    const bool printable = kind->size() <= 64 && std::all_of(kind->begin(), kind->end(), isIdChar);
    return fieldError("command", "kind",
                      (printable ? "\"" + *kind + "\" is" : std::string("is")) +
                          " not a command this box knows (kill_switch.set, config.set)");
  }
  cmd.argsJson = args;
  return cmd;
}

}  // namespace atoms::sync::command
