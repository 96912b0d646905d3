#include "daemon/cli/cli.h"

#include <algorithm>
#include <ostream>

#include "daemon/cli/args.h"

namespace atoms::cli {
namespace {

constexpr const char* kProgram = "atoms-edge";

void printUsage(std::ostream& os, const std::vector<Command>& commands) {
  std::size_t width = 4;  // "help"
  for (const Command& c : commands) width = std::max(width, c.name.size());
  os << "usage: " << kProgram << " <command> [options]\n\n"
     << "The atoms-edge site appliance: one binary for the service and its tools.\n\n"
     << "commands:\n";
  for (const Command& c : commands) {
    os << "  " << c.name << std::string(width - c.name.size() + 3, ' ') << c.summary << "\n";
  }
  os << "  help" << std::string(width - 4 + 3, ' ') << "show help for a command\n\n"
     << "Run '" << kProgram << " <command> --help' for a command's options.\n";
}

void printCommandHelp(std::ostream& os, const Command& c) {
  os << "usage: " << c.usage << "\n\n" << c.help;
  if (!c.help.empty() && c.help.back() != '\n') os << "\n";
  std::vector<OptionSpec> options = c.options;
  options.push_back({"help", "", "show this help and exit"});
  std::size_t width = 0;
  auto label = [](const OptionSpec& o) {
    return "--" + o.name + (o.valueName.empty() ? "" : " " + o.valueName);
  };
  for (const OptionSpec& o : options) width = std::max(width, label(o).size());
  os << "\noptions:\n";
  for (const OptionSpec& o : options) {
    std::string l = label(o);
    os << "  " << l << std::string(width - l.size() + 3, ' ') << o.description << "\n";
  }
}

int usageError(Io& io, const std::string& message, const std::vector<Command>& commands) {
  io.err << kProgram << ": " << message << "\n\n";
  printUsage(io.err, commands);
  return kExitUsage;
}

int commandUsageError(Io& io, const Command& c, const std::string& message) {
  io.err << kProgram << " " << c.name << ": " << message << "\n"
         << "usage: " << c.usage << "\n"
         << "Run '" << kProgram << " " << c.name << " --help' for details.\n";
  return kExitUsage;
}

const Command* findCommand(const std::vector<Command>& commands, const std::string& name) {
  auto it = std::find_if(commands.begin(), commands.end(),
                         [&](const Command& c) { return c.name == name; });
  return it == commands.end() ? nullptr : &*it;
}

bool isHelpFlag(const std::string& arg) { return arg == "--help" || arg == "-h"; }

}  // namespace

int runCli(const std::vector<std::string>& args, const std::vector<Command>& commands, Io& io) {
  if (args.empty()) return usageError(io, "no command given", commands);
  const std::string& first = args[0];
  if (isHelpFlag(first)) {
    if (args.size() > 1) return usageError(io, "unexpected argument '" + args[1] + "'", commands);
    printUsage(io.out, commands);
    return kExitOk;
  }
  if (first == "help") {
    if (args.size() == 1) {
      printUsage(io.out, commands);
      return kExitOk;
    }
    if (args.size() > 2) return usageError(io, "unexpected argument '" + args[2] + "'", commands);
    const Command* c = findCommand(commands, args[1]);
    if (c == nullptr) return usageError(io, "unknown command '" + args[1] + "'", commands);
    printCommandHelp(io.out, *c);
    return kExitOk;
  }
  if (!first.empty() && first[0] == '-') {
    return usageError(io, "unknown option '" + first + "'", commands);
  }
  const Command* c = findCommand(commands, first);
  if (c == nullptr) return usageError(io, "unknown command '" + first + "'", commands);

  std::vector<std::string> rest(args.begin() + 1, args.end());
  // --help wins wherever it stands before "--", so a half-typed command line can still ask.
  for (const std::string& arg : rest) {
    if (arg == "--") break;
    if (isHelpFlag(arg)) {
      printCommandHelp(io.out, *c);
      return kExitOk;
    }
  }
  Result<Args> parsed = parseArgs(rest, *c);
  if (!parsed.ok()) return commandUsageError(io, *c, parsed.message());
  return c->run(*parsed, io);
}

}  // namespace atoms::cli
