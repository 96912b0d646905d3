// The panel's web assets (HTML, JS, CSS, icons under daemon/panel/web/), embedded in the binary at
// build time by cmake/EmbedFiles.cmake: nothing is read from disk or fetched at run time.
//
// PanelAssets is the only way a request reaches them: an exact lookup of the request's path, as
// sent (no percent-decoding, no normalisation), in the table of embedded paths. A path with
// "..", "%2e", an encoded slash or anything else not spelled exactly as an asset finds nothing,
// so no request can name a file outside the table. Each asset carries its Content-Type (from its
// extension), a strong ETag (SHA-256 of its bytes) and, when it is smaller so, a gzip copy made
// once at construction.
//
// Immutable after construction: thread-safe.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>

namespace atoms::panel {

struct EmbeddedAsset {
  std::string_view path;  // "/index.html"
  std::string_view data;
};

// The assets built into this binary (generated: panel_assets_data.cpp in the build folder).
std::span<const EmbeddedAsset> embeddedPanelAssets();

struct PanelAsset {
  std::string contentType;  // "text/html; charset=utf-8"
  std::string etag;         // "\"<hex>\"", of `body`
  std::string body;
  std::string gzipped;   // empty when gzip would not make it smaller
  std::string gzipEtag;  // "\"<hex>-gz\"": a different representation, a different tag
};

class PanelAssets {
 public:
  explicit PanelAssets(std::span<const EmbeddedAsset> files = embeddedPanelAssets());

  // The asset at exactly `path` ("/" is "/index.html"); nullptr when there is none.
  const PanelAsset* find(std::string_view path) const;
  std::size_t size() const { return assets_.size(); }

 private:
  std::map<std::string, PanelAsset, std::less<>> assets_;
};

// The Content-Type for a file name by its extension; application/octet-stream when unknown.
std::string contentTypeFor(std::string_view path);

}  // namespace atoms::panel
