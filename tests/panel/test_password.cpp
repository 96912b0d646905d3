// Password hashing (daemon/panel/password.h): argon2id at the panel's real cost.
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <iostream>

#include "daemon/panel/password.h"

namespace atoms::panel {

BOOST_AUTO_TEST_SUITE(password)

BOOST_AUTO_TEST_CASE(hashesWithArgon2idAndVerifiesOnlyTheSamePassword) {
  const auto started = std::chrono::steady_clock::now();
  auto hashed = hashPassword("correct horse battery");
  const auto took = std::chrono::steady_clock::now() - started;
  BOOST_TEST_REQUIRE(hashed.ok(), hashed.message());
  BOOST_TEST(hashed->rfind("$argon2id$v=19$m=65536,t=2,p=1$", 0) == 0u, *hashed);
  BOOST_TEST(hashed->find("correct") == std::string::npos);
  BOOST_TEST(verifyPassword("correct horse battery", *hashed));
  BOOST_TEST(!verifyPassword("correct horse batterY", *hashed));
  BOOST_TEST(!verifyPassword("", *hashed));
  // Printed, not asserted (a figure, not a timed test): docs/panel-accounts.md quotes it.
  std::cout << "panel password hash (INTERACTIVE): "
            << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms\n";
}

BOOST_AUTO_TEST_CASE(theSamePasswordHashesDifferentlyEachTime) {
  auto a = hashPassword("correct horse battery", minimumCost());
  auto b = hashPassword("correct horse battery", minimumCost());
  BOOST_TEST_REQUIRE((a.ok() && b.ok()));
  BOOST_TEST(*a != *b);  // a fresh salt each time
}

BOOST_AUTO_TEST_CASE(malformedOrEmptyStoredHashesNeverVerify) {
  BOOST_TEST(!verifyPassword("anything at all", ""));
  BOOST_TEST(!verifyPassword("anything at all", "$argon2id$v=19$garbage"));
  BOOST_TEST(!verifyPassword("anything at all", "plain text password"));
}

BOOST_AUTO_TEST_CASE(aHashOfAnotherCostNeedsRehashing) {
  auto cheap = hashPassword("correct horse battery", minimumCost());
  BOOST_TEST_REQUIRE(cheap.ok());
  BOOST_TEST(needsRehash(*cheap));                  // against the interactive cost
  BOOST_TEST(!needsRehash(*cheap, minimumCost()));  // against its own
  BOOST_TEST(needsRehash("$2y$10$bcrypt-from-elsewhere"));
}

BOOST_AUTO_TEST_CASE(passwordsNeedTenToTwoHundredFiftySixCharactersOfText) {
  BOOST_TEST(!passwordProblem("short").empty());
  BOOST_TEST(passwordProblem("ten chars!").empty());
  BOOST_TEST(!passwordProblem(std::string(257, 'x')).empty());
  BOOST_TEST(!passwordProblem(std::string("bad\xff utf-8 here")).empty());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::panel
