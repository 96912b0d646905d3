// The embedded assets: the shell page and its files are in the binary with the right types; a
// lookup finds only exact embedded paths, so traversal and encoded names find nothing; gzip
// copies decompress to the original and carry their own ETag.
#include <Poco/InflatingStream.h>

#include <boost/test/unit_test.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "daemon/panel/panel_assets.h"

namespace atoms::test {
namespace {

using panel::PanelAssets;

std::string gunzip(const std::string& z) {
  std::istringstream in(z);
  Poco::InflatingInputStream inflate(in, Poco::InflatingStreamBuf::STREAM_GZIP);
  std::ostringstream out;
  out << inflate.rdbuf();
  return out.str();
}

BOOST_AUTO_TEST_SUITE(panel_assets)

BOOST_AUTO_TEST_CASE(shellPageAndItsFilesAreEmbeddedWithTheirTypes) {
  const PanelAssets assets;
  const struct {
    const char* path;
    const char* type;
  } expected[] = {
      {"/index.html", "text/html; charset=utf-8"},
      {"/panel.css", "text/css; charset=utf-8"},
      {"/panel.js", "text/javascript; charset=utf-8"},
      {"/api.js", "text/javascript; charset=utf-8"},
      {"/sign_in.js", "text/javascript; charset=utf-8"},
      {"/icon.svg", "image/svg+xml"},
      {"/vendor/preact.module.js", "text/javascript; charset=utf-8"},
      {"/vendor/htm.module.js", "text/javascript; charset=utf-8"},
      {"/vendor/hooks.module.js", "text/javascript; charset=utf-8"},
  };
  for (const auto& e : expected) {
    const panel::PanelAsset* a = assets.find(e.path);
    BOOST_REQUIRE_MESSAGE(a != nullptr, e.path);
    BOOST_TEST(a->contentType == e.type, e.path);
    BOOST_TEST(!a->body.empty(), e.path);
  }
  BOOST_TEST(assets.find("/") == assets.find("/index.html"));
  BOOST_TEST(assets.find("/index.html")->body.find("<nav") != std::string::npos);
}

// The shell page preloads every module but its own script, so the browser fetches them all at
// once (first render); a module added without its preload fails here.
BOOST_AUTO_TEST_CASE(theShellPagePreloadsEveryModule) {
  const PanelAssets assets;
  const std::string& html = assets.find("/index.html")->body;
  std::size_t modules = 0;
  for (const panel::EmbeddedAsset& a : panel::embeddedPanelAssets()) {
    if (!a.path.ends_with(".js") || a.path == "/panel.js") continue;
    ++modules;
    const std::string link = "<link rel=\"modulepreload\" href=\"" + std::string(a.path) + "\">";
    BOOST_TEST(html.find(link) != std::string::npos, a.path << " is not preloaded");
  }
  BOOST_TEST(modules >= 10u);
}

// What the box sends (a person's name...) is rendered as text: our scripts never write HTML.
BOOST_AUTO_TEST_CASE(ourScriptsNeverWriteHtml) {
  const PanelAssets assets;
  for (const char* path : {"/panel.js", "/api.js", "/sign_in.js"}) {
    const std::string& js = assets.find(path)->body;
    for (const char* sink : {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                             "dangerouslySetInnerHTML", "eval("}) {
      BOOST_TEST(js.find(sink) == std::string::npos, path << " uses " << sink);
    }
  }
}

BOOST_AUTO_TEST_CASE(shellPageHasNoInlineScriptOrStyle) {
  const PanelAssets assets;
  const std::string& html = assets.find("/index.html")->body;
  BOOST_TEST(html.find("<style") == std::string::npos);
  BOOST_TEST(html.find(" style=") == std::string::npos);
  BOOST_TEST(!std::regex_search(html, std::regex(R"(\son[a-z]+\s*=)")));  // onclick=, onload=
  std::size_t at = 0;
  while ((at = html.find("<script", at)) != std::string::npos) {
    const std::size_t close = html.find('>', at);
    BOOST_TEST(html.substr(at, close - at).find(" src=") != std::string::npos);
    BOOST_TEST(html.substr(close + 1, 9) == "</script>");
    at = close;
  }
}

BOOST_AUTO_TEST_CASE(onlyExactEmbeddedPathsAreFound) {
  const PanelAssets assets;
  for (const char* path :
       {"/../index.html", "/./index.html", "//index.html", "/index.html/", "/%2e%2e/index.html",
        "/%2E%2E/etc/passwd", "/vendor%2fpreact.module.js", "/vendor/..%2fpanel.js",
        "/vendor/../panel.js", "/Index.html", "index.html", "/index.html%00", "/etc/passwd", "/..",
        "", "/vendor/", "/vendor"}) {
    BOOST_TEST(assets.find(path) == nullptr, path);
  }
}

BOOST_AUTO_TEST_CASE(gzipCopyInflatesToTheBodyAndHasItsOwnTag) {
  const PanelAssets assets;
  const panel::PanelAsset* a = assets.find("/vendor/preact.module.js");
  BOOST_REQUIRE(a != nullptr);
  BOOST_REQUIRE(!a->gzipped.empty());
  BOOST_TEST(a->gzipped.size() < a->body.size());
  BOOST_TEST(gunzip(a->gzipped) == a->body);
  BOOST_TEST(a->etag != a->gzipEtag);
  BOOST_TEST(a->etag.front() == '"');
}

BOOST_AUTO_TEST_CASE(tagsFollowTheContent) {
  const panel::EmbeddedAsset v1[] = {{"/a.js", "one"}};
  const panel::EmbeddedAsset v2[] = {{"/a.js", "two"}};
  const PanelAssets one(v1), two(v2), oneAgain(v1);
  BOOST_TEST(one.find("/a.js")->etag != two.find("/a.js")->etag);
  BOOST_TEST(one.find("/a.js")->etag == oneAgain.find("/a.js")->etag);
  BOOST_TEST(panel::contentTypeFor("/x.unknown") == "application/octet-stream");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
