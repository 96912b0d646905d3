#include "sms/text/phrase_set.h"

#include <algorithm>
#include <charconv>

namespace atoms::sms {

namespace {

constexpr std::size_t kNoMatch = static_cast<std::size_t>(-1);

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t at = text.find(sep);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) break;
    text.remove_prefix(at + 1);
  }
  return parts;
}

}  // namespace

PhraseSet::PhraseSet(std::span<const PhrasePattern> patterns) {
  for (const PhrasePattern& p : patterns) {
    Compiled phrase;
    phrase.tag = p.tag;
    phrase.pattern = p.pattern;
    for (std::string_view word : split(p.pattern, ' ')) {
      if (word.empty()) continue;
      Slot slot;
      if (word.front() == '~') {
        int gap = 0;
        std::from_chars(word.data() + 1, word.data() + word.size(), gap);
        slot.gap = std::clamp(gap, 1, 8);
        phrase.slots.push_back(std::move(slot));
        continue;
      }
      if (word.back() == '?') {
        slot.optional = true;
        word.remove_suffix(1);
      }
      for (std::string_view alt : split(word, '|')) {
        Alternative a;
        if (!alt.empty() && alt.back() == '*') {
          a.prefix = true;
          alt.remove_suffix(1);
        }
        for (std::string_view w : split(alt, '_')) {
          if (!w.empty()) a.words.emplace_back(w);
        }
        if (!a.words.empty()) slot.alternatives.push_back(std::move(a));
      }
      if (!slot.alternatives.empty()) phrase.slots.push_back(std::move(slot));
    }
    // A pattern must start and end on words: leading or trailing wildcards add nothing.
    while (!phrase.slots.empty() && phrase.slots.back().gap > 0) phrase.slots.pop_back();
    while (!phrase.slots.empty() && phrase.slots.front().gap > 0) {
      phrase.slots.erase(phrase.slots.begin());
    }
    if (phrase.slots.empty()) continue;
    const std::size_t index = phrases_.size();
    const Slot& first = phrase.slots.front();
    if (first.optional) {
      alwaysTry_.push_back(index);
    } else {
      for (const Alternative& alt : first.alternatives) {
        if (alt.prefix && alt.words.size() == 1) {
          byFirstPrefix_.emplace_back(alt.words.front(), index);
        } else {
          byFirstWord_[alt.words.front()].push_back(index);
        }
      }
    }
    phrases_.push_back(std::move(phrase));
  }
}

std::vector<std::size_t> PhraseSet::candidates(const std::string& word) const {
  std::vector<std::size_t> out = alwaysTry_;
  if (const auto it = byFirstWord_.find(word); it != byFirstWord_.end()) {
    out.insert(out.end(), it->second.begin(), it->second.end());
  }
  for (const auto& [prefix, index] : byFirstPrefix_) {
    if (word.compare(0, prefix.size(), prefix) == 0) out.push_back(index);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool PhraseSet::matchesAlternative(const Alternative& alt, const std::vector<Token>& tokens,
                                   std::size_t at, std::size_t limit) {
  if (limit - at < alt.words.size()) return false;
  for (std::size_t k = 0; k < alt.words.size(); ++k) {
    const std::string& have = tokens[at + k].folded;
    const std::string& want = alt.words[k];
    const bool last = k + 1 == alt.words.size();
    if (last && alt.prefix) {
      if (have.compare(0, want.size(), want) != 0) return false;
    } else if (have != want) {
      return false;
    }
  }
  return true;
}

std::size_t PhraseSet::matchFrom(const Compiled& phrase, std::size_t slot,
                                 const std::vector<Token>& tokens, std::size_t at,
                                 std::size_t limit) const {
  if (slot == phrase.slots.size()) return at;
  const Slot& s = phrase.slots[slot];
  std::size_t best = kNoMatch;
  const auto consider = [&best](std::size_t end) {
    if (end != kNoMatch && (best == kNoMatch || end > best)) best = end;
  };
  if (s.gap > 0) {
    for (std::size_t skip = 0; skip <= static_cast<std::size_t>(s.gap) && at + skip <= limit;
         ++skip) {
      consider(matchFrom(phrase, slot + 1, tokens, at + skip, limit));
    }
    return best;
  }
  for (const Alternative& alt : s.alternatives) {
    if (matchesAlternative(alt, tokens, at, limit)) {
      consider(matchFrom(phrase, slot + 1, tokens, at + alt.words.size(), limit));
    }
  }
  if (s.optional) consider(matchFrom(phrase, slot + 1, tokens, at, limit));
  return best;
}

std::vector<PhraseMatch> PhraseSet::find(const std::vector<Token>& tokens) const {
  std::vector<PhraseMatch> out;
  for (std::size_t at = 0; at < tokens.size(); ++at) {
    for (std::size_t index : candidates(tokens[at].folded)) {
      const Compiled& phrase = phrases_[index];
      const std::size_t end = matchFrom(phrase, 0, tokens, at, tokens.size());
      if (end != kNoMatch && end > at) {
        out.push_back(PhraseMatch{phrase.tag, phrase.pattern, at, end});
      }
    }
  }
  return out;
}

}  // namespace atoms::sms
