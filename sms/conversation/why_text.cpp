#include "sms/conversation/why_text.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <vector>

#include "drivers/sms/encoding/segmentation.h"

namespace atoms::sms::conversation {

namespace {

struct Wording {
  std::string_view ref;
  std::string_view english;
  std::string_view spanish;
};

// The box's own rule decisions ("policy" sources); {site} is the site's name.
constexpr std::array<Wording, 6> kPolicy = {{
    {"outreach.thread_reply", "it answered a text you sent us", "respondía a un mensaje tuyo"},
    {"outreach.opt_out_confirmation", "it confirmed that you opted out",
     "confirmaba que te diste de baja"},
    {"outreach.safety_alert", "it was a safety alert for the site",
     "era un aviso de seguridad del local"},
    {"outreach.escalation", "it asked a manager to decide something",
     "pedía una decisión a un gerente"},
    {"outreach.allowed",
     "you agreed to texts from {site}, and it went out within the site's hours and your daily "
     "limit",
     "aceptaste mensajes de {site}, y salió dentro del horario del local y de tu límite diario"},
    {"outreach.urgent_opt_in", "it was urgent, and you agreed to urgent texts at night",
     "era urgente, y aceptaste mensajes urgentes de noche"},
}};

// Why a released message waited first ("decision" sources).
constexpr std::array<Wording, 3> kHeldFirst = {{
    {"outreach.quiet_hours", "it waited until quiet hours ended",
     "esperó a que terminaran las horas de descanso"},
    {"outreach.daily_cap", "it waited a day because of your daily limit",
     "esperó un día por tu límite diario"},
    {"outreach.frozen", "it waited while texts were paused",
     "esperó mientras los mensajes estaban en pausa"},
}};

constexpr std::array<std::string_view, 12> kMonthsEn = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
constexpr std::array<std::string_view, 12> kMonthsEs = {"ene", "feb", "mar", "abr", "may", "jun",
                                                        "jul", "ago", "sep", "oct", "nov", "dic"};

std::string withSite(std::string_view text, const std::string& site) {
  std::string out(text);
  const std::string key = "{site}";
  if (auto at = out.find(key); at != std::string::npos) out.replace(at, key.size(), site);
  return out;
}

template <std::size_t N>
std::optional<std::string> worded(const std::array<Wording, N>& table, std::string_view ref,
                                  const ReplyContext& c) {
  for (const Wording& w : table) {
    if (w.ref == ref) return withSite(c.spanish() ? w.spanish : w.english, c.site);
  }
  return std::nullopt;
}

std::string stringField(const json::Value& v, std::string_view key) {
  const json::Value* f = v.find(key);
  return f != nullptr && f->isString() ? f->asString() : std::string();
}

// "2 Mar, 12:00" from "2026-03-02T12:00"; empty when the field is missing or malformed.
std::string when(const json::Value& receipt, const ReplyContext& c) {
  const std::string t = stringField(receipt, kLocalTimeField);
  if (t.size() != 16 || t[10] != 'T') return {};
  const int month = std::atoi(t.substr(5, 2).c_str());
  const int day = std::atoi(t.substr(8, 2).c_str());
  if (month < 1 || month > 12 || day < 1 || day > 31) return {};
  const std::string_view name =
      (c.spanish() ? kMonthsEs : kMonthsEn)[static_cast<std::size_t>(month - 1)];
  return std::to_string(day) + " " + std::string(name) + ", " + t.substr(11, 5);
}

// One plain sentence per source, in order, without repeats.
std::vector<std::string> reasons(const json::Value& receipt, const ReplyContext& c,
                                 const ContentLint& lint) {
  std::vector<std::string> out;
  const json::Value* sources = receipt.find("sources");
  if (sources == nullptr || !sources->isArray()) return out;
  for (const json::Value& s : sources->asArray()) {
    const std::string kind = stringField(s, "kind");
    const std::string ref = stringField(s, "ref");
    std::optional<std::string> text;
    if (kind == "policy") {
      text = worded(kPolicy, ref, c);
    } else if (kind == "decision") {
      text = worded(kHeldFirst, ref, c);
    } else if (kind == "message" && ref.rfind(kInboxSourcePrefix, 0) == 0) {
      text = c.spanish() ? "tú nos escribiste primero" : "you texted us first";
    } else if (kind == "org" && ref == kUnknownRosterRef) {
      text = c.spanish() ? "este número no está en la lista de personal de " + c.site
                         : "this number is not on the " + c.site + " staff list";
    } else if (kind == "org" && ref.rfind(kRosterSourcePrefix, 0) == 0) {
      text = c.spanish() ? "estás en la lista de personal de " + c.site
                         : "you are on the " + c.site + " staff list";
    }
    if (!text) {
      // A caller's source: its label, when it can be read to the person.
      const std::string label = stringField(s, "label");
      if (label.empty() || !lint.check(label).empty()) continue;
      text = label;
    }
    if (std::find(out.begin(), out.end(), *text) == out.end()) out.push_back(std::move(*text));
  }
  return out;
}

bool fits(const std::string& text) {
  auto n = drivers::countSegments(text);
  return n && *n <= kWhyMaxSegments;
}

std::string compose(const std::string& head, const std::vector<std::string>& items,
                    std::size_t shown, const std::string& more, const std::string& tail) {
  std::string text = head;
  for (std::size_t i = 0; i < shown; ++i) {
    text += " " + std::to_string(i + 1) + ") " + items[i] + ".";
  }
  if (shown < items.size()) text += " " + more;
  return text + " " + tail;
}

// Cuts `text` at a word so that compose(...) fits; keeps at least one word.
std::string cutToFit(const std::string& head, std::string text, const std::string& more,
                     const std::string& tail) {
  while (true) {
    const std::string candidate = compose(head, {text + "..."}, 1, more, tail);
    if (fits(candidate)) return text + "...";
    const auto space = text.find_last_of(' ');
    if (space == std::string::npos || space == 0) return text.substr(0, 40) + "...";
    text.resize(space);
  }
}

}  // namespace

std::string whyText(const json::Value& receipt, const ReplyContext& c, const ContentLint& lint) {
  const std::string at = when(receipt, c);
  const std::string head =
      c.spanish()
          ? "Por qué te enviamos nuestro último mensaje" + (at.empty() ? "" : " (" + at + ")") + ":"
          : "Why we sent our last text" + (at.empty() ? "" : " (" + at + ")") + ":";
  const std::string tail =
      c.spanish() ? "Responde AYUDA para hablar con una persona." : "Reply HELP to reach a person.";
  const std::string more = c.spanish() ? "Y algo más." : "And more.";
  std::vector<std::string> items = reasons(receipt, c, lint);
  if (items.empty()) {
    items.push_back(c.spanish() ? "lo decidieron las reglas de mensajes del local"
                                : "the site's texting rules allowed it");
  }
  for (std::size_t shown = items.size(); shown >= 1; --shown) {
    const std::string text = compose(head, items, shown, more, tail);
    if (fits(text)) return text;
  }
  const std::string first = cutToFit(head, items.front(), more, tail);
  return compose(head, {first}, 1, more, tail);
}

std::string whyNothingText(const ReplyContext& c) {
  if (c.spanish()) {
    return "No tenemos ningún mensaje anterior enviado a ti. Responde AYUDA para hablar con una "
           "persona.";
  }
  return "We have no earlier text to you on record. Reply HELP to reach a person.";
}

}  // namespace atoms::sms::conversation
