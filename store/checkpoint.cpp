#include "store/checkpoint.h"

#include <algorithm>

#include "base/canonical_json.h"

namespace atoms {

namespace {

bool hasControl(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7F;
  });
}

Error bad(std::string_view why) { return makeError("invalid checkpoint: " + std::string(why)); }

}  // namespace

std::string checkpointBody(const Checkpoint& c) {
  return c.origin + "\n" + std::to_string(c.size) + "\n" + toBase64(c.root) + "\n";
}

Result<Checkpoint> parseCheckpointBody(std::string_view text) {
  if (!json::isValidUtf8(text)) return bad("not valid UTF-8");
  if (text.empty() || text.back() != '\n') return bad("does not end with a newline");
  // Split into lines, each ending in '\n'.
  std::vector<std::string_view> lines;
  for (std::string_view rest = text; !rest.empty();) {
    const std::size_t nl = rest.find('\n');
    lines.push_back(rest.substr(0, nl));
    rest.remove_prefix(nl + 1);
  }
  if (lines.size() < 3) return bad("needs origin, size and root lines");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) return bad("line " + std::to_string(i + 1) + " is empty");
    if (hasControl(lines[i]))
      return bad("line " + std::to_string(i + 1) + " has a control character");
  }

  Checkpoint c;
  c.origin = std::string(lines[0]);

  const std::string_view size = lines[1];
  if (!std::all_of(size.begin(), size.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
    return bad("tree size is not a decimal number");
  }
  if (size.size() > 1 && size[0] == '0') return bad("tree size has leading zeros");
  std::uint64_t n = 0;
  for (const char ch : size) {
    const auto d = static_cast<std::uint64_t>(ch - '0');
    if (n > (UINT64_MAX - d) / 10) return bad("tree size does not fit 64 bits");
    n = n * 10 + d;
  }
  c.size = n;

  const std::optional<Bytes> root = fromBase64(lines[2]);
  if (!root || root->size() != c.root.size()) return bad("root hash is not base64 of 32 bytes");
  std::copy(root->begin(), root->end(), c.root.begin());
  // Lines after the root are extension lines: opaque, already checked to be non-empty.
  return c;
}

std::string originForSite(std::string_view siteId) { return "atoms-edge/" + std::string(siteId); }

}  // namespace atoms
