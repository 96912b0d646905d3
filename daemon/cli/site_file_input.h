// Reading a site file named on the command line (`site import|validate`, `check`): the same size
// limit and the same one-line errors, prefixed with the path, for every command.
#pragma once

#include <cerrno>
#include <cstddef>
#include <fstream>
#include <string>

#include "base/file_io.h"
#include "base/result.h"
#include "domain/site/site_file.h"

namespace atoms::cli {

// A site of a few hundred people and a few months of shifts is a few MB; anything much larger is
// not a site file.
inline constexpr std::size_t kMaxSiteFileBytes = 64 * 1024 * 1024;

// The parsed site file at path. Errors: "PATH: cannot open: ...", "PATH: larger than 64 MiB, not
// a site file", "PATH: <parseSiteFile's message>".
inline Result<site::SiteModel> readSiteFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(path + ": cannot open: " + errnoText(errno));
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxSiteFileBytes) {
      return makeError(path + ": larger than 64 MiB, not a site file");
    }
  }
  if (in.bad()) return makeError(path + ": cannot read");
  auto model = site::parseSiteFile(text);
  if (!model) return makeError(path + ": " + model.message());
  return model;
}

}  // namespace atoms::cli
