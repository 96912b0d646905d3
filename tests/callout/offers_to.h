// How many offers a phone was handed, as the call-out tests count them: texts to it that ask the
// person "to take it". Works on any fixture with textsTo(phone) (CallOutFixture, ServedSite).
#pragma once

#include <algorithm>
#include <string>

namespace atoms::testing {

template <class Site>
int offersTo(Site& site, const std::string& phone) {
  const auto all = site.textsTo(phone);
  return static_cast<int>(std::count_if(all.begin(), all.end(), [](const std::string& t) {
    return t.find("to take it") != std::string::npos;
  }));
}

}  // namespace atoms::testing
