#include "drivers/pos/csv_folder.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "drivers/http/printable.h"

namespace atoms::drivers::pos {
namespace {

namespace fs = std::filesystem;

// `dir/name`, or `dir/name.2`, `.3`... when taken.
fs::path freeName(const fs::path& dir, const std::string& name) {
  fs::path p = dir / name;
  for (int n = 2; fs::exists(p); ++n) p = dir / (name + "." + std::to_string(n));
  return p;
}

Status moveAside(const fs::path& file, const fs::path& dir, const std::string& result) {
  std::error_code ec;
  const fs::path target = freeName(dir, file.filename().string());
  {
    std::ofstream out(target.string() + ".result", std::ios::binary | std::ios::trunc);
    out << result << '\n';
    if (!out) return makeError("cannot write " + target.string() + ".result", ErrorKind::kIo);
  }
  fs::rename(file, target, ec);
  if (ec) return makeError("cannot move " + file.string() + ": " + ec.message(), ErrorKind::kIo);
  return Status::success();
}

}  // namespace

CsvFolder::CsvFolder(std::string directory, std::string source, CsvMapping mapping, OrderSink& sink,
                     SourceStatusListener listener)
    : directory_(std::move(directory)),
      source_(std::move(source)),
      mapping_(std::move(mapping)),
      sink_(sink),
      listener_(std::move(listener)) {}

Result<CsvScan> CsvFolder::scanOnce() {
  const fs::path dir(directory_);
  const fs::path done = dir / "done", failed = dir / "failed";
  std::error_code ec;
  fs::create_directories(done, ec);
  if (!ec) fs::create_directories(failed, ec);
  if (ec) {
    return makeError("pos.csv.directory " + directory_ + ": " + ec.message(), ErrorKind::kIo);
  }
  std::vector<fs::path> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with(".") || it->path().extension() != ".csv") continue;
    if (!it->is_regular_file(ec)) continue;
    files.push_back(it->path());
  }
  if (ec) return makeError("pos.csv.directory " + directory_ + ": " + ec.message(), ErrorKind::kIo);
  std::sort(files.begin(), files.end());

  CsvScan scan;
  auto report = [&](SourceStatus::Kind kind, const std::string& detail) {
    if (!listener_) return;
    try {
      listener_(SourceStatus{source_, kind, detail});
    } catch (...) {
    }
  };
  for (const fs::path& file : files) {
    const std::string name = file.filename().string();
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) {
      ++scan.retried;
      report(SourceStatus::Kind::kFailing, "cannot read " + printable(name, 80));
      continue;
    }
    auto orders = parseCsvOrders(text.str(), mapping_, name);
    if (!orders) {
      ++scan.failed;
      report(SourceStatus::Kind::kFailing, orders.message());
      if (Status moved = moveAside(file, failed, "refused, nothing imported: " + orders.message());
          !moved) {
        return moved.error();
      }
      continue;
    }
    const std::size_t count = orders->size();
    OrderBatch batch{source_, std::move(*orders), std::nullopt, "file " + printable(name, 80)};
    auto outcome = sink_.accept(batch);
    if (!outcome) {
      ++scan.retried;
      report(SourceStatus::Kind::kFailing, outcome.message());
      continue;
    }
    ++scan.imported;
    report(SourceStatus::Kind::kOk, "");
    const std::string result = "imported " + std::to_string(count) +
                               " orders: " + std::to_string(outcome->stored) + " stored, " +
                               std::to_string(outcome->updated) + " updated, " +
                               std::to_string(outcome->duplicates) + " duplicates";
    if (Status moved = moveAside(file, done, result); !moved) return moved.error();
  }
  return scan;
}

}  // namespace atoms::drivers::pos
