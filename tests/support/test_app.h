// A Poco application whose configuration is the given keys over the service schema's defaults,
// layered as EdgeServer layers them: for tests that start subsystems in-process.
#pragma once

#include <Poco/AutoPtr.h>
#include <Poco/Util/Application.h>
#include <Poco/Util/MapConfiguration.h>

#include <map>
#include <string>

#include "daemon/service/config_schema.h"

namespace atoms::test {

class TestApp final : public Poco::Util::Application {
 public:
  explicit TestApp(const std::map<std::string, std::string>& keys) {
    Poco::AutoPtr<Poco::Util::MapConfiguration> file(new Poco::Util::MapConfiguration);
    for (const auto& [k, v] : keys) file->setString(k, v);
    config().add(file, "file", PRIO_DEFAULT);
    config().add(configDefaults(serviceConfigSchema()), "defaults", PRIO_SYSTEM + 100);
  }
};

}  // namespace atoms::test
