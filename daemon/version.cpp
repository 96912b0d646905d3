#include "daemon/version.h"

#include <Poco/Environment.h>
#include <sodium.h>
#include <sqlite3.h>

#ifndef ATOMS_EDGE_VERSION
#error "ATOMS_EDGE_VERSION must be defined by the build (CMake PROJECT_VERSION)"
#endif

namespace atoms {

std::string edgeVersion() { return ATOMS_EDGE_VERSION; }

std::string sqlcipherVersion() {
  // The cipher version is only reported through a connection; an in-memory one touches no file
  // and needs no key.
  sqlite3* db = nullptr;
  std::string version = "unknown";
  if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, "PRAGMA cipher_version;", -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
      const unsigned char* text = sqlite3_column_text(stmt, 0);
      if (text != nullptr) version = reinterpret_cast<const char*>(text);
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return version;
}

std::string sqliteVersion() { return sqlite3_libversion(); }

std::string sodiumVersion() { return sodium_version_string(); }

std::string pocoVersion() {
  // 0xAABBCCDD: major AA, minor BB, revision CC (DD is the pre-release stage).
  unsigned v = Poco::Environment::libraryVersion();
  return std::to_string((v >> 24) & 0xff) + "." + std::to_string((v >> 16) & 0xff) + "." +
         std::to_string((v >> 8) & 0xff);
}

}  // namespace atoms
