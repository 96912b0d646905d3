#include "daemon/panel/panel_assets.h"

#include <Poco/DeflatingStream.h>

#include <array>
#include <sstream>
#include <utility>

#include "base/bytes.h"

namespace atoms::panel {
namespace {

std::string gzip(std::string_view data) {
  std::ostringstream out;
  Poco::DeflatingOutputStream deflate(out, Poco::DeflatingStreamBuf::STREAM_GZIP, 9);
  deflate.write(data.data(), static_cast<std::streamsize>(data.size()));
  deflate.close();
  return out.str();
}

std::string etagOf(std::string_view data, std::string_view suffix) {
  const Hash32 h = sha256(asBytes(data));
  // 128 bits are plenty to tell versions apart.
  return "\"" + toHex(std::span<const std::uint8_t>(h.data(), 16)) + std::string(suffix) + "\"";
}

}  // namespace

std::string contentTypeFor(std::string_view path) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kTypes = {{
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".json", "application/json"},
      {".webmanifest", "application/manifest+json"},
      {".woff2", "font/woff2"},
      {".txt", "text/plain; charset=utf-8"},
      {".map", "application/json"},
  }};
  for (const auto& [ext, type] : kTypes) {
    if (path.size() > ext.size() && path.substr(path.size() - ext.size()) == ext) {
      return std::string(type);
    }
  }
  return "application/octet-stream";
}

PanelAssets::PanelAssets(std::span<const EmbeddedAsset> files) {
  for (const EmbeddedAsset& f : files) {
    PanelAsset a;
    a.contentType = contentTypeFor(f.path);
    a.body = std::string(f.data);
    a.etag = etagOf(f.data, "");
    // Fonts and images are compressed already; text is where gzip pays.
    if (a.contentType.starts_with("text/") || a.contentType.starts_with("application/") ||
        a.contentType == "image/svg+xml") {
      std::string z = gzip(f.data);
      if (z.size() < a.body.size()) {
        a.gzipped = std::move(z);
        a.gzipEtag = etagOf(f.data, "-gz");
      }
    }
    assets_.emplace(std::string(f.path), std::move(a));
  }
}

const PanelAsset* PanelAssets::find(std::string_view path) const {
  if (path == "/") path = "/index.html";
  const auto it = assets_.find(path);
  return it == assets_.end() ? nullptr : &it->second;
}

}  // namespace atoms::panel
