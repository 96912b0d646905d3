// FindingInput, the figures of a finding: its first figures live inside it, more move to the heap;
// either way it keeps them in the order they were set, and copies and moves carry them all.
#include <boost/test/unit_test.hpp>
#include <string>
#include <utility>
#include <vector>

#include "domain/labor/finding_input.h"

namespace {

using atoms::labor::FindingInput;
namespace json = atoms::json;

// The keys of `input`, in order.
std::vector<std::string> findingKeysOf(const FindingInput& input) {
  std::vector<std::string> keys;
  for (const FindingInput::Entry& e : input) keys.emplace_back(e.first);
  return keys;
}

constexpr const char* kFindingKeys[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"};

// An input with `n` figures: kFindingKeys[i] is i, every other one a string long enough for the
// heap.
FindingInput findingWithFigures(std::size_t n) {
  FindingInput input;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 2 == 0) {
      input.set(kFindingKeys[i], static_cast<std::int64_t>(i));
    } else {
      input.set(kFindingKeys[i], std::string(40, static_cast<char>('a' + i)));
    }
  }
  return input;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(finding_input)

BOOST_AUTO_TEST_CASE(keepsFiguresInTheOrderSetPastItsOwnRoom) {
  const FindingInput input = findingWithFigures(12);
  BOOST_TEST(findingKeysOf(input) == std::vector<std::string>({"a", "b", "c", "d", "e", "f", "g",
                                                               "h", "i", "j", "k", "l"}),
             boost::test_tools::per_element());
  BOOST_TEST(input.at("k").asInt() == 10);
  BOOST_TEST(input.at("l").asString() == std::string(40, 'l'));
  BOOST_CHECK_THROW(input.at("z"), std::out_of_range);
}

BOOST_AUTO_TEST_CASE(settingAKeyAgainReplacesItsValueInPlace) {
  FindingInput input = findingWithFigures(3);
  input.set("b", std::int64_t{7});
  input["c"] = "again";
  input["d"] = true;  // new: goes last
  BOOST_TEST(findingKeysOf(input) == std::vector<std::string>({"a", "b", "c", "d"}),
             boost::test_tools::per_element());
  BOOST_TEST(input.at("b").asInt() == 7);
  BOOST_TEST(input.at("c").asString() == "again");
  // A key equal to a literal's text but not the same pointer is the same key.
  const std::string b = "b";
  BOOST_TEST(input.find(b) != input.end());
}

BOOST_AUTO_TEST_CASE(copiesAndMovesCarryEveryFigure) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{3}, std::size_t{8}, std::size_t{12}}) {
    const FindingInput original = findingWithFigures(n);
    const json::Object expected = original.toObject();

    FindingInput copy(original);
    BOOST_TEST((copy.toObject() == expected));
    FindingInput moved(std::move(copy));
    BOOST_TEST((moved.toObject() == expected));
    BOOST_TEST(copy.empty());  // NOLINT(bugprone-use-after-move): moved from, left empty

    FindingInput assigned = findingWithFigures(5);
    assigned = original;
    BOOST_TEST((assigned.toObject() == expected));
    FindingInput moveAssigned = findingWithFigures(11);
    moveAssigned = std::move(assigned);
    BOOST_TEST((moveAssigned.toObject() == expected));
    BOOST_TEST(findingKeysOf(moveAssigned) == findingKeysOf(original),
               boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_SUITE_END()
