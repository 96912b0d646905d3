// The sites file of `atoms-edge ingest --sites FILE` (docs/sync-ingest.md): which sites the cloud
// accepts segments from, and the Ed25519 key each one signs with. A JSON array:
//
//   [{"site": "store-12", "publicKey": "<64 hex digits>"},
//    {"site": "store-13", "publicKey": "atoms-edge/store-13+1a2b3c4d+AQ..."}]
//
// publicKey is either the hex public key or the verifier key (`atoms-edge identity` on the box
// prints both); a verifier key must be named atoms-edge/<site>. Pure functions, thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "store/signed_note.h"

namespace atoms::sync::ingest {

struct SiteKey {
  std::string site;
  std::array<std::uint8_t, 32> publicKey{};

  // The checkpoint verifier key of the site ("atoms-edge/<site>").
  VerifierKey verifier() const;
  friend bool operator==(const SiteKey&, const SiteKey&) = default;
};

// Strict: an array of objects with exactly the fields "site" (a valid site id, store/state_dir.h)
// and "publicKey"; no site twice. Errors name the record and the field, e.g.
// "sites file: record 3 (\"store-9\"): field \"publicKey\" must be 64 hex digits or a verifier
// key".
Result<std::vector<SiteKey>> parseSitesFile(std::string_view text);

// Reads and parses FILE; errors name the path.
Result<std::vector<SiteKey>> readSitesFile(const std::string& path);

}  // namespace atoms::sync::ingest
