// A subcommand of `atoms-edge`: what the dispatcher (cli.h) needs to list it, show its help, check
// its arguments and run it. Each command lives in its own file and returns its Command from a
// function declared in commands.h; see README.md for adding one.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace atoms::cli {

// Exit codes shared by all commands (sysexits.h where one fits).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;    // the command ran and failed (verify found a break, ...)
inline constexpr int kExitUsage = 2;      // bad command line
inline constexpr int kExitSoftware = 70;  // EX_SOFTWARE: an internal error
inline constexpr int kExitConfig = 78;    // EX_CONFIG: refused to start (config, state dir, keys)

// A long option, --name VALUE or --name=VALUE, or a flag --name when valueName is empty.
struct OptionSpec {
  std::string name;         // without the dashes: "config"
  std::string valueName;    // "FILE"; empty for a flag
  std::string description;  // one line for the help
};

// The parsed command line of one command. Options given at most once each.
struct Args {
  std::map<std::string, std::string> options;  // a flag maps to ""
  std::vector<std::string> positionals;

  bool has(const std::string& name) const { return options.count(name) != 0; }
  std::string get(const std::string& name, const std::string& fallback) const {
    auto it = options.find(name);
    return it == options.end() ? fallback : it->second;
  }
};

// Where a command writes: its normal output, and errors (the service logs to err).
struct Io {
  std::ostream& out;
  std::ostream& err;
};

struct Command {
  std::string name;     // "serve"
  std::string summary;  // one line, for `atoms-edge --help`
  std::string usage;    // "atoms-edge serve [--config FILE]"
  std::string help;     // what it does, for `atoms-edge serve --help`; options are listed after it
  std::vector<OptionSpec> options;  // --help is implied and must not be listed
  std::size_t minPositionals = 0;
  std::size_t maxPositionals = 0;
  // Runs with arguments already checked against the fields above. Returns the exit code.
  std::function<int(const Args&, Io&)> run;
};

}  // namespace atoms::cli
