// Small file helpers the store shares: durable writes (fsync of the file and of its directory)
// and errno text. The helpers that take a FileSystem do all their file access through it (the
// POSIX one by default), so a test can inject faults into them (base/file_system.h).
// Thread-safe (no shared state). Errors are one line naming the path.
#pragma once

#include <string>
#include <string_view>

#include "base/file_system.h"
#include "base/result.h"

namespace atoms {

// strerror(err) as a std::string.
std::string errnoText(int err);

// The directory part of path; "." when there is none, "/" for a file in the root.
std::string directoryOf(const std::string& path);

// fsync(2) on a directory, so that entries created or renamed in it survive a power cut.
Status fsyncDirectory(const std::string& dir, FileSystem& fs = posixFileSystem());

// Writes all of data to fd, retrying on EINTR and short writes; path names the file in errors.
Status writeAll(int fd, std::string_view data, const std::string& path);

// A one-line secret file (a password, a token): its content without trailing CR/LF. `what` names
// the setting in errors ("sync.password_file /x cannot be read", "... is empty"); the content
// never appears in an error.
Result<std::string> readSecretLine(const std::string& path, const std::string& what);

// The whole content of path. An error names the path; its kind is kNotFound when there is no
// such file.
Result<std::string> readFileToString(const std::string& path, FileSystem& fs = posixFileSystem());

// Replaces path atomically and durably: writes path.tmp (mode 0600), fsyncs it, renames it over
// path and fsyncs the directory. After an error or a crash the file holds either the old or the
// new content (after an error path.tmp is removed again); once this returned ok, a power cut
// leaves the new one.
Status replaceFileDurably(const std::string& path, std::string_view data,
                          FileSystem& fs = posixFileSystem());

}  // namespace atoms
