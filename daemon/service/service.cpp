#include "daemon/service/service.h"

#include <Poco/Exception.h>
#include <Poco/Logger.h>
#include <Poco/Util/Application.h>
#include <Poco/Util/LayeredConfiguration.h>

#include "daemon/log/log.h"
#include "daemon/log/setup.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/edge_server.h"
#include "daemon/service/process.h"

namespace atoms {

int runService(const std::string& configPath, std::ostream& logSink) {
  using Poco::Util::Application;
  // Until the file says otherwise, log with the defaults, so even a refusal is a proper log line.
  applyLogSettings(LogSettings{}, logSink);
  Poco::Logger& logger = Poco::Logger::get("service");

  auto config = loadServiceConfig(configPath);
  if (!config.ok()) {
    logFatal(logger, "refusing to start", {{"error", config.message()}});
    return Application::EXIT_CONFIG;
  }
  LogSettings settings;
  {
    // Both keys were validated above; a key the file leaves out takes the schema's default.
    Poco::AutoPtr<Poco::Util::LayeredConfiguration> merged(new Poco::Util::LayeredConfiguration);
    merged->add(*config, 0);
    merged->add(configDefaults(serviceConfigSchema()), 1);
    settings.level = parseLogLevel(merged->getRawString("log.level")).value();
    settings.format = parseLogFormat(merged->getRawString("log.format")).value();
  }

  Status signals = prepareServiceSignals();
  if (!signals.ok()) {
    logFatal(logger, "refusing to start", {{"error", signals.message()}});
    return Application::EXIT_SOFTWARE;
  }

  try {
    EdgeServer server(*config, configPath);
    // After the Application constructor, which points every logger at a plain console channel.
    applyLogSettings(settings, logSink);
    int code = server.run(std::vector<std::string>{"atoms-edge"});
    logInfo(logger, "exiting", {{"code", code}});
    return code;
  } catch (const Poco::Exception& e) {
    logFatal(logger, "service failed", {{"error", e.displayText()}});
  } catch (const std::exception& e) {
    logFatal(logger, "service failed", {{"error", e.what()}});
  } catch (...) {
    logFatal(logger, "service failed", {{"error", "unknown exception"}});
  }
  return Application::EXIT_SOFTWARE;
}

}  // namespace atoms
