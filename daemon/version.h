// The version of this build (CMake's PROJECT_VERSION) and of the libraries that matter to an
// operator or a bug report. Thread-safe.
#pragma once

#include <string>

namespace atoms {

// "0.1.0"
std::string edgeVersion();
// "4.5.6 community" as SQLCipher reports it (PRAGMA cipher_version), "unknown" if it cannot say.
std::string sqlcipherVersion();
// SQLite's own version under SQLCipher, e.g. "3.40.1".
std::string sqliteVersion();
std::string sodiumVersion();
// The Poco library loaded at run time, "1.11.0".
std::string pocoVersion();

}  // namespace atoms
