#include "daemon/cli/args.h"

#include <algorithm>
#include <string_view>

namespace atoms::cli {
namespace {

const OptionSpec* findOption(const Command& command, std::string_view name) {
  auto it = std::find_if(command.options.begin(), command.options.end(),
                         [&](const OptionSpec& o) { return o.name == name; });
  return it == command.options.end() ? nullptr : &*it;
}

}  // namespace

Result<Args> parseArgs(const std::vector<std::string>& args, const Command& command) {
  Args parsed;
  bool optionsEnded = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    bool looksLikeOption = arg.size() > 1 && arg[0] == '-';
    if (optionsEnded || !looksLikeOption) {
      parsed.positionals.push_back(arg);
      continue;
    }
    if (arg == "--") {
      optionsEnded = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) return makeError("unknown option '" + arg + "'");
    std::string_view body = std::string_view(arg).substr(2);
    std::size_t eq = body.find('=');
    std::string name(body.substr(0, eq));
    const OptionSpec* spec = findOption(command, name);
    if (spec == nullptr) return makeError("unknown option '--" + name + "'");
    if (parsed.has(name)) return makeError("option '--" + name + "' given more than once");
    if (spec->valueName.empty()) {
      if (eq != std::string_view::npos) {
        return makeError("option '--" + name + "' takes no value");
      }
      parsed.options[name] = "";
      continue;
    }
    if (eq != std::string_view::npos) {
      parsed.options[name] = std::string(body.substr(eq + 1));
      continue;
    }
    if (i + 1 >= args.size()) {
      return makeError("option '--" + name + "' needs a value (" + spec->valueName + ")");
    }
    parsed.options[name] = args[++i];
  }
  if (parsed.positionals.size() > command.maxPositionals) {
    return makeError("unexpected argument '" + parsed.positionals[command.maxPositionals] + "'");
  }
  if (parsed.positionals.size() < command.minPositionals) {
    return makeError("missing argument");
  }
  return parsed;
}

}  // namespace atoms::cli
