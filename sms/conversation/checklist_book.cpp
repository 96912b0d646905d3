#include "sms/conversation/checklist_book.h"

#include <set>

#include "base/canonical_json.h"
#include "sms/outreach/outreach_policy.h"
#include "sms/text/checklist_intent.h"
#include "sms/text/tokens.h"

namespace atoms::sms::conversation {
namespace {

// Words folded and joined as parseChecklistIntent() does with a text.
std::string foldWords(std::string_view text) {
  std::string out;
  for (const Token& t : tokenize(text)) out += (out.empty() ? "" : " ") + t.folded;
  return out;
}

bool validId(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (const char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

Status onlyFields(const json::Value& object, std::initializer_list<std::string_view> allowed,
                  const std::string& where) {
  for (const auto& [key, value] : object.asObject()) {
    bool known = false;
    for (std::string_view a : allowed) known = known || key == a;
    if (!known) return makeError(where + ": unknown field '" + key + "'");
  }
  return Status::success();
}

const json::Value* stringField(const json::Value& o, std::string_view key) {
  const json::Value* v = o.find(key);
  return v != nullptr && v->isString() ? v : nullptr;
}

Result<Checklist> parseOne(const json::Value& v, const std::string& at) {
  if (!v.isObject()) return makeError(at + ": must be an object");
  const json::Value* idField = stringField(v, "id");
  if (idField == nullptr || !validId(idField->asString())) {
    return makeError(at + ": id must be 1-64 letters, digits, '-', '_' or '.'");
  }
  Checklist c;
  c.id = idField->asString();
  const std::string where = at + " (" + c.id + ")";
  if (Status s = onlyFields(
          v, {"id", "name", "names", "due", "graceMinutes", "owner", "temperature"}, where);
      !s) {
    return s.error();
  }
  const json::Value* name = stringField(v, "name");
  if (name == nullptr || name->asString().empty() || name->asString().size() > 60) {
    return makeError(where + ": name must be 1-60 characters");
  }
  c.name = name->asString();
  if (const json::Value* names = v.find("names"); names != nullptr) {
    if (!names->isArray()) return makeError(where + ": names must be an array of words");
    for (const json::Value& n : names->asArray()) {
      if (!n.isString() || foldWords(n.asString()).empty()) {
        return makeError(where + ": names must be an array of words");
      }
      c.names.push_back(foldWords(n.asString()));
    }
  }
  const json::Value* due = stringField(v, "due");
  const auto minute = due != nullptr ? parseHhmm(due->asString()) : std::nullopt;
  if (!minute) return makeError(where + ": due must be HH:MM, e.g. 10:30");
  c.dueMinute = *minute;
  if (const json::Value* grace = v.find("graceMinutes"); grace != nullptr) {
    if (!grace->isInt() || grace->asInt() < 1 || grace->asInt() > 240) {
      return makeError(where + ": graceMinutes must be 1 to 240");
    }
    c.graceMinutes = static_cast<int>(grace->asInt());
  }
  const json::Value* owner = v.find("owner");
  if (owner == nullptr || !owner->isObject() || owner->asObject().size() != 1) {
    return makeError(where + ": owner must be {\"person\": ID} or {\"station\": TAG}");
  }
  if (const json::Value* p = stringField(*owner, "person");
      p != nullptr && validId(p->asString())) {
    c.ownerPerson = p->asString();
  } else if (const json::Value* st = stringField(*owner, "station");
             st != nullptr && validId(st->asString())) {
    c.ownerStation = st->asString();
  } else {
    return makeError(where + ": owner must be {\"person\": ID} or {\"station\": TAG}");
  }
  if (const json::Value* t = v.find("temperature"); t != nullptr) {
    const std::string tw = where + ": temperature";
    if (!t->isObject())
      return makeError(tw + " must be {\"unit\": \"F\", \"min\": 33, \"max\": 41}");
    if (Status s = onlyFields(*t, {"unit", "min", "max"}, tw); !s) return s.error();
    const json::Value* unit = stringField(*t, "unit");
    const json::Value* lo = t->find("min");
    const json::Value* hi = t->find("max");
    if (unit == nullptr || (unit->asString() != "F" && unit->asString() != "C") || lo == nullptr ||
        hi == nullptr || !lo->isInt() || !hi->isInt() || lo->asInt() > hi->asInt() ||
        lo->asInt() < -100 || hi->asInt() > 500) {
      return makeError(tw +
                       " must have unit F or C and whole degrees min <= max, e.g. {\"unit\": "
                       "\"F\", \"min\": 33, \"max\": 41}");
    }
    c.temperature = true;
    c.unit = unit->asString()[0];
    c.minTenthsF = toTenthsFahrenheit(static_cast<int>(lo->asInt()) * 10, c.unit);
    c.maxTenthsF = toTenthsFahrenheit(static_cast<int>(hi->asInt()) * 10, c.unit);
  }
  return c;
}

}  // namespace

const Checklist* ChecklistBook::byName(std::string_view foldedName) const {
  for (const Checklist& c : lists_) {
    if (foldWords(c.id) == foldedName) return &c;
    for (const std::string& n : c.names) {
      if (n == foldedName) return &c;
    }
  }
  return nullptr;
}

const Checklist* ChecklistBook::byId(std::string_view id) const {
  for (const Checklist& c : lists_) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

Result<ChecklistBook> parseChecklistBook(std::string_view text) {
  auto parsed = json::parse(text);
  if (!parsed) return makeError("checklist file: " + parsed.message());
  const json::Value& root = *parsed;
  if (!root.isObject()) return makeError("checklist file: must be a JSON object");
  if (Status s = onlyFields(root, {"version", "checklists"}, "checklist file"); !s) {
    return s.error();
  }
  const json::Value* version = root.find("version");
  if (version == nullptr || !version->isInt() || version->asInt() != 1) {
    return makeError("checklist file: version must be 1");
  }
  const json::Value* lists = root.find("checklists");
  if (lists == nullptr || !lists->isArray()) {
    return makeError("checklist file: checklists must be an array");
  }
  std::vector<Checklist> out;
  std::set<std::string> words;
  for (std::size_t i = 0; i < lists->asArray().size(); ++i) {
    auto c = parseOne(lists->asArray()[i], "checklists[" + std::to_string(i) + "]");
    if (!c) return c.error();
    std::vector<std::string> all = c->names;
    all.push_back(foldWords(c->id));
    for (const std::string& w : all) {
      if (!words.insert(w).second) {
        return makeError("checklists[" + std::to_string(i) + "] (" + c->id + "): the name '" + w +
                         "' is used by another checklist");
      }
    }
    out.push_back(std::move(*c));
  }
  return ChecklistBook(std::move(out));
}

std::string formatTemperature(int tenthsF, char unit) {
  int tenths = tenthsF;
  if (unit == 'C') {
    const int scaled = (tenthsF - 320) * 5;
    tenths = (scaled + (scaled >= 0 ? 4 : -4)) / 9;
  }
  const bool negative = tenths < 0;
  const int magnitude = negative ? -tenths : tenths;
  std::string out = (negative ? "-" : "") + std::to_string(magnitude / 10);
  if (magnitude % 10 != 0) out += "." + std::to_string(magnitude % 10);
  return out + (unit == 'C' ? "C" : "F");
}

}  // namespace atoms::sms::conversation
